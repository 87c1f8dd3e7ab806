"""Pyramids: four table games that share a name, as rules engines and more.

>>> import pyramids
>>> state = pyramids.new_game("piramides", seed=1)
>>> state.current_player
0
>>> len(state.legal_moves()) > 0
True
"""

__version__ = "0.1.0"

# the review package is callable: ``pyramids.review(record)`` (light to import: the
# solver and the search load only when a review runs)
from pyramids import review
from pyramids.engine import (
    Game,
    IllegalMove,
    NotationError,
    PlayersError,
    PyramidsError,
    RecordError,
    Rng,
    State,
    UnknownGame,
    VariantError,
    all_games,
    game_ids,
    get_game,
    new_game,
    replay,
    save_record,
)

__all__ = [
    "Game",
    "IllegalMove",
    "NotationError",
    "PlayersError",
    "PyramidsError",
    "RecordError",
    "Rng",
    "State",
    "UnknownGame",
    "VariantError",
    "__version__",
    "all_games",
    "game_ids",
    "get_game",
    "new_game",
    "replay",
    "review",
    "save_record",
]
