"""The arena: many games between agents, seats rotated, with statistics.

Scheduling. With several players, the agents sit at a *table* (agents
listed fewer than seats are repeated in order to fill it; more agents than
seats play every combination of them as separate tables) and each deal is
played once per rotation of the seats, so every agent plays every seat of
the same deals equally often: luck of the deal and first-move advantage
cancel out. A solitaire is played *duplicate*: every agent plays every deal,
and agents are compared deal by deal.

Game ``k`` is fully determined by the arena seed and ``k`` (deal seed
``seed + deal``, agent seeds derived from ``seed`` and ``k``), so running the
games in parallel processes gives exactly the results of running them in
turn; only timings differ.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    Executor,
    Future,
    ProcessPoolExecutor,
    as_completed,
    wait,
)
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pyramids.ai.base import Agent
from pyramids.ai.errors import AgentError
from pyramids.ai.registry import make_agent
from pyramids.ai.stats import Pair, elo, elo_intervals, mean_interval, pairs_from_places, wilson
from pyramids.engine.errors import PyramidsError
from pyramids.engine.records import save_record
from pyramids.engine.registry import get_game
from pyramids.engine.rng import Rng

#: Figures from a final spectator view (e.g. ``rounds cleared``); must be picklable.
StatsFn = Callable[[dict[str, Any]], dict[str, float]]


def parse_agent_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"mcts:level=hard:iterations=500"`` -> ``("mcts", {"level": "hard", ...})``."""
    name, *parts = spec.strip().split(":")
    options: dict[str, str] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise AgentError(
                "agent option {option} in {spec} must look like name=value",
                code="agent-spec",
                option=repr(part),
                spec=repr(spec),
            )
        options[key.strip().replace("-", "_")] = value.strip()
    if not name:
        raise AgentError("agent {spec} has no name", code="agent-spec", spec=repr(spec))
    return name, options


def build_agent(spec: str, game_id: str) -> Agent:
    """The agent that ``spec`` describes (raises :class:`~pyramids.ai.errors.AgentError`)."""
    name, options = parse_agent_spec(spec)
    try:
        return make_agent(name, game_id, **options)
    except TypeError as e:
        if not options:
            raise  # not an option the constructor does not take: a bug to see
        raise AgentError(
            "agent {spec} does not take the options {options}",
            code="agent-option",
            spec=repr(spec),
            options=", ".join(options),
        ) from e


@dataclass(frozen=True)
class ArenaConfig:
    """What to play: the game, the agents (specs), how many games, the seed."""

    game_id: str
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    players: int | None = None
    variant: Mapping[str, Any] = field(default_factory=dict)

    def seat_count(self) -> int:
        """Players per game: as given, else one seat per agent within the game's range."""
        game = get_game(self.game_id)
        if self.players is not None:
            return self.players
        return max(game.min_players, min(len(self.agents), game.max_players))

    def check(self) -> None:
        """Raise a :class:`~pyramids.engine.errors.PyramidsError` for anything unplayable."""
        game = get_game(self.game_id)
        game.check_players(self.seat_count())
        game.resolve_variant(self.variant)
        if not self.agents:
            raise AgentError("name at least one agent", code="agent-spec")
        if self.games < 1:
            raise PyramidsError("play at least one game", code="arena-games")
        for spec in self.agents:
            build_agent(spec, self.game_id)


@dataclass(frozen=True)
class Match:
    """One game of the schedule: its index, its deal and the agent in each seat."""

    index: int
    deal: int
    seats: tuple[int, ...]


def schedule(config: ArenaConfig) -> list[Match]:
    """Every game of the arena, in order (see the module docstring)."""
    return list(iter_schedule(config))


def _tables(config: ArenaConfig) -> list[tuple[int, ...]]:
    """The seat rotations that repeat through a multi-player schedule."""
    n = config.seat_count()
    count = len(config.agents)
    if count <= n:
        tables = [tuple(i % count for i in range(n))]
    else:
        tables = list(itertools.combinations(range(count), n))
    return [t[r:] + t[:r] for t in tables for r in range(n)]


def schedule_size(config: ArenaConfig) -> int:
    """How many games the schedule holds (without building it)."""
    solo = config.seat_count() == 1
    return config.games * len(config.agents) if solo else config.games


