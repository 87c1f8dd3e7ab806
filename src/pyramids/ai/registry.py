"""Agents by name, so every face (CLI, server, arena, adapters) can pick one.

:data:`AGENTS` maps an agent name to the games it supports: ``"*"`` means
every game; otherwise a game id maps to the ``"module:Class"`` that plays it.
Game-specific agents (``greedy``) add one line per game.
"""

from __future__ import annotations

import importlib
from typing import Any

from pyramids.ai.base import Agent
from pyramids.ai.errors import UnknownAgent

#: agent name -> {game id or "*": "module:Class"}
AGENTS: dict[str, dict[str, str]] = {
    "random": {"*": "pyramids.ai.base:RandomAgent"},
    "mcts": {"*": "pyramids.ai.mcts:MCTSAgent"},
    "greedy": {
        "piramides": "pyramids.ai.greedy_piramides:GreedyPiramides",
        "pyramido": "pyramids.ai.greedy_pyramido:GreedyPyramido",
        "pyramideto": "pyramids.ai.greedy_pyramideto:GreedyPyramideto",
        "pyramido-treasure": "pyramids.ai.treasure_memory:TreasureMemoryAgent",
    },
    "child": {"pyramido-treasure": "pyramids.ai.treasure_memory:ChildAgent"},
}


def agent_names(game_id: str | None = None) -> list[str]:
    """Names of the agents that play ``game_id`` (all agents if ``None``)."""
    return [
        name
        for name, games in AGENTS.items()
        if game_id is None or "*" in games or game_id in games
    ]


def make_agent(name: str, game_id: str, **options: Any) -> Agent:
    """Build agent ``name`` for ``game_id`` with its options (e.g. ``iterations=200``)."""
    games = AGENTS.get(name)
    if games is None:
        raise UnknownAgent(
            "unknown agent '{agent}'; known agents: {known}", agent=name, known=", ".join(AGENTS)
        )
    target = games.get(game_id) or games.get("*")
    if target is None:
        raise UnknownAgent(
            "agent '{agent}' does not play {game_id}; agents for it: {known}",
            agent=name,
            game_id=game_id,
            known=", ".join(agent_names(game_id)),
        )
    module_name, _, cls_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), cls_name)
    agent: Agent = cls(**options)
    return agent
