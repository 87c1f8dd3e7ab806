"""Treasure-hunt playouts: head for the sought treasure along blank spots.

Why: a random slider wanders for thousands of slides (a random game of two
players takes over 3,000), so random playouts are slow and say little. Inside
a playout the state is a determinization: its tokens are one guess at the
layout drawn from everything revealed so far, which is the perfect-memory
belief of the searching seat. Playout movers walk the empty spot toward the
guessed spot of the treasure they seek, stepping on spots that hold a blank
token when they can (revealing another treasure ends the search), with a
little noise so that playouts differ. Event decisions (naming, giving) stay
random.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from pyramids.ai.policies import GamePolicy
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.games.pyramido_treasure import SLIDES, TreasureState
from pyramids.games.pyramido_treasure.board import NEIGHBOURS, SPOTS, distance

#: chance of a random slide instead of a guided one
NOISE = 0.1


def playout(state: State[Any], rng: Rng) -> Hashable:
    """A slide toward the sought treasure's guessed spot, else a random move."""
    assert isinstance(state, TreasureState)
    card = state.sought
    if state.phase != "search" or not 0 <= card < 48 or rng.random() < NOISE:
        moves = state.legal_moves()
        return moves[rng.below(len(moves))]
    token = (card >> 2) + 1
    target = next((s for s in range(SPOTS) if state.token_at(s) == token), -1)
    empty = state.empty_spot
    best = -1
    best_key = (1 << 30, 0)
    for n in NEIGHBOURS[empty]:
        t = state.token_at(n)
        # blank or the target first, then closer to the target
        key = (0 if t in (0, token) else 1, distance(n, target) if target >= 0 else 0)
        if key < best_key:
            best, best_key = n, key
    return SLIDES[best]


POLICY = GamePolicy(
    playout=playout,
    playout_limit=200,
    summary="walks toward the sought treasure's guessed spot over blank tokens",
)
