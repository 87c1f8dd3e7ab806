"""The registry of games: every face lists and builds games by id through it.

Adding a game means one line in :data:`GAMES` (id -> module path of its
:class:`~pyramids.engine.state.Game` instance). Modules are imported on first
use, so listing games stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

from pyramids.engine.errors import UnknownGame
from pyramids.engine.state import Game, State

#: game id -> "module:attribute" of the Game instance
GAMES: dict[str, str] = {
    "piramides": "pyramids.games.piramides:GAME",
    "pyramido": "pyramids.games.pyramido:GAME",
    "pyramideto": "pyramids.games.pyramideto:GAME",
    "pyramido-treasure": "pyramids.games.pyramido_treasure:GAME",
}

_loaded: dict[str, Game[Any]] = {}


def game_ids() -> list[str]:
    """The ids of every registered game, in registry order."""
    return list(GAMES)


def get_game(game_id: str) -> Game[Any]:
    """The :class:`Game` registered as ``game_id``; :class:`UnknownGame` if none."""
    if game_id in _loaded:
        return _loaded[game_id]
    if game_id not in GAMES:
        raise UnknownGame(
            "unknown game '{game_id}'; known games: {known}",
            game_id=str(game_id),
            known=", ".join(GAMES),
        )
    module_name, _, attr = GAMES[game_id].partition(":")
    game: Game[Any] = getattr(importlib.import_module(module_name), attr)
    _loaded[game_id] = game
    return game


def all_games() -> list[Game[Any]]:
    """Every registered game, loaded."""
    return [get_game(g) for g in GAMES]


def new_game(game_id: str, players: int | None = None, seed: int = 0, **variant: Any) -> State[Any]:
    """Start a game: ``new_game("pyramideto", players=3, seed=7, turn_limit=100)``.

    ``players`` defaults to the game's minimum; ``seed`` fixes every random
    choice of the setup and of mid-game chance; keyword arguments are the
    game's variant options (see ``docs/rules/<game>.md``).
    """
    names = variant.pop("names", None)
    return get_game(game_id).new(players=players, seed=seed, names=names, **variant)
