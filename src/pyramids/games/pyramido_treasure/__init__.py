"""Pyramido treasure hunt: sliding pyramids, memory and events (RULINGS.md §2)."""

from pyramids.games.pyramido_treasure.game import GAME, TreasureGame, TreasureState
from pyramids.games.pyramido_treasure.moves import SLIDES, TreasureMove
from pyramids.games.pyramido_treasure.phases import PHASE_NAMES, Phase
from pyramids.games.pyramido_treasure.treasures import (
    CARD_NAMES,
    DECKS,
    TREASURES,
    Treasure,
    card_label,
    card_name,
    card_points,
    card_treasure,
    is_treasure_card,
    parse_treasure,
)

__all__ = [
    "CARD_NAMES",
    "DECKS",
    "GAME",
    "PHASE_NAMES",
    "SLIDES",
    "TREASURES",
    "Phase",
    "Treasure",
    "TreasureGame",
    "TreasureMove",
    "TreasureState",
    "card_label",
    "card_name",
    "card_points",
    "card_treasure",
    "is_treasure_card",
    "parse_treasure",
]
