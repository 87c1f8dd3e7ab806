"""Drawing a Pyramideto view in the terminal with Rich, and its help, events and ending.

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

from pyramids.cli.common import _, tr
from pyramids.i18n import N_

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
View = dict[str, Any]


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


def goal_name(card: dict[str, Any]) -> str:
    """A goal card's name in the terminal's language (by its id)."""
    return tr().name("goal", card["id"])


def card_panel(card: dict[str, Any], frames: dict[str, str], number: int | None = None) -> Panel:
    """A goal card: its tower drawn small (top first) inside a frame of its colour."""
    lines = Text()
    for code in reversed(card["tower"]):
        lines.append_text(_centered(code, 12))
        lines.append("\n")
    lines.append(" > ".join(card["tower"]), style="dim")
    name = goal_name(card)
    title = f"{number}. {name}" if number is not None else name
    return Panel(
        lines,
        title=title,
        subtitle=f"{card['id']} · {frame_colour(card['frame'])}",
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
#: frame id -> its colour word, for the catalogs (the frame's *name* is its theme)
FRAME_COLOURS = {
    "orange": N_("orange"),
    "purple": N_("purple"),
    "teal": N_("teal"),
    "brown": N_("brown"),
    "pink": N_("pink"),
}


def frame_colour(frame: str) -> str:
    """The colour word of a frame (``orange``), in the terminal's language."""
    word = FRAME_COLOURS.get(frame)
    return _(word) if word else frame


def _card_word(card: dict[str, Any]) -> Text:
    return Text(goal_name(card), style=f"bold {FRAME_STYLE.get(card['frame'], 'white')}")


def players_table(view: View) -> Table:
    """Per seat: cards in hand, displayed goals (coloured by frame) and goal count."""
    table = Table(box=None, padding=(0, 1))
    table.add_column("")
    table.add_column(_("Player"))
    table.add_column(_("Hand"), justify="right")
    table.add_column(_("Goals"), justify="right")
    table.add_column(_("Displayed"))
    for seat, name in enumerate(view["names"]):
        marker = "▶" if view["current_player"] == seat else ""
        if view.get("winner") == seat:
            marker = "★"
        shown = Text(", ").join(_card_word(c) for c in view["displayed"][seat])
        who = _("{player} (you)", player=name) if view["viewer"] == seat else name
        table.add_row(marker, who, str(view["hand_sizes"][seat]), str(view["scores"][seat]), shown)
    return table


def render(view: View) -> RenderableType:
    """Stacks as towers, the players' displayed goals, the viewer's hand, deck and turn.

    On a short terminal (60x20) the goal cards are one line each and the
    legend is left to ``help``, so the stacks stay on screen with the prompt.
    """
    from pyramids.text.colour import Fitted

    return Fitted(lambda: _render(view), lambda: _render(view, short=True), height=True)


def goal_line(card: dict[str, Any], number: int) -> Text:
    """A goal card in one line: number, name, frame colour, its tower bottom to top."""
    line = Text(f"{number}. ", style="bold")
    line.append(goal_name(card), style=FRAME_STYLE.get(card["frame"], "white"))
    line.append(f" ({frame_colour(card['frame'])}): ")
    line.append(" > ".join(card["tower"]))
    return line


def _render(view: View, *, short: bool = False) -> RenderableType:
    limit = view["turn_limit"]
    if limit:
        turn = _("Move {turn}/{limit}", turn=view["turn"], limit=limit)
    else:
        turn = _("Move {turn}", turn=view["turn"])
    group = "+".join(view["last_group"]) or "-"
    status = Text(
        turn
        + "   "
        + _("Deck {n}", n=view["deck"])
        + "   "
        + _("Last group moved: {group} (may not move again as a group)", group=group)
    )
    legend = Text(
        _(
            "Under each stack: its top piece, the name of that stack in moves (Mr>Lg); "
            "* = holds the group just moved"
        ),
        style="dim",
    )
    parts: list[RenderableType] = [towers(view["stacks"], view["last_group"])]
    parts += [status] if short else [legend, status]
    parts.append(players_table(view))
    if view["hand"] is not None:
        if view["hand"]:
            parts.append(Text(_("Your goals (bottom of the tower is the first code):")))
            if short:
                parts += [goal_line(c, k) for k, c in enumerate(view["hand"], 1)]
            else:
                cards = [card_panel(c, FRAME_STYLE, k) for k, c in enumerate(view["hand"], 1)]
                parts.append(Columns(cards))
        else:
            parts.append(Text(_("Your hand is empty (the deck ran out).")))
    for line in remembered_lines(view):
        parts.append(Text(line, style="dim"))
    if view["is_over"]:
        parts.append(Text(_ending(view), style="bold"))
    return Group(*parts)


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``... in English; other languages write places their own way."""
    if tr().lang != "en":
        return tr().ordinal(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def remembered_lines(view: View) -> list[str]:
    """What the viewer knows of the cards it put under the deck, one line each."""
    lines = []
    for fact in view.get("remembered") or []:
        places = [_("in {player}'s hand", player=view["names"][seat]) for seat in fact["in_hands"]]
        places += [
            _("{place} from the bottom of the deck", place=_ordinal(k + 1))
            for k in fact["deck_from_bottom"]
        ]
        lines.append(
            _(
                "You put {card} under the deck; it is now {places}",
                card=tr().name("goal", fact["card"]),
                places=_(" or ").join(places),
            )
        )
    return lines


def _win_reason(cards: list[dict[str, Any]]) -> str:
    """Which of the three winning conditions the winner's displayed cards meet."""
    frames = [c["frame"] for c in cards]
    if len(cards) >= 5:
        return _("a 5th goal")
    for frame in dict.fromkeys(frames):
        if frames.count(frame) >= 3:
            return _("a 3rd {frame} card", frame=frame_colour(frame))
    return _("a 4th frame colour")


