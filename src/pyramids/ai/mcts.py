"""Information-set Monte Carlo tree search, written once over the engine contract.

How one iteration goes (single-observer ISMCTS, Cowling, Powley and Whitehouse
2012): draw a full state from what the acting seat knows with
``state.determinize(seat, rng)``; walk down the tree choosing, among the moves
legal *in that guess*, the child with the best UCB1 score; add one new child;
finish the game with the playout policy; credit every node on the path with
the utility of the seat that chose its move. Because each guess is different,
a move is not always available, so a child's exploration term uses how often
it was *available* instead of its parent's visits.

Why this shape:

* The search never reads the real hidden state: every iteration starts from
  a fresh determinization (the real state is only asked for its current
  player and its legal moves, which the acting seat knows). A test checks
  this by searching two states that share the seat's view.
* Chance inside a move (a card drawn) comes from the determinized state's own
  stream, which ``determinize`` replaces, so it differs per iteration too.
* Where a position has many moves (``pyramido`` placements), progressive
  widening lets a node grow a new child only as its visits grow, so visits
  are not spread over hundreds of moves tried once each.
* Where the game knows which few of those moves matter (its policy's
  ``candidates`` hook, ``pyramido``: greedy's best placements), a node grows
  only those, best first: playouts are good at choosing among good moves and
  poor at finding them among a hundred.
* Root parallelism: ``workers`` independent trees, each with a seed drawn
  from the caller's ``rng``, merged by summing root visits. The same seed and
  budget give the same move whether the trees run in processes or in turn.

Utilities are in ``[0, 1]``: with several players, 1 for first place and 0
for last (tied seats share the average of their places) blended with a small
score-margin term; a solitaire maps its score through the game's scale
(:mod:`pyramids.ai.policies`). See ``docs/ai.md``.
"""

from __future__ import annotations

import atexit
import math
import time
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from pyramids.ai.base import Agent
from pyramids.ai.errors import AgentError
from pyramids.ai.policies import DEFAULT_POLICY, GamePolicy, get_policy
from pyramids.engine.records import replay
from pyramids.engine.rng import Rng
from pyramids.engine.state import State


@dataclass(frozen=True)
class Budget:
    """How long one decision may search: whichever limit comes first.

    ``seconds=None`` means no time limit, which makes the decision a pure
    function of the seed (a time limit depends on the machine's speed).
    """

    iterations: int | None
    seconds: float | None
    #: sampled worlds for the positions a game decides without a tree
    #: (:attr:`~pyramids.ai.policies.GamePolicy.decide`: the treasure hunt);
    #: 0: the tree decides every position
    worlds: int = 0


#: Difficulty levels (documented in docs/ai.md). ``hard`` is capped at 1.5 s so
#: that it answers within 2 s even where the iteration budget is not reached;
#: 2,000 iterations took a quarter of the cap in Pirámides and Pyramideto, so it
#: has 8,000: they fit in Pirámides, and Pyramideto gets 4,000-8,000 before the
#: cap (8,000 won 87% against greedy, 2,000 won 74%); Pyramido and the treasure
#: hunt stop at the cap either way. ``worlds``: ``hard`` decides the treasure
#: hunt without a tree, by flat Monte Carlo in 4 worlds, which beat the tree at
#: 3 and 4 players (8 were no better); ``easy`` and ``medium`` keep the tree,
#: because one world already plays as well as four (58% of 2-player games
#: against ``greedy``): with worlds they would be ``hard`` (docs/ai.md,
#: "Difficulty levels").
LEVELS: dict[str, Budget] = {
    "easy": Budget(iterations=100, seconds=0.5, worlds=0),
    "medium": Budget(iterations=500, seconds=1.0, worlds=0),
    "hard": Budget(iterations=8000, seconds=1.5, worlds=4),
}


@dataclass(frozen=True)
class SearchParams:
    """Everything one tree search needs besides the state and the seed (picklable)."""

    iterations: int | None
    seconds: float | None
    c: float
    margin: float
    widen_above: int
    widen_k: float
    widen_alpha: float
    game_id: str
    #: "policy": the game's playout policy (and its shortlist hook); "random":
    #: uniformly random playouts to the end and every legal move in the tree
    playouts: str = "policy"


class Node:
    """A tree node: the move into it was chosen by ``player``."""

    __slots__ = ("avail", "children", "n", "order", "player", "w")

    def __init__(self, player: int) -> None:
        self.player = player
        self.children: dict[Hashable, Node] = {}
        self.n = 0
        self.w = 0.0
        self.avail = 1
        #: the policy's candidate moves here, best first (computed once, on the
        #: first determinization that reaches the node; ``None`` until then)
        self.order: list[Any] | None = None


