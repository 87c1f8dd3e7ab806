"""Agents by name, so every face (CLI, server, arena, adapters) can pick one.

:data:`AGENTS` maps an agent name to the ``"module:Class"`` that plays. An
agent written for each game has ``{game}`` in its module, standing for the
game's module name (:mod:`pyramids.engine.faces`): ``greedy`` is
``pyramids.ai.greedy.pyramideto:AGENT`` for Pyramideto, and plays exactly the
games that have such a module. So a new game gains a greedy agent by adding
``ai/greedy/<game>.py``, and plays with ``random`` and ``mcts`` without one.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from pyramids.ai.base import Agent
from pyramids.ai.errors import UnknownAgent
from pyramids.engine.faces import module_name
from pyramids.engine.registry import game_ids, get_game

#: agent name -> "module:Class"; ``{game}`` stands for the game's module name
AGENTS: dict[str, str] = {
    "random": "pyramids.ai.base:RandomAgent",
    "mcts": "pyramids.ai.mcts:MCTSAgent",
    "greedy": "pyramids.ai.greedy.{game}:AGENT",
    "child": "pyramids.ai.child.{game}:AGENT",
}


def for_every_game(name: str) -> bool:
    """Whether agent ``name`` is one class for every game (not one module per game)."""
    return "{game}" not in AGENTS[name]


def _target(name: str, game_id: str) -> tuple[str, str] | None:
    """The module and attribute of agent ``name`` for ``game_id``; ``None`` if it has none."""
    module, _, attr = AGENTS[name].partition(":")
    if for_every_game(name):
        return module, attr
    module = module.format(game=module_name(game_id))
    if importlib.util.find_spec(module) is None:
        return None
    return module, attr


def plays(name: str, game_id: str) -> bool:
    """Whether agent ``name`` plays ``game_id`` (nothing is imported to tell)."""
    return name in AGENTS and _target(name, game_id) is not None


def agent_names(game_id: str | None = None) -> list[str]:
    """Names of the agents that play ``game_id`` (all agents if ``None``)."""
    return [name for name in AGENTS if game_id is None or plays(name, game_id)]


def agent_games(name: str) -> list[str]:
    """The ids of the registered games that agent ``name`` plays, in registry order."""
    return [g for g in game_ids() if plays(name, g)]


def agent_class(name: str, game_id: str) -> type[Agent] | None:
    """The class of agent ``name`` for ``game_id``; ``None`` if it does not play it."""
    if name not in AGENTS:
        return None
    target = _target(name, game_id)
    if target is None:
        return None
    module, attr = target
    cls: type[Agent] = getattr(importlib.import_module(module), attr)
    return cls


def make_agent(name: str, game_id: str, **options: Any) -> Agent:
    """Build agent ``name`` for ``game_id`` with its options (e.g. ``iterations=200``)."""
    if name not in AGENTS:
        raise UnknownAgent(
            "unknown agent '{agent}'; known agents: {known}", agent=name, known=", ".join(AGENTS)
        )
    cls = agent_class(name, game_id)
    if cls is None:
        raise UnknownAgent(
            "agent '{agent}' does not play {game_id}; agents for it: {known}",
            agent=name,
            game_id=game_id,
            known=", ".join(agent_names(game_id)),
        )
    return cls(**options)


def default_opponent(game_id: str) -> str:
    """The agent a face offers first against ``game_id``.

    The first of the game's :attr:`~pyramids.engine.state.Game.opponents` that
    plays it, or ``random`` if none does.
    """
    for name in get_game(game_id).opponents:
        if plays(name, game_id):
            return name
    return "random"
