"""SVG pictures of the goal cards, generated from ``goals.json``.

Why generated: the deck is data, and the pictures (in
``src/pyramids/web/rules/img/pyramideto/``, shown by the player rules pages and
by ``docs/rules/pyramideto.md``) must never drift from it (a test regenerates
them and compares). Each card is a frame in its frame colour and its tower drawn
as three trapezoid pieces whose widths follow their sizes, bottom piece lowest.
No words are drawn on the card: the rules pages name each card beside it in
their own language (a Czech page under an English "Traffic light" read as
untranslated); the ``<title>`` keeps the English name for the files alone.

Regenerate after editing the deck::

    python -m pyramids.games.pyramideto.svg src/pyramids/web/rules/img/pyramideto
"""

from __future__ import annotations

import sys
from pathlib import Path
from xml.sax.saxutils import escape

from pyramids.games.pyramideto.goals import FRAMES, GOALS, Goal
from pyramids.games.pyramideto.pieces import CODES, COLOUR, SIZE

WIDTH = 160
HEIGHT = 220
#: fill and label colour per piece colour (red, yellow, green, blue, black)
FILL = ("#d62728", "#f2c500", "#2ca02c", "#1f77b4", "#222222")
INK = ("#ffffff", "#000000", "#ffffff", "#ffffff", "#ffffff")
#: bottom width of a piece per size (small, medium, large)
PIECE_WIDTH = (48, 72, 100)
PIECE_HEIGHT = 38
TAPER = 10  # how much narrower the top edge of a piece is, each side


def _piece(p: int, base_y: float) -> str:
    w = PIECE_WIDTH[SIZE[p]]
    x0 = (WIDTH - w) / 2
    top = base_y - PIECE_HEIGHT
    points = f"{x0},{base_y} {x0 + w},{base_y} {x0 + w - TAPER},{top} {x0 + TAPER},{top}"
    c = COLOUR[p]
    return (
        f'  <polygon points="{points}" fill="{FILL[c]}" stroke="#000" stroke-width="1.5"/>\n'
        f'  <text x="{WIDTH / 2}" y="{base_y - 13}" text-anchor="middle" font-size="14" '
        f'font-family="sans-serif" fill="{INK[c]}">{CODES[p]}</text>\n'
    )


def card_svg(goal: Goal) -> str:
    """The SVG text of one goal card."""
    frame = FRAMES[goal.frame]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}">\n',
        f"  <title>{escape(goal.name)}: {' on '.join(CODES[p] for p in goal.tower[::-1])}"
        "</title>\n",
        f'  <rect x="5" y="5" width="{WIDTH - 10}" height="{HEIGHT - 10}" rx="12" '
        f'fill="#fffdf5" stroke="{frame.rgb}" stroke-width="8"/>\n',
    ]
    base = 180.0
    for p in goal.tower:
        parts.append(_piece(p, base))
        base -= PIECE_HEIGHT
    parts.append("</svg>\n")
    return "".join(parts)


def write_all(folder: Path) -> list[Path]:
    """Write ``<id>.svg`` for every card into ``folder``; return the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for goal in GOALS:
        path = folder / f"{goal.id}.svg"
        path.write_text(card_svg(goal), encoding="utf-8")
        paths.append(path)
    return paths


def main(argv: list[str]) -> int:
    """``python -m pyramids.games.pyramideto.svg [FOLDER]``.

    The default folder is ``src/pyramids/web/rules/img/pyramideto``.
    """
    folder = Path(argv[0]) if argv else Path("src/pyramids/web/rules/img/pyramideto")
    paths = write_all(folder)
    print(f"wrote {len(paths)} cards to {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
