"""Pyramid geometry in quarter coordinates, precomputed at import as bitmask tables.

Why bitmasks: ``legal_moves`` of the placement step runs at every turn of
every simulated game, so the free cells, the cells touching the structure and
the adjacent empty pairs are all found with a few integer operations instead
of loops over cells.

Coordinates:

* **Floor 1** is built freely, so it lives in a 9×9 *frame* of cells (columns
  ``a``..``i``, rows ``1``..``9``); the first domino must cover the centre
  cell ``e5``. Since floor 1 may span at most 5 cells either way, it always
  stays inside the frame.
* **Floors 2–4** are fixed grids once floor 1 is done: on a 5×4 floor 1 they
  are 4×3, 3×2 and 2×1 cells (on a 4×5 one 3×4, 2×3, 1×2), labelled from
  ``a1`` at their own top-left cell.
* **Quarters**: the frame is 18×18 quarters. Floor *f* cell (column *i*, row
  *j*) of a grid whose floor 1 starts at frame cell (x0, y0) covers the 2×2
  quarters starting at quarter (2·x0 + f − 1 + 2·i, 2·y0 + f − 1 + 2·j): each
  floor is shifted by one quarter in both axes, so each of its blocks stands
  with its corner on the centres of the four blocks below.
* Quarter (qx, qy) is bit ``qy * STRIDE + qx`` of a top-view mask. The stride
  is 20, wider than the 18 quarters of a row, so that shifting a mask by one
  to the left or right never wraps into the next row (flood fill stays exact).
"""

from __future__ import annotations

from functools import cache

FRAME = 9
FRAME_CELLS = FRAME * FRAME
START_CELL = 4 * FRAME + 4  # e5, the centre of the frame
STRIDE = 20
QUARTER_SIZE = 2 * FRAME  # quarters per frame side
MAX_LONG, MAX_SHORT = 5, 4  # floor 1 fits in 5×4 or 4×5 cells
FLOOR_CELLS = (20, 12, 6, 2)  # cells of floors 1..4

# Turning a block 90° clockwise moves quarter (x, y) to (1 - y, x).
_ROT1 = (1, 3, 0, 2)


def _rotate_quarter(q: int, turns: int) -> int:
    for _ in range(turns % 4):
        q = _ROT1[q]
    return q


#: ROT_MASK[turns][mask]: a block's 4-bit jewel mask turned clockwise ``turns`` times
ROT_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << _rotate_quarter(q, r) for q in range(4) if m >> q & 1) for m in range(16))
    for r in range(4)
)


