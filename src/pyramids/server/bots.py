"""Bot seats: which agents a game offers, and building one for a seat.

A bot seat is ``{"agent": name, "level": optional}``; agents come from
:mod:`pyramids.ai.registry`. Agents that take a ``level`` keyword (MCTS) get
it; the levels a game offers are read from the constructor's signature so a
new agent needs no change here.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from pyramids.ai.base import Agent
from pyramids.ai.errors import AgentError
from pyramids.ai.registry import AGENTS, agent_names, make_agent

#: levels offered for agents whose constructor takes ``level``
LEVELS: tuple[str, ...] = ("easy", "medium", "hard")


def _agent_class(name: str, game_id: str) -> type[Any] | None:
    games = AGENTS.get(name, {})
    target = games.get(game_id) or games.get("*")
    if target is None:
        return None
    module_name, _, cls_name = target.partition(":")
    # no ``except ImportError``: every agent is part of the package, and one that
    # fails to import is a bug to see, not an agent to leave out of the lobby
    cls: type[Any] = getattr(importlib.import_module(module_name), cls_name)
    return cls


def takes_level(name: str, game_id: str) -> bool:
    """Whether agent ``name`` for ``game_id`` accepts a ``level`` keyword."""
    cls = _agent_class(name, game_id)
    if cls is None:
        return False
    try:
        return "level" in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False


def bot_choices(game_id: str) -> list[dict[str, Any]]:
    """The agents that can fill a seat of ``game_id``, with their levels (for the lobby)."""
    out = []
    for name in agent_names(game_id):
        if _agent_class(name, game_id) is None:
            continue
        out.append({"agent": name, "levels": list(LEVELS) if takes_level(name, game_id) else []})
    return out


def build_agent(name: str, game_id: str, level: str | None) -> Agent:
    """The agent for a bot seat; :class:`~pyramids.ai.errors.AgentError` for a bad name or level."""
    if level is None:
        return make_agent(name, game_id)
    if not takes_level(name, game_id):
        raise AgentError(
            "agent '{agent}' has no levels; leave 'level' out", code="agent-level", agent=name
        )
    if level not in LEVELS:
        raise AgentError(
            "level must be one of {levels}, not {level}",
            code="agent-level",
            levels=", ".join(LEVELS),
            level=repr(level),
        )
    return make_agent(name, game_id, level=level)
