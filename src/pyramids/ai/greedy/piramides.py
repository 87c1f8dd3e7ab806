"""The ``greedy`` agent of Pirámides."""

from pyramids.ai.greedy_piramides import GreedyPiramides as AGENT

__all__ = ["AGENT"]
