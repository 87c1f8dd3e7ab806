"""``pyramids simulate``: many games between agents, summarised per seat."""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, as_completed, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from pyramids.cli.common import (
    _,
    check_output_folder,
    fail,
    get_console,
    parse_options,
    progress_bar,
    reason,
    tr,
)
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
    from pyramids.ai.arena import build_agent
    from pyramids.engine.registry import get_game

    g = get_game(game)
    agents = [build_agent(a, game) for a in names]
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


def _windowed(
    executor: Executor,
    args: tuple[str, tuple[str, ...], dict[str, Any]],
    seed: int,
    games: int,
    keep: bool,
) -> Iterator[Played]:
    """The games played on ``executor``, at most 64 in flight: a huge count starts at once."""
    pending: set[Future[Played]] = set()
    for k in range(games):
        pending.add(executor.submit(play_one, *args, seed + k, keep))
        if len(pending) >= 64:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            yield from (f.result() for f in finished)
    yield from (f.result() for f in as_completed(pending))


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
    from pyramids.ai.arena import build_agent
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
            raise fail(_("--agent lists {count} agents for {n} players", count=len(names), n=n))
        for a in names:
            build_agent(a, game)  # an unknown agent fails here, before any game
        variant = parse_options(option)
        g.resolve_variant(variant)
    except PyramidsError as e:
        raise fail(reason(e)) from None
    if games < 1:
        raise fail(_("--games must be at least 1"))
    if records is not None:
        records = check_output_folder(records, "--records")
        records.mkdir(exist_ok=True)
    scores: list[list[int]] = [[] for _seat in range(n)]
    wins = [0] * n
    extra: dict[str, list[float]] = {}
    args = (game, tuple(names), variant)
    keep = records is not None
    played_count = 0
    interrupted = False
    try:
        with ray_executor(ray) as executor, progress_bar() as progress:
            task = progress.add_task(f"{game}", total=games)
            done: Iterator[Played]
            if executor is None:
                done = (play_one(*args, seed + k, keep) for k in range(games))
            else:
                done = _windowed(executor, args, seed, games, keep)
            try:
                for played in done:
                    for p, s in enumerate(played.scores):
                        scores[p].append(s)
                    for p in played.winners:
                        wins[p] += 1
                    for key, value in played.stats.items():
                        extra.setdefault(key, []).append(value)
                    if records is not None and played.record is not None:
                        path = records / f"{game}-{played.seed}.json"
                        text = json.dumps(played.record, indent=2) + "\n"
                        path.write_text(text, encoding="utf-8")
                    played_count += 1
                    progress.advance(task)
            except KeyboardInterrupt:  # the games played so far are summarised below
                interrupted = True
    except RayUnavailable as e:
        raise fail(str(e)) from None
    except OSError as e:  # a record that could not be written (the disk filled up)
        raise fail(reason(e)) from None
    console = get_console()
    if interrupted:
        console.print(
            _("Interrupted: {done} of {total} games played.", done=played_count, total=games)
        )
    if played_count == 0:
        raise typer.Exit(130)
    print_summary(game, names, played_count, scores, wins, extra)
    if interrupted:
        raise typer.Exit(130)


def print_summary(
    game: str,
    names: list[str],
    games: int,
    scores: list[list[int]],
    wins: list[int],
    extra: dict[str, list[float]],
) -> None:
    """The scores per seat (numbered from 1, as everywhere) and the game's own figures."""
    n = len(names)
    t = tr()
    table = Table(title=t.ngettext("{n} game of {game}", "{n} games of {game}", games, game=game))
    table.add_column(_("seat"))
    table.add_column(_("agent"))
    for heading in (_("mean"), _("median"), _("min"), _("max")):
        table.add_column(heading, justify="right")
    if n > 1:
        table.add_column(_("wins"), justify="right")
    for p in range(n):
        row = [
            str(p + 1),
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
        t2 = Table(title=_("Per-game statistics"))
        t2.add_column(_("statistic"))
        for heading in (_("mean"), _("median"), _("max")):
            t2.add_column(heading, justify="right")
        for key, values in extra.items():
            t2.add_row(
                key,
                f"{statistics.fmean(values):.2f}",
                f"{statistics.median(values):g}",
                f"{max(values):g}",
            )
        console.print(t2)
