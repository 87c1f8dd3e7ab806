"""Treasure hunt: how far above ``greedy`` can any player get?

How much better than ``greedy`` can ``mcts`` at ``hard`` be in 2-player
games? In ``pyramido-treasure`` ``greedy`` has perfect memory,
so besides choosing better in the events, the only thing a stronger player
could still know better is where the *unseen* tokens lie. This benchmark
measures, against ``greedy``, on the same deals and seeds the arena would use:

1. ``random``: the floor (and a check that the loop below is sane);
2. ``greedy`` against itself: the mirror, about 50%; the rows below differ
   from it only in what the player knows or how it walks;
3. ``walker``: the careful walker of
   :mod:`pyramids.ai.policies.pyramido_treasure` (MCTS's playout policy)
   played as an agent, without noise and without search;
4. ``omniscient``: ``greedy`` itself, with its memory replaced by the true
   token of every spot (see :class:`OmniscientAgent`);
5. ``omniscient-events``: the omniscient slider, whose event choices
   (which two treasures to name in danger, whom and what to challenge in
   desert poker, which card to give) are made by playing every option out to
   the end of the card on a copy of the true state: hidden tokens, deck order
   and the chance draw of poker all known, the opponent played by ``greedy``
   itself (see :class:`OmniscientEventsAgent`).

Rows 4 and 5 cheat: row 4 bounds what knowledge of the hidden tokens is
worth to ``greedy``'s way of playing, row 5 adds what a player could gain in
the events if it also knew the future. A bar above both is out of reach of
any honest player that slides like ``greedy`` and looks one card ahead.

Games are scheduled and scored by the arena (:mod:`pyramids.ai.arena`):
its schedule (each deal played twice, seats swapped), its per-seat agent
seeds and its summary (Wilson 95% intervals). Only the loop that plays a game
is written here, because the arena builds agents from the registry and the
omniscient agent must never be registered; ``tests/ai/test_treasure_ceiling.py``
checks that this loop and the arena's give the same games for registered
agents.

Options (``python -m benchmarks.bench_treasure_ceiling --games 200 --seed 0
--jobs 2``), or the environment variables ``TREASURE_CEILING_GAMES``,
``TREASURE_CEILING_SEED``, ``TREASURE_CEILING_JOBS``, ``TREASURE_CEILING_OPPONENT``
and ``TREASURE_CEILING_ONLY`` (comma-separated entrant names) when run through
``python -m benchmarks treasure_ceiling``. ``--opponent child`` measures the same
rows against the forgetful ``child`` instead (the bar of ``hard`` against it).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from collections.abc import Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from pyramids.ai.arena import (
    AgentSummary,
    ArenaConfig,
    GameResult,
    Match,
    build_agent,
    play_match,
    schedule,
    summarize,
)
from pyramids.ai.base import Agent
from pyramids.ai.greedy.pyramido_treasure import Memory, TreasureMemoryAgent
from pyramids.ai.policies.pyramido_treasure import candidates, ranked_steps
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.games.pyramido_treasure import SLIDES, TreasureMove, TreasureState
from pyramids.games.pyramido_treasure.board import SPOTS
from pyramids.games.pyramido_treasure.phases import SLIDE_PHASES

GAME = "pyramido-treasure"
OPPONENT = "greedy"
SLIDE_PHASE_NAMES = frozenset(p.label for p in SLIDE_PHASES)


class WalkerAgent(Agent):
    """The MCTS playout policy of the treasure hunt as a player: its first choice, always.

    An honest player (it reads only what the table has seen: the walker's
    plan is built from revealed spots alone), but not registered, because
    ``mcts`` already plays it with search on top; here it shows what the
    walk alone is worth.
    """

    name = "walker"
    summary = "the treasure hunt's careful walker, no search, no noise"

    def choose(self, state: State[Any], rng: Rng) -> Hashable:
        if not isinstance(state, TreasureState):
            raise TypeError("the walker plays only the treasure hunt")
        if state.phase in SLIDE_PHASE_NAMES:
            return SLIDES[ranked_steps(state)[0]]
        move: Hashable = candidates(state, state.legal_moves())[0]
        return move


class OmniscientAgent(TreasureMemoryAgent):
    """``greedy`` that knows every hidden token: a measuring stick, never a player.

    Why it exists: to bound what *any* honest player could gain over
    ``greedy`` by knowing better where the treasures lie. It reads the true
    token of every spot from the real state, which no agent may do (agents
    decide on their seat's view only; see :mod:`pyramids.ai.base`), so it is
    defined here and never registered. Everything else is ``greedy``'s:
    the same belief-to-path code, the same step costs, the same event
    choices, which then work from certainties instead of probabilities.
    The gap between this agent and ``greedy`` against ``greedy`` is
    therefore the value of the hidden information and nothing else.

    With the tokens known, ``greedy``'s wrong-treasure cost (12 steps) never
    made it step on another treasure: a cost of 1,000 played the very same
    200 games (deals 0-99), so that variant is not measured separately.
    """

    name = "omniscient"
    summary = "greedy with every hidden token known (cheats; benchmark only)"

    def __init__(self, wrong_treasure_cost: float = 12.0) -> None:
        super().__init__(forget=0.0, wrong_treasure_cost=wrong_treasure_cost)
        self._truth: dict[int, int] = {}

    def choose(self, state: State[Any], rng: Rng) -> Hashable:
        if not isinstance(state, TreasureState):
            raise TypeError("the omniscient agent plays only the treasure hunt")
        # tokens never move, but a new game may be handed to the same agent
        self._truth = {s: state.token_at(s) for s in range(SPOTS)}
        return super().choose(state, rng)

    def _recall(self, view: dict[str, Any], rng: Rng) -> Memory:
        return Memory(tokens=dict(self._truth), seen_upto=view["ply"], last_ply=view["ply"])


class OmniscientEventsAgent(OmniscientAgent):
    """The omniscient slider, choosing at every event by playing each option out.

    Why: a search could still win points in the events, so this bounds what
    perfect event choices add. Each legal option is played on a copy of the
    real state (which holds the true tokens, the deck order and the random
    stream of chance events, so the outcome is known, not estimated) until the
    card being resolved is over: the owner's seat played by the omniscient
    slider, every other seat by a fresh ``greedy`` (with perfect memory it
    rebuilds its memory from the view, so it plays as the real opponent
    does). The option with the best own score minus the best other score
    wins; among equal options the omniscient slider's own choice (``greedy``'s
    rule with the true tokens) goes first, so this agent departs from row 4
    only where playing the options out shows a gain. Slides are row 4's.
    """

    name = "omniscient-events"
    summary = "omniscient slides; events chosen by playing every option out (cheats)"

    #: plies an option's playout may take before it is scored as it stands
    HORIZON = 300

    def choose(self, state: State[Any], rng: Rng) -> Hashable:
        if not isinstance(state, TreasureState):
            raise TypeError("the omniscient agent plays only the treasure hunt")
        moves = state.legal_moves()
        if state.phase in SLIDE_PHASE_NAMES or len(moves) == 1:
            return super().choose(state, rng)
        me = state.current_player
        assert me is not None
        base = rng.fork()  # every option sees the same agent randomness
        usual = super().choose(state, rng)
        assert isinstance(usual, TreasureMove)
        best: tuple[int, Hashable] | None = None
        for move in [usual, *(m for m in moves if m != usual)]:
            trial = state.copy()
            trial.play(move)
            self._finish_card(trial, state, base.copy())
            scores = trial.scores()
            value = scores[me] - max(v for q, v in enumerate(scores) if q != me)
            if best is None or value > best[0]:
                best = (value, move)
        assert best is not None
        return best[1]

    def _finish_card(self, trial: TreasureState, start: TreasureState, rng: Rng) -> None:
        """Play ``trial`` on until the card that ``start`` is resolving is over."""
        owner, card = start._owner, start.sought
        players: dict[int, Agent] = {}
        for _ in range(self.HORIZON):
            if trial.is_over or trial._owner != owner or trial.sought != card:
                return
            p = trial.current_player
            assert p is not None
            if p not in players:
                honest = TreasureMemoryAgent()
                players[p] = OmniscientAgent(self.wrong_treasure_cost) if p == owner else honest
            move = players[p].choose(trial, rng)
            assert isinstance(move, TreasureMove)
            trial.play(move)


#: entrant name -> how to build it (fresh for every game, like the arena does)
ENTRANTS: dict[str, Callable[[], Agent]] = {
    "random": lambda: build_agent("random", GAME),
    "greedy": lambda: build_agent("greedy", GAME),
    "walker": WalkerAgent,
    "omniscient": OmniscientAgent,
    "omniscient-events": OmniscientEventsAgent,
}


def make_entrant(name: str, game_id: str = GAME) -> Agent:
    """A fresh agent: one of :data:`ENTRANTS`, else an arena spec such as ``greedy``.

    The arena's ``play_match`` calls it for every seat (``agent_factory``), so
    the games are the arena's own: same deals, seats and agent seeds.
    """
    factory = ENTRANTS.get(name)
    return factory() if factory is not None else build_agent(name, game_id)


def play_game(config: ArenaConfig, match: Match) -> GameResult:
    """One scheduled game with :func:`make_entrant`'s players (module-level: for workers)."""
    return play_match(config, match, agent_factory=make_entrant)


