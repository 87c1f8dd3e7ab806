"""Pictures of the twelve treasures as SVG, drawn by code.

Why code and not image files: the pictures then live next to the treasure
list, cannot drift from it, and any face (docs, web app, terminal export) can
ask for one at the size it needs. Each picture is a few plain shapes on a
64 x 64 grid, on a sand-coloured token, so it stays legible when small.

Write the files used by the rules pages (the player pages under
``src/pyramids/web/rules/`` and ``docs/rules/pyramido-treasure.md``) with::

    python -m pyramids.games.pyramido_treasure.svg src/pyramids/web/rules/img/pyramido-treasure
"""

from __future__ import annotations

import sys
from pathlib import Path

from pyramids.games.pyramido_treasure.treasures import N_TREASURES, TREASURES, parse_treasure

GOLD = "#d4a017"
DARK = "#3b2a14"
SAND = "#f3e2b3"
EDGE = "#b8862b"
BLUE = "#2f5fa8"
RED = "#c0392b"
GREEN = "#2e8b57"

#: Shapes of each picture, in treasure order, on a 64 x 64 grid.
_SHAPES: tuple[str, ...] = (
    # sphinx: lying body, paws, striped headdress
    f'<rect x="16" y="36" width="34" height="14" rx="4" fill="{GOLD}"/>'
    f'<rect x="40" y="45" width="14" height="5" rx="2" fill="{GOLD}"/>'
    f'<polygon points="10,40 14,17 28,17 32,40" fill="{BLUE}"/>'
    f'<path d="M13 24 H29 M12 31 H30" stroke="{GOLD}" stroke-width="2"/>'
    f'<rect x="16" y="20" width="10" height="13" rx="2" fill="{GOLD}"/>'
    f'<circle cx="19" cy="25" r="1.3" fill="{DARK}"/>'
    f'<circle cx="23" cy="25" r="1.3" fill="{DARK}"/>',
    # mummy: wrapped body with bandages and eyes
    '<rect x="22" y="8" width="20" height="48" rx="10" fill="#efe9d8" stroke="#8d8670"/>'
    '<path d="M22 24 L42 20 M22 32 L42 28 M22 40 L42 36 M23 48 L41 44" '
    'stroke="#8d8670" stroke-width="1.5"/>'
    f'<rect x="25" y="13" width="14" height="5" rx="2" fill="{DARK}"/>'
    '<circle cx="29" cy="15.5" r="1.4" fill="#fff"/>'
    '<circle cx="35" cy="15.5" r="1.4" fill="#fff"/>',
    # parrot: red body, blue wing, yellow beak, long tail
    f'<polygon points="30,40 24,58 34,58" fill="{BLUE}"/>'
    f'<ellipse cx="32" cy="32" rx="11" ry="15" fill="{RED}"/>'
    f'<ellipse cx="35" cy="35" rx="6" ry="10" fill="{BLUE}"/>'
    f'<circle cx="30" cy="18" r="8" fill="{RED}"/>'
    '<polygon points="22,17 16,22 23,24" fill="#f1c40f"/>'
    '<circle cx="28" cy="16" r="2" fill="#fff"/><circle cx="28" cy="16" r="1" fill="#000"/>',
    # trumpet: tube, bell, three valves
    f'<rect x="8" y="29" width="34" height="6" rx="2" fill="{GOLD}"/>'
    f'<polygon points="40,32 56,20 56,44" fill="{GOLD}" stroke="{EDGE}"/>'
    f'<rect x="6" y="28" width="5" height="8" rx="1" fill="{EDGE}"/>'
    f'<rect x="18" y="20" width="4" height="10" fill="{EDGE}"/>'
    f'<rect x="25" y="20" width="4" height="10" fill="{EDGE}"/>'
    f'<rect x="32" y="20" width="4" height="10" fill="{EDGE}"/>',
    # sacred dog: black jackal head with tall ears and a golden collar
    f'<polygon points="22,14 26,30 30,16" fill="{DARK}"/>'
    f'<polygon points="32,14 34,30 40,18" fill="{DARK}"/>'
    f'<polygon points="22,28 42,28 52,40 44,44 34,42 30,52 22,52" fill="{DARK}"/>'
    f'<circle cx="35" cy="33" r="1.8" fill="{GOLD}"/>'
    f'<rect x="20" y="50" width="14" height="5" rx="2" fill="{GOLD}"/>'
    f'<path d="M21 52.5 H33" stroke="{BLUE}" stroke-width="1.5"/>',
    # scarab: green beetle with legs and a split back
    '<path d="M18 24 L10 18 M18 32 L8 32 M18 40 L10 46 M46 24 L54 18 M46 32 L56 32 '
    f'M46 40 L54 46" stroke="{DARK}" stroke-width="2"/>'
    f'<ellipse cx="32" cy="36" rx="14" ry="17" fill="{GREEN}"/>'
    f'<ellipse cx="32" cy="17" rx="8" ry="5" fill="{DARK}"/>'
    f'<path d="M32 21 V52" stroke="{DARK}" stroke-width="1.5"/>',
    # crown: golden band with five points and jewels
    f'<polygon points="10,46 12,20 22,34 32,16 42,34 52,20 54,46" fill="{GOLD}" stroke="{EDGE}"/>'
    f'<rect x="10" y="44" width="44" height="8" fill="{GOLD}" stroke="{EDGE}"/>'
    f'<circle cx="20" cy="48" r="2.5" fill="{RED}"/><circle cx="32" cy="48" r="2.5" fill="{BLUE}"/>'
    f'<circle cx="44" cy="48" r="2.5" fill="{GREEN}"/>',
    # vase: amphora with two handles and a band
    '<path d="M26 10 H38 V16 C50 22 50 44 38 54 H26 C14 44 14 22 26 16 Z" fill="#c96a2b"/>'
    f'<path d="M26 18 C18 18 18 28 22 30 M38 18 C46 18 46 28 42 30" '
    f'stroke="{DARK}" stroke-width="2" fill="none"/>'
    f'<path d="M17 34 H47" stroke="{DARK}" stroke-width="3"/>',
    # ankh: loop over a cross
    f'<ellipse cx="32" cy="18" rx="8" ry="10" fill="none" stroke="{GOLD}" stroke-width="5"/>'
    f'<rect x="29" y="27" width="6" height="28" fill="{GOLD}"/>'
    f'<rect x="16" y="29" width="32" height="6" fill="{GOLD}"/>',
    # oil lamp: bowl, spout, handle and flame
    f'<ellipse cx="28" cy="42" rx="16" ry="8" fill="{GOLD}" stroke="{EDGE}"/>'
    f'<polygon points="40,38 56,34 54,40 42,46" fill="{GOLD}" stroke="{EDGE}"/>'
    f'<path d="M12 42 C4 40 6 30 14 36" stroke="{EDGE}" stroke-width="3" fill="none"/>'
    '<path d="M55 33 C50 26 54 20 56 16 C60 22 62 28 55 33 Z" fill="#f39c12"/>',
    # necklace: string of beads with a pendant
    '<path d="M12 16 C14 40 50 40 52 16" stroke="#8d6e63" stroke-width="1.5" fill="none"/>'
    + "".join(
        f'<circle cx="{x}" cy="{y}" r="3" fill="{c}"/>'
        for x, y, c in (
            (13, 22, BLUE),
            (17, 30, RED),
            (24, 35, BLUE),
            (40, 35, BLUE),
            (47, 30, RED),
            (51, 22, BLUE),
        )
    )
    + f'<polygon points="32,36 26,46 32,56 38,46" fill="{GREEN}" '
    f'stroke="{GOLD}" stroke-width="2"/>',
    # cat statue: seated black cat with gold earring
    f'<path d="M44 54 C58 54 58 40 50 38" stroke="{DARK}" stroke-width="3" fill="none"/>'
    f'<ellipse cx="32" cy="42" rx="12" ry="14" fill="{DARK}"/>'
    f'<circle cx="32" cy="22" r="8" fill="{DARK}"/>'
    f'<polygon points="25,18 26,8 31,15" fill="{DARK}"/>'
    f'<polygon points="39,18 38,8 33,15" fill="{DARK}"/>'
    f'<circle cx="29" cy="21" r="1.3" fill="{GREEN}"/>'
    f'<circle cx="35" cy="21" r="1.3" fill="{GREEN}"/>'
    f'<circle cx="24" cy="26" r="1.8" fill="none" stroke="{GOLD}" stroke-width="1"/>',
)

