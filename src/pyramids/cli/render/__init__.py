"""Terminal hooks per game: renderer, end summary, statistics and extra commands.

Everything here draws from a seat's ``view`` only. Why: in hot-seat play the
screen is seen by whoever sits in front of it, so the terminal must never show
more than the seat to move may know.

:data:`RENDERERS` maps a game id to the module holding its hooks. The module
defines ``render(view) -> Rich renderable`` and may define
``summary(view)`` (end-of-game table), ``describe(view, move_text) -> str``
(how a move reads in the numbered list), ``stats(view) -> dict[str, float]``
(per-game figures for ``pyramids simulate``) and ``COMMANDS`` (extra commands
of terminal play, name -> function(session, argument)).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.console import RenderableType
from rich.pretty import Pretty

#: game id -> module with that game's terminal hooks
RENDERERS: dict[str, str] = {
    "piramides": "pyramids.cli.render.piramides",
    "pyramido-treasure": "pyramids.cli.render.pyramido_treasure",
    "pyramido": "pyramids.cli.render.pyramido",
    "pyramideto": "pyramids.cli.render.pyramideto",
}

View = dict[str, Any]


def _pretty(view: View) -> RenderableType:
    return Pretty(json.loads(json.dumps(view)))


@dataclass(frozen=True)
class GameHooks:
    """The terminal hooks of one game (defaults where a game defines none)."""

    render: Callable[[View], RenderableType] = _pretty
    summary: Callable[[View], RenderableType] | None = None
    stats: Callable[[View], dict[str, float]] | None = None
    describe: Callable[[View, str], str] | None = None
    commands: Mapping[str, Callable[..., None]] = field(default_factory=dict)


def game_hooks(game_id: str) -> GameHooks:
    """The hooks of ``game_id`` (a pretty-printed view if it has no renderer)."""
    name = RENDERERS.get(game_id)
    if name is None:
        return GameHooks()
    module = importlib.import_module(name)
    return GameHooks(
        render=module.render,
        summary=getattr(module, "summary", None),
        stats=getattr(module, "stats", None),
        describe=getattr(module, "describe", None),
        commands=getattr(module, "COMMANDS", {}),
    )
