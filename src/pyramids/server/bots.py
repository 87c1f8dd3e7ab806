"""Bot seats: which agents a game offers, and building one for a seat.

A bot seat is ``{"agent": name, "level": optional}``; agents come from
:mod:`pyramids.ai.registry`. Agents that take a ``level`` keyword (MCTS) get
it; the levels a game offers are read from the constructor's signature so a
new agent needs no change here. The lobby's first choice of opponent is the
game's own (:func:`~pyramids.ai.registry.default_opponent`), marked
``"default": true``.
"""

from __future__ import annotations

import inspect
from typing import Any

from pyramids.ai.base import Agent
from pyramids.ai.errors import AgentError
from pyramids.ai.registry import agent_class, agent_names, default_opponent, make_agent

#: levels offered for agents whose constructor takes ``level``
LEVELS: tuple[str, ...] = ("easy", "medium", "hard")


def takes_level(name: str, game_id: str) -> bool:
    """Whether agent ``name`` for ``game_id`` accepts a ``level`` keyword."""
    cls = agent_class(name, game_id)
    if cls is None:
        return False
    try:
        return "level" in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False


def bot_choices(game_id: str) -> list[dict[str, Any]]:
    """The agents that can fill a seat of ``game_id``, with their levels (for the lobby)."""
    first = default_opponent(game_id)
    return [
        {
            "agent": name,
            "levels": list(LEVELS) if takes_level(name, game_id) else [],
            "default": name == first,
        }
        for name in agent_names(game_id)
    ]


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
