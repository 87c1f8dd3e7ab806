"""Positions from self-play, for tests that need realistic mid-game states."""

from __future__ import annotations

from typing import Any

import pyramids
from pyramids.ai.base import Agent
from pyramids.engine.rng import Rng
from pyramids.engine.state import State


def self_play_positions(
    game_id: str, agent: Agent, seed: int, plies: int, players: int = 2
) -> list[State[Any]]:
    """Every position of a game ``agent`` plays in every seat, up to ``plies``."""
    state = pyramids.new_game(game_id, players=players, seed=seed)
    rng = Rng(seed)
    seen = []
    while not state.is_over and state.ply < plies:
        seen.append(state.copy())
        state.play(agent.choose(state, rng))
    return seen
