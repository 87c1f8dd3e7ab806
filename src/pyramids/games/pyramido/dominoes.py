"""The 90 dominoes of Pyramido, read once from ``dominoes.json`` at import.

The set is the project's own (see ``make_dominoes.py`` for why and how it was
made); it is data, not code, so that it can never drift between versions.
A domino is numbered 1..90 in notation and 0..89 inside the engine.
"""

from __future__ import annotations

import json
from importlib import resources

from pyramids.games.pyramido.colours import COLOURS as COLOURS

#: one letter per colour, for notation (``card R e5 tl``) and compact views
COLOUR_LETTERS = "RYGBPO"
#: the single-block cards: card k shows colours 2k and 2k+1 on its two sides
CARD_SIDES: tuple[tuple[int, int], ...] = ((0, 1), (2, 3), (4, 5))
#: quarter names within a block, as seen from above (index = 2 * row + column)
QUARTERS = ("tl", "tr", "bl", "br")

# A block is (colour index, jewel quarters as a 4-bit mask in the domino's own
# frame: lying horizontally, block A left); a domino is (block A, block B).
Block = tuple[int, int]
Domino = tuple[Block, Block]


def _load() -> tuple[Domino, ...]:
    text = resources.files(__package__).joinpath("dominoes.json").read_text(encoding="utf-8")
    out = []
    for n, entry in enumerate(json.loads(text), 1):
        if entry["id"] != n:
            raise ValueError(f"dominoes.json: entry {n} has id {entry['id']}")
        a, b = (
            (COLOURS.index(blk["colour"]), sum(1 << q for q in blk["jewels"]))
            for blk in entry["blocks"]
        )
        out.append((a, b))
    return tuple(out)


DOMINOES: tuple[Domino, ...] = _load()
#: jewels per block, indexed [domino][block]
JEWEL_COUNT: tuple[tuple[int, int], ...] = tuple(
    (a[1].bit_count(), b[1].bit_count()) for a, b in DOMINOES
)


def domino_json(index: int) -> dict[str, object]:
    """A domino as JSON for views: number and, per block, colour and jewel quarters."""
    return {
        "id": index + 1,
        "blocks": [
            {"colour": COLOURS[c], "jewels": [QUARTERS[q] for q in range(4) if j >> q & 1]}
            for c, j in DOMINOES[index]
        ],
    }


def domino_label(index: int) -> str:
    """Short text of a domino: number, then each block's colour letter and jewel count."""
    (ca, ja), (cb, jb) = DOMINOES[index]
    return (
        f"#{index + 1} {COLOUR_LETTERS[ca]}{'*' * ja.bit_count()}"
        f"|{COLOUR_LETTERS[cb]}{'*' * jb.bit_count()}"
    )
