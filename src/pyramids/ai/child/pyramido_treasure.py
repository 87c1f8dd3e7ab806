"""The ``child`` agent of the treasure hunt: the greedy one, with a child's memory."""

from pyramids.ai.treasure_memory import ChildAgent as AGENT

__all__ = ["AGENT"]
