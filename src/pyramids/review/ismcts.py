"""The review's search: information-set MCTS that values given moves instead of choosing one.

Below the root this is the search of :mod:`pyramids.ai.mcts` (same playout
policies, utilities, candidate shortlists, progressive widening and
availability-counted UCB1), so the review judges with the same knowledge the
``mcts`` players use. The root differs, for three reasons a move-chooser does
not have:

* a review needs each root move's *value* (mean utility and its spread), not
  only visit counts;
* the move actually played must be valued even where the game's shortlist
  (``candidates``) would never grow it: the root holds exactly the moves the
  caller asks about;
* the played move must be compared with its strongest rival on enough
  playouts, however poor UCB1 finds it: after a screening phase finds the
  rival, the two are played out in pairs on the same guesses of the hidden
  cards, so the difference between them (the loss) is measured directly
  (:func:`evaluate`).

Why the root is held here and not in ``ai.mcts.search``: none of the three
changes above belongs in a move-chooser, whose loop is the hot path of every
``mcts`` player. Below the root the review calls that search's own tree step
(:func:`pyramids.ai.mcts.iteration`), so there is one loop to tune and the
review cannot drift from what the players know.

Every iteration starts from ``state.determinize(seat, rng)``, and the real
state is asked for nothing else (the root moves are the seat's own legal
moves, which it knows). So the values depend only on the seat's information
and the seed: a test checks it.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from pyramids.ai.mcts import Node, SearchParams, iteration, utilities
from pyramids.ai.policies import GamePolicy, get_policy
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.review.profiles import profile_for

#: UCB1 exploration below and at the root (the ``mcts`` players' default)
EXPLORATION = 0.7
#: with a focus move, the share of the iterations spent finding its rival (the rest
#: compares the two, see :func:`evaluate`)
SCREEN = 0.4
#: early settling (see :func:`evaluate`): pairs before the first look, and pairs between looks
SETTLE_FIRST = 8
SETTLE_EVERY = 8
#: playouts of the screening before it may call a position decided
SETTLE_DECIDED = 32
#: how many standard errors of the mean difference must separate it from the band
SETTLE_Z = 2.0
#: progressive widening, as the ``mcts`` players do it
WIDEN_ABOVE = 16
WIDEN_K = 2.0
WIDEN_ALPHA = 0.5


@dataclass
class MoveValue:
    """What the playouts through one root move gave the seat.

    ``visits``, ``total``, ``squares``: the count, sum and sum of squares of
    the seat's utility. ``pairs``, ``diff``, ``diff_squares``: the same for the
    difference between this move and the focus move played out on the same
    guess of the hidden cards with the same random stream (see :func:`evaluate`).
    """

    visits: int = 0
    total: float = 0.0
    squares: float = 0.0
    pairs: int = 0
    diff: float = 0.0
    diff_squares: float = 0.0

    @property
    def mean(self) -> float:
        """Mean utility for the seat (0 when never visited)."""
        return self.total / self.visits if self.visits else 0.0

    @property
    def mean_diff(self) -> float:
        """Mean of (this move - the focus move) over the paired guesses (0 without pairs)."""
        return self.diff / self.pairs if self.pairs else 0.0

    @property
    def diff_error(self) -> float:
        """Standard error of :attr:`mean_diff` (0.5 with fewer than 2 pairs)."""
        n = self.pairs
        if n < 2:
            return 0.5
        var = max(0.0, (self.diff_squares - self.diff * self.diff / n) / (n - 1))
        return math.sqrt(var / n)

    def add(self, u: float) -> None:
        """Count one playout's utility."""
        self.visits += 1
        self.total += u
        self.squares += u * u

    def add_pair(self, delta: float) -> None:
        """Count one paired difference to the focus move."""
        self.pairs += 1
        self.diff += delta
        self.diff_squares += delta * delta


