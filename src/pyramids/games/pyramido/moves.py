"""Pyramido moves: one small immutable value per step of a turn.

A turn is split in steps (place, gem, card, refill; or two fills when nothing
fits) and each step is a move of its own, so that search branches over a few
dozen choices at a time instead of over every combination of a whole turn.

All kinds share one NamedTuple with the kind first, because NamedTuples of
different classes with equal fields compare equal; one class keeps every
move distinct from every other.
"""

from __future__ import annotations

from typing import NamedTuple

from pyramids.engine import names

PLACE = "place"
MARK = "mark"
CARD = "card"
PASS = "pass"
REFILL = "refill"
FILL = "fill"
KINDS = (PLACE, MARK, CARD, PASS, REFILL, FILL)

#: the kinds of step as players see them (name kind ``step``, keyed by the kinds above)
names.register("step", {k: k for k in KINDS})


class PyramidoMove(NamedTuple):
    """A step of a turn. Field meaning depends on ``kind``:

    * ``place``: ``a`` quarry slot (0..2), ``b`` cell of block A, ``c`` cell of block B;
    * ``mark``: ``a`` block of the domino just placed (0 = A, 1 = B) that gets its gem;
    * ``card``: ``a`` colour shown (names the card and its side), ``b`` block covered,
      ``c`` jewel quarter (0 tl, 1 tr, 2 bl, 3 br);
    * ``pass``: no single-block card this turn;
    * ``refill``: ``a`` stack (0..3) whose top refills the empty quarry slot;
    * ``fill``: ``a`` colour shown, ``b`` empty cell, ``c`` jewel quarter (no domino fits).

    Cells are indices on the grid of the floor being built (see ``geometry``).
    """

    kind: str
    a: int = -1
    b: int = -1
    c: int = -1


PASS_MOVE = PyramidoMove(PASS)
MARK_MOVES = (PyramidoMove(MARK, 0), PyramidoMove(MARK, 1))
REFILL_MOVES = tuple(PyramidoMove(REFILL, s) for s in range(4))
#: CARD_MOVES[colour][block][quarter]
CARD_MOVES = tuple(
    tuple(tuple(PyramidoMove(CARD, col, blk, q) for q in range(4)) for blk in range(2))
    for col in range(6)
)


class MoveTable:
    """Every place and fill move of one floor grid, built once (legal_moves only picks).

    ``horizontal[a]`` / ``vertical[a]`` hold, for the empty pair whose first
    cell is ``a``, the moves of all three quarry slots in both directions
    (slot by slot: A on the first cell, then A on the second); ``fill[colour][c]``
    the four jewel quarters of a card on cell ``c``.
    """

    __slots__ = ("fill", "horizontal", "vertical")

    def __init__(self, cols: int, cells: int) -> None:
        def pair(a: int, b: int) -> tuple[PyramidoMove, ...]:
            out: list[PyramidoMove] = []
            for s in range(3):
                out += (PyramidoMove(PLACE, s, a, b), PyramidoMove(PLACE, s, b, a))
            return tuple(out)

        self.horizontal = tuple(pair(a, a + 1) for a in range(cells))
        self.vertical = tuple(pair(a, a + cols) for a in range(cells))
        self.fill = tuple(
            tuple(tuple(PyramidoMove(FILL, col, c, q) for q in range(4)) for c in range(cells))
            for col in range(6)
        )