def utilities(state: State[Any], policy: GamePolicy, margin: float) -> list[float]:
    """Each seat's utility in ``[0, 1]`` for a finished (or cut-off) position.

    Several players: place utility ``(n - place) / (n - 1)``, tied seats
    sharing the mean of the places they occupy, blended with weight
    ``margin`` with the seat's score relative to the lowest and highest
    score. One player: ``0.5 + 0.5 * tanh((score - center) / scale)``.
    A position cut off before the end is scored by the policy's ``evaluate``
    when it has one: ``0.5 + 0.5 * tanh(lead / scale)``, where ``lead`` is the
    seat's estimate minus the best other seat's, because small differences
    between estimates should not flip a whole place.
    """
    n = state.players
    if policy.evaluate is not None and not state.is_over:
        guess = policy.evaluate(state)
        if n == 1:
            return [0.5 + 0.5 * math.tanh((guess[0] - policy.score_center) / policy.score_scale)]
        # a guess is not a result: how far ahead of the best other seat, smoothly
        return [
            0.5 + 0.5 * math.tanh((g - max(guess[:seat] + guess[seat + 1 :])) / policy.score_scale)
            for seat, g in enumerate(guess)
        ]
    scores = state.scores()
    ranking = state.ranking() if n > 1 else [1]
    if n == 1:
        return [0.5 + 0.5 * math.tanh((scores[0] - policy.score_center) / policy.score_scale)]
    lo, hi = min(scores), max(scores)
    out = []
    for seat in range(n):
        r = ranking[seat]
        tied = ranking.count(r)
        place = (n - r - (tied - 1) / 2) / (n - 1)
        spread = (scores[seat] - lo) / (hi - lo) if hi > lo else 0.5
        out.append((1.0 - margin) * place + margin * spread)
    return out


#: what a search credits each seat with at the end of a playout (one utility a seat)
Valuation = Callable[[State[Any]], list[float]]
#: one iteration below a node: walk down a guess, grow a child, play out, back up
Iteration = Callable[[State[Any], Node, Rng], list[float]]


def iteration(
    params: SearchParams, policy: GamePolicy, value: Valuation | None = None
) -> Iteration:
    """The tree step of the search, bound once to its parameters and the game's policy.

    The returned function takes a determinized state ``d`` standing at
    ``node`` and the random stream: it walks down (UCB1 with availability
    counts, shortlist and widening), grows one child, plays the game out with
    the policy, and credits every node on the path, ``node`` included, with
    the utility of the seat that chose its move; it returns every seat's
    utility. Utilities are :func:`utilities` with ``params.margin`` unless
    ``value`` says otherwise.

    Why a factory: the search's hot loop reads its tables from locals bound
    once, and the review (:mod:`pyramids.review.ismcts`) needs this very
    step below root moves it holds itself, so there is one loop to tune.
    """
    # None: uniformly random playouts (State.random_move, played unchecked)
    playout = policy.playout
    limit = policy.playout_limit
    candidates = policy.candidates
    c = params.c
    margin = params.margin
    widen_above = params.widen_above
    widen_k = params.widen_k
    widen_alpha = params.widen_alpha
    log, sqrt = math.log, math.sqrt  # read for every child scored, tens a step

    def iterate(d: State[Any], node: Node, rng: Rng) -> list[float]:
        path = [node]
        while not d.is_over:
            moves = d.legal_moves()
            children = node.children
            ranked = False
            if candidates is not None and len(moves) > 1:
                # the game's ranking, kept on the node: grow its best moves first
                order = node.order
                if order is None:
                    order = node.order = candidates(d, moves)
                legal = set(moves)
                shortlist = [m for m in order if m in legal]
                if shortlist:  # else this guess differs too much: every move, as usual
                    moves = shortlist
                    ranked = True
            if len(moves) > widen_above:
                width = max(1, int(widen_k * (node.n + 1) ** widen_alpha))
            else:
                width = len(moves)
            best: Node | None = None
            best_move: Hashable = None
            expand = False
            from_policy = False
            if len(children) < width:
                if ranked:
                    best_move = next((m for m in moves if m not in children), None)
                    expand = best_move is not None
                # the playout policy's choice first: where widening keeps only a
                # few children, the obvious move must be among them
                elif playout is not None and not children:
                    best_move = playout(d, rng)
                    expand = from_policy = True
                else:
                    untried = [m for m in moves if m not in children]
                    if untried:
                        best_move = untried[rng.below(len(untried))]
                        expand = True
            if not expand:
                best_value = -math.inf
                for m in moves:
                    child = children.get(m)
                    if child is None:
                        continue
                    child.avail += 1
                    score = child.w / child.n + c * sqrt(log(child.avail) / child.n)
                    if score > best_value:
                        best_value, best, best_move = score, child, m
                if best is None:  # no child is legal in this guess: grow one anyway
                    best_move = moves[rng.below(len(moves))]
            mover = d.current_player
            assert mover is not None
            # every move here comes from d.legal_moves() (or the playout policy's choice)
            if from_policy:
                d.play(best_move)
            else:
                d.play_legal(best_move)
            if best is None:
                best = children[best_move] = Node(mover)
                path.append(best)
                break
            node = best
            path.append(best)
        plies = 0
        if playout is not None:  # a policy's move is checked; a random one is legal already
            while not d.is_over and (limit is None or plies < limit):
                d.play(playout(d, rng))
                plies += 1
        else:
            while not d.is_over and (limit is None or plies < limit):
                d.play_legal(d.random_move(rng))
                plies += 1
        u = utilities(d, policy, margin) if value is None else value(d)
        for visited in path:
            visited.n += 1
            visited.w += u[visited.player]
        return u

    return iterate


