"""A Pirámides view drawn as text with Rich (pyramid, tripeaks, golf), its help, events, ending."""

from __future__ import annotations

from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from pyramids.games.piramides.cards import card_label, parse_card
from pyramids.i18n import N_
from pyramids.text.colour import plain
from pyramids.text.language import _, tr

CELL = 6  # characters per card cell (3 for the card, 3 of space)
STEP = 3  # characters per half-card step of a cell's ``x``
View = dict[str, Any]


def card_text(name: str | None, *, free: bool = True, marked: bool = False) -> Text:
    """A card as coloured text: red suits red, covered cards dim, hidden cards as ``▒▒▒``.

    ``marked``: a card of the layout, whose free state must show without colour
    too: where the terminal shows none (:func:`~pyramids.text.colour.plain`) a free
    card carries a ``*`` after it.
    """
    if name is None:
        return Text("▒▒▒", style="blue")
    if name == "joker":
        return Text("[JK]", style="bold magenta")
    card = parse_card(name)
    assert card is not None
    label = card_label(card)
    red = name[-1] in "DH"
    style = ("bold red" if red else "bold white") if free else ("red dim" if red else "dim")
    mark = "*" if marked and free and plain() else ""
    return Text(f"{label:>3}{mark}", style=style + (" reverse" if free else ""))


def status_line(view: View) -> Columns:
    """Waste, stock, jokers, round, run and score, each part whole.

    Only what the layout has: golf scores no runs and has no jokers, tripeaks
    has no jokers, one round needs no round count, and an ended game has no next
    card. Why :class:`~rich.columns.Columns`: a narrow terminal, or a language
    with longer words, moves a whole part to the next line instead of breaking
    "Stock 23" between its label and its count.
    """
    layout = view.get("layout", "pyramid")
    parts = [
        Text(_("Waste") + " ") + card_text(view["waste"]),
        Text(_("Stock {n}", n=view["stock"])),
    ]
    if layout == "pyramid":
        parts.append(Text(_("Jokers {n}", n=view["jokers_left"])))
    if view["rounds"] > 1:
        parts.append(Text(_("Round {round}/{rounds}", round=view["round"], rounds=view["rounds"])))
    if layout != "golf" and not view["is_over"]:
        parts.append(
            Text(
                _(
                    "Run {run} (next card +{points})",
                    run=view["run"],
                    points=view["next_card_points"],
                )
            )
        )
    parts.append(Text(_("Score {score}", score=view["scores"][0]), style="bold"))
    return Columns(parts, padding=(0, 2))