def review_utility(state: State[Any], policy: GamePolicy, seat: int, scale: float | None) -> float:
    """The seat's utility of a playout's last position, 0 to 1.

    Places (:func:`pyramids.ai.mcts.utilities` with no score margin), except
    once the game is over in a game whose review profile has a ``lead_scale``
    (:class:`~pyramids.review.model.ReviewProfile`): there the points by
    which the seat leads the best other seat (or trails the winner), plus half
    a scale for being ahead (minus for being behind), through ``0.5 + 0.5 *
    tanh(lead / scale)``; the sign is the ranking's (a seat out of the game
    ranks last whatever its points). A one-point win is then worth 0.77 and a
    one-point loss 0.23, a ten-point win 0.95.

    Why not places alone: Pyramido's playouts run to the end, and a
    win-or-lose result is so noisy (each playout a coin with its odds) that a
    few hundred of them cannot tell two moves apart; the margin carries the
    same verdict with less noise, as chess engines map a material lead to a
    winning chance. Why the half scale: without it a one-point win and a
    one-point loss would look nearly alike, and the move that decides a close
    game would read as a small inaccuracy.
    """
    if scale is None or not state.is_over or state.players < 2:
        return utilities(state, policy, 0.0)[seat]
    scores = state.scores()
    ranking = state.ranking()
    mine = ranking[seat]
    others = [r for p, r in enumerate(ranking) if p != seat]
    gap = abs(scores[seat] - max(s for p, s in enumerate(scores) if p != seat))
    if mine < min(others):
        lead = scale / 2 + gap
    elif mine > min(others):
        lead = -(scale / 2 + gap)
    else:
        lead = 0.0
    return 0.5 + 0.5 * math.tanh(lead / scale)


