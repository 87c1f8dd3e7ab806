"""The 15 pyramids of one Rainbow Treehouse set, as small integers.

Why integers: the engine keeps the stacks as two 15-entry arrays (what lies
below and above each piece), so that search can copy and scan them quickly.
Piece ``i`` has colour ``i // 3`` and size ``i % 3`` (0 small, 1 medium,
2 large). Its code is the size letter in capitals and the colour letter in
lower case: ``Lg`` is the large green pyramid, ``Sk`` the small black one
(``k`` for black, because ``b`` is blue).
"""

from __future__ import annotations

from pyramids.engine import names

COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "black")
COLOUR_LETTERS = "rygbk"
SIZES: tuple[str, ...] = ("small", "medium", "large")
SIZE_LETTERS = "SML"

PIECE_COUNT = len(COLOURS) * len(SIZES)
PIECES: tuple[int, ...] = tuple(range(PIECE_COUNT))

#: size of each piece: 0 small, 1 medium, 2 large
SIZE: tuple[int, ...] = tuple(p % 3 for p in PIECES)
#: colour index of each piece (into :data:`COLOURS`)
COLOUR: tuple[int, ...] = tuple(p // 3 for p in PIECES)
#: notation code of each piece, e.g. ``"Lg"``
CODES: tuple[str, ...] = tuple(SIZE_LETTERS[SIZE[p]] + COLOUR_LETTERS[COLOUR[p]] for p in PIECES)
_BY_CODE: dict[str, int] = {c.lower(): p for p, c in enumerate(CODES)}


def piece(colour: str, size: str) -> int:
    """The piece of a colour name and a size name: ``piece("green", "large")``."""
    return COLOURS.index(colour) * 3 + SIZES.index(size)


def parse_piece(text: str) -> int | None:
    """The piece named by a code like ``Lg`` (any letter case), or ``None``."""
    return _BY_CODE.get(text.strip().lower())


def describe(p: int) -> str:
    """A piece in words: ``large green``."""
    return f"{SIZES[SIZE[p]]} {COLOURS[COLOUR[p]]}"


def nests() -> list[list[int]]:
    """The starting position: one nest per colour, bottom to top small, medium, large.

    In a nest the large pyramid covers the two smaller ones, so the large
    piece is the top of the stack.
    """
    return [[c * 3, c * 3 + 1, c * 3 + 2] for c in range(len(COLOURS))]


#: the pieces as players see them (name kind ``piece``, keyed by code): ``Lg`` is "large green"
names.register("piece", {CODES[p]: describe(p) for p in PIECES})
