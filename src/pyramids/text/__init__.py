"""Text faces per game: a seat's view drawn as text, its help, events told, end summary.

Both the terminal (:mod:`pyramids.cli`) and the research adapters
(:mod:`pyramids.envs.text`: the ``ansi`` rendering, OpenSpiel's observation
strings) draw with this package, so what a research user prints is exactly
what a player sees, and neither face imports the other.

Everything here draws from a seat's ``view`` only. Why: in hot-seat play the
screen is seen by whoever sits in front of it, so the terminal must never show
more than the seat to move may know.

A game's text face is the module of this package named after it
(:mod:`pyramids.engine.faces`: ``pyramids.text.pyramido_treasure``); a game
without one gets every hook's default (the view pretty-printed, moves listed by
their notation). The module defines ``render(view) -> Rich renderable`` and may
define:

* ``board(view)``: the drawing of terminal play when it differs from ``render``
  (the treasure hunt leaves out the news there, because play tells them);
* ``summary(view)`` (end-of-game table), ``ending(view) -> str`` (why the game
  ended, as a sentence: "All 5 rounds are cleared.");
* ``describe(view, move_text) -> str`` (how a move reads in the numbered list);
* ``stats(view) -> dict[str, float]`` (per-game figures for ``pyramids simulate``);
* ``events(before, after) -> list[str]`` (what a move did, told in words:
  a round cleared, a floor scored, a player out), from two spectator views;
* ``GOAL`` (how to win, a message marked with ``N_``; or ``goal(view)`` returning
  one, where the rules depend on the options), ``key(view)`` (what the
  board's symbols mean: ``[(symbol, meaning)]``) and ``examples(view, moves)``
  (what one may type now, from the legal moves' notation: ``[(text, meaning)]``)
  for the per-game ``help``.

What only terminal play does with a game (its own commands, such as
Pirámides' ``hint``) is the terminal's face, :mod:`pyramids.cli.games`.
Messages are translated into :mod:`pyramids.text.language`'s one setting.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import RenderableType

View = dict[str, Any]


def _pretty(view: View) -> RenderableType:
    from rich.pretty import Pretty

    return Pretty(json.loads(json.dumps(view)))


def _no_events(before: View, after: View) -> list[str]:
    return []


def _no_examples(view: View, moves: list[str]) -> list[tuple[str, str]]:
    return [(m, "") for m in moves[:3]]


def _no_key(view: View) -> list[tuple[Any, str]]:
    return []


def _plain_ending(view: View) -> str:
    return ""


def _no_goal(view: View) -> str:
    return ""


@dataclass(frozen=True)
class TextFace:
    """The text hooks of one game (defaults where a game defines none)."""

    render: Callable[[View], RenderableType] = _pretty
    summary: Callable[[View], RenderableType] | None = None
    stats: Callable[[View], dict[str, float]] | None = None
    describe: Callable[[View, str], str] | None = None
    board: Callable[[View], RenderableType] | None = None
    events: Callable[[View, View], list[str]] = _no_events
    ending: Callable[[View], str] = _plain_ending
    #: how to win, a message id (the view may pick one: a layout has its own rules)
    goal: Callable[[View], str] = _no_goal
    key: Callable[[View], list[tuple[Any, str]]] = _no_key
    examples: Callable[[View, list[str]], list[tuple[str, str]]] = _no_examples

    def draw(self, view: View) -> RenderableType:
        """The picture of terminal play: ``board`` if the game has one, else ``render``."""
        return (self.board or self.render)(view)


def _by_colour(draw: Callable[[View], RenderableType]) -> Callable[[View], RenderableType]:
    """``draw``, built when printed: plain letters and marks where colour is off."""
    from pyramids.text.colour import ByColour

    def drawn(view: View) -> RenderableType:
        return ByColour(lambda: draw(view))

    return drawn


def _constant(text: str) -> Callable[[View], str]:
    return lambda view: text


def text_face(game_id: str) -> TextFace:
    """The text hooks of ``game_id`` (a pretty-printed view if it has no module here)."""
    from pyramids.engine.faces import load_face

    module = load_face(__name__, game_id)
    if module is None:
        return TextFace()
    defaults = TextFace()
    board = getattr(module, "board", None)
    return TextFace(
        render=_by_colour(module.render),
        summary=getattr(module, "summary", None),
        stats=getattr(module, "stats", None),
        describe=getattr(module, "describe", None),
        board=_by_colour(board) if board is not None else None,
        events=getattr(module, "events", defaults.events),
        ending=getattr(module, "ending", defaults.ending),
        goal=getattr(module, "goal", None) or _constant(getattr(module, "GOAL", "")),
        key=getattr(module, "key", defaults.key),
        examples=getattr(module, "examples", defaults.examples),
    )


def view_text(game_id: str, view: View, width: int = 100) -> str:
    """``view`` drawn by the game's text face, without colour codes."""
    from rich.console import Console

    from pyramids.text.colour import forced

    buffer = io.StringIO()
    console = Console(
        file=buffer, width=width, color_system=None, force_terminal=False, legacy_windows=False
    )
    token = forced.set(False)  # the drawing of a colour terminal, its codes left out
    try:
        console.print(text_face(game_id).render(view))
    finally:
        forced.reset(token)
    return buffer.getvalue()
