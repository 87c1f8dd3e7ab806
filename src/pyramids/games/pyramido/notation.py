"""Pyramido notation: one short text per step of a turn (docs/notation.md, "## pyramido").

Cells are named on the grid of the floor being built (``e5`` on floor 1's
9×9 frame, ``a1``.. on upper floors), so notation reads like the picture the
terminal draws. Blocks of the domino just placed are named by their cell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyramids.engine.errors import NotationError
from pyramids.games.pyramido.dominoes import COLOUR_LETTERS, COLOURS, QUARTERS
from pyramids.games.pyramido.moves import (
    CARD,
    FILL,
    MARK,
    PASS,
    PASS_MOVE,
    PLACE,
    REFILL,
    REFILL_MOVES,
    PyramidoMove,
)

if TYPE_CHECKING:
    from pyramids.games.pyramido.game import PyramidoState


def move_to_str(state: PyramidoState, move: PyramidoMove) -> str:
    """See docs/notation.md: ``q2 e5 f5``, ``mark e5``, ``card R e5 tl``, ``pass``, ..."""
    grid = state._grid[state._turn]

    def cell(c: int) -> str:
        return grid.labels[c] if 0 <= c < grid.cells else f"?{c}"

    def block(b: int) -> str:
        c = state._pb if b == 1 else state._pa
        return cell(c) if b in (0, 1) and c >= 0 else "AB"[b] if b in (0, 1) else f"?{b}"

    def colour(k: int) -> str:
        return COLOUR_LETTERS[k] if 0 <= k < 6 else f"?{k}"

    def quarter(q: int) -> str:
        return QUARTERS[q] if 0 <= q < 4 else f"?{q}"

    kind = move.kind
    if kind == PLACE:
        return f"q{move.a + 1} {cell(move.b)} {cell(move.c)}"
    if kind == MARK:
        return f"mark {block(move.a)}"
    if kind == CARD:
        return f"card {colour(move.a)} {block(move.b)} {quarter(move.c)}"
    if kind == PASS:
        return "pass"
    if kind == REFILL:
        return f"refill {move.a + 1}"
    return f"fill {colour(move.a)} {cell(move.b)} {quarter(move.c)}"


def parse_move(state: PyramidoState, text: str) -> PyramidoMove:
    """Read a step typed by a player or stored in a record (see docs/notation.md)."""
    words = text.strip().lower().split()
    grid = state._grid[state._turn]

    def bad(why: str) -> NotationError:
        return NotationError(f"{text!r}: {why}; type 'help' or see docs/notation.md", text)

    def cell(w: str) -> int:
        c = grid.cell_of(w)
        if c is None:
            raise bad(f"{w!r} is not a cell of floor {state._floor} (a1..{grid.labels[-1]})")
        return c

    def block(w: str) -> int:
        if state._pa < 0:
            raise bad("no domino has been placed this turn, so there is no block to name")
        if w in ("a", "b"):
            return "ab".index(w)
        c = cell(w)
        if state._pa >= 0 and c == state._pa:
            return 0
        if state._pb >= 0 and c == state._pb:
            return 1
        raise bad(f"{w} is not a block of the domino just placed")

    def colour(w: str) -> int:
        if len(w) == 1 and w.upper() in COLOUR_LETTERS:
            return COLOUR_LETTERS.index(w.upper())
        if w in COLOURS:
            return COLOURS.index(w)
        raise bad(f"{w!r} is not a colour ({', '.join(COLOUR_LETTERS)})")

    def quarter(w: str) -> int:
        if w in QUARTERS:
            return QUARTERS.index(w)
        raise bad(f"{w!r} is not a quarter (tl, tr, bl, br)")

    if not words:
        raise bad("empty move")
    head, args = words[0], words[1:]
    if head == "pass" and not args:
        return PASS_MOVE
    if head in ("refill", "stack", "r") and len(args) == 1 and args[0] in ("1", "2", "3", "4"):
        return REFILL_MOVES[int(args[0]) - 1]
    if head in ("mark", "gem", "g") and len(args) == 1:
        return PyramidoMove(MARK, block(args[0]))
    if head in ("card", "c") and len(args) == 3:
        return PyramidoMove(CARD, colour(args[0]), block(args[1]), quarter(args[2]))
    if head in ("fill", "f") and len(args) == 3:
        return PyramidoMove(FILL, colour(args[0]), cell(args[1]), quarter(args[2]))
    if len(args) == 2:
        slot = -1
        if head in ("q1", "q2", "q3", "1", "2", "3"):
            slot = int(head[-1]) - 1
        elif head.startswith("#") and head[1:].isdigit():
            number = int(head[1:]) - 1
            if number not in state._quarry:
                raise bad(f"domino {head} is not in the quarry")
            slot = state._quarry.index(number)
        if slot >= 0:
            return PyramidoMove(PLACE, slot, cell(args[0]), cell(args[1]))
    usage = USAGE.get(head) or (USAGE["q1"] if head[0] in ("q", "#", "1", "2", "3") else None)
    raise bad(f"write it as {usage}" if usage else "not a move")


#: how each kind of step is written, for the error when the words do not fit
_FORMS = {
    ("q1",): "q<slot 1-3> <cell of A> <cell of B>, e.g. q1 e5 f5",
    ("mark", "gem", "g"): "mark <cell of a block just placed>, e.g. mark e5",
    ("card", "c"): "card <colour> <cell of a block just placed> <tl|tr|bl|br>, e.g. card R e5 tl",
    ("fill", "f"): "fill <colour> <empty cell> <tl|tr|bl|br>, e.g. fill G d5 tl",
    ("refill", "stack", "r"): "refill <stack 1-4>, e.g. refill 2",
    ("pass",): "pass (no other word)",
}
USAGE = {word: form for words, form in _FORMS.items() for word in words}
