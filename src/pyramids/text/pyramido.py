"""Drawing a Pyramido view in the terminal with Rich, from the view dict only.

Each pyramid is drawn as its top view at quarter resolution: every quarter is
two characters on the colour of the topmost block there, showing ``◆`` for a
visible jewel, ``●`` for a gem (on the gemmed block's top-left quarter) and
otherwise the floor number of that block, dimmed (floor 1 left blank, so the
upper floors stand out). For the player to move, the
empty cells where the floor being built can grow carry their names (``e5``),
so a move can be typed from the picture.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from pyramids.games.pyramido.geometry import FRAME, fits
from pyramids.i18n import N_
from pyramids.text.colour import plain
from pyramids.text.language import _, tr

BG = {
    "red": "red3",
    "yellow": "gold3",
    "green": "green4",
    "blue": "dodger_blue3",
    "purple": "medium_purple3",
    "orange": "dark_orange3",
}
LETTER = {"red": "R", "yellow": "Y", "green": "G", "blue": "B", "purple": "P", "orange": "O"}
QUARTER_INDEX = {"tl": 0, "tr": 1, "bl": 2, "br": 3}
View = dict[str, Any]


def domino_text(d: dict[str, Any] | None) -> Text:
    """A domino drawn lying down, two text rows of quarters (top row, bottom row)."""
    if d is None:
        return Text(_("(empty)") + "\n", style="dim")
    t = Text()
    for row in (("tl", "tr"), ("bl", "br")):
        for blk in d["blocks"]:
            style = f"bold white on {BG[blk['colour']]}"
            letter = LETTER[blk["colour"]] if plain() else ""
            for q in row:
                shown = "◆ " if q in blk["jewels"] else "  "
                t.append(letter + shown[0] if letter else shown, style=style)
            t.append(" ")
        t.append("\n")
    return t


def _labelled(title: str, d: dict[str, Any] | None) -> Text:
    """A titled domino picture; the title takes two lines so no column wraps it."""
    head = Text(title, style="bold")
    head.append("\n")
    if d is not None:
        head.append(f"#{d['id']}")
        head.append(" " + "|".join(LETTER[b["colour"]] for b in d["blocks"]), style="dim")
    return head + Text("\n") + domino_text(d)


HINTS = {
    "place": N_(
        "type q<slot> <cell of A> <cell of B> (A is the left block as drawn), e.g. q1 e5 f5"
    ),
    "mark": N_("a gem must go on a block of the domino just placed that shows a jewel:"),
    "card": N_("type card <colour> <cell> <tl|tr|bl|br> to cover a block without a gem, or pass"),
    "refill": N_("refill the empty quarry slot from one of the two stacks behind it:"),
    "fill": N_(
        "no domino fits: lay 2 single-block cards, one at a time: "
        "fill <colour> <empty cell> <tl|tr|bl|br>"
    ),
}


def colour_name(colour: str) -> str:
    """A Pyramido colour (``red``) in the terminal's language."""
    return tr().name("colour", colour)


def step_hint(view: View) -> str:
    """What to type now, with the actual choices where there are only a few."""
    step = view["step"]
    turn = view["turn"]
    hint = _(HINTS[step])
    placed = turn["placed"]
    if step == "mark" and placed is not None:
        unused = set(view["pyramids"][turn["player"]]["gems_unused"])
        options = [
            _("mark {cell} ({colour} gem)", cell=cell, colour=colour_name(blk["colour"]))
            for blk, cell in zip(placed["domino"]["blocks"], placed["cells"], strict=True)
            if blk["jewels"] and blk["colour"] in unused
        ]
        hint += " " + _(" or ").join(options)
    elif step == "card" and placed is not None:
        free = [c for k, c in enumerate(placed["cells"]) if placed["gem_on"] != "AB"[k]]
        hint += " " + tr().ngettext(
            "(block {cells})", "(blocks {cells})", len(free), cells=_(" or ").join(free)
        )
    elif step == "refill" and turn["empty_slot"] is not None:
        slot = turn["empty_slot"]
        open_ = [f"refill {k}" for k in (slot, slot + 1) if view["stacks"][k - 1]["size"]]
        hint += " " + _(" or ").join(open_)
    elif step == "fill":
        hint += " " + _(
            "(card {number} of 2; these cards never take a gem)",
            number=turn["fill_cards_laid"] + 1,
        )
    return hint


