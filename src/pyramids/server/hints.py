"""Hints for the solitaire, from the solver (``pyramids.solver.hint``) when it is installed.

The solver is a separate part of the project; the server offers a hint only
if ``pyramids.solver.hint`` can be imported and has ``hint(state, ...)``
returning an object with ``best`` (a move) and ``estimates`` (per move, with
``chance`` of clearing). Why look it up at run time: the server must work,
and simply offer no hint, without the solver.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from pyramids.engine.registry import get_game
from pyramids.engine.state import State

#: games the solver handles
HINT_GAMES = ("piramides",)
#: a hint must come back while the player is still waiting for it
HINT_SECONDS = 3.0


def _hint_function() -> Callable[..., Any] | None:
    try:
        module = importlib.import_module("pyramids.solver.hint")
    except ImportError:
        return None
    fn = getattr(module, "hint", None)
    return fn if callable(fn) else None


def hint_available(game_id: str) -> bool:
    """Whether hints are offered for ``game_id`` (the solitaire, with the solver installed)."""
    return (
        game_id in HINT_GAMES
        and get_game(game_id).max_players == 1
        and _hint_function() is not None
    )


def hint_for(state: State[Any], seed: int = 0) -> dict[str, Any] | None:
    """The solver's best move in notation with its estimated chance, or ``None``."""
    fn = _hint_function()
    if fn is None or state.is_over:
        return None
    result = fn(state, samples=16, seed=seed, max_seconds=HINT_SECONDS)
    best = result.best
    chance = None
    for est in getattr(result, "estimates", []):
        if est.move == best:
            chance = float(est.chance)
            break
    return {
        "move": state.move_to_str(best),
        "chance": chance,
        "samples": int(getattr(result, "samples", 0)),
    }
