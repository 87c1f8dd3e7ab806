"""``pyramids simulate``: many games between agents, summarised per seat."""

from __future__ import annotations

import json
import statistics
from concurrent.futures import as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.table import Table

from pyramids.cli.common import fail, get_console, parse_options, progress_bar, reason
from pyramids.cli.games import game_hooks
from pyramids.engine.errors import PyramidsError
from pyramids.engine.rng import Rng
from pyramids.engine.state import State


@dataclass(frozen=True)
class Played:
    """What one simulated game gives the summary (and its record, if asked for)."""

    seed: int
    scores: list[int]
    winners: list[int]
    stats: dict[str, float]
    record: dict[str, Any] | None


def play_one(
    game: str,
    names: tuple[str, ...],
    variant: dict[str, Any],
    seed: int,
    keep_record: bool,
) -> Played:
    """Play the game dealt from ``seed`` with fresh agents, one per seat.

    A module-level function of its arguments only, so that game ``k`` is the
    same game in this process or on a Ray worker (``--ray``): its agents are
    built for it and its randomness is ``Rng(seed)``.
    """
    from pyramids.ai.registry import make_agent
    from pyramids.engine.registry import get_game

    g = get_game(game)
    agents = [make_agent(a, game) for a in names]
    state: State[Any] = g.new(players=len(names), seed=seed, **variant)
    rng = Rng(seed)
    while not state.is_over:
        p = state.current_player
        assert p is not None
        state.play(agents[p].choose(state, rng))
    stats = game_hooks(game).stats
    return Played(
        seed,
        list(state.scores()),
        list(state.winners()),
        stats(state.view(None)) if stats is not None else {},
        state.record() if keep_record else None,
    )


def simulate(
    game: str,
    games: int,
    agent: str,
    players: int | None,
    seed: int,
    records: Path | None,
    option: list[str],
    ray: str | None = None,
) -> None:
    """Play ``games`` games (game k dealt from ``seed + k``) and print the scores per seat.

    With ``ray`` (an address, see :mod:`pyramids.cluster.ray_executor`) the games
    are Ray tasks; each is a pure function of its seed, so the figures are those
    of a local run, and records are written here, by this process.
    """
    from pyramids.ai.registry import make_agent
    from pyramids.cluster.ray_executor import RayUnavailable, ray_executor
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
        for a in names:
            make_agent(a, game)  # an unknown agent fails here, before any game
        variant = parse_options(option)
        g.resolve_variant(variant)
    except PyramidsError as e:
        raise fail(reason(e)) from None
    if games < 1:
        raise fail("--games must be at least 1")
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    scores: list[list[int]] = [[] for _ in range(n)]
    wins = [0] * n
    extra: dict[str, list[float]] = {}
    args = (game, tuple(names), variant)
    keep = records is not None
    try:
        with ray_executor(ray) as executor, progress_bar() as progress:
            task = progress.add_task(f"{game}", total=games)
            if executor is None:
                done = (play_one(*args, seed + k, keep) for k in range(games))
            else:
                futures = [executor.submit(play_one, *args, seed + k, keep) for k in range(games)]
                done = (f.result() for f in as_completed(futures))
            for played in done:
                for p, s in enumerate(played.scores):
                    scores[p].append(s)
                for p in played.winners:
                    wins[p] += 1
                for key, value in played.stats.items():
                    extra.setdefault(key, []).append(value)
                if records is not None and played.record is not None:
                    path = records / f"{game}-{played.seed}.json"
                    path.write_text(json.dumps(played.record, indent=2) + "\n", encoding="utf-8")
                progress.advance(task)
    except RayUnavailable as e:
        raise fail(str(e)) from None
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
