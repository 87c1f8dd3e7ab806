"""Hints for the solitaire, from the solver (:func:`pyramids.solver.hint.hint`).

The solver's ``hint(state, ...)`` returns an object with ``best`` (a move)
and ``estimates`` (per move, with ``chance`` of clearing). It is imported on
first use rather than with the server, which starts faster without it; and
never behind an ``except ImportError``: the solver is part of the package, so
a solver that fails to import is a bug to see, not a server without hints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyramids.engine.registry import get_game
from pyramids.engine.state import State

#: games the solver handles
HINT_GAMES = ("piramides",)
#: a hint must come back while the player is still waiting for it
HINT_SECONDS = 3.0


def _hint_function() -> Callable[..., Any]:
    from pyramids.solver.hint import hint

    return hint


def hint_available(game_id: str) -> bool:
    """Whether hints are offered for ``game_id`` (the solitaire); loads the solver for it."""
    if game_id not in HINT_GAMES or get_game(game_id).max_players != 1:
        return False
    _hint_function()  # now, not on the first hint (the server's heap is frozen after this)
    return True


def hint_for(state: State[Any], seed: int = 0) -> dict[str, Any] | None:
    """The solver's best move in notation with its estimated chance, or ``None``."""
    if state.is_over:
        return None
    result = _hint_function()(state, samples=16, seed=seed, max_seconds=HINT_SECONDS)
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