def _ending(view: View) -> str:
    if view["winner"] is not None:
        w = view["winner"]
        return _(
            "{player} wins with {reason} ({n} goals displayed).",
            player=view["names"][w],
            reason=_win_reason(view["displayed"][w]),
            n=view["scores"][w],
        )
    if view["end"] == "turn-limit":
        return _("Drawn: the turn limit of {limit} moves was reached.", limit=view["turn_limit"])
    return _("Drawn: the deck is empty and no player holds a card.")


def ending(view: View) -> str:
    """Why the game ended: who won with which condition, or why it is drawn."""
    return _ending(view)


def summary(view: View) -> Table:
    """Each seat's goals and frames, and at the end why the game ended and the places.

    A game that is not over (a saved game replayed) has no places and no ending yet.
    """
    over = view["is_over"]
    table = Table(title=_ending(view) if over else None)
    table.add_column(_("Player"))
    for col in (_("Goals"), _("Frames"), *([_("Place")] if over else [])):
        table.add_column(col, justify="right")
    for seat, name in enumerate(view["names"]):
        frames = sorted({frame_colour(c["frame"]) for c in view["displayed"][seat]})
        place = [str(view["ranking"][seat])] if over else []
        table.add_row(name, str(view["scores"][seat]), ", ".join(frames), *place)
    return table


def describe(view: View, move_text: str) -> str:
    """A move as ``view``'s seat may read it: an exchange names its card only to its owner.

    The exchanged card goes face down under the deck, so another seat learns that
    a card was exchanged, not which one.
    """
    word, _sep, card = move_text.partition(" ")
    if word != "x":
        return move_text
    hand = view.get("hand") or []
    if any(c["id"] == card for c in hand):
        return move_text
    return _("exchanges a goal card")


def stats(view: View) -> dict[str, float]:
    """Figures for ``pyramids simulate``: game length, drawn games, goals displayed."""
    return {
        "moves": float(view["turn"]),
        "drawn": 1.0 if view["winner"] is None else 0.0,
        "goals displayed": float(sum(view["scores"])),
    }


def events(before: View, after: View) -> list[str]:
    """Goal cards displayed by the move (whoever built the tower), in the order they were."""
    out = []
    for seat, cards in enumerate(after["displayed"]):
        known = {c["id"] for c in before["displayed"][seat]}
        for card in cards:
            if card["id"] not in known:
                out.append(
                    _(
                        "{player} displays {goal} ({frame} frame); goals shown: {n}.",
                        player=after["names"][seat],
                        goal=goal_name(card),
                        frame=frame_colour(card["frame"]),
                        n=len(cards),
                    )
                )
    if after["deck"] == 0 and before["deck"] > 0:
        out.append(_("The deck is empty: displayed cards are no longer replaced."))
    return out


GOAL = N_(
    "be the first to display a 5th goal card, a 3rd card of one frame colour, or a card of a "
    "4th frame colour. A goal card is achieved when its three pieces stand directly on one "
    "another in one stack, in its order, whoever built it; it is then displayed and replaced. "
    "Each turn: move a piece with everything on it onto a stack whose top is at least as "
    "large, or onto the table, or exchange a goal card."
)


def key(view: View) -> list[tuple[Any, str]]:
    """What the symbols mean: pieces, markers, and the frame colours of the goal cards."""
    out: list[tuple[Any, str]] = [
        (piece_text("Lg"), _("a piece: size S, M or L, then colour r, y, g, b or k (black)")),
        (
            Text("Mr*", style="dim"),
            _("under a stack: its top piece; * = it holds the group just moved"),
        ),
        (Text("▶"), _("the player to move")),
        (Text("★"), _("the winner")),
    ]
    for frame in view.get("frames", []):
        style = FRAME_STYLE.get(frame["id"], "white")
        swatch = Text("■ " + frame_colour(frame["id"]), style=f"bold {style}")
        theme = tr().name("frame", frame["id"])
        out.append((swatch, _("frame of the {theme} cards (card borders and names)", theme=theme)))
    return out


def examples(view: View, moves: list[str]) -> list[tuple[str, str]]:
    """What one may type now, from the legal moves of this position."""
    out: list[tuple[str, str]] = []
    onto = next((m for m in moves if ">" in m and not m.endswith(">table")), None)
    table = next((m for m in moves if m.endswith(">table")), None)
    exchange = next((m for m in moves if m.startswith("x ")), None)
    if onto:
        piece, _sep, target = onto.partition(">")
        out.append(
            (onto, _("move {piece} and what is on it onto {target}", piece=piece, target=target))
        )
    if table:
        piece = table.partition(">")[0]
        out.append((table, _("move {piece} and what is on it onto the table", piece=piece)))
    if exchange:
        card = exchange.partition(" ")[2]
        hand = view.get("hand") or []
        name = next((goal_name(c) for c in hand if c["id"] == card), card)
        out.append(
            (exchange, _("exchange your goal card {name} for the top of the deck", name=name))
        )
        out.append(("x 1", _("exchange the first card of your hand, named by its number")))
    return out
