"""``pyramids replay``: the command's options; the work is in :mod:`pyramids.cli.replaying`."""

# No ``from __future__ import annotations`` here: Typer evaluates every string
# annotation of a command twice (signature and type hints), which doubled the
# time to build the command table that ``--help`` pays for (29 -> 14 ms).

from pathlib import Path
from typing import Annotated

import typer

from pyramids.i18n import N_


def replay_cmd(
    file: Annotated[Path, typer.Argument(help=N_("a game record (JSON)"), metavar="FILE")],
    as_json: Annotated[
        bool, typer.Option("--json", help=N_("print only the final result as JSON"))
    ] = False,
    boards: Annotated[
        bool, typer.Option("--boards", help=N_("draw the board after each move"))
    ] = False,
    step: Annotated[
        bool, typer.Option("--step", help=N_("with --boards: wait for Enter after each move"))
    ] = False,
) -> None:
    """Re-check a record move by move: its moves and result (boards with --boards)."""
    from pyramids.cli.replaying import replay_file

    replay_file(file, as_json=as_json, boards=boards or step, step=step)


def register(app: typer.Typer) -> None:
    """Add ``replay`` to the ``pyramids`` command."""
    app.command(
        "replay",
        help=N_("Re-check a record move by move: its moves and result (boards with --boards)."),
    )(replay_cmd)
