"""``pyramids simulate``: the command's options; the work is in
:mod:`pyramids.cli.simulating`.
"""

# No ``from __future__ import annotations`` here: Typer evaluates every string
# annotation of a command twice (signature and type hints), which doubled the
# time to build the command table that ``--help`` pays for (29 -> 14 ms).

from pathlib import Path
from typing import Annotated

import typer

from pyramids.i18n import N_


def simulate_cmd(
    game: Annotated[str, typer.Argument(help=N_("game id"), metavar="GAME")],
    games: Annotated[int, typer.Option(help=N_("number of games"), metavar="N")] = 100,
    agent: Annotated[
        str, typer.Option(help=N_("agent for every seat, or a,b,c per seat"), metavar="AGENTS")
    ] = "random",
    players: Annotated[int | None, typer.Option(help=N_("number of players"), metavar="N")] = None,
    seed: Annotated[int, typer.Option(help=N_("first seed; game k uses seed+k"), metavar="N")] = 0,
    records: Annotated[
        Path | None, typer.Option(help=N_("folder to save every record in"), metavar="DIR")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help=N_("variant option name=value"))
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help=N_(
                "play the games as Ray tasks on a cluster: its head's HOST:PORT, auto, "
                "or local (extra 'cluster'; see docs/deploy.md)"
            ),
            metavar="ADDRESS",
        ),
    ] = None,
) -> None:
    """Play many games between agents and summarise the scores."""
    from pyramids.cli.simulating import simulate

    simulate(game, games, agent, players, seed, records, option or [], ray=ray)


def register(app: typer.Typer) -> None:
    """Add ``simulate`` to the ``pyramids`` command."""
    app.command("simulate", help=N_("Play many games between agents and summarise the scores."))(
        simulate_cmd
    )