def _frame_cells_to_label(pyr: dict[str, Any]) -> list[tuple[int, int]]:
    """Floor-1 frame cells (x, y) where the structure may still grow (empty, touching)."""
    filled = set(pyr["grid"]["filled"])
    if pyr["bounds"] is None:
        return [(4, 4)]
    x0, y0, x1, y1 = pyr["bounds"]
    occupied = {(ord(c[0]) - 97, int(c[1:]) - 1) for c in filled}
    out = []
    for y in range(FRAME):
        for x in range(FRAME):
            if (x, y) in occupied:
                continue
            near = any(
                (x + dx, y + dy) in occupied for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            )
            if near and fits(min(x0, x), min(y0, y), max(x1, x), max(y1, y)):
                out.append((x, y))
    return out


def pyramid_picture(pyr: dict[str, Any], *, labels: bool) -> Text:
    """The top view of one pyramid; with ``labels``, the empty buildable cells are named."""
    tv = pyr["top_view"]
    size = len(tv["colour"])
    colour_of = {v: k for k, v in LETTER.items()}
    chars: dict[tuple[int, int], tuple[str, str]] = {}
    for y in range(size):
        for x in range(size):
            letter = tv["colour"][y][x]
            if letter == ".":
                continue
            bg = BG[colour_of[letter]]
            if tv["jewel"][y][x] == "1":
                chars[(x, y)] = ("◆ ", f"bold white on {bg}")
            else:
                floor = tv["floor"][y][x]
                chars[(x, y)] = ("  " if floor == "1" else f"{floor} ", f"grey70 on {bg}")
            if plain():  # no colour: the block's colour letter, then what is on it
                chars[(x, y)] = (letter + chars[(x, y)][0][0], chars[(x, y)][1])
    for gem in pyr["gems_placed"]:
        qx, qy = gem["quarter"]
        first = chars.get((qx, qy), ("  ", ""))[0][0]
        chars[(qx, qy)] = (first + "●", f"bold black on {BG[gem['colour']]}")
    if labels and not pyr["floor_done"] and not pyr["out"]:  # cells one may build on
        grid = pyr["grid"]
        ox, oy = grid["origin"]
        if grid["floor"] == 1:
            cells = _frame_cells_to_label(pyr)
        else:
            filled = set(grid["filled"])
            cells = [
                (i, j)
                for j in range(grid["rows"])
                for i in range(grid["cols"])
                if f"{chr(97 + i)}{j + 1}" not in filled
            ]
        for i, j in cells:
            name = f"{chr(97 + i)}{j + 1}"
            qx, qy = ox + 2 * i, oy + 2 * j
            under = chars.get((qx, qy), ("  ", "on grey23"))[1].split(" on ")[-1]
            back = under if under.startswith("on ") else f"on {under}"
            text = f"{name:<4}"
            chars[(qx, qy)] = (text[:2], f"bold bright_white {back}")
            chars[(qx + 1, qy)] = (text[2:], f"bold bright_white {back}")
            for dx in (0, 1):
                if (qx + dx, qy + 1) not in chars:
                    chars[(qx + dx, qy + 1)] = ("··", "grey35 on grey15")
            for dx in (0, 1):
                if chars[(qx + dx, qy)][1].endswith("on grey23"):
                    chars[(qx + dx, qy)] = (chars[(qx + dx, qy)][0], "bold bright_white on grey15")
    if not chars:
        return Text(_("(nothing built yet)"), style="dim")
    xs = [x for x, _y in chars]
    ys = [y for _x, y in chars]
    out = Text()
    for y in range(min(ys), max(ys) + 1):
        for x in range(min(xs), max(xs) + 1):
            text, style = chars.get((x, y), ("  ", ""))
            out.append(text, style=style)
        out.append("\n")
    return out


def _gems_text(pyr: dict[str, Any]) -> Text:
    t = Text(_("gems") + " ")
    for c in pyr["gems_unused"]:
        t.append("●", style=BG[c])
    t.append("  " + _("cards") + " ")
    if not pyr["cards_unused"]:
        t.append(_("none"), style="dim")
    for a, b in pyr["cards_unused"]:
        t.append(LETTER[a], style=f"bold white on {BG[a]}")
        t.append(LETTER[b], style=f"bold white on {BG[b]}")
        t.append(" ")
    return t


