"""The geometry of the card layouts, precomputed once at import time.

Every layout of the family is the same thing to the engine: numbered
positions, and for each position the set of positions that overlap it (it is
*free* once they are all gone). That is why one engine plays them all.

``pyramid`` (the default): positions are numbered row by row from the apex:
row 1 has position 0, row 2 positions 1-2, ..., row 7 positions 21-27. A
position's label is its row letter (``A`` = apex .. ``G`` = bottom row) and its
column (1-based), so ``G1`` is the bottom-left card. The card at row r, column
c is overlapped by the two cards at row r+1, columns c and c+1.

``tripeaks``: three peaks over a shared bottom row; rows ``A`` (3 peak cards),
``B`` (6), ``C`` (9) and ``D`` (10, the bottom row), labelled like the pyramid.

``golf``: 7 columns of 5 cards; column letter ``A``..``G`` and depth 1..5
counted from the bottom of the column (the first card dealt), so ``A5`` is the
card on top of column A, free at the start, and ``A1`` the last one it frees.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class Layout:
    """Positions of a card layout and which positions overlap which."""

    name: str
    #: (row, column), both 0-based, per position
    cells: tuple[tuple[int, int], ...]
    labels: tuple[str, ...]
    #: bitmask of the positions that overlap position i (must all be gone for i to be free)
    covered_by: tuple[int, ...]
    #: positions that position i overlaps (they may become free when i goes)
    covers: tuple[tuple[int, ...], ...]
    #: horizontal place of each position for drawing, in half-card steps
    xs: tuple[int, ...] = ()
    #: covered cards lie face down whatever the ``face_down`` option says (tripeaks)
    covered_face_down: bool = False

    @property
    def size(self) -> int:
        """Number of positions."""
        return len(self.cells)

    @cached_property
    def full_mask(self) -> int:
        """Bitmask with every position set."""
        return (1 << len(self.cells)) - 1

    @cached_property
    def initially_free(self) -> int:
        """Bitmask of positions free in a fresh deal."""
        return sum(1 << i for i, m in enumerate(self.covered_by) if m == 0)

    @cached_property
    def uncovers(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Per position i: ``(bit of p, positions overlapping p)`` for each p that i overlaps.

        Why: when i goes, each p it overlapped is free once nothing overlaps
        it any more; the engine tests that at every play, so the bit and the
        mask come as one pair instead of two table lookups and a shift.
        """
        return tuple(tuple((1 << p, self.covered_by[p]) for p in c) for c in self.covers)

    @cached_property
    def view_cells(self) -> tuple[tuple[str, int, int, int | None], ...]:
        """Per position: label, row, column and (for layouts other than the pyramid) x.

        Why: a view lists every position, and it is built for every seat after
        every move on the server; the fixed facts are looked up once per layout.
        """
        own_x = self.name != "pyramid"
        return tuple(
            (label, row, col, self.xs[i] if own_x else None)
            for i, (label, (row, col)) in enumerate(zip(self.labels, self.cells, strict=True))
        )

    def index_of(self, label: str) -> int | None:
        """Position of a label (case-insensitive), or ``None``."""
        try:
            return self.labels.index(label.strip().upper())
        except ValueError:
            return None


def pyramid_layout(rows: int) -> Layout:
    """A pyramid of ``rows`` rows (7 for the game; smaller ones for tests)."""
    cells = tuple((r, c) for r in range(rows) for c in range(r + 1))
    index = {cell: i for i, cell in enumerate(cells)}
    labels = tuple(f"{chr(ord('A') + r)}{c + 1}" for r, c in cells)
    covered_by = []
    covers: list[list[int]] = [[] for _ in cells]
    for i, (r, c) in enumerate(cells):
        mask = 0
        if r + 1 < rows:
            for cc in (c, c + 1):
                j = index[(r + 1, cc)]
                mask |= 1 << j
                covers[j].append(i)
        covered_by.append(mask)
    xs = tuple(2 * c + (rows - 1 - r) for r, c in cells)
    return Layout("pyramid", cells, labels, tuple(covered_by), tuple(tuple(c) for c in covers), xs)


def _from_overlaps(
    name: str,
    cells: list[tuple[int, int]],
    labels: list[str],
    overlapped_by: dict[int, list[int]],
    xs: list[int],
    covered_face_down: bool = False,
) -> Layout:
    """Build a layout from "position i is overlapped by positions j, k" lists."""
    covered_by = [0] * len(cells)
    covers: list[list[int]] = [[] for _ in cells]
    for i, over in overlapped_by.items():
        for j in over:
            covered_by[i] |= 1 << j
            covers[j].append(i)
    return Layout(
        name,
        tuple(cells),
        tuple(labels),
        tuple(covered_by),
        tuple(tuple(c) for c in covers),
        tuple(xs),
        covered_face_down,
    )


def _tripeaks() -> Layout:
    """Three peaks: row A 3 cards, B 6, C 9, D 10; each card overlapped by two below.

    Peak p (0..2) owns B cards 2p, 2p+1 and C cards 3p..3p+2; the bottom row D
    is shared. B card (p, i) is overlapped by C cards 3p+i and 3p+i+1; C card k
    by D cards k and k+1; the apex of peak p by its two B cards.
    """
    sizes = (3, 6, 9, 10)
    cells = [(r, c) for r, n in enumerate(sizes) for c in range(n)]
    index = {cell: i for i, cell in enumerate(cells)}
    labels = [f"{chr(ord('A') + r)}{c + 1}" for r, c in cells]
    over: dict[int, list[int]] = {}
    xs = []
    for i, (r, c) in enumerate(cells):
        if r == 0:
            over[i] = [index[(1, 2 * c)], index[(1, 2 * c + 1)]]
            xs.append(6 * c + 3)
        elif r == 1:
            p, k = divmod(c, 2)
            over[i] = [index[(2, 3 * p + k)], index[(2, 3 * p + k + 1)]]
            xs.append(6 * p + 2 * k + 2)
        elif r == 2:
            over[i] = [index[(3, c)], index[(3, c + 1)]]
            xs.append(2 * c + 1)
        else:
            xs.append(2 * c)
    return _from_overlaps("tripeaks", cells, labels, over, xs, covered_face_down=True)


def golf_layout(columns: int = 7, depth: int = 5) -> Layout:
    """Columns dealt bottom card first; each card is overlapped by the one dealt on it."""
    cells = [(d, col) for col in range(columns) for d in range(depth)]
    labels = [f"{chr(ord('A') + col)}{d + 1}" for d, col in cells]
    over = {i: [i + 1] for i, (d, _) in enumerate(cells) if d + 1 < depth}
    xs = [2 * col for _, col in cells]
    return _from_overlaps("golf", cells, labels, over, xs)


PYRAMID = pyramid_layout(7)
TRIPEAKS = _tripeaks()
GOLF = golf_layout()

#: layout name -> layout (the ``layout`` variant option)
LAYOUTS: dict[str, Layout] = {lay.name: lay for lay in (PYRAMID, TRIPEAKS, GOLF)}
