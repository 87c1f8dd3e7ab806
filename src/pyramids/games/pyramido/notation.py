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
    card_move,
    fill_move,
    mark_move,
    place_move,
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
        return f"q{move.slot + 1} {cell(move.cell_a)} {cell(move.cell_b)}"
    if kind == MARK:
        return f"mark {block(move.block)}"
    if kind == CARD:
        return f"card {colour(move.colour)} {block(move.block)} {quarter(move.quarter)}"
    if kind == PASS:
        return "pass"
    if kind == REFILL:
        return f"refill {move.stack + 1}"
    return f"fill {colour(move.colour)} {cell(move.cell)} {quarter(move.quarter)}"


def parse_move(state: PyramidoState, text: str) -> PyramidoMove:
    """Read a step typed by a player or stored in a record (see docs/notation.md)."""
    words = text.strip().lower().split()
    grid = state._grid[state._turn]

    def cell(w: str) -> int:
        c = grid.cell_of(w)
        if c is None:
            raise NotationError(
                "'{text}': '{word}' is not a cell of floor {floor} (a1..{last}); "
                "the game's help and rules page show what to type",
                text,
                text=text,
                word=w,
                floor=state._floor,
                last=grid.labels[-1],
            )
        return c

    def block(w: str) -> int:
        if state._pa < 0:
            raise NotationError(
                "'{text}': no domino has been placed this turn, so there is no block to name; "
                "the game's help and rules page show what to type",
                text,
                text=text,
            )
        if w in ("a", "b"):
            return "ab".index(w)
        c = cell(w)
        if state._pa >= 0 and c == state._pa:
            return 0
        if state._pb >= 0 and c == state._pb:
            return 1
        raise NotationError(
            "'{text}': {word} is not a block of the domino just placed; "
            "the game's help and rules page show what to type",
            text,
            text=text,
            word=w,
        )

    def colour(w: str) -> int:
        if len(w) == 1 and w.upper() in COLOUR_LETTERS:
            return COLOUR_LETTERS.index(w.upper())
        if w in COLOURS:
            return COLOURS.index(w)
        raise NotationError(
            "'{text}': '{word}' is not a colour ({letters}); "
            "the game's help and rules page show what to type",
            text,
            text=text,
            word=w,
            letters=", ".join(COLOUR_LETTERS),
        )

    def quarter(w: str) -> int:
        if w in QUARTERS:
            return QUARTERS.index(w)
        raise NotationError(
            "'{text}': '{word}' is not a quarter (tl, tr, bl, br); "
            "the game's help and rules page show what to type",
            text,
            text=text,
            word=w,
        )

    if not words:
        raise NotationError(
            "'{text}': empty move; the game's help and rules page show what to type",
            text,
            text=text,
        )
    head, args = words[0], words[1:]
    if head == "pass" and not args:
        return PASS_MOVE
    if head in ("refill", "stack", "r") and len(args) == 1 and args[0] in ("1", "2", "3", "4"):
        return REFILL_MOVES[int(args[0]) - 1]
    if head in ("mark", "gem", "g") and len(args) == 1:
        return mark_move(block(args[0]))
    if head in ("card", "c") and len(args) == 3:
        return card_move(colour(args[0]), block(args[1]), quarter(args[2]))
    if head in ("fill", "f") and len(args) == 3:
        return fill_move(colour(args[0]), cell(args[1]), quarter(args[2]))
    if len(args) == 2:
        slot = -1
        if head in ("q1", "q2", "q3", "1", "2", "3"):
            slot = int(head[-1]) - 1
        elif head.startswith("#") and head[1:].isdigit():
            number = int(head[1:]) - 1
            if number not in state._quarry:
                raise NotationError(
                    "'{text}': domino {domino} is not in the quarry; "
                    "the game's help and rules page show what to type",
                    text,
                    text=text,
                    domino=head,
                )
            slot = state._quarry.index(number)
        if slot >= 0:
            return place_move(slot, cell(args[0]), cell(args[1]))
    raise _usage_error(head, text)


#: the kind of step each first word names, for the error when the words do not fit
_FORMS = {
    ("q1",): PLACE,
    ("mark", "gem", "g"): MARK,
    ("card", "c"): CARD,
    ("fill", "f"): FILL,
    ("refill", "stack", "r"): REFILL,
    ("pass",): PASS,
}
USAGE = {word: kind for words, kind in _FORMS.items() for word in words}


def _usage_error(head: str, text: str) -> NotationError:
    """The error for words that do not fit the step their first word names: how to write it."""
    kind = USAGE.get(head) or (PLACE if head[0] in ("q", "#", "1", "2", "3") else None)
    if kind == PLACE:
        return NotationError(
            "'{text}': write it as q<slot 1-3> <cell of A> <cell of B>, e.g. q1 e5 f5; "
            "the game's help and rules page show what to type",
            text,
            text=text,
        )
    if kind == MARK:
        return NotationError(
            "'{text}': write it as mark <cell of a block just placed>, e.g. mark e5; "
            "the game's help and rules page show what to type",
            text,
            text=text,
        )
    if kind == CARD:
        return NotationError(
            "'{text}': write it as card <colour> <cell of a block just placed> <tl|tr|bl|br>, "
            "e.g. card R e5 tl; the game's help and rules page show what to type",
            text,
            text=text,
        )
    if kind == FILL:
        return NotationError(
            "'{text}': write it as fill <colour> <empty cell> <tl|tr|bl|br>, e.g. fill G d5 tl; "
            "the game's help and rules page show what to type",
            text,
            text=text,
        )
    if kind == REFILL:
        return NotationError(
            "'{text}': write it as refill <stack 1-4>, e.g. refill 2; "
            "the game's help and rules page show what to type",
            text,
            text=text,
        )
    if kind == PASS:
        return NotationError(
            "'{text}': write it as pass (no other word); "
            "the game's help and rules page show what to type",
            text,
            text=text,
        )
    return NotationError(
        "'{text}': not a move; the game's help and rules page show what to type", text, text=text
    )
