"""Small helpers shared by every ``pyramids`` command: one console, one error style."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

if TYPE_CHECKING:
    from pyramids.i18n import Translator

console = Console()

_language: list[str] = []


def set_language(lang: str | None) -> str:
    """Choose the language of the terminal faces: ``--lang``, else ``LANG`` and friends."""
    from pyramids import i18n

    chosen = i18n.check_language(lang) if lang else i18n.from_environment()
    _language[:] = [chosen]
    return chosen


def tr() -> Translator:
    """The translator of this terminal session (from the environment until set)."""
    from pyramids import i18n

    if not _language:
        _language.append(i18n.from_environment())
    return i18n.translator(_language[0])


def _(message: str, /, **params: Any) -> str:
    """``message`` in the terminal's language, its ``{placeholders}`` filled in."""
    return tr().gettext(message, **params)


def reason(err: Exception) -> str:
    """An error's sentence in the terminal's language (engine errors are translated)."""
    from pyramids.engine.errors import PyramidsError

    return tr().error(err) if isinstance(err, PyramidsError) else str(err)


def fail(message: str) -> typer.Exit:
    """Print ``Error: message`` in red (unwrapped, so it can be grepped) and return exit 2."""
    console.print(f"[red]{_('Error:')}[/] {message}", soft_wrap=True)
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
            raise fail(_("option {item} must look like name=value", item=repr(item)))
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
