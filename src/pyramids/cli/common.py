"""Small helpers shared by every ``pyramids`` command: one console, one error style, languages.

Nothing heavy is imported at module level: ``pyramids --help`` imports this
module, and its start-up budget (150 ms) leaves no room for Rich or Babel
before a command actually needs them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

# the commands translate with the text faces' one language setting (re-exported)
from pyramids.text.language import _ as _
from pyramids.text.language import set_language as set_language
from pyramids.text.language import tr as tr

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

_console: list[Console] = []


def get_console() -> Console:
    """The one Rich console of the process (made on first use, so start-up stays light)."""
    if not _console:
        from rich.console import Console

        _console.append(Console())
    return _console[0]


def reason(err: BaseException) -> str:
    """An error's sentence in the terminal's language (engine errors are translated).

    An ``OSError`` reads as the system's own words for it (``No such file or
    directory``) rather than Python's ``[Errno 2] ...`` form.
    """
    from pyramids.engine.errors import PyramidsError

    if isinstance(err, PyramidsError):
        return tr().error(err)
    if isinstance(err, OSError) and err.strerror:
        return err.strerror
    return str(err)


def record_reason(err: BaseException) -> str:
    """A record's error with the field it names first (``moves[2]: move 3 ... is illegal``)."""
    from pyramids.engine.errors import RecordError

    if isinstance(err, RecordError) and err.field:
        return f"{err.field}: {reason(err)}"
    return reason(err)


def fail(message: str) -> typer.Exit:
    """Print ``Error: message`` in red (unwrapped, so it can be grepped) and return exit 2."""
    from rich.markup import escape

    label = _("Error:")
    get_console().print(f"[red]{escape(label)}[/] {escape(message)}", soft_wrap=True)
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
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=get_console(),
    )


def fit_tables(
    title: str,
    key: tuple[str, list[str]],
    columns: list[tuple[str, list[str], bool]],
    width: int,
) -> list[Any]:
    """Rich tables showing ``columns`` beside the ``key`` column, split to fit ``width``.

    Why split rather than let Rich squeeze: a squeezed column cuts its cells with
    ``…`` and a number cut short reads as another number. Each column is
    ``(header, cells, right-aligned)``; the key column (the row names) repeats
    in every table, and columns keep their order.
    """
    from rich import box
    from rich.console import Console
    from rich.table import Table

    measure = Console(width=10_000)

    def build(cols: list[tuple[str, list[str], bool]], heading: str | None) -> Table:
        table = Table(title=heading, box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
        table.add_column(key[0], style="bold", no_wrap=True)
        for header, _cells, right in cols:
            table.add_column(header, justify="right" if right else "left", no_wrap=True)
        for i, name in enumerate(key[1]):
            table.add_row(name, *(cells[i] for _h, cells, _r in cols))
        return table

    def fits(cols: list[tuple[str, list[str], bool]]) -> bool:
        return measure.measure(build(cols, None)).maximum <= width

    groups: list[list[tuple[str, list[str], bool]]] = [[]]
    for col in columns:
        if groups[-1] and not fits([*groups[-1], col]):
            groups.append([])
        groups[-1].append(col)
    return [build(g, title if i == 0 else None) for i, g in enumerate(groups)]


def check_output_file(path: Path, option: str) -> Path:
    """Refuse ``option``'s output file now, before any work, if it cannot be written.

    Why before: a command that runs for minutes must not fail at its last step
    on a typing mistake. A missing folder is an error, never created: a
    mistyped path would otherwise leave folders behind (as root, anywhere).
    """
    target = path.expanduser()
    folder = target.parent
    if target.is_dir():
        raise fail(
            _("{option} {path}: that is a folder; give a file name", option=option, path=str(path))
        )
    _check_folder(folder, option, path)
    return target


def check_output_folder(path: Path, option: str) -> Path:
    """Refuse ``option``'s output folder now, before any work: a file there, or no parent.

    The folder itself is made when it does not exist (it is what the option
    names), but never the folders above it.
    """
    target = path.expanduser()
    if target.exists() and not target.is_dir():
        raise fail(
            _("{option} {path}: that is a file; give a folder", option=option, path=str(path))
        )
    _check_folder(target if target.is_dir() else target.parent, option, path)
    return target


def _check_folder(folder: Path, option: str, path: Path) -> None:
    import os

    if not folder.is_dir():
        raise fail(
            _(
                "{option} {path}: the folder {folder} does not exist",
                option=option,
                path=str(path),
                folder=str(folder),
            )
        )
    if not os.access(folder, os.W_OK):
        raise fail(
            _(
                "{option} {path}: the folder {folder} is not writable",
                option=option,
                path=str(path),
                folder=str(folder),
            )
        )


def check_input_file(path: Path) -> Path:
    """Refuse a file to read in the one sentence every command uses for it.

    ``cannot read game.json: No such file or directory`` reads the same from
    replay, review, ``play --resume``, solve and verify, whatever part of the
    program would have noticed it first.
    """
    try:
        with path.expanduser().open("rb"):
            pass
    except OSError as e:
        raise fail(_("cannot read {path}: {reason}", path=str(path), reason=reason(e))) from None
    return path
