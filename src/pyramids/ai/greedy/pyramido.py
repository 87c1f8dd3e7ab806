"""The ``greedy`` agent of Pyramido."""

from pyramids.ai.greedy_pyramido import GreedyPyramido as AGENT

__all__ = ["AGENT"]
