"""Small helpers shared by every ``pyramids`` command: one console, one error style."""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

console = Console()


def fail(message: str) -> typer.Exit:
    """Print ``Error: message`` in red (unwrapped, so it can be grepped) and return exit 2."""
    console.print(f"[red]Error:[/] {message}", soft_wrap=True)
    return typer.Exit(2)


def parse_options(items: list[str]) -> dict[str, Any]:
    """``["jokers_per_round=2", "face-down=true"]`` -> ``{"jokers_per_round": "2", ...}``.

    Values stay text: each game's :class:`~pyramids.engine.variant.Option` coerces
    and checks them, so the error names the option and what it accepts.
    """
    out: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise fail(f"option {item!r} must look like name=value")
        out[key.strip().replace("-", "_")] = value.strip()
    return out


def progress_bar() -> Progress:
    """The progress bar of long commands (simulate, arena, solve): bar, count, time left."""
    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
    )
