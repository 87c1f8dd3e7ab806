"""The geometry of the card pyramid, precomputed once at import time.

Positions are numbered row by row from the apex: row 1 has position 0, row 2
positions 1-2, ..., row 7 positions 21-27. A position's label is its row letter
(``A`` = apex .. ``G`` = bottom row) and its column (1-based), so ``G1`` is the
bottom-left card. The card at row r, column c is overlapped by the two cards
at row r+1, columns c and c+1; it is *free* once both are gone.
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

    def index_of(self, label: str) -> int | None:
        """Position of a label (case-insensitive), or ``None``."""
        try:
            return self.labels.index(label.strip().upper())
        except ValueError:
            return None


def _pyramid(rows: int) -> Layout:
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
    return Layout("pyramid", cells, labels, tuple(covered_by), tuple(tuple(c) for c in covers))


PYRAMID = _pyramid(7)
