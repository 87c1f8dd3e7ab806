"""Geometry of the box: spots, fields, neighbours and the turned views.

The engine keeps one fixed *internal* frame: 6 rows x 8 columns, spot
``s = row * 8 + col``, row 0 at the top as the players see the box at the
start. Internal names are upper case (``A1`` top left, ``H6`` bottom right).
Tokens never move relative to the box, so a spot index names a token for the
whole game.

Turning the box (deck 2, sandstorm) changes only what the players see. After
``k`` quarter turns clockwise the players see an 8 x 6 (odd ``k``) or 6 x 8
(even ``k``) grid and name its spots the same way, in lower case: column
letter, then row number from the top (``a1`` is the top-left spot *as seen
now*). Everything here is precomputed once at import time, because slides are
the hot path of search and random play.
"""

from __future__ import annotations

ROWS = 6
COLS = 8
SPOTS = ROWS * COLS
FIELD_ROWS = 3
FIELD_COLS = 4
FIELDS = FIELD_ROWS * FIELD_COLS


def internal_name(spot: int) -> str:
    """Upper-case name of a spot in the fixed frame of the box (``C4``)."""
    return f"{chr(ord('A') + spot % COLS)}{spot // COLS + 1}"


def field_of(spot: int) -> int:
    """The 2x2 field (0..11, row by row in the internal frame) that holds ``spot``."""
    return (spot // COLS // 2) * FIELD_COLS + (spot % COLS) // 2


def view_dims(rotation: int) -> tuple[int, int]:
    """(rows, columns) the players see after ``rotation`` quarter turns."""
    return (ROWS, COLS) if rotation % 2 == 0 else (COLS, ROWS)


def _turned(spot: int, rotation: int) -> tuple[int, int]:
    """Viewed (row, col) of a spot after ``rotation`` clockwise quarter turns.

    One clockwise quarter turn maps (r, c) of an h x w grid to (c, h - 1 - r)
    of a w x h grid.
    """
    r, c = divmod(spot, COLS)
    h, w = ROWS, COLS
    for _ in range(rotation % 4):
        r, c = c, h - 1 - r
        h, w = w, h
    return r, c


INTERNAL_NAMES: tuple[str, ...] = tuple(internal_name(s) for s in range(SPOTS))
SPOT_BY_INTERNAL: dict[str, int] = {n: s for s, n in enumerate(INTERNAL_NAMES)}

#: VIEW_CELL[k][s] = (row, col) of spot s as seen after k quarter turns.
VIEW_CELL: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(_turned(s, k) for s in range(SPOTS)) for k in range(4)
)
#: VIEW_NAME[k][s] = lower-case name of spot s as seen after k quarter turns.
VIEW_NAME: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"{chr(ord('a') + c)}{r + 1}" for r, c in VIEW_CELL[k]) for k in range(4)
)
#: SPOT_BY_VIEW[k][name] = the spot a player names ``name`` after k quarter turns.
SPOT_BY_VIEW: tuple[dict[str, int], ...] = tuple(
    {n: s for s, n in enumerate(VIEW_NAME[k])} for k in range(4)
)
#: VIEW_ORDER[k] = spots row by row as seen after k quarter turns (for drawing).
VIEW_ORDER: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(range(SPOTS), key=VIEW_CELL[k].__getitem__)) for k in range(4)
)


def _neighbours(spot: int) -> tuple[int, ...]:
    r, c = divmod(spot, COLS)
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < ROWS and 0 <= cc < COLS:
            out.append(rr * COLS + cc)
    return tuple(out)


#: Orthogonal neighbours of each spot (the spots a pyramid may slide from).
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(s) for s in range(SPOTS))
NEIGHBOUR_MASK: tuple[int, ...] = tuple(sum(1 << n for n in ns) for ns in NEIGHBOURS)
FIELD: tuple[int, ...] = tuple(field_of(s) for s in range(SPOTS))
FIELD_SPOTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in range(SPOTS) if FIELD[s] == f) for f in range(FIELDS)
)


def distance(a: int, b: int) -> int:
    """Slides needed to bring the empty spot from ``a`` to ``b`` (Manhattan distance)."""
    return abs(a // COLS - b // COLS) + abs(a % COLS - b % COLS)
