"""The review of the multiplayer games: each decision valued by information-set MCTS.

A decision is valued from the mover's information at that moment only: the
search (:func:`pyramids.review.ismcts.evaluate`) starts every iteration from
``state.determinize(seat, rng)``, and the moves it values are the seat's own
legal moves. The value of a move is the seat's expected result after it
(1 = first place, 0 = last; with two players, the chance of winning).

Which moves the root holds: every legal move, or, in games whose search knows
which few matter (the policy's ``candidates``: Pyramido's best placements, the
treasure hunt's sensible steps), that shortlist plus the move played. When the
shortlist is the move played alone (a treasure-hunt step along the only
sensible path), there was nothing to choose among and the move is not a
decision.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from pyramids.ai.policies import get_policy
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.review.ismcts import MoveValue, evaluate
from pyramids.review.model import Decision, Thresholds

#: moves shown as options need at least this many playouts
OPTION_VISITS = 5


#: guesses on which the playout policy names the moves a root tries first
POLICY_PICKS = 4


def root_moves(state: State[Any], move: Hashable, seed: int) -> list[Hashable]:
    """The moves a decision compares, in the order the search first tries them.

    The game's shortlist (``candidates``) and ``move``; without a shortlist,
    every legal move, those the playout policy picks on a few guesses first.
    Why an order: the search tries each root move once before it compares
    them, and with fewer iterations than moves (Pyramideto has up to 70) the
    obvious move, a win on the spot, must not be the one left untried.
    """
    legal: list[Hashable] = list(state.legal_moves())
    if len(legal) < 2:
        return legal
    policy = get_policy(state.game.id)
    seat = state.current_player
    assert seat is not None
    rng = Rng(seed)
    if policy.candidates is not None:
        # shortlists read only public knowledge, so any guess of the hidden parts will do
        short: list[Hashable] = list(policy.candidates(state.determinize(seat, rng), legal))
        if move not in short:
            short.append(move)
        return short
    first: list[Hashable] = []
    if policy.playout is not None:
        for _ in range(POLICY_PICKS):
            pick = policy.playout(state.determinize(seat, rng), rng)
            if pick not in first and pick in legal:
                first.append(pick)
    return first + [m for m in legal if m not in first]


def decision(
    state: State[Any],
    move: Hashable,
    iterations: int,
    seed: int,
    thresholds: Thresholds,
    settle: bool = True,
) -> Decision | None:
    """The review of ``move`` in ``state`` for its mover; ``None`` if there was no choice.

    ``settle``: stop once the grade is surely good (:func:`.ismcts.evaluate`'s
    ``settle_below`` at the inaccuracy band); ``False`` spends every iteration.
    """
    seat = state.current_player
    assert seat is not None
    legal = state.legal_moves()
    if len(legal) < 2:
        return None
    moves = root_moves(state, move, seed)
    if len(moves) < 2:
        return None
    band = thresholds.inaccuracy if settle else None
    stats = evaluate(state, seat, moves, iterations, seed + 1, focus=move, settle_below=band)
    mine = stats[move]
    # the rival the search compared with the move played: the one with pairs
    others = [m for m in moves if m != move]
    rival = max(others, key=lambda m: (stats[m].pairs, stats[m].visits))
    gain = stats[rival].mean_diff
    if gain <= 0:
        best, loss, noise = move, 0.0, 0.0
    else:
        best, loss, noise = rival, gain, stats[rival].diff_error
    value = mine.mean + loss
    return Decision(
        ply=state.ply,
        seat=seat,
        move=state.move_to_str(move),
        legal=len(legal),
        best=state.move_to_str(best),
        value=value,
        played=mine.mean,
        loss=loss,
        noise=noise,
        grade=thresholds.grade(max(0.0, loss - noise)),
        evidence=sum(s.visits for s in stats.values()),
        options=_options(state, stats, best),
    )


def _options(
    state: State[Any], stats: dict[Hashable, MoveValue], best: Hashable
) -> list[tuple[str, float]]:
    """The best moves found (enough playouts each), best first, at most 3."""
    seen = [m for m, s in stats.items() if s.visits >= OPTION_VISITS or m == best]
    seen.sort(key=lambda m: (m != best, -stats[m].mean))
    return [(state.move_to_str(m), stats[m].mean) for m in seen[:3]]
