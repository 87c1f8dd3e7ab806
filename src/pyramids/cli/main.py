"""The ``pyramids`` command: play, replay, simulate, and list games and agents.

This module only declares the commands. Each command imports what it needs
inside its body, so that ``pyramids --help`` (and a mistyped option) answers
without loading Rich, Babel, the games or the AI: the start-up budget is
150 ms (``make bench ARGS=cli_startup``; figures in docs/performance.md).
Help is plain Click formatting for the same reason (Typer's Rich help alone
imports Markdown and costs about 90 ms), and it shows boolean flags as flags.
"""

# No ``from __future__ import annotations`` here: Typer evaluates every string
# annotation of a command twice (signature and type hints), which doubled the
# time to build the command table that ``--help`` pays for (29 -> 14 ms).

from pathlib import Path
from typing import Annotated

import typer

from pyramids import __version__
from pyramids.cli.common import fail, set_language

app = typer.Typer(
    help="Pyramids: four table games that share a name. Play, replay, simulate.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_show_locals=False,
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"pyramids {__version__}")
        raise typer.Exit()


@app.callback()
def _choose_language(
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="Language of the messages: en, pt, fi, cs or es "
            "(default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG).",
            metavar="LANG",
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print the version and exit.", callback=_show_version, is_eager=True
        ),
    ] = False,
) -> None:
    try:
        set_language(lang)
    except ValueError as e:
        raise fail(str(e)) from None


@app.command("games")
def games_cmd(
    game: Annotated[
        str | None, typer.Argument(help="one game: its options explained", metavar="GAME")
    ] = None,
) -> None:
    """List the games, or explain one game's variant options."""
    from pyramids.cli.listing import game_details, games_table

    if game is None:
        games_table()
    else:
        game_details(game)


@app.command("agents")
def agents_cmd(
    game: Annotated[
        str | None, typer.Argument(help="only agents for this game", metavar="GAME")
    ] = None,
) -> None:
    """List the AI agents by name and the games they play."""
    from pyramids.cli.listing import agents_table

    agents_table(game)


@app.command("play")
def play_cmd(
    game: Annotated[
        str, typer.Argument(help="game id, see `pyramids games`", metavar="GAME")
    ] = "piramides",
    players: Annotated[int | None, typer.Option(help="number of players", metavar="N")] = None,
    bots: Annotated[
        int, typer.Option(help="how many seats (the last ones) bots play", metavar="N")
    ] = 0,
    agent: Annotated[
        str | None,
        typer.Option(
            help="agent for the bots, see `pyramids agents` "
            "(default: greedy, or the game's own choice where it has no greedy agent)",
            metavar="AGENT",
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="seed of the game (random if omitted)", metavar="N")
    ] = None,
    deal: Annotated[
        int | None, typer.Option(help="deal number (same as --seed)", metavar="N")
    ] = None,
    face_down: Annotated[
        bool, typer.Option("--face-down", help="piramides: covered cards face down")
    ] = False,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", "-o", help="variant option name=value (see `pyramids games GAME`)"
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(help="save the record here when the game ends or is left", metavar="FILE"),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            help="go on with a saved game (saved back to the same file unless --save)",
            metavar="FILE",
        ),
    ] = None,
    solvable: Annotated[
        bool, typer.Option("--solvable", help="piramides: deal only winnable deals")
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
            face_down=face_down,
            options=option or [],
            save=save,
            resume=resume,
            solvable=solvable,
        )
    )


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="a game record (JSON)", metavar="FILE")],
    as_json: Annotated[
        bool, typer.Option("--json", help="print only the final result as JSON")
    ] = False,
    boards: Annotated[
        bool, typer.Option("--boards", help="draw the board after each move")
    ] = False,
    step: Annotated[
        bool, typer.Option("--step", help="with --boards: wait for Enter after each move")
    ] = False,
) -> None:
    """Re-check a record move by move: its moves and result (boards with --boards)."""
    from pyramids.cli.replaying import replay_file

    replay_file(file, as_json=as_json, boards=boards or step, step=step)


@app.command("simulate")
def simulate_cmd(
    game: Annotated[str, typer.Argument(help="game id", metavar="GAME")],
    games: Annotated[int, typer.Option(help="number of games", metavar="N")] = 100,
    agent: Annotated[
        str, typer.Option(help="agent for every seat, or a,b,c per seat", metavar="AGENTS")
    ] = "random",
    players: Annotated[int | None, typer.Option(help="number of players", metavar="N")] = None,
    seed: Annotated[int, typer.Option(help="first seed; game k uses seed+k", metavar="N")] = 0,
    records: Annotated[
        Path | None, typer.Option(help="folder to save every record in", metavar="DIR")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="variant option name=value")
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="play the games as Ray tasks on a cluster: its head's HOST:PORT, auto, "
            "or local (extra 'cluster'; see docs/deploy.md)",
            metavar="ADDRESS",
        ),
    ] = None,
) -> None:
    """Play many games between agents and summarise the scores."""
    from pyramids.cli.simulating import simulate

    simulate(game, games, agent, players, seed, records, option or [], ray=ray)


#: Commands defined in modules of their own; each module has ``register(app)``
#: and imports only Typer at module level (the work is imported inside the command).
COMMAND_MODULES: list[str] = [
    "pyramids.cli.cmd_serve",
    "pyramids.cli.cmd_arena",
    "pyramids.cli.cmd_solve",
    "pyramids.cli.cmd_verify",
    "pyramids.cli.cmd_review",
]


def _register() -> None:
    import importlib

    for module in COMMAND_MODULES:
        importlib.import_module(module).register(app)


_register()


def main() -> None:
    """Entry point of the console script."""
    app()
