"""``pyramids games``: the games, or one game's variant options; the work is in
:mod:`pyramids.cli.listing`.
"""

# No ``from __future__ import annotations`` here: Typer evaluates every string
# annotation of a command twice (signature and type hints), which doubled the
# time to build the command table that ``--help`` pays for (29 -> 14 ms).

from typing import Annotated

import typer

from pyramids.i18n import N_


def games_cmd(
    game: Annotated[
        str | None, typer.Argument(help=N_("one game: its options explained"), metavar="GAME")
    ] = None,
) -> None:
    """List the games, or explain one game's variant options."""
    from pyramids.cli.listing import game_details, games_table

    if game is None:
        games_table()
    else:
        game_details(game)


def register(app: typer.Typer) -> None:
    """Add ``games`` to the ``pyramids`` command."""
    app.command("games", help=N_("List the games, or explain one game's variant options."))(
        games_cmd
    )
