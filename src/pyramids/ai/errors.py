"""Errors of the agents: a name, a spec, a level or an option that cannot be played.

A person meets them at every face that lets them pick an opponent (``pyramids
play --agent``, ``pyramids arena --agents``, a bot seat in the web lobby), so
they are messages as data like the engine's (:mod:`pyramids.engine.errors`):
a code, a literal template and its parameters, rendered in the face's language.
They subclass :class:`~pyramids.engine.errors.PyramidsError` (and so
``ValueError``): one clause catches them with the engine's errors.
"""

from __future__ import annotations

from pyramids.engine.errors import PyramidsError


class AgentError(PyramidsError):
    """A bad agent spec, level or option: codes ``agent-spec``, ``agent-level``, ``agent-option``.

    >>> from pyramids.ai.registry import make_agent
    >>> make_agent("mcts", "piramides", level="brutal")
    Traceback (most recent call last):
    ...
    pyramids.ai.errors.AgentError: mcts level must be one of easy, medium, hard, not 'brutal'
    """

    default_code = "agent"


class UnknownAgent(AgentError):
    """An agent name that does not exist, or does not play the given game: ``unknown-agent``."""

    default_code = "unknown-agent"
