"""Pyramido playouts: place without leaving holes, keep the single-block cards.

Why: a random builder leaves cells no domino can ever cover; each such cell
costs a single-block card and a player without two cards left is out of the
game, so random playouts are mostly about who digs the most holes, not about
areas and jewels. Playout movers here draw a few placements at random and
keep the one that leaves the fewest dead cells (``dead_cells``), and pass on
the optional card, so playouts last the whole pyramid and differ by how the
areas grow. Gems and refills stay random.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from pyramids.ai.policies import GamePolicy
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.games.pyramido import PyramidoState
from pyramids.games.pyramido.moves import PASS_MOVE, PLACE

#: placements drawn per playout move (more: fewer holes, slower playouts)
SAMPLES = 3


def playout(state: State[Any], rng: Rng) -> Hashable:
    """The least-holey of a few random placements; pass on cards; else random."""
    assert isinstance(state, PyramidoState)
    moves = state.legal_moves()
    first = moves[0]
    if first.kind == PLACE and len(moves) > 1:
        p = state.current_player
        assert p is not None
        best = first
        best_dead = 1 << 30
        for _ in range(SAMPLES):
            m = moves[rng.below(len(moves))]
            if m.kind != PLACE:
                continue
            dead = state.dead_cells(p, (1 << m.b) | (1 << m.c))
            if dead < best_dead:
                best, best_dead = m, dead
        return best
    if PASS_MOVE in moves:
        return PASS_MOVE
    return moves[rng.below(len(moves))]


POLICY = GamePolicy(
    playout=playout,
    summary="the placement leaving fewest dead cells of 3 random ones; keeps its cards",
)
