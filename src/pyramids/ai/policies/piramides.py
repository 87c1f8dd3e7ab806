"""Pirámides playouts: keep the run going, turn the stock only when stuck.

Why: uniformly random playouts turn the stock about as often as they play a
card, so they almost never clear a pyramid and every line of play looks
equally bad. A player who plays some card whenever one fits (which card is
left to chance, so playouts still differ), turns the stock only when nothing
fits, and keeps the joker for the end clears rounds now and then, which is
what separates good moves from bad ones. The utility scale is centred on what
such a player scores (about 75 points a game) and spans a few hundred points.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from pyramids.ai.policies import GamePolicy
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.games.piramides import DRAW, PLAY, USE_JOKER, PiramidesState
from pyramids.games.piramides.cards import JOKER, NEXT_RANKS


def playout(state: State[Any], rng: Rng) -> Hashable:
    """A random fitting card, else the stock, else the joker."""
    assert isinstance(state, PiramidesState)
    free = state.free_mask
    waste = state.waste
    if waste == JOKER:
        fits = free
    else:
        follow = NEXT_RANKS[waste % 13]
        fits = 0
        f = free
        while f:
            low = f & -f
            if follow >> (state.card_at(low.bit_length() - 1) % 13) & 1:
                fits |= low
            f ^= low
    if fits:
        count = fits.bit_count()
        k = rng.below(count) if count > 1 else 0
        while k:
            fits &= fits - 1
            k -= 1
        return PLAY[(fits & -fits).bit_length() - 1]
    if state.stock_left:
        return DRAW
    return USE_JOKER


POLICY = GamePolicy(
    playout=playout,
    score_center=75.0,
    score_scale=300.0,
    summary="a random fitting card, else the stock, else the joker",
)