def search(state: State[Any], seat: int, seed: int, params: SearchParams) -> dict[Any, int]:
    """Grow one tree from ``state`` for ``seat``; the root's visit count per move.

    A module-level function so that worker processes can run it.
    """
    policy = DEFAULT_POLICY if params.playouts == "random" else get_policy(params.game_id)
    iterate = iteration(params, policy)
    rng = Rng(seed)
    root = Node(seat)
    deadline = None if params.seconds is None else time.perf_counter() + params.seconds
    done = 0
    sample = state.determinizer(seat)  # what every guess shares, worked out once
    while params.iterations is None or done < params.iterations:
        if deadline is not None and done and time.perf_counter() >= deadline:
            break
        done += 1
        iterate(sample(rng), root, rng)
    return {m: child.n for m, child in root.children.items()}


def search_record(
    record: dict[str, Any], seat: int, seed: int, params: SearchParams
) -> dict[Any, int]:
    """:func:`search` on the position a record leads to (what worker processes run).

    Why a record and not the pickled state: the record is the project's one
    stable way to move a game between processes, whatever a game keeps in
    its state (shared geometry tables, caches keyed by identity).
    """
    return search(replay(record), seat, seed, params)


_POOLS: dict[int, ProcessPoolExecutor] = {}


def _pool(workers: int) -> ProcessPoolExecutor:
    """A process pool kept for the life of the program (starting one costs ~0.1 s)."""
    pool = _POOLS.get(workers)
    if pool is None:
        pool = _POOLS[workers] = ProcessPoolExecutor(max_workers=workers)
    return pool


@atexit.register
def _close_pools() -> None:
    for pool in _POOLS.values():
        pool.shutdown(wait=False, cancel_futures=True)
    _POOLS.clear()


def _number(name: str, value: Any, kind: type, minimum: float, allow_none: bool = False) -> Any:
    """Check an option (accepting text from the command line); the AgentError names it."""
    if value is None and allow_none:
        return None
    try:
        if isinstance(value, bool):
            raise ValueError
        number = kind(value)
    except (TypeError, ValueError):
        raise AgentError(
            "mcts option {option} must be a number, not {value}",
            code="agent-option",
            option=name,
            value=repr(value),
        ) from None
    if number < minimum:
        raise AgentError(
            "mcts option {option} must be at least {minimum}, not {value}",
            code="agent-option",
            option=name,
            minimum=f"{minimum:g}",
            value=repr(value),
        )
    return number


