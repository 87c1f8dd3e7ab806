"""The ``greedy`` agent of the treasure hunt."""

from pyramids.ai.treasure_memory import TreasureMemoryAgent as AGENT

__all__ = ["AGENT"]
