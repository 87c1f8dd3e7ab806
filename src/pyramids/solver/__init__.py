"""The exact solitaire solver of the ``piramides`` family (pyramid, tripeaks, golf).

A face above the engine: it reads game states through
:func:`~pyramids.solver.position.position_of` and never changes the game
package. See ``docs/solver.md``.
"""

from pyramids.solver.position import Position, deal_position, deal_state, position_of
from pyramids.solver.search import LOSE, UNKNOWN, WIN, Result, solve

__all__ = [
    "LOSE",
    "UNKNOWN",
    "WIN",
    "Position",
    "Result",
    "deal_position",
    "deal_state",
    "position_of",
    "solve",
]
