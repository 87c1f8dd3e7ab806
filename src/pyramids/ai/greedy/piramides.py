"""A greedy Pirámides player that uses only what a player sees.

Why these preferences: a card played now always scores and never costs, so it
beats turning the stock; among playable cards, the one that uncovers the most
cards keeps the run alive longest (lowest row first breaks ties, since the
bottom rows hold most of the pyramid). The joker costs 50, so it is kept for
when the stock is empty and nothing else can move.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from pyramids.ai.base import Agent
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.games.piramides import PiramidesState


class GreedyPiramides(Agent):
    """Plays the card that frees most, else turns the stock, else uses the joker."""

    name = "greedy"
    summary = "plays the card that uncovers most; joker only as a last resort"

    def choose(self, state: State[Any], rng: Rng) -> Hashable:
        assert isinstance(state, PiramidesState)
        moves = state.legal_moves()
        plays = [m for m in moves if m.kind == "play"]
        if plays:
            layout = state.layout

            def value(m: Any) -> tuple[int, int]:
                removed = state.removed_mask | (1 << m.pos)
                freed = sum(1 for p in layout.covers[m.pos] if not layout.covered_by[p] & ~removed)
                return (freed, layout.cells[m.pos][0])

            best = max(value(m) for m in plays)
            top = [m for m in plays if value(m) == best]
            return top[rng.below(len(top))]
        for m in moves:
            if m.kind == "draw":
                return m
        return moves[0]


#: the class the registry finds by this module's name (pyramids.engine.faces)
AGENT = GreedyPiramides