def measure(
    entrant: str,
    games: int,
    seed: int,
    jobs: int,
    opponent: str = OPPONENT,
    players: int = 2,
) -> list[AgentSummary]:
    """``entrant`` against ``players - 1`` copies of ``opponent``, seat-rotated (arena summary).

    With more than two players the table is the arena's one-table rotation of
    ``(entrant, opponent, opponent, ...)``, the same games as an arena run with
    those agents, so a row here is comparable with ``hard``'s row at that table.
    """
    agents = (entrant, *([opponent] * (players - 1)))
    config = ArenaConfig(GAME, agents, games=games, seed=seed, players=players)
    matches = schedule(config)
    if jobs <= 1:
        results = [play_game(config, m) for m in matches]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(play_game, [config] * len(matches), matches, chunksize=4))
    return summarize(config, results)


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished workers.

    Why beside the wall clock: on a shared machine the wall time says more
    about the other jobs than about the benchmark.
    """
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def main(argv: list[str] | None = None) -> None:
    env = os.environ.get
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=int(env("TREASURE_CEILING_GAMES", "200")))
    parser.add_argument("--seed", type=int, default=int(env("TREASURE_CEILING_SEED", "0")))
    parser.add_argument("--jobs", type=int, default=int(env("TREASURE_CEILING_JOBS", "1")))
    parser.add_argument(
        "--only",
        default=env("TREASURE_CEILING_ONLY", ""),
        help=f"comma-separated entrants (default all: {', '.join(ENTRANTS)})",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=int(env("TREASURE_CEILING_PLAYERS", "2")),
        help="seats at the table: the entrant and players - 1 opponents (2-5)",
    )
    parser.add_argument(
        "--opponent",
        default=env("TREASURE_CEILING_OPPONENT", OPPONENT),
        help="the agent every entrant plays against (an arena spec: greedy, child, ...)",
    )
    args = parser.parse_args([] if argv is None else argv)
    names = [x.strip() for x in args.only.split(",") if x.strip()] or list(ENTRANTS)
    unknown = [x for x in names if x not in ENTRANTS]
    if unknown:
        parser.error(f"unknown entrant(s) {', '.join(unknown)}; have {', '.join(ENTRANTS)}")
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    if not 2 <= args.players <= 5:
        parser.error("--players must be 2 to 5 (the treasure hunt's table)")
    n = args.players
    deals = (args.games + n - 1) // n
    print(
        f"   {GAME}, {n} players, against {n - 1} x {args.opponent}: {args.games} games "
        f"(deal seeds {args.seed}-{args.seed + deals - 1}, each from every seat), "
        f"{args.jobs} process(es); fair share {100 / n:.1f}%"
    )
    print(f"   {'entrant':<18} {'first (95% Wilson)':<28} {'mean score':<18} time")
    for name in names:
        start, cpu_start = time.perf_counter(), _cpu_seconds()
        me, *them = measure(name, args.games, args.seed, args.jobs, args.opponent, n)
        spent, cpu = time.perf_counter() - start, _cpu_seconds() - cpu_start
        wins = f"{me.wins:g}/{me.games}: {100 * me.win_rate:.1f}%"
        interval = f"({100 * me.win_low:.1f}-{100 * me.win_high:.1f})"
        others = sum(t.mean_score for t in them) / len(them)
        scores = f"{me.mean_score:.1f} vs {others:.1f}"
        print(
            f"   {name:<18} {wins + ' ' + interval:<28} {scores:<18} "
            f"{spent:.1f} s, CPU {cpu:.1f} s ({1000 * cpu / args.games:.0f} ms/game)",
            flush=True,
        )


if __name__ == "__main__":
    main(sys.argv[1:])
