"""Pyramids: four table games that share a name, as rules engines and more.

>>> import pyramids
>>> state = pyramids.new_game("piramides", seed=1)
>>> state.current_player
0
>>> len(state.legal_moves()) > 0
True
"""

__version__ = "0.1.0"

from typing import TYPE_CHECKING, Any

# The names below load on first use (PEP 562), not with the package: every
# ``pyramids`` command imports this package first, and ``pyramids --help`` has a
# 150 ms budget that the engine and the review do not need to spend (docs/cli.md).
if TYPE_CHECKING:
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
        SeatError,
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


def __getattr__(name: str) -> Any:
    """The engine's names and the ``review`` package, imported when first asked for."""
    import importlib

    if name == "review":
        return importlib.import_module("pyramids.review")
    if name in __all__ and name != "__version__":
        value = getattr(importlib.import_module("pyramids.engine"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'pyramids' has no attribute {name!r}")


__all__ = [
    "Game",
    "IllegalMove",
    "NotationError",
    "PlayersError",
    "PyramidsError",
    "RecordError",
    "Rng",
    "SeatError",
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
