"""The ``pyramids`` command: play, replay, simulate, and list games and agents."""

from __future__ import annotations

import importlib
import json
import os
import statistics
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from pyramids.ai.registry import AGENTS, UnknownAgent, agent_names, make_agent
from pyramids.cli.common import console, fail, parse_options, progress_bar, set_language
from pyramids.cli.play import Seat, Session, run_session
from pyramids.cli.render import game_hooks
from pyramids.engine.errors import PyramidsError, RecordError
from pyramids.engine.records import replay as replay_record
from pyramids.engine.records import save_record
from pyramids.engine.registry import all_games, get_game
from pyramids.engine.rng import Rng
from pyramids.engine.state import State

app = typer.Typer(
    help="Pyramids: four table games that share a name. Play, replay, simulate.",
    no_args_is_help=True,
    add_completion=False,
)


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
) -> None:
    try:
        set_language(lang)
    except ValueError as e:
        raise fail(str(e)) from None


def _new_seed() -> int:
    return int.from_bytes(os.urandom(4), "big")


@app.command("games")
def games_cmd() -> None:
    """List the games, their player counts and variant options."""
    table = Table(title="Games")
    table.add_column("id", style="bold")
    table.add_column("players")
    table.add_column("what")
    table.add_column("options (default)")
    for g in all_games():
        players = (
            str(g.min_players)
            if g.min_players == g.max_players
            else f"{g.min_players}-{g.max_players}"
        )
        opts = "\n".join(f"{o.name}={o.default}" for o in g.options)
        table.add_row(g.id, players, g.summary, opts)
    console.print(table)


@app.command("agents")
def agents_cmd(
    game: Annotated[str | None, typer.Argument(help="only agents for this game")] = None,
) -> None:
    """List the AI agents by name and the games they play."""
    table = Table(title="Agents")
    table.add_column("name", style="bold")
    table.add_column("games")
    for name in agent_names(game):
        games = AGENTS[name]
        table.add_row(name, "all" if "*" in games else ", ".join(games))
    console.print(table)


@app.command("play")
def play_cmd(
    game: Annotated[str, typer.Argument(help="game id, see `pyramids games`")] = "piramides",
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    bots: Annotated[int, typer.Option(help="how many seats (the last ones) bots play")] = 0,
    agent: Annotated[
        str, typer.Option(help="agent for the bots, see `pyramids agents`")
    ] = "greedy",
    seed: Annotated[int | None, typer.Option(help="seed of the game (random if omitted)")] = None,
    deal: Annotated[int | None, typer.Option(help="deal number (same as --seed)")] = None,
    face_down: Annotated[
        bool, typer.Option("--face-down", help="piramides: covered cards face down")
    ] = False,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="variant option name=value")
    ] = None,
    save: Annotated[Path | None, typer.Option(help="save the record here at the end")] = None,
    solvable: Annotated[
        bool, typer.Option("--solvable", help="piramides: deal only winnable deals")
    ] = False,
) -> None:
    """Play a game in the terminal (type `help` during the game)."""
    try:
        g = get_game(game)
    except PyramidsError as e:
        raise fail(str(e)) from None
    n = players if players is not None else max(g.min_players, min(2, g.max_players))
    if bots < 0 or bots > n:
        raise fail(f"--bots must be between 0 and {n}")
    variant = parse_options(option or [])
    if face_down:
        variant["face_down"] = True
    chosen = deal if deal is not None else seed
    if chosen is None:
        chosen = _new_seed()
    hooks = game_hooks(game)
    try:
        state = g.new(players=n, seed=chosen, **variant)
        if solvable:
            if game != "piramides":
                raise fail("--solvable is for piramides only")
            from pyramids.solver.solvable import solvable_game

            state, numbers = solvable_game(chosen, state.variant)
            console.print(f"Winnable deals: {', '.join(map(str, numbers))}")
        seats = [Seat(f"Player {i + 1}") for i in range(n - bots)]
        seats += [Seat(f"Bot {i + 1}", make_agent(agent, game)) for i in range(bots)]
    except (PyramidsError, ValueError) as e:
        raise fail(str(e)) from None
    state.names = tuple(s.name for s in seats)
    console.print(f"[bold]{g.title}[/] — seed/deal {chosen}. Type [bold]help[/] for commands.")
    session = Session(
        state=state,
        seats=seats,
        console=console,
        render=hooks.render,
        summary=hooks.summary,
        describe=hooks.describe,
        rng=Rng(chosen ^ 0x5EED),
        extra_commands=dict(hooks.commands),
        save_to=save,
    )
    run_session(session)


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="a game record (JSON)")],
    as_json: Annotated[
        bool, typer.Option("--json", help="print only the final result as JSON")
    ] = False,
    step: Annotated[bool, typer.Option(help="wait for Enter after each move")] = False,
) -> None:
    """Re-check a record move by move and show it (or print its result)."""
    try:
        final = replay_record(file)
    except RecordError as e:
        raise fail(f"invalid record {file}: {e}") from None
    if as_json:
        result = {
            "game": final.game.id,
            "moves": final.ply,
            "over": final.is_over,
            "scores": final.scores(),
            "ranking": final.ranking() if final.is_over else None,
        }
        typer.echo(json.dumps(result))
        return
    hooks = game_hooks(final.game.id)
    record = json.loads(file.read_text(encoding="utf-8"))
    state = final.game.from_setup(record["setup"], final.players, final.variant)
    state.names = final.names
    state._forced = [(c["ply"], c["choices"], c["outcome"]) for c in record.get("chance", [])]
    viewer: int | None = 0 if final.players == 1 else None
    console.print(hooks.render(state.view(viewer)))
    for i, text in enumerate(record["moves"], 1):
        mover = state.current_player
        state.play(state.parse_move(text))
        who = state.names[mover] if mover is not None else "?"
        console.rule(f"move {i}: {who} plays {text}")
        console.print(hooks.render(state.view(viewer)))
        if step:
            input("Enter for the next move ")
    final_view = state.view(viewer)
    console.print(hooks.summary(final_view) if hooks.summary else "")


