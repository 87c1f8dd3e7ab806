"""Pyramideto: the stacking goal game with hidden goal cards (RULINGS.md §3).

Modules: :mod:`.pieces` (the 15 pyramids and their codes), :mod:`.goals` (the
deck, read from ``goals.json``), :mod:`.moves` (move values and notation),
:mod:`.game` (the rules: state and game), :mod:`.hidden` (dealing unseen
cards for :meth:`~PyramidetoState.determinize`), :mod:`.svg` (card pictures).
"""

from pyramids.games.pyramideto.game import (
    GAME,
    LINK_GOALS,
    PyramidetoGame,
    PyramidetoState,
    has_won,
    tower_stands,
)
from pyramids.games.pyramideto.goals import FRAMES, GOAL_BY_ID, GOALS, Frame, Goal
from pyramids.games.pyramideto.moves import (
    EXCHANGE,
    MOVE_ONTO,
    TABLE,
    TO_TABLE,
    PyramidetoMove,
    move_text,
    read_move,
)
from pyramids.games.pyramideto.pieces import CODES, SIZE, describe, parse_piece

__all__ = [
    "CODES",
    "EXCHANGE",
    "FRAMES",
    "GAME",
    "GOALS",
    "GOAL_BY_ID",
    "LINK_GOALS",
    "MOVE_ONTO",
    "SIZE",
    "TABLE",
    "TO_TABLE",
    "Frame",
    "Goal",
    "PyramidetoGame",
    "PyramidetoMove",
    "PyramidetoState",
    "describe",
    "has_won",
    "move_text",
    "parse_piece",
    "read_move",
    "tower_stands",
]
