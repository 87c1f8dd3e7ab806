"""Generate the project's own set of 90 Pyramido dominoes (run once; output is checked in).

Why a generator: RULINGS.md §1 gives the published figures of the set but no
transcription of the printed dominoes, so the project defines its own set that
matches every figure. The set must never change between versions (records
and golden files name dominoes by number), so it is generated once from a
fixed seed of the project's own PRNG and stored as ``dominoes.json``; a test
checks that this script still reproduces the file byte for byte.

Figures met (and tested against the file):

* 90 dominoes, no two alike even after turning one round;
* 6 colours with 37, 34, 31, 29, 26 and 23 blocks (180 blocks);
* 18 one-colour dominoes (3 of each colour);
* exactly 2 jewel icons per domino: on 55 one on each block, on 35 both on
  the same block (so a block carries 0, 1 or 2 icons); each icon sits in one
  quarter of its block.

Recipe: pair the blocks of the 72 two-colour dominoes by always taking the
colour with most blocks left and a partner drawn in proportion to what the
other colours have left (this never runs out of partners); pick which 35
dominoes carry both icons on one block; draw the icon quarters; redraw the
quarters of any domino that repeats an earlier one. Quarters are numbered
0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right with the domino lying
horizontally, block A on the left.

Usage: ``python -m pyramids.games.pyramido.make_dominoes [--check]``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pyramids.engine.rng import Rng
from pyramids.games.pyramido.colours import COLOURS

SEED = 20210417
BLOCKS_PER_COLOUR = (37, 34, 31, 29, 26, 23)
ONE_COLOUR_PER_COLOUR = 3
SAME_BLOCK_DOMINOES = 35
DATA_FILE = Path(__file__).with_name("dominoes.json")

# A block is (colour index, jewel quarters as a 4-bit mask); a domino is (A, B).
Block = tuple[int, int]
Domino = tuple[Block, Block]

_ROT180 = (3, 2, 1, 0)  # quarter q of a block turned half round


def turn_half(mask: int) -> int:
    """The jewel mask of a block turned 180 degrees."""
    return sum(1 << _ROT180[q] for q in range(4) if mask >> q & 1)


def canonical(d: Domino) -> Domino:
    """The same physical domino turned so that it sorts first (for telling dominoes apart)."""
    (ca, ja), (cb, jb) = d
    turned = ((cb, turn_half(jb)), (ca, turn_half(ja)))
    return min(d, turned)


def _colour_pairs(rng: Rng) -> list[tuple[int, int]]:
    left = [n - 2 * ONE_COLOUR_PER_COLOUR for n in BLOCKS_PER_COLOUR]
    pairs = [(c, c) for c in range(len(COLOURS)) for _ in range(ONE_COLOUR_PER_COLOUR)]
    while sum(left):
        first = max(range(len(left)), key=lambda c: (left[c], -c))
        left[first] -= 1
        others = sum(n for c, n in enumerate(left) if c != first)
        pick = rng.below(others)
        for c, n in enumerate(left):
            if c == first:
                continue
            if pick < n:
                left[c] -= 1
                pairs.append((first, c) if rng.below(2) else (c, first))
                break
            pick -= n
    return pairs


def _jewels(rng: Rng, same_block: bool) -> tuple[int, int]:
    if same_block:
        a, b = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)][rng.below(6)]
        mask = (1 << a) | (1 << b)
        return (mask, 0) if rng.below(2) else (0, mask)
    return 1 << rng.below(4), 1 << rng.below(4)


def generate(seed: int = SEED) -> list[Domino]:
    """The 90 dominoes, sorted, each in its canonical orientation."""
    rng = Rng(seed)
    pairs = _colour_pairs(rng)
    order = list(range(len(pairs)))
    rng.shuffle(order)
    same = set(order[:SAME_BLOCK_DOMINOES])
    seen: set[Domino] = set()
    out: list[Domino] = []
    for i, (ca, cb) in enumerate(pairs):
        while True:
            ja, jb = _jewels(rng, i in same)
            d = canonical(((ca, ja), (cb, jb)))
            if d not in seen:
                break
        seen.add(d)
        out.append(d)
    out.sort()
    return out


def to_json(dominoes: list[Domino]) -> str:
    """The data file's text: one domino per line, blocks as colour name and jewel quarters."""
    lines = []
    for n, d in enumerate(dominoes, 1):
        blocks = [
            {"colour": COLOURS[c], "jewels": [q for q in range(4) if j >> q & 1]} for c, j in d
        ]
        lines.append("  " + json.dumps({"id": n, "blocks": blocks}, separators=(", ", ": ")))
    return "[\n" + ",\n".join(lines) + "\n]\n"


def main(argv: list[str] | None = None) -> int:
    """Write ``dominoes.json`` (or with ``--check`` only compare and report)."""
    args = sys.argv[1:] if argv is None else argv
    text = to_json(generate())
    if "--check" in args:
        same = DATA_FILE.read_text(encoding="utf-8") == text
        print("dominoes.json matches the generator" if same else "dominoes.json DIFFERS")
        return 0 if same else 1
    DATA_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {DATA_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
