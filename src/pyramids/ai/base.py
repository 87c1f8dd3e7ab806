"""The agent protocol: anything that picks a move for the seat to move.

Agents receive the real :class:`~pyramids.engine.state.State` for speed, but
the contract of every agent is that it decides only on what the acting seat
may know: its :meth:`~pyramids.engine.state.State.view`, or states drawn with
:meth:`~pyramids.engine.state.State.determinize` for that seat. Tests check
this by giving agents two states that differ only in hidden parts.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable
from typing import Any, ClassVar

from pyramids.engine.rng import Rng
from pyramids.engine.state import State


class Agent(ABC):
    """Chooses moves. Stateless between calls unless documented (memory models)."""

    #: registry name, e.g. ``"random"``
    name: ClassVar[str]
    #: one line for ``pyramids agents`` and menus
    summary: ClassVar[str] = ""

    @abstractmethod
    def choose(self, state: State[Any], rng: Rng) -> Hashable:
        """A legal move for ``state.current_player``; randomness only from ``rng``."""

    def observe(self, state: State[Any], move: Hashable, player: int) -> None:  # noqa: B027
        """Called after every move of the game (any seat); agents with memory override it."""

    def __repr__(self) -> str:
        return f"<Agent {self.name}>"


class RandomAgent(Agent):
    """Uniformly random legal move: the baseline every other agent must beat."""

    name = "random"
    summary = "uniformly random legal moves"

    def choose(self, state: State[Any], rng: Rng) -> Hashable:
        moves = state.legal_moves()
        if not moves:
            raise ValueError("no legal move: the game is over")
        move: Hashable = moves[rng.below(len(moves))]
        return move