def _last_floor_text(view: View) -> Text:
    """The scores of the floor just finished, while the next one is still empty."""
    done = view["floor"] - 1
    t = Text(_("Floor {floor} scored:", floor=done) + " ", style="bold")
    items = []
    for p, pyr in enumerate(view["pyramids"]):
        if len(pyr["floor_scores"]) >= done:
            fs = pyr["floor_scores"][done - 1]
            areas = " ".join(f"{LETTER[a['colour']]}{a['jewels']}" for a in fs["areas"]) or "-"
            items.append(f"{view['names'][p]} {fs['total']} ({areas} +{fs['bonus']})")
    t.append(", ".join(items))
    t.append("; " + _("the lowest starts floor {floor}", floor=view["floor"]), style="dim")
    return t


def render(view: View) -> RenderableType:
    """Quarry, stack tops, then every pyramid (the player to move labelled for typing)."""
    parts: list[RenderableType] = []
    turn = view["turn"]
    head = Text(_("Floor {floor}", floor=view["floor"]) + "  ", style="bold")
    if turn is not None:
        who = view["names"][turn["player"]]
        step = tr().name("step", view["step"])
        head.append(_("{player} to move: {step}", player=who, step=step), style="bold cyan")
        if turn["placed"] is not None:
            cells = " ".join(turn["placed"]["cells"])
            head.append("  " + _("(just placed on {cells})", cells=cells))
    parts.append(head)
    if view["step"] is not None:
        parts.append(
            Text(step_hint(view) + "; " + _("'moves' lists every legal step"), style="dim")
        )
    if turn is not None:
        mover = view["pyramids"][turn["player"]]
        if view["floor"] > 1 and not mover["grid"]["filled"]:
            parts.append(_last_floor_text(view))
    out = [view["names"][p] for p in view["eliminated"]]
    if out:
        parts.append(
            Text(
                _(
                    "Out of the game: {players} (no domino fitted and fewer than 2 cards)",
                    players=", ".join(out),
                ),
                style="bold red",
            )
        )
    quarry = Table.grid(padding=(0, 2))
    quarry.add_row(*[_labelled(f"q{i + 1}", d) for i, d in enumerate(view["quarry"])])
    parts.append(quarry)
    stacks = Table.grid(padding=(0, 2))
    stacks.add_row(
        *[
            _labelled(_("stack {number} ({size})", number=i + 1, size=s["size"]), s["top"])
            for i, s in enumerate(view["stacks"])
        ]
    )
    parts.append(stacks)
    mover = view["current_player"]
    for p, pyr in enumerate(view["pyramids"]):
        points = tr().ngettext("{n} point", "{n} points", view["scores"][p])
        title = Text(f"\n{view['names'][p]}: {points}", style="bold")
        if pyr["floor_scores"]:
            title.append(" (" + " + ".join(str(fs["total"]) for fs in pyr["floor_scores"]) + ")")
        if pyr["current_floor_score"] is not None:
            title.append(", " + _("this floor {n}", n=pyr["current_floor_score"]))
        if pyr["out"]:
            title.append(" " + _("OUT"), style="bold red")
        elif pyr["floor_done"]:
            title.append(" " + _("(floor done)"))
        title.append("  ")
        title.append_text(_gems_text(pyr))
        parts.append(title)
        # empty cells are named only when the player to move is choosing a cell
        naming = p == mover and view["step"] in ("place", "fill")
        parts.append(pyramid_picture(pyr, labels=naming))
    return Group(*parts)


def summary(view: View) -> RenderableType:
    """Per player and floor: marked areas, Mino bonus and totals; then the places (at the end).

    A narrow terminal gets each floor's points only, under the floor's number,
    rather than every header cut short ("Pla…").
    """
    from pyramids.text.colour import Fitted

    return Fitted(lambda: _wide_summary(view), lambda: _narrow_summary(view))


