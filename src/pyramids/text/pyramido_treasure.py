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

from pyramids.cli.common import _, tr
from pyramids.games.pyramido_treasure.news import NEWS
from pyramids.games.pyramido_treasure.treasures import (
    CARD_BY_NAME,
    TREASURES,
    card_points,
)
from pyramids.i18n import N_

PYRAMID_STYLE = {"R": "bold red", "Y": "bold yellow", "B": "bold blue"}
CODES = {t.name: t.code for t in TREASURES}
TITLES = {
    "gift": N_("Gift: slide until any treasure shows; its holders give one card each"),
    "gift-give": N_("Gift: choose which card of the treasure to give"),
    "danger-name": N_("Danger: name two treasures that are not visible"),
    "danger": N_("Danger: slide until a treasure shows, twice"),
    "danger-give": N_("Danger failed: give one of your cards to an opponent"),
    "mirage": N_("Mirage: slide until a treasure shows"),
    "mirage-give": N_("Mirage failed: give your neighbour one of your cards"),
    "poker-name": N_("Desert poker: name an opponent and a treasure that is not visible"),
    "poker": N_("Desert poker: slide until a treasure shows"),
}
TURNS = {
    0: N_("not turned"),
    1: N_("turned 90°"),
    2: N_("turned 180°"),
    3: N_("turned 270°"),
}
ENDS = {
    "game-over-card": N_("The game-over card was drawn."),
    "deck-empty": N_("Deck 3 is used up."),
    "one-left": N_("Only one player is left in the game."),
    "slide-limit": N_("The slide limit is reached."),
}


def treasure_name(treasure: str) -> str:
    """A treasure's name (by id) in the terminal's language."""
    return tr().name("treasure", treasure)


def _cell(name: str) -> tuple[int, int]:
    """(row, col) of a viewed spot name like ``c4``."""
    return int(name[1:]) - 1, ord(name[0]) - ord("a")


def _label(card_name: str) -> str:
    """A treasure card as players read it: ``mummy (2)``; an event card by its name."""
    treasure, _sep, points = card_name.partition("/")
    if not points:
        return tr().name("event", treasure)
    return f"{treasure_name(treasure)} ({points})"


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


def key(view: dict[str, Any]) -> list[tuple[Any, str]]:
    """What the board's symbols mean, with the two-letter code of every treasure."""
    out: list[tuple[Any, str]] = [
        (Text(" ▲ ", style="bold yellow"), _("a pyramid (its colour is decoration)")),
        (Text("·· ", style="bold black on white"), _("the empty spot, on a blank token")),
        (
            Text("SX ", style="bold black on bright_green"),
            _("the empty spot, on a treasure (its code)"),
        ),
        (Text("?? ", style="cyan"), _("in the field map: a field whose treasure is not known")),
    ]
    for t in TREASURES:
        out.append((Text(t.code, style="cyan"), treasure_name(t.name)))
    return out


def status_text(view: dict[str, Any]) -> Text:
    """Who does what now: the current search or the event being resolved."""
    if view["is_over"]:
        return Text(ending(view) or _("Game over."), style="bold")  # why, in words
    names = view["names"]
    who = names[view["current_player"]]
    search = view["search"]
    phase = view["phase"]
    if phase == "search":
        points = tr().ngettext("{n} point", "{n} points", search["points"])
        return Text.assemble(
            (who, "bold cyan"),
            " " + _("seeks the {treasure}", treasure=treasure_name(search["treasure"])) + " ",
            (f"({points})", "bold"),
            ": " + _("slide a pyramid next to the gap at {spot}", spot=view["visible"]["spot"]),
        )
    text = Text.assemble((who, "bold cyan"), ": ", _(TITLES[phase]))
    event = view["event"] or {}
    if "named" in event:
        named = _(" and ").join(treasure_name(t) for t in event["named"])
        revealed = ", ".join(treasure_name(t) for t in event["revealed"]) or _("none yet")
        text.append(" (" + _("named {treasures}", treasures=named))
        text.append("; " + _("revealed {treasures}", treasures=revealed) + ")")
    if phase == "mirage":
        text.append(
            " ("
            + _(
                "holding {card} from {player}",
                card=_label(event["card"]),
                player=names[event["neighbour"]],
            )
            + ")"
        )
    if phase == "poker":
        text.append(
            " ("
            + _(
                "{player} bets you will not find the {treasure}",
                player=names[event["challenger"]],
                treasure=treasure_name(event["treasure"]),
            )
            + ")"
        )
    if "may_give" in event:
        text.append(" — " + _("you may give: {cards}", cards=", ".join(event["may_give"])))
    return text


