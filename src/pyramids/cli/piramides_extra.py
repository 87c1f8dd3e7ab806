"""Terminal extras of Pirámides owned by the solver: the other layouts' drawing and ``hint``.

Kept apart from :mod:`pyramids.cli.render.piramides` so that the pyramid's
own drawing stays as it is; that module hands over views of the ``tripeaks``
and ``golf`` layouts (their cells carry an ``x``) and registers ``hint``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from pyramids.games.piramides.cards import card_label, parse_card

if TYPE_CHECKING:
    from pyramids.cli.play import Session

STEP = 3  # characters per half-card step of a cell's ``x``


def _card(name: str | None, free: bool) -> Text:
    if name is None:
        return Text("▒▒▒", style="blue")
    card = parse_card(name)
    if card is None:
        return Text("[JK]", style="bold magenta")
    red = name[-1] in "DH"
    style = ("bold red" if red else "bold white") if free else ("red dim" if red else "dim")
    return Text(f"{card_label(card):>3}", style=style + (" reverse" if free else ""))


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
                line.append_text(_card(cell["card"], cell["free"]))
        line.append(" " * max(1, width - len(line.plain)))
        if golf:
            line.append(f"depth {r + 1}", style="dim")
        else:
            first, last = rows[r][0]["pos"], rows[r][-1]["pos"]
            line.append(f"{first}..{last}", style="dim")
        lines.append(line)
    status = Table.grid(padding=(0, 2))
    status.add_row(
        Text("Waste ") + _card(view["waste"], True),
        Text(f"Stock {view['stock']}"),
        Text(
            f"Layout {view['layout']}" + ("" if view["variant"].get("wrap", True) else " (no wrap)")
        ),
        Text(f"Run {view['run']}") if not golf else Text(""),
        Text(f"Score {view['scores'][0]}", style="bold"),
    )
    return Group(*lines, Text(""), status)


def hint_command(session: Session, arg: str) -> None:
    """hint [N|score]  best move by solving N sampled stock orders (default 24)"""
    from pyramids.games.piramides import PiramidesState
    from pyramids.solver.hint import hint

    state = session.state
    con = session.console
    if not isinstance(state, PiramidesState):
        con.print("[yellow]hint works in Pirámides only.[/]")
        return
    words = arg.split()
    mode = "score" if "score" in words else "clear"
    numbers = [w for w in words if w.isdigit()]
    samples = int(numbers[0]) if numbers else 24
    if not 1 <= samples <= 1000:
        con.print("[yellow]hint takes a number of samples from 1 to 1000: hint 40[/]")
        return
    if len(state.legal_moves()) > 1:
        con.print(f"[dim]Solving {samples} sampled stock orders ({mode} mode)...[/]")
    h = hint(state, samples=samples, mode=mode, seed=session.rng.fork().next_u64())
    if not h.samples:
        con.print(f"Hint: [bold]{state.move_to_str(h.best)}[/] is the only legal move.")
        return
    table = Table(title=f"Hint ({h.samples} samples, {h.seconds:.1f} s)")
    table.add_column("move")
    table.add_column("clears the round", justify="right")
    if mode == "score":
        table.add_column("mean best score", justify="right")
    for e in h.estimates:
        chance = f"{100 * e.chance:.0f}% ± {100 * e.margin:.0f}"
        if e.unknown:
            chance += f" ({e.unknown} undecided)"
        row = [state.move_to_str(e.move), chance]
        if mode == "score":
            row.append("?" if e.mean_score is None else f"{e.mean_score:.1f}")
        table.add_row(*row)
    con.print(table)
    best = h.estimates[0]
    con.print(
        f"Hint: play [bold]{state.move_to_str(h.best)}[/] "
        f"(clears the round in about {100 * best.chance:.0f}% of the sampled deals)"
    )
