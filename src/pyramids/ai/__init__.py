"""AI players: the agent protocol, the agents by name, and (later) search and the arena."""

from pyramids.ai.base import Agent, RandomAgent
from pyramids.ai.errors import AgentError, UnknownAgent
from pyramids.ai.registry import AGENTS, agent_names, make_agent

__all__ = [
    "AGENTS",
    "Agent",
    "AgentError",
    "RandomAgent",
    "UnknownAgent",
    "agent_names",
    "make_agent",
]
