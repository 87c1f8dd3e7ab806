"""Drawing a Pyramideto view in the terminal with Rich.

Only the view dict is used (never the state), so hot-seat play shows a seat
its own hand and nobody else's. Stacks are drawn as towers standing on one
base line, each piece as a coloured block whose width follows its size.
"""

from __future__ import annotations

from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

#: piece colour letter -> (background, text colour)
PIECE_STYLE = {
    "r": ("red3", "white"),
    "y": ("gold1", "black"),
    "g": ("green3", "black"),
    "b": ("dodger_blue2", "white"),
    "k": ("grey15", "white"),
}
#: size letter -> block width in characters
WIDTH = {"S": 4, "M": 6, "L": 8}
COLUMN = 10  # characters per stack column


def piece_text(code: str, width: int | None = None) -> Text:
    """One piece as a coloured block with its code in the middle, e.g. ``  Lg  ``."""
    size, colour = code[0], code[1]
    w = width if width is not None else WIDTH[size]
    bg, fg = PIECE_STYLE[colour]
    return Text(code.center(w), style=f"bold {fg} on {bg}")


def _centered(code: str | None, column: int) -> Text:
    if code is None:
        return Text(" " * column)
    block = piece_text(code)
    left = (column - len(block)) // 2
    line = Text(" " * left)
    line.append_text(block)
    line.append(" " * (column - left - len(block)))
    return line


def towers(stacks: list[list[str]], moved: list[str] | None = None) -> Text:
    """All stacks side by side, bottoms on one line; the group just moved is marked."""
    height = max((len(s) for s in stacks), default=0)
    out = Text()
    for row in range(height - 1, -1, -1):
        for s in stacks:
            out.append_text(_centered(s[row] if row < len(s) else None, COLUMN))
        out.append("\n")
    out.append("▔" * (COLUMN * len(stacks)) + "\n", style="dim")
    moved_set = set(moved or [])
    for s in stacks:
        mark = "*" if moved_set & set(s) else ""
        out.append(f"{s[-1] + mark:^{COLUMN}}", style="dim")
    return out


def card_panel(card: dict[str, Any], frames: dict[str, str], number: int | None = None) -> Panel:
    """A goal card: its tower drawn small (top first) inside a frame of its colour."""
    lines = Text()
    for code in reversed(card["tower"]):
        lines.append_text(_centered(code, 12))
        lines.append("\n")
    lines.append(" > ".join(card["tower"]), style="dim")
    title = f"{number}. {card['name']}" if number is not None else card["name"]
    return Panel(
        lines,
        title=title,
        subtitle=card["id"],
        border_style=frames.get(card["frame"], "white"),
        width=26,
    )


FRAME_STYLE = {
    "orange": "dark_orange",
    "purple": "medium_purple",
    "teal": "dark_cyan",
    "brown": "orange4",
    "pink": "hot_pink",
}


def _card_word(card: dict[str, Any]) -> Text:
    return Text(card["name"], style=f"bold {FRAME_STYLE.get(card['frame'], 'white')}")


def players_table(view: dict[str, Any]) -> Table:
    """Per seat: cards in hand, displayed goals (coloured by frame) and goal count."""
    table = Table(box=None, padding=(0, 1))
    table.add_column("")
    table.add_column("Player")
    table.add_column("Hand", justify="right")
    table.add_column("Goals", justify="right")
    table.add_column("Displayed")
    for seat, name in enumerate(view["names"]):
        marker = "▶" if view["current_player"] == seat else ""
        if view.get("winner") == seat:
            marker = "★"
        shown = Text(", ").join(_card_word(c) for c in view["displayed"][seat])
        who = name + (" (you)" if view["viewer"] == seat else "")
        table.add_row(marker, who, str(view["hand_sizes"][seat]), str(view["scores"][seat]), shown)
    return table


