"""Drawings that still tell everything when the terminal shows no colour.

Pyramido's scores hang on the colours of the blocks, and Pirámides' free cards
differ from covered ones only by their style: with ``NO_COLOR`` set, or the
output going to a file or a pipe, Rich drops every style and that information
with it. A drawing wrapped in :class:`ByColour` is built when it is printed,
knowing whether the console shows colour; the leaf functions (a card, a block)
ask :func:`plain` and then write what colour would have said in characters:
colour letters (``R Y G B P O``) and a mark on free cards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderableType
    from rich.measure import Measurement

_plain: ContextVar[bool] = ContextVar("plain", default=False)
#: set by a caller that wants one way whatever the console (the adapters' text)
forced: ContextVar[bool | None] = ContextVar("forced", default=None)


def plain() -> bool:
    """Whether the drawing being built must say in characters what colour says."""
    return _plain.get()


def shows_colour(console: Console) -> bool:
    """Whether ``console`` draws colours (not ``NO_COLOR``, not a file or a pipe)."""
    return not console.no_color and console.color_system is not None


class ByColour:
    """A drawing built at print time, plain (letters and marks) where colour is off."""

    def __init__(self, draw: Callable[[], RenderableType]) -> None:
        self.draw = draw

    def _built(self, console: Console) -> RenderableType:
        chosen = forced.get()
        token = _plain.set(not shows_colour(console) if chosen is None else chosen)
        try:
            return self.draw()
        finally:
            _plain.reset(token)

    def __rich_console__(
        self, console: Console, options: ConsoleOptions
    ) -> Iterator[RenderableType]:
        yield self._built(console)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        from rich.measure import Measurement

        return Measurement.get(console, options, self._built(console))


class Fitted:
    """The first of several drawings that fits the width it is printed in (else the last).

    A table that Rich squeezes cuts its headers and cells with ``…`` ("Pla…"
    for Place); a narrow terminal gets a drawing made for it instead, with
    shorter headers or fewer columns, whole.
    """

    def __init__(self, *draws: Callable[[], RenderableType], height: bool = False) -> None:
        self.draws = draws
        #: also give way when taller than the terminal (a turn whose top would scroll away)
        self.height = height

    def _chosen(self, console: Console, options: ConsoleOptions) -> RenderableType:
        # a drawing is tried at the width it gets: one that Rich had to cut short
        # (a "…" in a header or a cell) gives way to the next
        for draw in self.draws[:-1]:
            candidate = draw()
            lines = console.render_lines(candidate, options, pad=False)
            if any("…" in segment.text for line in lines for segment in line):
                continue
            short = console.is_terminal and len(lines) > console.height - 2  # and the prompt
            if self.height and short:
                continue
            return candidate
        return self.draws[-1]()

    def __rich_console__(
        self, console: Console, options: ConsoleOptions
    ) -> Iterator[RenderableType]:
        yield self._chosen(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        from rich.measure import Measurement

        return Measurement.get(console, options, self._chosen(console, options))
