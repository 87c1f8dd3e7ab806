"""Shared test helpers: random play over the engine contract, and the test game in the registry."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from pyramids.engine import registry
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from tests import toygame as nim

settings.register_profile(
    "default",
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("default")


def play_randomly(state: State[Any], rng: Rng, max_plies: int = 100_000) -> list[State[Any]]:
    """Play random legal moves until the end (or ``max_plies``); return every state seen."""
    seen = [state.copy()]
    while not state.is_over and state.ply < max_plies:
        moves = state.legal_moves()
        assert moves, "a game that is not over must have a legal move"
        state.play(moves[rng.below(len(moves))])
        seen.append(state.copy())
    return seen


@pytest.fixture
def toygame() -> Iterator[str]:
    """The test game Nim (``tests/toygame``) in the registry for one test; its id.

    One line, as any new game joins (unless ``PYRAMIDS_EXTRA_GAMES`` has it
    already); taken out again afterwards, its loaded game forgotten.
    """
    added = nim.ID not in registry.GAMES
    if added:
        game_id, _, target = nim.ENTRY.partition("=")
        registry.GAMES[game_id] = target
    yield nim.ID
    if added:
        del registry.GAMES[nim.ID]
        registry._loaded.pop(nim.ID, None)


def greedy_piramides_moves(deal: int, **variant: object) -> list[str]:
    """The moves, in notation, of the greedy player's Pirámides game of ``deal`` to its end.

    What the terminal tests type to play a whole game: the greedy player
    never gets stuck, and the same deal gives the same keys every time.
    """
    import pyramids
    from pyramids.ai.registry import make_agent

    state = pyramids.new_game("piramides", seed=deal, **variant)
    agent = make_agent("greedy", "piramides")
    rng = Rng(1)
    moves = []
    while not state.is_over:
        move = agent.choose(state, rng)
        moves.append(state.move_to_str(move))
        state.play(move)
    return moves