def evaluate(
    state: State[Any],
    seat: int,
    moves: Sequence[Hashable],
    iterations: int,
    seed: int,
    *,
    focus: Hashable | None = None,
    settle_below: float | None = None,
) -> dict[Hashable, MoveValue]:
    """The value for ``seat`` of each of ``moves`` (legal for ``seat``, to move in ``state``).

    Without a ``focus``, each iteration follows UCB1 over all ``moves``. With
    one (the move played), a share :data:`SCREEN` of the iterations does that
    to find the strongest other move, the *rival* (the most visited); the rest
    go in pairs: each guess of the hidden cards is played out once through the
    focus and once through the rival, both with the same random stream, and
    the rival's :attr:`MoveValue.mean_diff` is their mean difference. Why:
    the two results of a pair share the luck of the guess (which dominoes
    come, which cards the others hold), and the difference, which is what a
    review grades, is measured on every pair instead of being left to two
    means that UCB1 would have fed unevenly.

    ``settle_below`` (the first band of the grades, an inaccuracy's loss) lets
    a decision stop early when its grade is no longer in doubt: when no two
    playouts of the screening so far (at least two per move, and
    :data:`SETTLE_DECIDED`) differ for the seat by the band (the game is
    decided whatever it plays: no pair could show a loss of a band), or,
    while pairing, when the rival's
    mean difference plus :data:`SETTLE_Z` of its standard errors stays below
    the band with the standard error the whole budget would reach (the loss
    less its noise then grades good however the remaining pairs fall). Why
    stopping is a truncation and nothing else: the iterations run are the
    first ones of the full budget, on the same guesses and random streams, so
    a settled decision is the full one cut short, and any decision that might
    be flagged gets the whole budget and exactly the full review's numbers.
    Most decisions of a game are plainly good, and they are where the time
    went (``benchmarks/bench_review.py`` measures the agreement with full
    budgets). ``None``: every iteration is spent.

    Utilities are those of :func:`review_utility`: places (1 for first, 0 for
    last, so that with two players a value is a win chance), or the score
    lead made smooth where places alone are too noisy.
    """
    policy = get_policy(state.game.id)
    scale = profile_for(state.game.id).lead_scale
    params = SearchParams(
        iterations=iterations,
        seconds=None,
        c=EXPLORATION,
        margin=0.0,
        widen_above=WIDEN_ABOVE,
        widen_k=WIDEN_K,
        widen_alpha=WIDEN_ALPHA,
        game_id=state.game.id,
    )

    def by_lead(d: State[Any]) -> list[float]:
        return [review_utility(d, policy, p, scale) for p in range(d.players)]

    # below the root, the players' own search step
    step = iteration(params, policy, None if scale is None else by_lead)
    rng = Rng(seed)
    stats = {m: MoveValue() for m in moves}
    roots = {m: Node(seat) for m in moves}
    avail = dict.fromkeys(moves, 0)

    def iterate(d: State[Any], first: Hashable, r: Rng) -> float:
        """One iteration from guess ``d`` through root move ``first``: the seat's utility."""
        d.play(first)
        u = step(d, roots[first], r)[seat]
        stats[first].add(u)
        return u

    sample = state.determinizer(seat)

    def guess() -> tuple[State[Any], list[Hashable]]:
        d = sample(rng)
        legal = set(d.legal_moves())
        here = [m for m in moves if m in legal] or list(moves)
        for m in here:
            avail[m] += 1
        return d, here

    others = [m for m in moves if m != focus]
    if focus not in stats or not others:
        for _ in range(iterations):
            d, here = guess()
            iterate(d, _root_choice(here, stats, avail), rng)
        return stats
    # screening: UCB1 over every move finds the strongest rival of the move played
    # (at least one try of each other move, while that leaves half the budget to the pairs)
    screen = max(round(iterations * SCREEN), min(len(others), iterations // 2))
    if len(others) == 1:
        screen = 0
    low, high = math.inf, -math.inf
    for k in range(screen):
        d, here = guess()
        u = iterate(d, _root_choice(here, stats, avail), rng)
        low, high = min(low, u), max(high, u)
        if (
            settle_below is not None
            and k + 1 >= max(2 * len(moves), SETTLE_DECIDED)
            and high - low < settle_below
        ):
            return stats  # decided: no two playouts differ by a band, whatever is played
    rival = max(others, key=lambda m: (stats[m].visits, stats[m].mean))
    # pairing: the move played and the rival on the same guesses, with the same luck
    pairs = max(1, (iterations - screen) // 2)
    for k in range(pairs):
        d, here = guess()
        stream = rng.next_u64()
        mine = iterate(d.copy(), focus, Rng(stream))
        if rival in here:
            theirs = iterate(d, rival, Rng(stream))
            stats[rival].add_pair(theirs - mine)
        if settle_below is not None and _settled(stats[rival], k + 1, pairs, settle_below):
            break
    return stats


def _settled(rival: MoveValue, done: int, pairs: int, band: float) -> bool:
    """Whether the pairs so far leave the loss less its noise surely below ``band``.

    Looked at after :data:`SETTLE_FIRST` pairs, then every :data:`SETTLE_EVERY`.
    The bound is the mean difference plus :data:`SETTLE_Z` standard errors;
    the band is widened by the standard error that all ``pairs`` would reach,
    since the full review grades the loss less that error. Why the error is
    at least ``1 / pairs``: where a playout's result is a place (0 or 1), a
    few pairs often all tie, and their measured error, 0, would settle a
    decision that more pairs would show to lose a tenth of a win chance.
    """
    if done < SETTLE_FIRST or (done - SETTLE_FIRST) % SETTLE_EVERY or rival.pairs < 2:
        return False
    error = max(rival.diff_error, 1 / rival.pairs)
    final_error = error * math.sqrt(rival.pairs / max(pairs, rival.pairs))
    return rival.mean_diff + SETTLE_Z * error < band + final_error


def _root_choice(
    here: list[Hashable], stats: dict[Hashable, MoveValue], avail: dict[Hashable, int]
) -> Hashable:
    """UCB1 over the root moves legal in this guess; each is tried once first, in order."""
    best: Hashable = here[0]
    best_value = -math.inf
    for m in here:
        s = stats[m]
        if not s.visits:
            return m
        value = s.mean + EXPLORATION * math.sqrt(math.log(max(avail[m], 1)) / s.visits)
        if value > best_value:
            best_value, best = value, m
    return best
