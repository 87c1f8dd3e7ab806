"""``pyramids simulate``: many games between agents, summarised per seat."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

from rich.table import Table

from pyramids.cli.common import fail, get_console, parse_options, progress_bar, reason
from pyramids.cli.render import game_hooks
from pyramids.engine.errors import PyramidsError
from pyramids.engine.records import save_record
from pyramids.engine.rng import Rng
from pyramids.engine.state import State


def simulate(
    game: str,
    games: int,
    agent: str,
    players: int | None,
    seed: int,
    records: Path | None,
    option: list[str],
) -> None:
    """Play ``games`` games (game k dealt from ``seed + k``) and print the scores per seat."""
    from pyramids.ai.registry import UnknownAgent, make_agent
    from pyramids.engine.registry import get_game

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
        variant = parse_options(option)
        g.resolve_variant(variant)
    except (PyramidsError, UnknownAgent) as e:
        raise fail(reason(e)) from None
    except ValueError as e:
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
    console = get_console()
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