@app.command("simulate")
def simulate_cmd(
    game: Annotated[str, typer.Argument(help="game id")],
    games: Annotated[int, typer.Option(help="number of games")] = 100,
    agent: Annotated[str, typer.Option(help="agent for every seat, or a,b,c per seat")] = "random",
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    seed: Annotated[int, typer.Option(help="first seed; game k uses seed+k")] = 0,
    records: Annotated[Path | None, typer.Option(help="folder to save every record in")] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="variant option name=value")
    ] = None,
) -> None:
    """Play many games between agents and summarise the scores."""
    try:
        g = get_game(game)
        n = players if players is not None else g.min_players
        g.check_players(n)
        names = agent.split(",")
        if len(names) == 1:
            names = names * n
        if len(names) != n:
            raise fail(f"--agent lists {len(names)} agents for {n} players")
        agents = [make_agent(a, game) for a in names]
        variant = parse_options(option or [])
        g.resolve_variant(variant)
    except (PyramidsError, UnknownAgent, ValueError) as e:
        raise fail(str(e)) from None
    if games < 1:
        raise fail("--games must be at least 1")
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    hooks = game_hooks(game)
    scores: list[list[int]] = [[] for _ in range(n)]
    wins = [0] * n
    extra: dict[str, list[float]] = {}
    with progress_bar() as progress:
        task = progress.add_task(f"{game}", total=games)
        for k in range(games):
            state: State[Any] = g.new(players=n, seed=seed + k, **variant)
            rng = Rng(seed + k)
            while not state.is_over:
                p = state.current_player
                assert p is not None
                state.play(agents[p].choose(state, rng))
            for p, s in enumerate(state.scores()):
                scores[p].append(s)
            for p in state.winners():
                wins[p] += 1
            if hooks.stats is not None:
                for key, value in hooks.stats(state.view(None)).items():
                    extra.setdefault(key, []).append(value)
            if records is not None:
                save_record(state, records / f"{game}-{seed + k}.json")
            progress.advance(task)
    table = Table(title=f"{games} games of {game}")
    table.add_column("seat")
    table.add_column("agent")
    table.add_column("mean", justify="right")
    table.add_column("median", justify="right")
    table.add_column("min", justify="right")
    table.add_column("max", justify="right")
    if n > 1:
        table.add_column("wins", justify="right")
    for p in range(n):
        row = [
            str(p),
            names[p],
            f"{statistics.fmean(scores[p]):.1f}",
            f"{statistics.median(scores[p]):g}",
            str(min(scores[p])),
            str(max(scores[p])),
        ]
        if n > 1:
            row.append(f"{wins[p]} ({100 * wins[p] / games:.0f}%)")
        table.add_row(*row)
    console.print(table)
    if extra:
        t2 = Table(title="Per-game statistics")
        t2.add_column("statistic")
        t2.add_column("mean", justify="right")
        t2.add_column("median", justify="right")
        t2.add_column("max", justify="right")
        for key, values in extra.items():
            t2.add_row(
                key,
                f"{statistics.fmean(values):.2f}",
                f"{statistics.median(values):g}",
                f"{max(values):g}",
            )
        console.print(t2)


#: Commands defined in modules of their own; each module has ``register(app)``.
#: Add one line per module (e.g. "pyramids.cli.cmd_serve").
COMMAND_MODULES: list[str] = [
    "pyramids.cli.cmd_serve",
    "pyramids.cli.cmd_arena",
    "pyramids.cli.cmd_solve",
]

for _module in COMMAND_MODULES:
    importlib.import_module(_module).register(app)


def main() -> None:
    """Entry point of the console script."""
    app()
