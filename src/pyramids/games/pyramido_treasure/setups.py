"""Treasure-hunt setups as records write them, and reading them back (checked).

A setup names every token and pyramid colour row by row in the box's fixed
frame (``board.py``) and lists the three decks as card names; reading checks
what the rules fix (one treasure per field, one empty spot, each deck's
cards) so that a tampered record fails with the field at fault.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pyramids.engine.errors import RecordError
from pyramids.engine.variant import VariantValue
from pyramids.games.pyramido_treasure.board import COLS, FIELD_SPOTS, FIELDS, ROWS
from pyramids.games.pyramido_treasure.treasures import (
    BLANK,
    CARD_BY_NAME,
    DECKS,
    GAME_OVER,
    N_TREASURES,
    TOKEN_BY_NAME,
    TOKEN_NAMES,
    TREASURES,
)

#: the letter of each pyramid value: 0 = no pyramid; red, yellow, blue are decoration
COLOR_CHARS = ".RYB"


def token_rows(tokens: Sequence[int]) -> list[list[str]]:
    """Token names row by row (the setup's ``tokens``)."""
    return [[TOKEN_NAMES[tokens[r * COLS + c]] for c in range(COLS)] for r in range(ROWS)]


def pyramid_rows(colours: Sequence[int]) -> list[str]:
    """Pyramid letters row by row (the setup's ``pyramids``; ``.`` the empty spot)."""
    return ["".join(COLOR_CHARS[colours[r * COLS + c]] for c in range(COLS)) for r in range(ROWS)]


def decks_of(variant: Mapping[str, VariantValue]) -> tuple[tuple[int, ...], ...]:
    """The three decks this variant plays with (deck 3 without the game-over card if off)."""
    if variant.get("game_over_card", True):
        return DECKS
    return (*DECKS[:2], tuple(c for c in DECKS[2] if c != GAME_OVER))


def read_tokens(rows: Any, shuffled: bool) -> tuple[int, ...]:
    """The token layout, by internal spot; ``shuffled``: any treasure may lie in any field."""
    if not isinstance(rows, list) or len(rows) != ROWS:
        raise RecordError(
            "setup.tokens", "must be {rows} rows of {cols} token names", rows=ROWS, cols=COLS
        )
    tokens: list[int] = []
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != COLS:
            raise RecordError(f"setup.tokens[{r}]", "must list {cols} token names", cols=COLS)
        for c, name in enumerate(row):
            token = TOKEN_BY_NAME.get(name) if isinstance(name, str) else None
            if token is None:
                raise RecordError(
                    f"setup.tokens[{r}][{c}]",
                    "{value} is not 'blank' or a treasure name",
                    value=repr(name),
                )
            tokens.append(token)
    for f in range(FIELDS):
        inside = [tokens[s] for s in FIELD_SPOTS[f] if tokens[s] != BLANK]
        if len(inside) != 1:
            raise RecordError(
                "setup.tokens", "field {number} must hold exactly one treasure token", number=f
            )
        if not shuffled and inside[0] != f + 1:
            raise RecordError(
                "setup.tokens",
                "field {number} must hold the {treasure} (variant shuffle_fields is off)",
                number=f,
                treasure=TREASURES[f].name,
            )
    if sorted(t for t in tokens if t != BLANK) != list(range(1, N_TREASURES + 1)):
        raise RecordError("setup.tokens", "must hold every treasure exactly once")
    return tuple(tokens)


def read_pyramids(rows: Any) -> tuple[int, int]:
    """The pyramids packed two bits a spot (see ``game.py``), and the one empty spot."""
    if not isinstance(rows, list) or len(rows) != ROWS:
        raise RecordError(
            "setup.pyramids",
            "must be {rows} strings of {cols} of R, Y, B, '.'",
            rows=ROWS,
            cols=COLS,
        )
    colours = 0
    empties = []
    for r, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != COLS or any(ch not in "RYB." for ch in row):
            raise RecordError(f"setup.pyramids[{r}]", "must be {cols} of R, Y, B or '.'", cols=COLS)
        for c, ch in enumerate(row):
            s = r * COLS + c
            if ch == ".":
                empties.append(s)
            colours |= COLOR_CHARS.index(ch) << (s << 1)
    if len(empties) != 1:
        raise RecordError("setup.pyramids", "exactly one spot must be empty ('.')")
    return colours, empties[0]


def read_decks(decks: Any, expected: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """The three decks as card types, each holding exactly the cards of ``expected``."""
    if not isinstance(decks, list) or len(decks) != 3:
        raise RecordError("setup.decks", "must be the three decks, each a list of card names")
    out = []
    for d, deck in enumerate(decks):
        if not isinstance(deck, list):
            raise RecordError(f"setup.decks[{d}]", "must be a list of card names")
        cards = []
        for i, name in enumerate(deck):
            card = CARD_BY_NAME.get(name) if isinstance(name, str) else None
            if card is None:
                raise RecordError(
                    f"setup.decks[{d}][{i}]", "{value} is not a card name", value=repr(name)
                )
            cards.append(card)
        if sorted(cards) != sorted(expected[d]):
            if d < 2:
                raise RecordError(
                    f"setup.decks[{d}]", "must hold exactly the cards of deck {deck}", deck=d + 1
                )
            raise RecordError(
                f"setup.decks[{d}]",
                "must hold exactly the cards of deck {deck} "
                "(with the game-over card only if variant game_over_card)",
                deck=d + 1,
            )
        out.append(tuple(cards))
    return tuple(out)
