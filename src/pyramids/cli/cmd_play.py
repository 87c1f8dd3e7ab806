"""``pyramids play``: the command's options; the work is in :mod:`pyramids.cli.start`.

The options are the same for every game. ``--face-down`` is a shorthand for the
variant option ``-o face_down=true`` (a game without that option refuses it as
it refuses any unknown option), and ``--solvable`` asks the game's terminal face
for a winnable deal (:mod:`pyramids.cli.games`; Pirámides has one).
"""

# No ``from __future__ import annotations`` here: Typer evaluates every string
# annotation of a command twice (signature and type hints), which doubled the
# time to build the command table that ``--help`` pays for (29 -> 14 ms).

from pathlib import Path
from typing import Annotated

import typer

from pyramids.i18n import N_


def play_cmd(
    game: Annotated[
        str, typer.Argument(help=N_("game id, see `pyramids games`"), metavar="GAME")
    ] = "piramides",
    players: Annotated[int | None, typer.Option(help=N_("number of players"), metavar="N")] = None,
    bots: Annotated[
        int, typer.Option(help=N_("how many seats (the last ones) bots play"), metavar="N")
    ] = 0,
    agent: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "agent for the bots, with options after colons: mcts:level=hard "
                "(see `pyramids agents`; default: greedy, or the game's own choice)"
            ),
            metavar="AGENT",
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help=N_("seed of the game (random if omitted)"), metavar="N")
    ] = None,
    deal: Annotated[
        int | None, typer.Option(help=N_("deal number (same as --seed)"), metavar="N")
    ] = None,
    face_down: Annotated[
        bool,
        typer.Option(
            "--face-down", help=N_("covered cards face down: -o face_down=true (piramides)")
        ),
    ] = False,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", "-o", help=N_("variant option name=value (see `pyramids games GAME`)")
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(help=N_("save the record here when the game ends or is left"), metavar="FILE"),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            help=N_("go on with a saved game (saved back to the same file unless --save)"),
            metavar="FILE",
        ),
    ] = None,
    solvable: Annotated[
        bool, typer.Option("--solvable", help=N_("deal only winnable deals (piramides)"))
    ] = False,
) -> None:
    """Play a game in the terminal (type `help` during the game)."""
    from pyramids.cli.start import PlayRequest, start_play

    start_play(
        PlayRequest(
            game=game,
            players=players,
            bots=bots,
            agent=agent,
            seed=deal if deal is not None else seed,
            options=[*(option or []), *(["face_down=true"] if face_down else [])],
            save=save,
            resume=resume,
            solvable=solvable,
        )
    )


def register(app: typer.Typer) -> None:
    """Add ``play`` to the ``pyramids`` command."""
    app.command("play", help=N_("Play a game in the terminal (type `help` during the game)."))(
        play_cmd
    )
