"""Pyramideto for search: goal distance as the evaluation, goal-building as the prior.

Why: random play almost never builds a three-piece tower on purpose, so
random playouts run into the 200-move limit and end drawn, which tells the
search nothing. Long playouts even with a goal-building policy were measured
worse against ``greedy`` than short ones (24, 8, 3 and 1 ply: 0, 1, 2 and 3
wins of 6 at 300 iterations), because the value of a move here is its tempo,
and a long playout completes the same goals a few moves later anyway. So a
playout is one ply of the policy, and the position is then judged by *goal
distance*: goals displayed count 1, each standing link of a goal in hand
:data:`LINK`, each of its upper pieces free to move :data:`FREE`.

The policy (also the first move MCTS tries at a new node): stand up one of
the mover's goals if one move does it, else build one of its links, else a
random move. Inside the search the state is a determinization, so the
mover's hand there is a guess drawn from what the searching seat knows.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from pyramids.ai.policies import GamePolicy
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.games.pyramideto import GOALS, PyramidetoState

#: plies a playout runs before the position is judged by :func:`evaluate`
LIMIT = 1
#: chance that a playout mover looks for a goal-completing move at all
#: (looking costs a scan of every move, and some noise keeps playouts varied)
LOOK = 0.75


def playout(state: State[Any], rng: Rng) -> Hashable:
    """Stand up one of the mover's goals, else build one of its links, else move at random.

    A link is a piece of a goal in hand put straight onto the piece it must
    stand on; moves that would pull apart a link already built are not
    counted as building.
    """
    assert isinstance(state, PyramidetoState)
    moves = state.legal_moves()
    seat = state.current_player
    if seat is not None and rng.random() < LOOK:
        above = state.above
        below = state.below
        links: dict[tuple[int, int], bool] = {}  # (lower, upper) -> completes a goal
        for g in state.hand(seat):
            a, b, c = GOALS[g].tower
            links[(a, b)] = links.get((a, b), False) or above[b] == c
            links[(b, c)] = links.get((b, c), False) or above[a] == b
        # a move can build only if its piece is the upper piece of a link; an
        # exchange's piece (-1) never is. Tested first as one int: this scan of
        # every legal move runs at every iteration of the search
        uppers = {upper for _, upper in links}
        building = []
        for m in moves:
            piece = m[0]
            if piece not in uppers:
                continue
            done = links.get((m[1], piece))
            if done is None:
                continue
            if done:
                return m
            if (below[piece], piece) not in links:
                building.append(m)
        if building:
            return building[rng.below(len(building))]
    return moves[rng.below(len(moves))]


#: value of one link of a goal in hand standing, and of one of its upper
#: pieces free to move (a displayed goal is worth 1)
LINK = 1 / 3
FREE = 1 / 20


def evaluate(state: State[Any]) -> list[float]:
    """Goal distance: goals displayed, links of goals in hand standing, pieces free to move."""
    assert isinstance(state, PyramidetoState)
    above = state.above
    out = []
    for seat in range(state.players):
        value = float(len(state.displayed(seat)))
        for g in state.hand(seat):
            a, b, c = GOALS[g].tower
            value += LINK * ((above[a] == b) + (above[b] == c))
            value += FREE * ((above[b] < 0 or above[b] == c) + (above[c] < 0))
        out.append(value)
    return out


POLICY = GamePolicy(
    playout=playout,
    playout_limit=LIMIT,
    evaluate=evaluate,
    score_scale=1.0,
    summary="completes or builds the mover's goals; one ply, then judged by goal distance",
)
