"""Drawing a treasure-hunt view in the terminal with Rich.

Only the view is used, and only the one visible token is drawn on the board:
the reveal history in the view is public, but showing it would do the
players' remembering for them.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from pyramids.cli.common import tr
from pyramids.games.pyramido_treasure.news import NEWS
from pyramids.games.pyramido_treasure.treasures import (
    CARD_BY_NAME,
    TREASURES,
    card_label,
    card_points,
)

PYRAMID_STYLE = {"R": "bold red", "Y": "bold yellow", "B": "bold blue"}
CODES = {t.name: t.code for t in TREASURES}
TITLES = {
    "search": "seeks",
    "gift": "Gift: slide until any treasure shows; its holders give one card each",
    "gift-give": "Gift: choose which card of the treasure to give",
    "danger-name": "Danger: name two treasures that are not visible",
    "danger": "Danger: slide until a treasure shows, twice",
    "danger-give": "Danger failed: give one of your cards to an opponent",
    "mirage": "Mirage: slide until a treasure shows",
    "mirage-give": "Mirage failed: give your neighbour one of your cards",
    "poker-name": "Desert poker: name an opponent and a treasure that is not visible",
    "poker": "Desert poker: slide until a treasure shows",
}
TURNS = {0: "not turned", 1: "turned 90°", 2: "turned 180°", 3: "turned 270°"}


def _cell(name: str) -> tuple[int, int]:
    """(row, col) of a viewed spot name like ``c4``."""
    return int(name[1:]) - 1, ord(name[0]) - ord("a")


def _label(card_name: str) -> str:
    return card_label(CARD_BY_NAME[card_name])


def board_lines(view: dict[str, Any]) -> list[Text]:
    """The board as the seat sees it: pyramids in colour, the visible token in the gap."""
    rows, cols = view["rows"], view["cols"]
    visible = view["visible"]
    token = visible["token"]
    gap = "··" if token == "blank" else CODES[token]
    header = Text("    ")
    for c in range(cols):
        header.append(f" {chr(ord('a') + c)} ")
        if c % 2 == 1 and c < cols - 1:
            header.append(" ")
    lines = [header]
    for r, row in enumerate(view["board"]):
        line = Text(f"{r + 1:>3} ")
        for c, ch in enumerate(row):
            if ch == ".":
                line.append(
                    f"{gap:^3}",
                    style="bold black on white"
                    if token == "blank"
                    else "bold black on bright_green",
                )
            else:
                line.append(" ▲ ", style=PYRAMID_STYLE[ch])
            if c % 2 == 1 and c < cols - 1:
                line.append("│", style="dim")
        lines.append(line)
        if r % 2 == 1 and r < rows - 1:
            lines.append(Text("    " + "┼".join(["─" * 6] * (cols // 2)), style="dim"))
    return lines


def field_map(view: dict[str, Any]) -> list[Text]:
    """Which treasure each field holds, laid out as the board is seen (?? = unknown)."""
    rows, cols = view["rows"] // 2, view["cols"] // 2
    grid = [["??"] * cols for _ in range(rows)]
    for f in view["fields"]:
        r, c = _cell(f["spots"][0])
        grid[r // 2][c // 2] = CODES[f["treasure"]] if f["treasure"] else "??"
    return [Text("  " + " ".join(row), style="cyan") for row in grid]


def status_text(view: dict[str, Any]) -> Text:
    """Who does what now: the current search or the event being resolved."""
    if view["is_over"]:
        return Text(f"Game over ({view['end'] or 'finished'}).", style="bold")
    names = view["names"]
    who = names[view["current_player"]]
    search = view["search"]
    phase = view["phase"]
    if phase == "search":
        return Text.assemble(
            (who, "bold cyan"),
            f" seeks the {search['treasure']} ",
            (f"({search['points']} point{'s' if search['points'] > 1 else ''})", "bold"),
            f": slide a pyramid next to the gap at {view['visible']['spot']}",
        )
    text = Text.assemble((who, "bold cyan"), ": ", TITLES[phase])
    event = view["event"] or {}
    if "named" in event:
        text.append(f" (named {' and '.join(event['named'])}")
        text.append(f"; revealed {', '.join(event['revealed']) or 'none yet'})")
    if phase == "mirage":
        text.append(f" (holding {_label(event['card'])} from {names[event['neighbour']]})")
    if phase == "poker":
        text.append(
            f" ({names[event['challenger']]} bets you will not find the {event['treasure']})"
        )
    if "may_give" in event:
        text.append(f" — you may give: {', '.join(event['may_give'])}")
    return text


def players_table(view: dict[str, Any]) -> Table:
    """Every player's cards and points."""
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("Player")
    table.add_column("Cards")
    table.add_column("Points", justify="right")
    for p, (name, hand) in enumerate(zip(view["names"], view["hands"], strict=True)):
        mark = "▶ " if p == view["current_player"] else "  "
        status = " (out)" if view["eliminated"][p] else ""
        cards = ", ".join(_label(c) for c in hand) or "—"
        table.add_row(mark + name + status, cards, str(view["scores"][p]))
    return table


