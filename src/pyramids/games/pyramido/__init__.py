"""Pyramido: the 4-floor domino pyramid with top-view scoring (RULINGS.md §1)."""

from pyramids.games.pyramido.dominoes import (
    CARD_SIDES,
    COLOUR_LETTERS,
    COLOURS,
    DOMINOES,
    QUARTERS,
    domino_json,
    domino_label,
)
from pyramids.games.pyramido.game import (
    GAME,
    FloorScore,
    PyramidoGame,
    PyramidoState,
    next_floor_starter,
)
from pyramids.games.pyramido.geometry import FRAME_GRID, UPPER_GRIDS, Grid
from pyramids.games.pyramido.moves import PyramidoMove

__all__ = [
    "CARD_SIDES",
    "COLOURS",
    "COLOUR_LETTERS",
    "DOMINOES",
    "FRAME_GRID",
    "GAME",
    "QUARTERS",
    "UPPER_GRIDS",
    "FloorScore",
    "Grid",
    "PyramidoGame",
    "PyramidoMove",
    "PyramidoState",
    "domino_json",
    "domino_label",
    "next_floor_starter",
]
