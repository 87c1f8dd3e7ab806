"""``pyramids agents``: the AI agents; the work is in :mod:`pyramids.cli.listing`."""

# No ``from __future__ import annotations`` here: Typer evaluates every string
# annotation of a command twice (signature and type hints), which doubled the
# time to build the command table that ``--help`` pays for (29 -> 14 ms).

from typing import Annotated

import typer

from pyramids.i18n import N_


def agents_cmd(
    game: Annotated[
        str | None, typer.Argument(help=N_("only agents for this game"), metavar="GAME")
    ] = None,
) -> None:
    """List the AI agents by name and the games they play."""
    from pyramids.cli.listing import agents_table

    agents_table(game)


def register(app: typer.Typer) -> None:
    """Add ``agents`` to the ``pyramids`` command."""
    app.command("agents", help=N_("List the AI agents by name and the games they play."))(
        agents_cmd
    )
