"""AI players: the agent protocol, the agents by name, and (later) search and the arena."""

from pyramids.ai.base import Agent, RandomAgent
from pyramids.ai.registry import AGENTS, UnknownAgent, agent_names, make_agent

__all__ = ["AGENTS", "Agent", "RandomAgent", "UnknownAgent", "agent_names", "make_agent"]