def render(view: View) -> RenderableType:
    """The pyramid (free cards highlighted, labels beside rows), waste, stock and score."""
    if "x" in view["pyramid"][0]:
        return render_spread(view)  # the tripeaks and golf layouts
    rows: dict[int, list[dict[str, Any]]] = {}
    for cell in view["pyramid"]:
        rows.setdefault(cell["row"], []).append(cell)
    nrows = len(rows)
    lines = []
    for r in range(nrows):
        line = Text(" " * ((nrows - 1 - r) * CELL // 2 + 2))
        for cell in rows[r]:
            card = Text(" " * 3)
            if not cell["removed"]:
                card = card_text(cell["card"], free=cell["free"], marked=True)
            line.append_text(card)
            line.append(" " * (CELL - len(card.plain)))
        first, last = rows[r][0]["pos"], rows[r][-1]["pos"]
        line.append(f"  {first}..{last}" if first != last else f"  {first}", style="dim")
        lines.append(line)
    return Group(*lines, Text(""), status_line(view))


def summary(view: View) -> Table:
    """The score of each round, part by part (shown at the end of a game)."""
    table = Table(title=_("Score by round"))
    # golf scores the cards left (or the stock left), not runs: only its own columns;
    # a layout without jokers has no joker column
    golf = view["layout"] == "golf"
    jokers = view["layout"] == "pyramid" and view["variant"].get("jokers_per_round", 0) > 0
    columns = [_("Round")]
    if not golf:
        columns += [_("Cards"), _("Stock"), *([_("Jokers")] if jokers else [])]
    columns += [_("Cleared"), _("Total")]
    for col in columns:
        table.add_column(col, justify="right")
    cleared, not_cleared = (_("yes") if golf else "+50"), _("no")
    for r in view["round_scores"]:
        parts = [str(r["round"])]
        if not golf:
            parts += [f"+{r['cards']}", f"-{5 * r['stock_cards']} ({r['stock_cards']})"]
            if jokers:
                parts.append(f"-{50 * r['jokers']} ({r['jokers']})")
        parts += [cleared if r["cleared"] else not_cleared, str(r["total"])]
        table.add_row(*parts)
    score = Text(_("Score"), style="bold")
    table.add_row(*[""] * (len(columns) - 2), score, Text(str(view["scores"][0]), style="bold"))
    return table


def stats(view: View) -> dict[str, float]:
    """Figures for ``pyramids simulate``: rounds cleared and rounds played."""
    rounds = view["round_scores"]
    return {
        "rounds cleared": float(sum(1 for r in rounds if r["cleared"])),
        "rounds played": float(len(rounds)),
    }


def _card_at(view: View, pos: str) -> str | None:
    for cell in view["pyramid"]:
        if cell["pos"] == pos and cell["card"] and not cell["removed"]:
            card = parse_card(cell["card"])
            return None if card is None else card_label(card)
    return None


def describe(view: View, move: str) -> str:
    """A move as shown in the numbered list: the position with its card."""
    label = _card_at(view, move)
    return f"{move:<4} {label}" if label else move


def round_breakdown(r: dict[str, Any], layout: str) -> str:
    """One round's score in words, part by part."""
    if layout == "golf":
        if r["cleared"]:
            return _("golf score {total} (cards left in the stock)", total=r["total"])
        return _("golf score {total} (cards left in the layout)", total=r["total"])
    parts = [
        _("cards +{points}", points=r["cards"]),
        tr().ngettext(
            "{n} stock card -{points}",
            "{n} stock cards -{points}",
            r["stock_cards"],
            points=5 * r["stock_cards"],
        ),
    ]
    if r["jokers"]:
        parts.append(
            tr().ngettext(
                "{n} joker -{points}", "{n} jokers -{points}", r["jokers"], points=50 * r["jokers"]
            )
        )
    if r["cleared"]:
        parts.append(_("clear bonus +50"))
    return _("{parts} = {total} points", parts=", ".join(parts), total=r["total"])


def events(before: View, after: View) -> list[str]:
    """A round that ended: cleared or not, with its score part by part."""
    ended = after["round"] != before["round"] or (after["is_over"] and not before["is_over"])
    if not ended:
        return []
    number = before["round"]
    r = after["round_scores"][number - 1]
    layout = after.get("layout", "pyramid")
    told = round_breakdown(r, layout)
    if r["cleared"]:
        line = _("Round {round} cleared: {score}.", round=number, score=told)
    else:
        line = _("Round {round} over, not cleared: {score}.", round=number, score=told)
    out = [line]
    if not after["is_over"]:
        out.append(_("Round {round} begins with a new deal.", round=after["round"]))
    return out


def ending(view: View) -> str:
    """Why the game ended, as a sentence: every round cleared, or the round that was not."""
    last = view["round_scores"][-1]
    layout = view.get("layout", "pyramid")
    if last["cleared"]:
        if layout == "pyramid":
            return tr().ngettext(
                "The round is cleared.", "All {n} rounds are cleared.", view["rounds"]
            )
        return _("The layout is cleared.")
    if layout == "pyramid":
        return _(
            "Round {round} cannot be cleared: the stock is empty, no free card fits the waste "
            "and no joker is left.",
            round=last["round"],
        )
    return _("The layout cannot be cleared: the stock is empty and no free card fits the waste.")


GOAL = N_(
    "play free cards onto the waste, each one rank above or below the waste card "
    "(suits do not matter; Ace and King are neighbours unless wrap is off). "
    "Cards in a run score more and more (5, 10, 15...); a stock card costs 5 and ends the "
    "run, a joker costs 50. Clearing the pyramid scores +50 and deals the next round."
)
#: the other layouts' own rules (docs/rules/tripeaks.md, docs/rules/golf.md)
GOALS = {
    "pyramid": GOAL,
    "tripeaks": N_(
        "clear the three peaks: play free cards onto the waste, each one rank above or "
        "below the waste card (suits do not matter; Ace and King are neighbours unless wrap "
        "is off). Covered cards lie face down until they are free. Cards in a run score more "
        "and more (5, 10, 15...); a stock card costs 5 and ends the run. Clearing all three "
        "peaks scores +50. There is no joker and one deal."
    ),
    "golf": N_(
        "clear the seven columns: play the top card of a column onto the waste, one rank "
        "above or below the waste card (suits do not matter; with wrap off a Queen and a King "
        "are neighbours, Ace and King are not). Turning a stock card costs nothing. The score "
        "is the cards left in the columns, negative (-7 for 7 left), or after clearing them "
        "the stock cards left (+5). There is no joker, no run and one deal."
    ),
}


def goal(view: View) -> str:
    """How to win this layout (a message id): the pyramid's, tripeaks' or golf's rules."""
    return GOALS.get(view.get("layout", "pyramid"), GOAL)


def key(view: View) -> list[tuple[Any, str]]:
    """What the symbols on the board mean."""
    free = next((c["card"] for c in view["pyramid"] if c["free"] and c["card"]), "7H")
    covered = next((c["card"] for c in view["pyramid"] if not c["free"] and c["card"]), "9S")
    layout = view.get("layout", "pyramid")
    out: list[tuple[Any, str]] = [
        (card_text(free, marked=True), _("a free card (nothing lies on it): it may be played")),
        (card_text(covered, free=False), _("a covered card: free once the cards on it are gone")),
    ]
    if any(c["card"] is None and not c["removed"] for c in view["pyramid"]):
        out.append((Text("▒▒▒", style="blue"), _("a face-down card")))
    if layout == "pyramid" and view["variant"].get("jokers_per_round", 0) > 0:
        out.append(
            (Text("[JK]", style="bold magenta"), _("the joker on the waste: any card may follow"))
        )
    if layout == "golf":
        out.append((Text("A1 .. G5", style="dim"), _("columns A-G, depth 1-5 from the bottom")))
    else:  # the bottom row's positions, as drawn beside it (G1..G7, or D1..D10 in tripeaks)
        bottom = [
            c["pos"] for c in view["pyramid"] if c["row"] == max(x["row"] for x in view["pyramid"])
        ]
        out.append(
            (
                Text(f"{bottom[0]}..{bottom[-1]}", style="dim"),
                _("the positions of the row: letter = row, number = column"),
            )
        )
    return out


def examples(view: View, moves: list[str]) -> list[tuple[str, str]]:
    """What the player may type now, taken from the legal moves of this position."""
    out: list[tuple[str, str]] = []
    plays = [m for m in moves if m not in ("draw", "joker")]
    if plays:
        pos = plays[0]
        label = _card_at(view, pos) or pos
        out.append((pos, _("play the {card} at {pos} onto the waste", card=label, pos=pos)))
        card = next((c["card"] for c in view["pyramid"] if c["pos"] == pos), None)
        if card:
            out.append((card.lower(), _("the same move, naming the card")))
    else:
        out.append(("G3", _("a position plays its card, when it is free and fits the waste")))
    if "draw" in moves:
        out.append(("draw", _("turn the next stock card onto the waste (-5, ends the run)")))
    if "joker" in moves:
        out.append(("joker", _("play the joker: any card may follow it (-50)")))
    return out


def render_spread(view: dict[str, Any]) -> RenderableType:
    """A tripeaks or golf view: cards placed by their ``x``, rows top to bottom."""
    rows: dict[int, list[dict[str, Any]]] = {}
    for cell in view["pyramid"]:
        rows.setdefault(cell["row"], []).append(cell)
    width = STEP * (max(c["x"] for c in view["pyramid"]) + 3)
    lines = []
    golf = view.get("layout") == "golf"
    if golf:
        header = Text(" " * 2)
        for cell in sorted(rows[0], key=lambda c: c["x"]):
            header.append(" " * (2 + STEP * cell["x"] - len(header.plain)))
            header.append(f" {cell['pos'][0]} ", style="dim")
        lines.append(header)
    for r in sorted(rows):
        line = Text(" " * 2)
        for cell in sorted(rows[r], key=lambda c: c["x"]):
            line.append(" " * (2 + STEP * cell["x"] - len(line.plain)))
            if cell["removed"]:
                line.append("   ")
            else:
                line.append_text(card_text(cell["card"], free=cell["free"], marked=True))
        line.append(" " * max(1, width - len(line.plain)))
        if golf:
            line.append(_("depth {depth}", depth=r + 1), style="dim")
        else:
            first, last = rows[r][0]["pos"], rows[r][-1]["pos"]
            line.append(f"{first}..{last}", style="dim")
        lines.append(line)
    layout = tr().name("layout", view["layout"])
    if not view["variant"].get("wrap", True):
        layout = _("{layout} (no wrap)", layout=layout)
    parts = [
        Text(_("Waste") + " ") + card_text(view["waste"]),
        Text(_("Stock {n}", n=view["stock"])),
        Text(_("Layout {layout}", layout=layout)),
        *([] if golf else [Text(_("Run {run}", run=view["run"]))]),  # golf scores no runs
        Text(_("Score {score}", score=view["scores"][0]), style="bold"),
    ]
    # whole parts move to the next line in a narrow terminal (as in status_line)
    return Group(*lines, Text(""), Columns(parts, padding=(0, 2)))