def players_table(view: dict[str, Any]) -> Table:
    """Every player's cards and points."""
    table = Table(show_edge=False, pad_edge=False)
    table.add_column(_("Player"))
    table.add_column(_("Cards"))
    table.add_column(_("Points"), justify="right")
    for p, (name, hand) in enumerate(zip(view["names"], view["hands"], strict=True)):
        mark = "▶ " if p == view["current_player"] else "  "
        status = " " + _("(out)") if view["eliminated"][p] else ""
        cards = ", ".join(_label(c) for c in hand) or "—"
        table.add_row(mark + name + status, cards, str(view["scores"][p]))
    return table


def reveals_text(view: dict[str, Any]) -> Text | None:
    """The tokens revealed since the seat's last move, as the table saw them, in order."""
    if not view["recent"]:
        return None
    text = Text(_("Revealed:") + " ", style="dim")
    for i, r in enumerate(view["recent"]):
        if i:
            text.append(", ")
        token = r["token"]
        text.append(f"{r['spot']} ")
        shown = treasure_name(token) if token != "blank" else _("blank")
        text.append(shown, style="bold green" if token != "blank" else "dim")
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


def _title(view: dict[str, Any]) -> Text:
    left = "/".join(str(n) for n in view["decks_left"])
    return Text.assemble(
        (_("Deck {deck}", deck=view["deck"]), "bold"),
        "  " + _("cards left {left}", left=left),
        "  " + _("box {turn}", turn=_(TURNS[view["rotation"]])),
        "  " + _("slides {n}", n=view["slides"]),
    )


def _news(view: dict[str, Any]) -> list[Text]:
    return [Text("· " + news_line(line, view), style="italic") for line in view["news"]]


def render(view: dict[str, Any]) -> RenderableType:
    """Board (turned as the players see it), field map, search, players and news."""
    news = _news(view)
    seen = reveals_text(view)
    if seen is not None:
        news.insert(0, seen)
    fields = [Text(_("Fields:"), style="dim"), *field_map(view)]
    return Group(
        _title(view),
        *board_lines(view),
        *fields,
        status_text(view),
        players_table(view),
        *news,
    )


def board(view: dict[str, Any]) -> RenderableType:
    """The picture of terminal play: as :func:`render`, without the news.

    Terminal play tells every news line as it happens (and again to a player
    who gets the screen back), so the board does not repeat them.
    """
    seen = reveals_text(view)
    fields = [Text(_("Fields:"), style="dim"), *field_map(view)]
    return Group(
        _title(view),
        *board_lines(view),
        *fields,
        status_text(view),
        players_table(view),
        *([seen] if seen is not None else []),
    )


def summary(view: dict[str, Any]) -> Table:
    """Final table: cards, points and places (a game not over yet: by seat, no places)."""
    over = view["is_over"]
    table = Table(title=_("Result"))  # why it ended is said above the table, in words
    for col in (*([_("Place")] if over else []), _("Player"), _("Cards"), _("Points")):
        table.add_column(col)
    order = list(range(view["players"]))
    if over:
        order = sorted(order, key=lambda p: view["ranking"][p])
    for p in order:
        hand = view["hands"][p]
        table.add_row(
            *([str(view["ranking"][p])] if over else []),
            view["names"][p] + (" " + _("(out)") if view["eliminated"][p] else ""),
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


def events(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What the move made happen, from the table's news: cards drawn and taken, events,
    a turning box, a player out. (A spectator's view holds the news of the last move.)"""
    return [news_line(line, after) for line in after["news"]]


def ending(view: dict[str, Any]) -> str:
    """Why the hunt ended."""
    text = ENDS.get(view["end"] or "")
    return _(text) if text else ""


GOAL = N_(
    "collect the most points of treasure cards. The card drawn names a treasure: slide "
    "pyramids into the gap, one at a time, revealing the token under the spot each one "
    "leaves. Reveal the sought treasure to take the card; reveal another treasure and the "
    "next player seeks the same card. Remember where the treasures lie: only one token is "
    "visible at a time, and in deck 2 the box turns."
)


def examples(view: dict[str, Any], moves: list[str]) -> list[tuple[str, str]]:
    """What one may type now, from the legal moves of this position."""
    out: list[tuple[str, str]] = []
    for m in moves[:3]:  # the moves of one phase are all of one kind
        shown = describe(view, m)
        word = shown.split()[0]
        if word == "name":
            meaning = _("name the two treasures you will try to reveal")
        elif word == "poker":
            meaning = _("name the opponent and the treasure of the bet")
        elif word == "give":
            meaning = _("give that card to that player")
        else:
            meaning = _("slide the pyramid at {spot} into the gap", spot=shown)
        out.append((shown, meaning))
    return out
