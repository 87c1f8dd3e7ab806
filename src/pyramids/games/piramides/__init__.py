"""Pirámides: the card-pyramid solitaire (RULINGS.md §4)."""

from pyramids.games.piramides.cards import JOKER, card_label, card_name, parse_card
from pyramids.games.piramides.game import (
    DRAW,
    GAME,
    PLAY,
    USE_JOKER,
    PiramidesGame,
    PiramidesMove,
    PiramidesState,
    RoundScore,
)
from pyramids.games.piramides.layout import PYRAMID, Layout

__all__ = [
    "DRAW",
    "GAME",
    "JOKER",
    "PLAY",
    "PYRAMID",
    "USE_JOKER",
    "Layout",
    "PiramidesGame",
    "PiramidesMove",
    "PiramidesState",
    "RoundScore",
    "card_label",
    "card_name",
    "parse_card",
]
