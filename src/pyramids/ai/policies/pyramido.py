"""Pyramido search knowledge: greedy's shortlist in the tree, hole-free playouts.

Why a shortlist: a placement step offers up to 168 moves (3 dominoes, every
pair of empty cells, both ways round), and a few hundred playouts spread over
them cannot tell the good ones apart, so MCTS lost to ``greedy``. The tree
therefore grows, at each placement, only the ``TOP_PLACE`` placements that
``greedy`` ranks best (no dead cells, this floor's score after the gem, area
growth; :func:`~pyramids.ai.greedy.pyramido.rank_placements`), best first;
the playouts then choose among good moves instead of finding them. At the
card step it grows *pass* and the ``TOP_CARD`` cards that raise this floor's
score most (the best card first when it gains at least 3, greedy's own
threshold); at the fill step (no domino fits) the ``TOP_PLACE`` fills that
score most. Gem and refill steps have at most 2 moves and keep them all.

Why these playouts: a random builder leaves cells no domino can ever cover;
each such cell costs a single-block card and a player without two cards left
is out of the game, so random playouts are mostly about who digs the most
holes, not about areas and jewels. Playout movers here draw a few placements
at random and keep the one that leaves the fewest dead cells
(``dead_cells``), and pass on the optional card, so playouts last the whole
pyramid and differ by how the areas grow. Gems and refills stay random.
Greedier playouts were measured: they play better but cost more than they
bring (``docs/ai.md``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from pyramids.ai.greedy.pyramido import _after, rank_placements
from pyramids.ai.policies import GamePolicy
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.games.pyramido import PyramidoMove, PyramidoState
from pyramids.games.pyramido.moves import CARD, FILL, PASS_MOVE, PLACE

#: placements drawn per playout move (more: fewer holes, slower playouts)
SAMPLES = 3
#: placements (and fills) a tree node may grow
TOP_PLACE = 8
#: single-block card moves a tree node may grow besides passing
TOP_CARD = 3
#: a card that gains this much on this floor is tried before passing (greedy's rule)
CARD_FIRST_GAIN = 3


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
            dead = state.dead_cells(p, (1 << m.cell_a) | (1 << m.cell_b))
            if dead < best_dead:
                best, best_dead = m, dead
        return best
    if PASS_MOVE in moves:
        return PASS_MOVE
    return moves[rng.below(len(moves))]


def _gain_order(state: PyramidoState, p: int, moves: list[PyramidoMove]) -> list[tuple[int, int]]:
    """(gain of this floor's score, index) of each move, biggest gain first, then in order."""
    base = state.floor_score(p).total
    gains = [(_after(state, m).floor_score(p).total - base, k) for k, m in enumerate(moves)]
    gains.sort(key=lambda t: (-t[0], t[1]))
    return gains


def candidates(state: State[Any], moves: list[Any]) -> list[Any]:
    """The moves a tree node grows, best first (see the module docstring).

    Reads only the (determinized) state it is given: the quarry, the
    pyramids and the step, all public.
    """
    assert isinstance(state, PyramidoState)
    p = state.current_player
    assert p is not None
    kind = moves[0].kind
    if kind == PLACE:
        return rank_placements(state, p, moves, TOP_PLACE)
    if PASS_MOVE in moves:  # the card step
        cards = [m for m in moves if m.kind == CARD]
        gains = _gain_order(state, p, cards)[:TOP_CARD]
        useful = [cards[k] for g, k in gains if g > 0]
        if useful and gains[0][0] >= CARD_FIRST_GAIN:
            return [useful[0], PASS_MOVE, *useful[1:]]
        return [PASS_MOVE, *useful]
    if kind == FILL:
        return [moves[k] for _, k in _gain_order(state, p, moves)[:TOP_PLACE]]
    return moves


POLICY = GamePolicy(
    playout=playout,
    candidates=candidates,
    summary="greedy's best 8 placements in the tree; hole-avoiding playouts that keep the cards",
)
