"""Pyramido treasure hunt: sliding pyramids, memory and events (RULINGS.md §2)."""

from pyramids.games.pyramido_treasure.game import (
    GAME,
    PHASE_NAMES,
    SLIDES,
    TreasureGame,
    TreasureMove,
    TreasureState,
)
from pyramids.games.pyramido_treasure.treasures import (
    CARD_NAMES,
    DECKS,
    TREASURES,
    Treasure,
    card_label,
    card_name,
    card_points,
    parse_treasure,
)

__all__ = [
    "CARD_NAMES",
    "DECKS",
    "GAME",
    "PHASE_NAMES",
    "SLIDES",
    "TREASURES",
    "Treasure",
    "TreasureGame",
    "TreasureMove",
    "TreasureState",
    "card_label",
    "card_name",
    "card_points",
    "parse_treasure",
]
