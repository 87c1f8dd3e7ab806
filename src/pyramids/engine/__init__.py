"""The engine: the contract every game implements, errors, PRNG, records, registry."""

from pyramids.engine.errors import (
    IllegalMove,
    NotationError,
    PlayersError,
    PyramidsError,
    RecordError,
    SeatError,
    UnknownGame,
    VariantError,
)
from pyramids.engine.records import replay, save_record
from pyramids.engine.registry import all_games, game_ids, get_game, new_game
from pyramids.engine.rng import Rng
from pyramids.engine.state import Game, State
from pyramids.engine.variant import Option

__all__ = [
    "Game",
    "IllegalMove",
    "NotationError",
    "Option",
    "PlayersError",
    "PyramidsError",
    "RecordError",
    "Rng",
    "SeatError",
    "State",
    "UnknownGame",
    "VariantError",
    "all_games",
    "game_ids",
    "get_game",
    "new_game",
    "replay",
    "save_record",
]