class MCTSAgent(Agent):
    """Information-set MCTS with UCB1, progressive widening and root parallelism.

    Options (all may be given as text, as the command line does):
    ``level`` (easy/medium/hard, see :data:`LEVELS`; default medium) sets the
    budget; ``iterations`` and ``seconds`` override it (``seconds=0`` removes
    the time limit, making decisions reproducible for a seed); ``c``
    exploration constant; ``margin`` weight of the score margin in the
    utility; ``workers`` trees searched in parallel processes (``parallel=False``
    runs them in turn, same result); ``widen_above``, ``widen_k``,
    ``widen_alpha``: a node with more legal moves than ``widen_above`` may hold
    ``widen_k * visits ** widen_alpha`` children; ``worlds`` sampled worlds in
    which every option is played out where the game decides without a tree
    (the treasure hunt: :attr:`~pyramids.ai.policies.GamePolicy.decide`; by
    level: 4 for ``hard``, else 0, which leaves every position to the tree);
    ``playouts`` is ``policy``
    (the game's playout policy, default) or ``random`` (uniformly random
    playouts and no shortlist, the plain algorithm other libraries run, for
    comparisons).
    """

    name = "mcts"
    summary = "information-set Monte Carlo tree search (levels easy, medium, hard)"

    def __init__(
        self,
        level: str = "medium",
        iterations: int | str | None = None,
        seconds: float | str | None = None,
        c: float | str = 0.7,
        margin: float | str = 0.1,
        workers: int | str = 1,
        parallel: bool | str = True,
        widen_above: int | str = 16,
        widen_k: float | str = 2.0,
        widen_alpha: float | str = 0.5,
        playouts: str = "policy",
        worlds: int | str | None = None,
    ) -> None:
        if level not in LEVELS:
            raise AgentError(
                "mcts level must be one of {levels}, not {level}",
                code="agent-level",
                levels=", ".join(LEVELS),
                level=repr(level),
            )
        budget = LEVELS[level]
        its = budget.iterations if iterations is None else _number("iterations", iterations, int, 1)
        if seconds is None:
            secs = budget.seconds
        else:
            secs = _number("seconds", seconds, float, 0.0) or None
        if its is None and secs is None:
            raise AgentError("mcts needs an iteration or a time budget", code="agent-option")
        if playouts not in ("policy", "random"):
            raise AgentError(
                "mcts option playouts must be policy or random, not {value}",
                code="agent-option",
                value=repr(playouts),
            )
        self.level = level
        self.worlds: int = budget.worlds if worlds is None else _number("worlds", worlds, int, 0)
        self.workers: int = _number("workers", workers, int, 1)
        if isinstance(parallel, str):
            parallel = parallel.lower() not in ("0", "false", "no", "off")
        self.parallel = bool(parallel)
        self.params = SearchParams(
            iterations=its,
            seconds=secs,
            c=_number("c", c, float, 0.0),
            margin=_number("margin", margin, float, 0.0),
            widen_above=_number("widen_above", widen_above, int, 1),
            widen_k=_number("widen_k", widen_k, float, 0.1),
            widen_alpha=_number("widen_alpha", widen_alpha, float, 0.0),
            game_id="",
            playouts=playouts,
        )
        if self.params.margin > 1:
            raise AgentError("mcts option margin must be between 0 and 1", code="agent-option")
        #: root visits of the last decision (for analysis and tests)
        self.last_visits: dict[Any, int] = {}

    def choose(self, state: State[Any], rng: Rng) -> Hashable:
        seat = state.current_player
        if seat is None:
            raise ValueError("no legal move: the game is over")
        moves = state.legal_moves()
        seeds = [rng.next_u64() for _ in range(self.workers)]
        if len(moves) == 1:
            self.last_visits = {moves[0]: 0}
            only: Hashable = moves[0]
            return only
        policy = get_policy(state.game.id)
        if policy.decide is not None and self.worlds and self.params.playouts == "policy":
            # positions the game settles by playing every option out (a seeded
            # stream of their own: the caller's rng advances as for a search)
            seconds = self.params.seconds
            deadline = None if seconds is None else time.perf_counter() + seconds
            decided = policy.decide(state, moves, seat, Rng(seeds[0]), self.worlds, deadline)
            if decided is not None:
                self.last_visits = {decided: 0}
                return decided
        candidates = policy.candidates
        if candidates is not None and self.params.playouts == "policy":
            # a one-move shortlist is the search's answer anyway (the root grows
            # only that child): skip the search. Shortlists read only public
            # knowledge, so any guess (seeded here, the caller's rng untouched) will do.
            short = candidates(state.determinize(seat, Rng(seeds[0])), moves)
            if len(short) == 1:
                self.last_visits = {short[0]: 0}
                first: Hashable = short[0]
                return first
        params = replace(self.params, game_id=state.game.id)
        if self.workers > 1 and params.iterations is not None:
            share = -(-params.iterations // self.workers)
            params = replace(params, iterations=share)
        if self.workers > 1 and self.parallel:
            pool = _pool(self.workers)
            record = state.record()
            futures = [pool.submit(search_record, record, seat, s, params) for s in seeds]
            results = [f.result() for f in futures]
        else:
            results = [search(state, seat, s, params) for s in seeds]
        return self._best(moves, results)

    def _best(self, moves: Sequence[Hashable], results: list[dict[Any, int]]) -> Hashable:
        """The legal move with the most root visits over all trees (first in order on ties)."""
        visits: dict[Any, int] = {}
        for result in results:
            for m, n in result.items():
                visits[m] = visits.get(m, 0) + n
        self.last_visits = visits
        return max(moves, key=lambda m: visits.get(m, 0))

    def __repr__(self) -> str:
        p = self.params
        return (
            f"<Agent mcts level={self.level} iterations={p.iterations} seconds={p.seconds} "
            f"worlds={self.worlds}>"
        )
