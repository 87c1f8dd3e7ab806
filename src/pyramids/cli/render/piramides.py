"""Drawing a Pirámides view in the terminal with Rich."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from pyramids.cli.piramides_extra import hint_command, render_spread
from pyramids.games.piramides.cards import card_label, parse_card

CELL = 6  # characters per card cell (3 for the card, 3 of space)


def card_text(name: str | None, *, free: bool = True) -> Text:
    """A card as coloured text: red suits red, covered cards dim, hidden cards as ``##``."""
    if name is None:
        return Text("▒▒▒", style="blue")
    if name == "joker":
        return Text("[JK]", style="bold magenta")
    card = parse_card(name)
    assert card is not None
    label = card_label(card)
    red = name[-1] in "DH"
    style = ("bold red" if red else "bold white") if free else ("red dim" if red else "dim")
    return Text(f"{label:>3}", style=style + (" reverse" if free else ""))


def render(view: dict[str, Any]) -> RenderableType:
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
            if cell["removed"]:
                line.append(" " * 3)
            else:
                line.append_text(card_text(cell["card"], free=cell["free"]))
            line.append(" " * (CELL - 3))
        first, last = rows[r][0]["pos"], rows[r][-1]["pos"]
        line.append(f"  {first}..{last}" if first != last else f"  {first}", style="dim")
        lines.append(line)
    status = Table.grid(padding=(0, 2))
    status.add_row(
        Text("Waste ") + card_text(view["waste"]),
        Text(f"Stock {view['stock']}"),
        Text(f"Jokers {view['jokers_left']}"),
        Text(f"Round {view['round']}/{view['rounds']}"),
        Text(f"Run {view['run']} (next card +{view['next_card_points']})"),
        Text(f"Score {view['scores'][0]}", style="bold"),
    )
    return Group(*lines, Text(""), status)


def summary(view: dict[str, Any]) -> Table:
    """The score of each round, part by part (shown at the end of a game)."""
    table = Table(title="Score by round")
    for col in ("Round", "Cards", "Stock", "Jokers", "Cleared", "Total"):
        table.add_column(col, justify="right")
    for r in view["round_scores"]:
        table.add_row(
            str(r["round"]),
            f"+{r['cards']}",
            f"-{5 * r['stock_cards']} ({r['stock_cards']})",
            f"-{50 * r['jokers']} ({r['jokers']})",
            "+50" if r["cleared"] else "no",
            str(r["total"]),
        )
    table.add_row("", "", "", "", "[bold]Score[/]", f"[bold]{view['scores'][0]}[/]")
    return table


def stats(view: dict[str, Any]) -> dict[str, float]:
    """Figures for ``pyramids simulate``: rounds cleared and rounds played."""
    rounds = view["round_scores"]
    return {
        "rounds cleared": float(sum(1 for r in rounds if r["cleared"])),
        "rounds played": float(len(rounds)),
    }


def describe(view: dict[str, Any], move: str) -> str:
    """A move as shown in the numbered list: the position with its card."""
    for cell in view["pyramid"]:
        if cell["pos"] == move and cell["card"]:
            card = parse_card(cell["card"])
            assert card is not None
            return f"{move:<4} {card_label(card)}"
    return move


#: extra commands of terminal play (the solver's hint)
COMMANDS = {"hint": hint_command}