def period(config: ArenaConfig) -> int:
    """Games per fair block: every agent on every seat (or on the same deal) equally often."""
    return len(config.agents) if config.seat_count() == 1 else len(_tables(config))


def iter_schedule(config: ArenaConfig) -> Iterator[Match]:
    """The schedule, one game at a time: a huge arena starts at once and holds no list."""
    if config.seat_count() == 1:
        count = len(config.agents)
        for k in range(config.games * count):
            yield Match(k, k // count, (k % count,))
        return
    n = config.seat_count()
    cycle = _tables(config)
    for k in range(config.games):
        yield Match(k, k // n, cycle[k % len(cycle)])


def fair_part(config: ArenaConfig, results: Sequence[GameResult]) -> list[GameResult]:
    """Of an interrupted arena's results, the first whole fair blocks (see :func:`period`).

    Games finish out of order in parallel; a summary of whatever finished would
    favour the agents seated first, so only the games before the first missing
    one count, cut to a whole number of blocks.
    """
    ordered = sorted(results, key=lambda r: r.index)
    prefix = 0
    while prefix < len(ordered) and ordered[prefix].index == prefix:
        prefix += 1
    block = period(config)
    return ordered[: prefix - prefix % block]


class Interrupted(Exception):
    """Ctrl-C during :func:`run_arena`: the games finished so far, in schedule order."""

    def __init__(self, results: list[GameResult]) -> None:
        super().__init__("interrupted")
        self.results = results


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to its parent, which stops the arena and keeps what finished."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass
class GameResult:
    """The outcome of one game, seat by seat."""

    index: int
    deal: int
    seats: list[int]
    scores: list[int]
    ranking: list[int]
    plies: int
    extra: dict[str, float] = field(default_factory=dict)
    #: seconds of thinking per seat: total and longest single move (not reproducible)
    think_total: list[float] = field(default_factory=list)
    think_max: list[float] = field(default_factory=list)
    #: per seat, the seconds of each of its moves (for percentiles; not reproducible)
    think_moves: list[list[float]] = field(default_factory=list)

    def outcome(self) -> tuple[Any, ...]:
        """Everything reproducible about the game (timings left out)."""
        return (self.index, self.deal, self.seats, self.scores, self.ranking, self.plies)


def _agent_seed(seed: int, index: int, seat: int) -> int:
    """A seed for one seat of one game, mixed so nearby games get unrelated streams."""
    mixed = (seed * 0x100000001B3 + index * 0x9E3779B1 + seat * 0x85EBCA77) & ((1 << 64) - 1)
    return Rng(mixed).next_u64()


def play_match(
    config: ArenaConfig,
    match: Match,
    records: str | None = None,
    stats: StatsFn | None = None,
    agent_factory: Callable[[str, str], Agent] = build_agent,
) -> GameResult:
    """Play one scheduled game (a module-level function, so worker processes can run it).

    ``agent_factory(spec, game_id)`` builds each seat's agent: the registry's
    :func:`build_agent` unless a study brings players of its own (e.g. the
    benchmark of players allowed to see hidden information, which no
    registered agent may).
    """
    game = get_game(config.game_id)
    n = config.seat_count()
    state = game.new(players=n, seed=config.seed + match.deal, **dict(config.variant))
    state.names = tuple(config.agents[a] for a in match.seats)
    agents = [agent_factory(config.agents[a], config.game_id) for a in match.seats]
    rngs = [Rng(_agent_seed(config.seed, match.index, s)) for s in range(n)]
    think_total = [0.0] * n
    think_max = [0.0] * n
    think_moves: list[list[float]] = [[] for _ in range(n)]
    while not state.is_over:
        p = state.current_player
        assert p is not None
        start = time.perf_counter()
        move = agents[p].choose(state, rngs[p])
        spent = time.perf_counter() - start
        think_total[p] += spent
        think_max[p] = max(think_max[p], spent)
        think_moves[p].append(round(spent, 6))
        state.play(move)
        for agent in agents:
            agent.observe(state, move, p)
    if records is not None:
        save_record(state, Path(records) / f"{config.game_id}-{match.index:05d}.json")
    return GameResult(
        index=match.index,
        deal=match.deal,
        seats=list(match.seats),
        scores=list(state.scores()),
        ranking=list(state.ranking()),
        plies=state.ply,
        extra=stats(state.view(None)) if stats is not None else {},
        think_total=think_total,
        think_max=think_max,
        think_moves=think_moves,
    )


def run_arena(
    config: ArenaConfig,
    jobs: int = 1,
    records: Path | None = None,
    stats: StatsFn | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    executor: Executor | None = None,
) -> list[GameResult]:
    """Play the whole schedule, in ``jobs`` processes; results in schedule order.

    The schedule is streamed, never built whole, and at most a few games per
    process are in flight; Ctrl-C raises :class:`Interrupted` with the games
    finished so far.

    ``executor`` (e.g. :class:`pyramids.cluster.ray_executor.RayExecutor`) plays
    the games instead of local processes, and is left running for its owner:
    each game is a pure function of the configuration and its index, so the
    results are the same wherever they are played.
    """
    config.check()
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    where = None
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
        where = str(records)
    matches = iter_schedule(config)
    results: list[GameResult] = []

    def done(r: GameResult) -> None:
        results.append(r)
        if on_result is not None:
            on_result(r)

    if jobs == 1 and executor is None:
        try:
            for m in matches:
                done(play_match(config, m, where, stats))
        except KeyboardInterrupt:
            raise Interrupted(results) from None
        return results
    pool = executor or ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupts)
    window = 4 * jobs if executor is None else 64  # games in flight: a bounded queue
    pending: set[Future[GameResult]] = set()
    try:
        for m in matches:
            pending.add(pool.submit(play_match, config, m, where, stats))
            if len(pending) >= window:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    done(future.result())
        for future in as_completed(pending):
            done(future.result())
    except KeyboardInterrupt:
        for future in pending:
            future.cancel()
        results.sort(key=lambda r: r.index)
        raise Interrupted(results) from None
    finally:
        if executor is None:
            pool.shutdown(wait=False, cancel_futures=True)
    results.sort(key=lambda r: r.index)
    return results


# -- statistics -------------------------------------------------------------------


@dataclass
class AgentSummary:
    """One agent's figures over the arena."""

    agent: str
    games: int
    wins: float
    win_rate: float
    win_low: float
    win_high: float
    mean_score: float
    score_low: float
    score_high: float
    mean_rank: float
    elo: float
    elo_low: float
    elo_high: float
    mean_move_seconds: float
    max_move_seconds: float
    extra: dict[str, float] = field(default_factory=dict)
    #: 99th percentile of the seconds of one move (nearest rank; 0 without timings)
    p99_move_seconds: float = 0.0


def _groups(config: ArenaConfig, results: Sequence[GameResult]) -> Iterator[list[GameResult]]:
    """The units compared head to head: a game, or (solitaire) every game of one deal."""
    if config.seat_count() > 1:
        for r in results:
            yield [r]
        return
    by_deal: dict[int, list[GameResult]] = {}
    for r in results:
        by_deal.setdefault(r.deal, []).append(r)
    yield from by_deal.values()


def _group_outcome(group: list[GameResult]) -> tuple[list[int], list[float], list[float]]:
    """Agents, places (1 = best, ties averaged away as equal places) and win credits."""
    agents: list[int] = []
    places: list[float] = []
    for r in group:
        agents.extend(r.seats)
        if len(group) == 1:
            places.extend(float(x) for x in r.ranking)
    if len(group) > 1:  # solitaire: rank the agents' scores on the same deal
        scores = [r.scores[0] for r in group]
        places = [float(1 + sum(1 for o in scores if o > s)) for s in scores]
    best = min(places)
    winners = [i for i, p in enumerate(places) if p == best]
    credit = [1.0 / len(winners) if i in winners else 0.0 for i in range(len(agents))]
    return agents, places, credit


def summarize(
    config: ArenaConfig, results: Sequence[GameResult], resamples: int = 200
) -> list[AgentSummary]:
    """Per-agent win rates (Wilson 95 %), mean scores, mean ranks and Elo (bootstrap 95 %)."""
    count = len(config.agents)
    solitaire = config.seat_count() == 1
    games = [0] * count
    wins = [0.0] * count
    scores: list[list[float]] = [[] for _ in range(count)]
    ranks: list[list[float]] = [[] for _ in range(count)]
    extra: list[dict[str, list[float]]] = [{} for _ in range(count)]
    think: list[list[float]] = [[0.0, 0.0] for _ in range(count)]
    longest = [0.0] * count
    move_times: list[list[float]] = [[] for _ in range(count)]
    pair_groups: list[list[Pair]] = []
    for group in _groups(config, results):
        agents, places, credit = _group_outcome(group)
        pair_groups.append(pairs_from_places(agents, places))
        seen: dict[int, float] = {}
        for a, c in zip(agents, credit, strict=True):
            seen[a] = seen.get(a, 0.0) + c
        for a, c in seen.items():
            games[a] += 1
            wins[a] += min(c, 1.0)
        for a, place in zip(agents, places, strict=True):
            ranks[a].append(place)
    plies_total = [0] * count
    for r in results:
        for seat, a in enumerate(r.seats):
            scores[a].append(float(r.scores[seat]))
            if r.think_total:
                think[a][0] += r.think_total[seat]
                longest[a] = max(longest[a], r.think_max[seat])
            if r.think_moves:
                move_times[a].extend(r.think_moves[seat])
            # a game's own figures describe one agent only in a solitaire
            for key, value in r.extra.items() if solitaire else ():
                extra[a].setdefault(key, []).append(value)
        if r.think_total:
            for seat, a in enumerate(r.seats):
                plies_total[a] += _seat_moves(r, seat)
    all_pairs = [p for g in pair_groups for p in g]
    ratings = elo(all_pairs, count)
    intervals = elo_intervals(pair_groups, count, resamples=resamples, seed=config.seed)
    out = []
    for a, spec in enumerate(config.agents):
        lo, hi = wilson(wins[a], games[a])
        mean, s_lo, s_hi = mean_interval(scores[a])
        moves = plies_total[a]
        out.append(
            AgentSummary(
                agent=spec,
                games=games[a],
                wins=wins[a],
                win_rate=wins[a] / games[a] if games[a] else math.nan,
                win_low=lo,
                win_high=hi,
                mean_score=mean,
                score_low=s_lo,
                score_high=s_hi,
                mean_rank=math.fsum(ranks[a]) / len(ranks[a]) if ranks[a] else math.nan,
                elo=ratings[a] if count > 1 else math.nan,
                elo_low=intervals[a][0],
                elo_high=intervals[a][1],
                mean_move_seconds=think[a][0] / moves if moves else 0.0,
                max_move_seconds=longest[a],
                extra={k: math.fsum(v) / len(v) for k, v in extra[a].items()},
                p99_move_seconds=_percentile(move_times[a], 0.99),
            )
        )
    if solitaire and count == 1:
        out[0].win_rate = math.nan
    return out


def _percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q`` percentile (0 for no values): a move time that was really seen."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def _seat_moves(r: GameResult, seat: int) -> int:
    """Moves a seat made, estimated as its share of the plies (exact for solitaires)."""
    n = len(r.seats)
    return r.plies // n + (1 if seat < r.plies % n else 0)


# -- output ---------------------------------------------------------------------


def report_json(
    config: ArenaConfig, summary: Sequence[AgentSummary], results: Sequence[GameResult]
) -> str:
    """The configuration, the summary and every game, as JSON text."""
    data = {
        "game": config.game_id,
        "agents": list(config.agents),
        "games": config.games,
        "seed": config.seed,
        "players": config.seat_count(),
        "variant": dict(config.variant),
        "summary": [_clean(asdict(s)) for s in summary],
        "results": [asdict(r) for r in results],
    }
    return json.dumps(data, indent=1)


def _clean(row: dict[str, Any]) -> dict[str, Any]:
    """NaN is not JSON: write it as null."""
    return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}


def summary_csv(summary: Sequence[AgentSummary]) -> str:
    """One row per agent (extra figures as their own columns)."""
    keys = sorted({k for s in summary for k in s.extra})
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    base = [k for k in asdict(summary[0]) if k != "extra"] if summary else []
    writer.writerow(base + keys)
    for s in summary:
        row = asdict(s)
        writer.writerow([row[k] for k in base] + [s.extra.get(k, "") for k in keys])
    return buf.getvalue()


def games_csv(config: ArenaConfig, results: Sequence[GameResult]) -> str:
    """One row per game and seat: game, deal, seat, agent, score, place, plies."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["game", "deal", "seat", "agent", "score", "place", "plies"])
    for r in results:
        for seat, a in enumerate(r.seats):
            writer.writerow(
                [r.index, r.deal, seat, config.agents[a], r.scores[seat], r.ranking[seat], r.plies]
            )
    return buf.getvalue()
