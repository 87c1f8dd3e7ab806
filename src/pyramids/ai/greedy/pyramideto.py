"""The ``greedy`` agent of Pyramideto."""

from pyramids.ai.greedy_pyramideto import GreedyPyramideto as AGENT

__all__ = ["AGENT"]
