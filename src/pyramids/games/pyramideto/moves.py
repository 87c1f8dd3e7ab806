"""Moves of Pyramideto and their notation (documented in ``docs/notation.md``).

Why moves name pieces, not places: every pyramid is unique, so "the medium
red and what lies on it, onto the large green" (``Mr>Lg``) says everything,
whatever the order of the stacks on the table. Move values are built once at
import and shared, so ``legal_moves()`` only picks ready-made tuples.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from pyramids.engine.errors import NotationError
from pyramids.games.pyramideto.goals import GOAL_BY_ID, GOAL_COUNT, GOALS
from pyramids.games.pyramideto.pieces import CODES, PIECES, parse_piece

TABLE = -1
TABLE_WORDS = ("table", "t", "-", "_")
EXCHANGE_WORDS = ("x", "exchange", "swap")


class PyramidetoMove(NamedTuple):
    """A move.

    A piece move takes ``piece`` and every piece above it and puts them on the
    stack whose top is ``onto`` (or on the table: ``onto == TABLE``); ``card``
    is ``-1``. An exchange has ``piece == -1`` and the goal number in ``card``.
    """

    piece: int
    onto: int
    card: int = -1

    @property
    def is_exchange(self) -> bool:
        """True for an exchange of a goal card."""
        return self.piece < 0


MOVE_ONTO: tuple[tuple[PyramidetoMove, ...], ...] = tuple(
    tuple(PyramidetoMove(p, u) for u in PIECES) for p in PIECES
)
TO_TABLE: tuple[PyramidetoMove, ...] = tuple(PyramidetoMove(p, TABLE) for p in PIECES)
EXCHANGE: tuple[PyramidetoMove, ...] = tuple(
    PyramidetoMove(-1, TABLE, c) for c in range(GOAL_COUNT)
)


def move_text(move: PyramidetoMove) -> str:
    """Canonical notation: ``Mr>Lg``, ``Mr>table`` or ``x watermelon``."""
    if move.piece < 0:
        return f"x {GOALS[move.card].id}"
    return f"{CODES[move.piece]}>{'table' if move.onto < 0 else CODES[move.onto]}"


def read_move(text: str, hand: Sequence[int] = ()) -> PyramidetoMove:
    """Read a move; ``hand`` (the mover's cards, in view order) resolves ``x 2``."""
    t = text.strip().lower()
    word, _, rest = t.partition(" ")
    if word in EXCHANGE_WORDS:
        return EXCHANGE[_read_card(rest.strip(), hand, text)]
    parts = t.replace(">", " ").split()
    if len(parts) == 3 and parts[1] in ("on", "to", "onto"):
        parts = [parts[0], parts[2]]
    if len(parts) == 2:
        p = parse_piece(parts[0])
        if p is None:
            raise NotationError(
                "'{word}' is not a piece: write size+colour, e.g. Lg", text, word=parts[0]
            )
        if parts[1] in TABLE_WORDS:
            return TO_TABLE[p]
        u = parse_piece(parts[1])
        if u is None:
            raise NotationError(
                "'{word}' is neither a piece like Lg nor 'table'", text, word=parts[1]
            )
        return MOVE_ONTO[p][u]
    raise NotationError(
        "'{text}' is not a move: type e.g. 'Mr>Lg' (Mr and what is on it onto Lg), "
        "'Mr>table', or 'x watermelon' to exchange a card",
        text,
        text=text,
    )


def _read_card(name: str, hand: Sequence[int], text: str) -> int:
    goal = GOAL_BY_ID.get(name)
    if goal is not None:
        return goal.number
    for g in GOALS:
        if g.name.lower() == name:
            return g.number
    if name.isdigit():
        k = int(name)
        if 1 <= k <= len(hand):
            return hand[k - 1]
        raise NotationError("your hand has no card number {number}", text, number=k)
    raise NotationError(
        "'{word}' is not a goal card: name it by id (e.g. watermelon) or hand number",
        text,
        word=name,
    )