class Grid:
    """One floor's cells as bit positions, with its quarter tables (immutable, shared).

    ``offset`` is the floor's shift in quarters (floor number − 1); quarter
    tables are for a floor 1 starting at frame cell (0, 0) and are shifted
    left by ``2·y0·STRIDE + 2·x0`` for the real position.
    """

    __slots__ = (
        "black",
        "cells",
        "cols",
        "first_col",
        "floor",
        "full",
        "jewel_bits",
        "labels",
        "last_col",
        "offset",
        "pair_moves",
        "quarter_bits",
        "quarter_mask",
        "rows",
    )

    def __init__(self, cols: int, rows: int, floor: int) -> None:
        self.cols = cols
        self.rows = rows
        self.floor = floor
        self.offset = floor - 1
        self.cells = cols * rows
        self.full = (1 << self.cells) - 1
        self.first_col = sum(1 << (r * cols) for r in range(rows))
        self.last_col = self.first_col << (cols - 1)
        #: checkerboard: a domino always covers one black and one white cell
        self.black = sum(1 << c for c in range(self.cells) if (c % cols + c // cols) % 2 == 0)
        self.labels = tuple(f"{chr(97 + c % cols)}{c // cols + 1}" for c in range(self.cells))
        qbits = []
        for c in range(self.cells):
            qx = 2 * (c % cols) + self.offset
            qy = 2 * (c // cols) + self.offset
            qbits.append(tuple((qy + q // 2) * STRIDE + qx + q % 2 for q in range(4)))
        #: quarter_bits[cell][q]: bit index of quarter q of that cell
        self.quarter_bits: tuple[tuple[int, ...], ...] = tuple(qbits)
        #: quarter_mask[cell]: the 4 quarters of that cell
        self.quarter_mask: tuple[int, ...] = tuple(sum(1 << b for b in qb) for qb in qbits)
        #: jewel_bits[cell][mask]: the quarters of a 4-bit jewel mask at that cell
        self.jewel_bits: tuple[tuple[int, ...], ...] = tuple(
            tuple(sum(1 << qb[q] for q in range(4) if m >> q & 1) for m in range(16))
            for qb in qbits
        )

    def __reduce__(self) -> tuple[object, tuple[int, int, int]]:
        """Pickled as its size: unpickling gives back the shared grid (tables key on it)."""
        return (shared_grid, (self.cols, self.rows, self.floor))

    def __deepcopy__(self, memo: dict[int, object]) -> Grid:
        """Immutable and shared: ``copy.deepcopy`` of a state keeps the very grid."""
        return self

    def neighbours(self, occ: int) -> int:
        """Cells edge-adjacent to any cell of ``occ`` (``occ`` itself included)."""
        return (
            occ
            | ((occ & ~self.last_col) << 1)
            | ((occ & ~self.first_col) >> 1)
            | ((occ << self.cols) & self.full)
            | (occ >> self.cols)
        )

    def touching(self, mask: int) -> int:
        """Cells edge-adjacent to a cell of ``mask`` (``mask`` itself only where adjacent)."""
        return (
            ((mask & ~self.last_col) << 1)
            | ((mask & ~self.first_col) >> 1)
            | ((mask << self.cols) & self.full)
            | (mask >> self.cols)
        )

    def region(self, seed: int, within: int) -> int:
        """The cells of ``within`` connected edge to edge to the cells of ``seed``."""
        comp = seed & within
        while True:
            grown = (comp | self.touching(comp)) & within
            if grown == comp:
                return comp
            comp = grown

    def pairs(self, free: int) -> tuple[int, int]:
        """Bitmasks of the first cells of empty horizontal and vertical pairs within ``free``."""
        horizontal = free & (free >> 1) & ~self.last_col
        vertical = free & (free >> self.cols)
        return horizontal, vertical

    def label(self, cell: int) -> str:
        """Notation of a cell: column letter then row number (``e5``)."""
        return self.labels[cell]

    def cell_of(self, text: str) -> int | None:
        """The cell named ``text`` on this grid, or None."""
        try:
            return self.labels.index(text.strip().lower())
        except ValueError:
            return None

    def direction(self, a: int, b: int) -> int:
        """Clockwise quarter turns of a domino with block A at ``a`` and B at ``b``; -1 if apart."""
        if b == a + 1 and a % self.cols != self.cols - 1:
            return 0
        if b == a + self.cols:
            return 1
        if b == a - 1 and a % self.cols != 0:
            return 2
        if b == a - self.cols:
            return 3
        return -1


FRAME_GRID = Grid(FRAME, FRAME, 1)

#: the upper floors' grids by (floor-1 columns, floor-1 rows) and floor number
UPPER_GRIDS: dict[tuple[int, int, int], Grid] = {
    (w, h, f): Grid(w - f + 1, h - f + 1, f)
    for w, h in ((MAX_LONG, MAX_SHORT), (MAX_SHORT, MAX_LONG))
    for f in (2, 3, 4)
}


def shared_grid(cols: int, rows: int, floor: int) -> Grid:
    """The one grid of that size and floor (what a pickled grid becomes again)."""
    if floor == 1:
        return FRAME_GRID
    return UPPER_GRIDS[(cols + floor - 1, rows + floor - 1, floor)]


def fits(x0: int, y0: int, x1: int, y1: int) -> bool:
    """Whether a floor-1 bounding box (inclusive cell bounds) fits 5×4 or 4×5."""
    w = x1 - x0 + 1
    h = y1 - y0 + 1
    return (w <= MAX_LONG and h <= MAX_SHORT) or (w <= MAX_SHORT and h <= MAX_LONG)


def _span(lo: int, hi: int) -> int:
    """Frame cells whose column lies in [lo, hi] (clamped to the frame)."""
    return sum(_COLUMN[x] for x in range(max(lo, 0), min(hi, FRAME - 1) + 1))


_COLUMN = tuple(sum(1 << (y * FRAME + x) for y in range(FRAME)) for x in range(FRAME))
_ALL = (1 << FRAME_CELLS) - 1


def _rows(lo: int, hi: int) -> int:
    """Frame cells whose row lies in [lo, hi] (clamped to the frame)."""
    lo, hi = max(lo, 0), min(hi, FRAME - 1)
    if lo > hi:
        return 0
    return ((1 << ((hi - lo + 1) * FRAME)) - 1) << (lo * FRAME)


@cache
def allowed_cells(x0: int, y0: int, x1: int, y1: int) -> int:
    """Frame cells that a floor 1 with this bounding box may still grow into.

    For each orientation the box still fits, a cell is allowed when its column
    keeps the width and its row keeps the height within bounds:
    ``x1 - max_w + 1 <= x <= x0 + max_w - 1`` and the same for rows. For two
    edge-adjacent cells, the box grown by both fits exactly when the box grown
    by each fits (they share one coordinate), so a pair is allowed when both
    of its cells are in this mask.
    """
    if x1 < x0:
        return _ALL
    mask = 0
    for wide, tall in ((MAX_LONG, MAX_SHORT), (MAX_SHORT, MAX_LONG)):
        if x1 - x0 < wide and y1 - y0 < tall:
            mask |= _span(x1 - wide + 1, x0 + wide - 1) & _rows(y1 - tall + 1, y0 + tall - 1)
    return mask


@cache
def box_cells(x0: int, y0: int, x1: int, y1: int) -> int:
    """Frame cells inside a bounding box (inclusive cell bounds)."""
    return sum(
        1 << (y * FRAME + x) for y in range(max(y0, 0), y1 + 1) for x in range(max(x0, 0), x1 + 1)
    )


def quarter_shift(x0: int, y0: int) -> int:
    """How far upper-floor quarter tables shift for a floor 1 starting at frame cell (x0, y0)."""
    return 2 * y0 * STRIDE + 2 * x0


def flood(seed: int, region: int) -> int:
    """The orthogonally connected part of ``region`` that contains ``seed`` (quarter masks)."""
    comp = seed & region
    while True:
        grown = (comp | (comp << 1) | (comp >> 1) | (comp << STRIDE) | (comp >> STRIDE)) & region
        if grown == comp:
            return comp
        comp = grown
