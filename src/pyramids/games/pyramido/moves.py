"""Pyramido moves: one small immutable value per step of a turn.

A turn is split in steps (place, gem, card, refill; or two fills when nothing
fits) and each step is a move of its own, so that search branches over a few
dozen choices at a time instead of over every combination of a whole turn.

All kinds share one NamedTuple with the kind first, because NamedTuples of
different classes with equal fields compare equal; one class keeps every
move distinct from every other. Its int items are read by the names of what
they mean in each kind (``slot``, ``colour``, ...: see
:mod:`pyramids.games.move_items`), and built with the constructors below.
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

from pyramids.engine import names
from pyramids.games.move_items import item

StepKind = Literal["place", "mark", "card", "pass", "refill", "fill"]

PLACE: Final = "place"
MARK: Final = "mark"
CARD: Final = "card"
PASS: Final = "pass"
REFILL: Final = "refill"
FILL: Final = "fill"
KINDS: tuple[StepKind, ...] = (PLACE, MARK, CARD, PASS, REFILL, FILL)

#: the kinds of step as players see them (name kind ``step``, keyed by the kinds above)
names.register("step", {k: k for k in KINDS})


class _Items(NamedTuple):
    kind: StepKind
    a: int = -1
    b: int = -1
    c: int = -1


class PyramidoMove(_Items):
    """A step of a turn; its items by kind:

    * ``place``: :attr:`slot` of the quarry (0..2), :attr:`cell_a` and :attr:`cell_b`,
      the cells of blocks A and B;
    * ``mark``: :attr:`block` of the domino just placed (0 = A, 1 = B) that gets its gem;
    * ``card``: :attr:`colour` shown (names the card and its side), :attr:`block` covered,
      :attr:`quarter` of the jewel (0 tl, 1 tr, 2 bl, 3 br);
    * ``pass``: no single-block card this turn;
    * ``refill``: :attr:`stack` (0..3) whose top refills the empty quarry slot;
    * ``fill``: :attr:`colour` shown, empty :attr:`cell`, jewel :attr:`quarter` (no domino
      fits).

    Cells are indices on the grid of the floor being built (see ``geometry``). The
    storage items ``a``, ``b``, ``c`` hold these in that order (moves sort by them); an
    item a kind does not use is -1.
    """

    __slots__ = ()

    slot: int = item(1, "``place``: the quarry slot (0..2) the domino comes from")
    cell_a: int = item(2, "``place``: the cell of block A")
    cell_b: int = item(3, "``place``: the cell of block B")
    colour: int = item(1, "``card``, ``fill``: the colour shown (names the card and its side)")
    cell: int = item(2, "``fill``: the empty cell the card goes on")
    quarter: int = item(3, "``card``, ``fill``: the jewel's quarter (0 tl, 1 tr, 2 bl, 3 br)")
    stack: int = item(1, "``refill``: the stack (0..3) whose top refills the quarry")

    @property
    def block(self) -> int:
        """``mark``: the block (0 = A, 1 = B) that gets the gem; ``card``: the block covered."""
        return self[2] if self[0] == CARD else self[1]


def place_move(slot: int, cell_a: int, cell_b: int) -> PyramidoMove:
    """Place the domino of quarry ``slot`` with block A on ``cell_a``, B on ``cell_b``."""
    return PyramidoMove(PLACE, slot, cell_a, cell_b)


def mark_move(block: int) -> PyramidoMove:
    """Put the gem on ``block`` (0 = A, 1 = B) of the domino just placed."""
    return MARK_MOVES[block] if block in (0, 1) else PyramidoMove(MARK, block)


def card_move(colour: int, block: int, quarter: int) -> PyramidoMove:
    """Play the single-block card showing ``colour`` on ``block``, its jewel at ``quarter``."""
    return PyramidoMove(CARD, colour, block, quarter)


def refill_move(stack: int) -> PyramidoMove:
    """Refill the empty quarry slot from the top of ``stack`` (0..3)."""
    return REFILL_MOVES[stack] if 0 <= stack < len(REFILL_MOVES) else PyramidoMove(REFILL, stack)


def fill_move(colour: int, cell: int, quarter: int) -> PyramidoMove:
    """Lay the single-block card showing ``colour`` on empty ``cell`` (no domino fits)."""
    return PyramidoMove(FILL, colour, cell, quarter)


PASS_MOVE = PyramidoMove(PASS)
MARK_MOVES = (PyramidoMove(MARK, 0), PyramidoMove(MARK, 1))
REFILL_MOVES = tuple(PyramidoMove(REFILL, s) for s in range(4))
#: CARD_MOVES[colour][block][quarter]
CARD_MOVES = tuple(
    tuple(tuple(card_move(col, blk, q) for q in range(4)) for blk in range(2)) for col in range(6)
)


def is_well_formed(move: object) -> bool:
    """Whether ``move`` is a Pyramido move value at all: a kind, int items, -1 where unused.

    Each step has exactly one value, so that equal steps are equal moves (search keys
    nodes by them); whether it is *legal* is for the rules.
    """
    if type(move) is not PyramidoMove:
        return False
    kind, a, b, c = move  # the storage itself, whatever the kind
    if type(a) is not int or type(b) is not int or type(c) is not int:
        return False
    if kind in (MARK, REFILL):
        return b == -1 and c == -1
    if kind == PASS:
        return move == PASS_MOVE
    return True


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
                out += (place_move(s, a, b), place_move(s, b, a))
            return tuple(out)

        self.horizontal = tuple(pair(a, a + 1) for a in range(cells))
        self.vertical = tuple(pair(a, a + cols) for a in range(cells))
        self.fill = tuple(
            tuple(tuple(fill_move(col, c, q) for q in range(4)) for c in range(cells))
            for col in range(6)
        )
