"""A greedy Pyramido player: best immediate score and area growth, no holes.

Why these preferences: a cell that no domino can cover later must be filled
with single-block cards, two per turn, and a player without two cards left is
out of the game, so the first concern is never to leave such a cell (counted
by ``PyramidoState.dead_cells``: isolated cells, and regions whose checkerboard
colours do not balance). Among
safe placements it takes the one that makes this floor's score highest once
its gem is placed, then the one whose blocks join the areas with most jewels
(area growth pays on later floors too). Cards are kept for emergencies and the
tie-break unless one raises the floor score by at least ``card_gain`` points.
Everything it looks at is public (pyramids, quarry, stack tops).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from pyramids.ai.base import Agent
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.games.pyramido import PyramidoMove, PyramidoState


def _after(state: PyramidoState, move: PyramidoMove) -> PyramidoState:
    s = state.copy()
    s.play(move)
    return s


def _best_gem_score(state: PyramidoState, p: int) -> int:
    """This floor's score for ``p`` after the best gem (if the gem step is due)."""
    if state.step != "mark" or state.current_player != p:
        return state.floor_score(p).total
    return max(_after(state, m).floor_score(p).total for m in state.legal_moves())


def rank_placements(
    state: PyramidoState, p: int, moves: list[PyramidoMove], keep: int
) -> list[PyramidoMove]:
    """Greedy's order of the placements ``moves`` for ``p``, best first, at most ``keep``.

    The order :class:`GreedyPyramido` plays by: fewest dead cells, then this
    floor's score after the best gem, then the jewels of the areas the blocks
    join; equal moves keep their order in ``moves``. Only the safest levels of
    dead cells are scored (scoring a placement means playing it on a copy),
    until ``keep`` moves are ranked, so that search can afford it at every node.
    """
    dead: dict[tuple[int, int], int] = {}
    level_of: list[int] = []
    for m in moves:
        key = (m.cell_a, m.cell_b) if m.cell_a < m.cell_b else (m.cell_b, m.cell_a)
        d = dead.get(key)
        if d is None:
            d = dead[key] = state.dead_cells(p, (1 << m.cell_a) | (1 << m.cell_b))
        level_of.append(d)
    out: list[PyramidoMove] = []
    for level in sorted(set(level_of)):
        scored = []
        for k, m in enumerate(moves):
            if level_of[k] == level:
                after = _after(state, m)
                growth = after.area_jewels(p, m.cell_a) + after.area_jewels(p, m.cell_b)
                scored.append((-_best_gem_score(after, p), -growth, k))
        scored.sort()
        out.extend(moves[k] for _, _, k in scored)
        if len(out) >= keep:
            break
    return out[:keep]


class GreedyPyramido(Agent):
    """Plays the safe placement that scores most now; cards only for a clear gain."""

    name = "greedy"
    summary = "avoids holes, maximises the floor score and area growth; saves cards"

    def __init__(self, card_gain: int = 3) -> None:
        self.card_gain = card_gain

    def choose(self, state: State[Any], rng: Rng) -> Hashable:
        assert isinstance(state, PyramidoState)
        p = state.current_player
        assert p is not None
        moves = state.legal_moves()
        if not moves:
            raise ValueError("no legal move: the game is over")
        step = state.step
        if step == "place":
            return self._place(state, p, moves, rng)
        if step in ("mark", "fill"):
            return self._best(moves, lambda m: _after(state, m).floor_score(p).total, rng)
        if step == "card":
            base = state.floor_score(p).total
            best = self._best(moves, lambda m: _after(state, m).floor_score(p).total, rng)
            gain = _after(state, best).floor_score(p).total - base
            return best if gain >= self.card_gain else moves[0]
        return moves[rng.below(len(moves))]

    @staticmethod
    def _best(moves: list[PyramidoMove], value: Any, rng: Rng) -> PyramidoMove:
        scored = [(value(m), m) for m in moves]
        top = max(v for v, _ in scored)
        best = [m for v, m in scored if v == top]
        return best[rng.below(len(best))]

    def _place(
        self, state: PyramidoState, p: int, moves: list[PyramidoMove], rng: Rng
    ) -> PyramidoMove:
        dead: dict[tuple[int, int], int] = {}
        for m in moves:
            key = (min(m.cell_a, m.cell_b), max(m.cell_a, m.cell_b))
            if key not in dead:
                dead[key] = state.dead_cells(p, (1 << m.cell_a) | (1 << m.cell_b))
        fewest = min(dead.values())
        safe = [
            m for m in moves if dead[(min(m.cell_a, m.cell_b), max(m.cell_a, m.cell_b))] == fewest
        ]

        def value(m: PyramidoMove) -> tuple[int, int]:
            after = _after(state, m)
            growth = after.area_jewels(p, m.cell_a) + after.area_jewels(p, m.cell_b)
            return (_best_gem_score(after, p), growth)

        return self._best(safe, value, rng)


#: the class the registry finds by this module's name (pyramids.engine.faces)
AGENT = GreedyPyramido