def _narrow_summary(view: View) -> Table:
    over = view["is_over"]
    table = Table(
        title=_("Pyramido result"),
        caption=_("1 2 3 4: the points of each floor"),
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column(_("Player"), no_wrap=True)
    for f in range(1, 5):
        table.add_column(str(f), justify="right", no_wrap=True)
    table.add_column(_("Total"), justify="right", no_wrap=True)
    if over:
        table.add_column(_("Place"), justify="right", no_wrap=True)
    for p, pyr in enumerate(view["pyramids"]):
        floors: list[str | Text] = [str(fs["total"]) for fs in pyr["floor_scores"]]
        if pyr["out"] and len(floors) < 4:
            floors.append(Text("×", style="red"))
        floors += [""] * (4 - len(floors))
        place = [str(view["ranking"][p])] if over else []
        table.add_row(view["names"][p], *floors, str(view["scores"][p]), *place)
    return table


def _wide_summary(view: View) -> Table:
    table = Table(
        title=_("Pyramido result"),
        caption=_("floor score = each marked area (colour, visible jewels) + Mino bonus"),
    )
    table.add_column(_("Player"))
    for f in range(1, 5):
        table.add_column(_("Floor {floor}", floor=f))
    table.add_column(_("Total"), justify="right")
    table.add_column(_("Cards left"), justify="right")
    over = view["is_over"]  # a saved game replayed before its end has no places yet
    if over:
        table.add_column(_("Place"), justify="right")
    for p, pyr in enumerate(view["pyramids"]):
        floors: list[str | Text] = []
        for fs in pyr["floor_scores"]:
            areas = " ".join(f"{LETTER[a['colour']]}{a['jewels']}" for a in fs["areas"]) or "-"
            floors.append(f"[bold]{fs['total']}[/] [dim]= {areas} +{fs['bonus']}[/]")
        if pyr["out"] and len(floors) < 4:
            floors.append(Text(_("went out"), style="red"))
        floors += [""] * (4 - len(floors))
        table.add_row(
            view["names"][p],
            *floors,
            str(view["scores"][p]),
            str(len(pyr["cards_unused"])),
            *([str(view["ranking"][p])] if over else []),
        )
    return table


def describe(view: View, text: str) -> str:
    """A listed step with what it puts where: the domino's colours, or the card's side."""
    words = text.split()
    if len(words) == 3 and words[0] in ("q1", "q2", "q3"):
        d = view["quarry"][int(words[0][1]) - 1]
        if d is not None:
            a, b = (f"{LETTER[blk['colour']]}{'◆' * len(blk['jewels'])}" for blk in d["blocks"])
            placed = _(
                "{a} on {cell_a}, {b} on {cell_b}", a=a, cell_a=words[1], b=b, cell_b=words[2]
            )
            return f"{text:<11} #{d['id']}: {placed}"
    if len(words) == 4 and words[0] in ("card", "fill"):
        colour = next(c for c, letter in LETTER.items() if letter == words[1])
        side = _(
            "{colour} side, jewel {quarter}",
            colour=colour_name(colour),
            quarter=_(QUARTER_NAMES[words[3]]),
        )
        return f"{text:<15} {side}"
    return text


QUARTER_NAMES = {
    "tl": N_("top left"),
    "tr": N_("top right"),
    "bl": N_("bottom left"),
    "br": N_("bottom right"),
}


def stats(view: View) -> dict[str, float]:
    """Figures for ``pyramids simulate``: players eliminated and the winning score."""
    return {
        "players out": float(sum(view["out"])),
        "best score": float(max(view["scores"])),
    }


def floor_layers(pyr: dict[str, Any]) -> RenderableType:
    """Each floor of one pyramid drawn on its own, side by side (jewels covered later show)."""
    layers: dict[int, dict[tuple[int, int], tuple[str, str]]] = {}
    for blk in pyr["blocks"]:
        chars = layers.setdefault(blk["floor"], {})
        qx, qy = blk["quarter"]
        style = f"bold white on {BG[blk['colour']]}"
        jewels = {tuple(j) for j in blk["jewels"]}
        for dy in (0, 1):
            for dx in (0, 1):
                mark = "◆ " if (qx + dx, qy + dy) in jewels else "  "
                chars[(qx + dx, qy + dy)] = (mark, style)
    if not layers:
        return Text(_("(nothing built yet)"), style="dim")
    xs = [x for chars in layers.values() for x, _y in chars]
    ys = [y for chars in layers.values() for _x, y in chars]
    grid = Table.grid(padding=(0, 3))
    pictures = []
    for floor in sorted(layers):
        out = Text(_("Floor {floor}", floor=floor) + "\n", style="bold")
        for y in range(min(ys), max(ys) + 1):
            for x in range(min(xs), max(xs) + 1):
                text, style = layers[floor].get((x, y), ("  ", ""))
                out.append(text, style=style)
            out.append("\n")
        pictures.append(out)
    grid.add_row(*pictures)
    return grid


def _floor_told(name: str, fs: dict[str, Any]) -> str:
    areas = ", ".join(
        _("{colour} {jewels}", colour=colour_name(a["colour"]), jewels=a["jewels"])
        for a in fs["areas"]
    )
    if not areas:
        return _(
            "{player} scores nothing on floor {floor}: no area is marked.",
            player=name,
            floor=fs["floor"],
        )
    return _(
        "{player} scores {total} on floor {floor}: marked areas {areas}, Mino bonus +{bonus}.",
        player=name,
        total=fs["total"],
        floor=fs["floor"],
        areas=areas,
        bonus=fs["bonus"],
    )


def events(before: View, after: View) -> list[str]:
    """Floors scored (with each area and the bonus) and players who went out."""
    out = []
    for p, pyr in enumerate(after["pyramids"]):
        known = len(before["pyramids"][p]["floor_scores"])
        for fs in pyr["floor_scores"][known:]:
            out.append(_floor_told(after["names"][p], fs))
    for p in after["eliminated"]:
        if p not in before["eliminated"]:
            out.append(
                _(
                    "{player} is out of the game: no domino fitted "
                    "and fewer than 2 cards were left.",
                    player=after["names"][p],
                )
            )
    if after["floor"] != before["floor"] and not after["is_over"]:
        out.append(_("Floor {floor} begins.", floor=after["floor"]))
    return out


def ending(view: View) -> str:
    """Why the game ended: the pyramids are finished, or every player is out."""
    if all(view["out"]):
        return _("Every player is out.")
    return _("The pyramids are finished: four floors scored.")


GOAL = N_(
    "build a pyramid of four floors from the quarry's dominoes and score the most points. "
    "Seen from above, same-coloured quarters form areas; at the end of each floor every area "
    "marked with one of your gems scores its visible jewels, and the lowest marked area scores "
    "once more (the Mino bonus). A turn: place a domino, mark a block with a jewel with the gem "
    "of its colour, maybe cover a block with a single-block card, then refill the quarry."
)


def key(view: View) -> list[tuple[Any, str]]:
    """What the symbols of the pyramid pictures and the quarry mean."""
    out: list[tuple[Any, str]] = [
        (
            Text("◆ ", style=f"bold white on {BG['red']}"),
            _("a visible jewel on a block (it scores in a marked area)"),
        ),
        (
            Text(" ●", style=f"bold black on {BG['blue']}"),
            _("a gem: it marks the area of its colour"),
        ),
        (
            Text("2 ", style=f"grey70 on {BG['green']}"),
            _("the floor of the block seen there (floor 1 left blank)"),
        ),
        (
            Text("e5  ", style="bold bright_white on grey15"),
            _("an empty cell you may build on, by its name"),
        ),
    ]
    for colour, letter in LETTER.items():
        out.append((Text(f" {letter} ", style=f"bold white on {BG[colour]}"), colour_name(colour)))
    out.append((Text("q1 q2 q3"), _("the quarry slots; the stacks behind them refill them")))
    return out


def examples(view: View, moves: list[str]) -> list[tuple[str, str]]:
    """What one may type now: the current step's moves, explained from this position."""
    out: list[tuple[str, str]] = []
    for m in moves:
        word = m.split()[0]
        if any(o[0].split()[0] == word for o in out):
            continue
        out.append((m, describe(view, m).removeprefix(m).strip() or _step_meaning(word)))
        if len(out) == 3:
            break
    return out


def _step_meaning(word: str) -> str:
    meanings = {
        "mark": _("put the gem of that block's colour on it"),
        "pass": _("play no card this turn"),
        "refill": _("refill the empty quarry slot from that stack"),
    }
    return meanings.get(word, "")
