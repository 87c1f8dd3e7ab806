"""Golf deals in the plain board format that other Golf solvers read and write.

The format (as used by Shlomi Fish's ``black-hole-solve --game golf`` and by
``pysol_cards``)::

    Talon: 6D KC KS AH AC KD 4S 8D 8H JD TC AD QH 4C JS 2C
    Foundations: 5S
    9D TS 5C 7D 7H
    3S 6S 5D QC 7S
    ...

The talon lists the stock next card first; the foundation is the waste card;
then one line per column, bottom card first, so the last card of a line is
the one that can be played. Ranks ``A 2-9 T J Q K``, suits ``C D H S``.

Columns may be shorter than 5 (a game in progress): the missing top cards
count as played. Their identity does not matter to the solver, so they are
filled with the cards that appear nowhere on the board.
"""

from __future__ import annotations

from pyramids.engine.errors import PyramidsError
from pyramids.games.piramides.cards import CARD_NAMES, DECK_SIZE, JOKER, card_name, parse_card
from pyramids.games.piramides.layout import GOLF
from pyramids.solver.position import Position

COLUMNS = 7
DEPTH = 5


class BoardError(PyramidsError):
    """A board file that is not a valid Golf board; the message names the line."""


def _cards(words: list[str], where: str) -> list[int]:
    out = []
    for w in words:
        card = parse_card(w)
        if card is None:
            raise BoardError(f"{where}: {w!r} is not a card like 7H, TD or AS")
        out.append(card)
    return out


def parse_board(text: str, *, wrap: bool = False, strict: bool = False) -> Position:
    """Read a Golf board; raise :class:`BoardError` naming the faulty line.

    ``strict``: PySolFC's default rule, nothing may go on a King (no wrap).
    """
    lines = [ln.strip() for ln in text.splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    talon: list[int] | None = None
    waste: int | None = None
    columns: list[list[int]] = []
    for n, line in enumerate(lines, 1):
        head, colon, rest = line.partition(":")
        key = head.strip().lower()
        if colon and key == "talon":
            talon = _cards(rest.split(), f"line {n} (Talon)")
        elif colon and key in ("foundations", "foundation"):
            found = _cards(rest.split(), f"line {n} (Foundations)")
            if len(found) != 1:
                raise BoardError(f"line {n}: Foundations must hold exactly one card (the waste)")
            waste = found[0]
        elif colon and key:
            raise BoardError(
                f"line {n}: unknown heading {head.strip()!r}: a Golf board has a 'Talon:' "
                "line, a 'Foundations:' line and 7 column lines"
            )
        else:
            # "4H 8C 6H" or ": 4H 8C 6H" (the solvers' display form)
            body = rest if colon and not key else line
            columns.append(_cards(body.split(), f"line {n} (column {len(columns) + 1})"))
    if talon is None:
        raise BoardError("missing the 'Talon:' line")
    if waste is None:
        raise BoardError("missing the 'Foundations:' line with the waste card")
    if len(columns) != COLUMNS:
        raise BoardError(f"a Golf board has {COLUMNS} column lines, found {len(columns)}")
    for k, col in enumerate(columns):
        if len(col) > DEPTH:
            raise BoardError(f"column {k + 1} holds {len(col)} cards; at most {DEPTH}")
    seen = [*talon, waste, *(c for col in columns for c in col)]
    if len(set(seen)) != len(seen):
        dup = next(c for c in seen if seen.count(c) > 1)
        raise BoardError(f"{card_name(dup)} appears twice")
    missing = [c for c in range(DECK_SIZE) if c not in set(seen)]
    cards: list[int] = []
    removed = 0
    for k, col in enumerate(columns):
        for d in range(DEPTH):
            if d < len(col):
                cards.append(col[d])
            else:
                cards.append(missing.pop())
                removed |= 1 << (k * DEPTH + d)
    return Position(
        GOLF, tuple(cards), waste, tuple(talon), wrap=wrap, removed=removed, strict=strict
    )


def format_board(pos: Position) -> str:
    """Write a Golf position as a board (played cards are left out)."""
    if pos.layout is not GOLF:
        raise ValueError("only golf positions have a board format")
    if pos.waste == JOKER:
        raise ValueError("a board cannot show a joker on the waste")
    lines = [
        "Talon: " + " ".join(card_name(c) for c in pos.stock),
        f"Foundations: {card_name(pos.waste)}",
    ]
    for k in range(COLUMNS):
        col = [
            card_name(pos.cards[i])
            for i in range(k * DEPTH, (k + 1) * DEPTH)
            if not pos.removed >> i & 1
        ]
        lines.append(" ".join(col))
    return "\n".join(lines) + "\n"


def board_setup(pos: Position) -> dict[str, list[list[str]]]:
    """A fresh Golf board as the engine's setup (layout cards, waste, stock: 52 names)."""
    if pos.removed or len(pos.stock) + pos.layout.size + 1 != DECK_SIZE:
        raise ValueError("only a fresh deal (all 52 cards in place) becomes a game setup")
    return {"deals": [[CARD_NAMES[c] for c in (*pos.cards, pos.waste, *pos.stock)]]}
