"""The ``child`` agent of the treasure hunt: the greedy one, with a child's memory."""

from pyramids.ai.greedy.pyramido_treasure import ChildAgent as AGENT

__all__ = ["AGENT"]