def render(view: dict[str, Any]) -> RenderableType:
    """Stacks as towers, the players' displayed goals, the viewer's hand, deck and turn."""
    limit = view["turn_limit"]
    turn = f"Move {view['turn']}" + (f"/{limit}" if limit else "")
    group = "+".join(view["last_group"]) or "-"
    status = Text(
        f"{turn}   Deck {view['deck']}   Last group moved: {group} (may not move again as a group)"
    )
    legend = Text(
        "Under each stack: its top piece, the name of that stack in moves (Mr>Lg); "
        "* = holds the group just moved",
        style="dim",
    )
    parts: list[RenderableType] = [towers(view["stacks"], view["last_group"]), legend, status]
    parts.append(players_table(view))
    if view["hand"] is not None:
        if view["hand"]:
            parts.append(Text("Your goals (bottom of the tower is the first code):"))
            parts.append(
                Columns([card_panel(c, FRAME_STYLE, k) for k, c in enumerate(view["hand"], 1)])
            )
        else:
            parts.append(Text("Your hand is empty (the deck ran out)."))
    for line in remembered_lines(view):
        parts.append(Text(line, style="dim"))
    if view["is_over"]:
        parts.append(Text(_ending(view), style="bold"))
    return Group(*parts)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def remembered_lines(view: dict[str, Any]) -> list[str]:
    """What the viewer knows of the cards it put under the deck, one line each."""
    lines = []
    for fact in view.get("remembered") or []:
        places = [f"in {view['names'][seat]}'s hand" for seat in fact["in_hands"]]
        places += [
            f"{_ordinal(k + 1)} from the bottom of the deck" for k in fact["deck_from_bottom"]
        ]
        lines.append(f"You put {fact['card']} under the deck; it is now " + " or ".join(places))
    return lines


def _win_reason(cards: list[dict[str, Any]]) -> str:
    """Which of the three winning conditions the winner's displayed cards meet."""
    frames = [c["frame"] for c in cards]
    if len(cards) >= 5:
        return "a 5th goal"
    for frame in dict.fromkeys(frames):
        if frames.count(frame) >= 3:
            return f"a 3rd {frame} card"
    return "a 4th frame colour"


def _ending(view: dict[str, Any]) -> str:
    if view["winner"] is not None:
        w = view["winner"]
        return (
            f"{view['names'][w]} wins with {_win_reason(view['displayed'][w])} "
            f"({view['scores'][w]} goals displayed)."
        )
    if view["end"] == "turn-limit":
        return f"Drawn: the turn limit of {view['turn_limit']} moves was reached."
    return "Drawn: the deck is empty and no player holds a card."


def summary(view: dict[str, Any]) -> Table:
    """End of game: each seat's goals, frames and place."""
    table = Table(title=_ending(view))
    for col in ("Player", "Goals", "Frames", "Place"):
        table.add_column(col, justify="right" if col != "Player" else "left")
    ranking = view["ranking"] or [None] * view["players"]
    for seat, name in enumerate(view["names"]):
        frames = sorted({c["frame"] for c in view["displayed"][seat]})
        table.add_row(name, str(view["scores"][seat]), ", ".join(frames), str(ranking[seat]))
    return table


def describe(view: dict[str, Any], move_text: str) -> str:
    """A move as ``view``'s seat may read it: an exchange names its card only to its owner.

    The exchanged card goes face down under the deck, so another seat learns that
    a card was exchanged, not which one.
    """
    word, _, card = move_text.partition(" ")
    if word != "x":
        return move_text
    hand = view.get("hand") or []
    if any(c["id"] == card for c in hand):
        return move_text
    return "exchanges a goal card"


def stats(view: dict[str, Any]) -> dict[str, float]:
    """Figures for ``pyramids simulate``: game length, drawn games, goals displayed."""
    return {
        "moves": float(view["turn"]),
        "drawn": 1.0 if view["winner"] is None else 0.0,
        "goals displayed": float(sum(view["scores"])),
    }