def reveals_text(view: dict[str, Any]) -> Text | None:
    """The tokens revealed since the seat's last move, as the table saw them, in order."""
    if not view["recent"]:
        return None
    text = Text("Revealed: ", style="dim")
    for i, r in enumerate(view["recent"]):
        if i:
            text.append(", ")
        token = r["token"]
        text.append(f"{r['spot']} ")
        text.append(token, style="bold green" if token != "blank" else "dim")
        text.append(f" ({view['names'][r['player']]})", style="dim")
    return text


def news_line(line: dict[str, Any] | str, view: dict[str, Any]) -> str:
    """One news entry in the terminal's language (entries are code, parameters, English)."""
    if isinstance(line, str):
        return line
    template = NEWS.get(line.get("code", ""))
    if template is None:
        return str(line["text"])
    return tr().message(template, line["params"], view["names"])


def render(view: dict[str, Any]) -> RenderableType:
    """Board (turned as the players see it), field map, search, players and news."""
    left = view["decks_left"]
    title = Text.assemble(
        ("Deck ", "bold"),
        (str(view["deck"]), "bold"),
        f"  cards left {left[0]}/{left[1]}/{left[2]}",
        f"  box {TURNS[view['rotation']]}",
        f"  slides {view['slides']}",
    )
    news = [Text("· " + news_line(line, view), style="italic") for line in view["news"]]
    seen = reveals_text(view)
    if seen is not None:
        news.insert(0, seen)
    fields = [Text("Fields:", style="dim"), *field_map(view)]
    return Group(
        title,
        *board_lines(view),
        *fields,
        status_text(view),
        players_table(view),
        *news,
    )


def summary(view: dict[str, Any]) -> Table:
    """Final table: cards, points and places."""
    table = Table(title=f"Result ({view['end']})")
    for col in ("Place", "Player", "Cards", "Points"):
        table.add_column(col)
    order = sorted(range(view["players"]), key=lambda p: view["ranking"][p])
    for p in order:
        hand = view["hands"][p]
        table.add_row(
            str(view["ranking"][p]),
            view["names"][p] + (" (out)" if view["eliminated"][p] else ""),
            str(len(hand)),
            str(view["scores"][p]),
        )
    return table


def describe(view: dict[str, Any], move_text: str) -> str:
    """A move as the player types it: a turned slide without its box name (``b7=G5`` -> ``b7``).

    Records keep the box name so they replay whatever the turn; at the table the
    player only needs the name of the spot as the board is seen now.
    """
    seen, eq, _box = move_text.partition("=")
    return seen if eq and " " not in move_text else move_text


def stats(view: dict[str, Any]) -> dict[str, float]:
    """Figures for ``pyramids simulate``: slides, cards taken, players eliminated."""
    return {
        "slides": float(view["slides"]),
        "cards taken": float(sum(len(h) for h in view["hands"])),
        "points taken": float(sum(card_points(CARD_BY_NAME[c]) for h in view["hands"] for c in h)),
        "eliminated": float(sum(view["eliminated"])),
    }