assert len(_SHAPES) == N_TREASURES


def treasure_svg(treasure: int | str, size: int = 64) -> str:
    """A standalone SVG picture of a treasure (index or name), ``size`` pixels wide.

    The picture sits on a round sand-coloured token and carries a ``<title>``
    with the treasure's label, for screen readers and tooltips.
    """
    t = parse_treasure(treasure) if isinstance(treasure, str) else treasure
    if t is None or not 0 <= t < N_TREASURES:
        raise ValueError(f"no treasure {treasure!r}")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" '
        f'width="{size}" height="{size}" role="img">'
        f"<title>{TREASURES[t].label}</title>"
        f'<circle cx="32" cy="32" r="31" fill="{SAND}" stroke="{EDGE}" stroke-width="2"/>'
        f"{_SHAPES[t]}</svg>"
    )


def write_pictures(folder: Path) -> list[Path]:
    """Write ``<name>.svg`` for every treasure into ``folder``; return the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for t in TREASURES:
        path = folder / f"{t.name}.svg"
        path.write_text(treasure_svg(t.name) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def main(argv: list[str]) -> int:
    """``python -m pyramids.games.pyramido_treasure.svg FOLDER``: write the pictures.

    The rules pages use ``src/pyramids/web/rules/img/pyramido-treasure``.
    """
    if len(argv) != 1:
        print("usage: python -m pyramids.games.pyramido_treasure.svg FOLDER")
        return 2
    for path in write_pictures(Path(argv[0])):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
