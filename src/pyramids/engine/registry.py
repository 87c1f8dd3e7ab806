"""The registry of games: every face lists and builds games by id through it.

Adding a game means one line in :data:`GAMES` (id -> module path of its
:class:`~pyramids.engine.state.Game` instance). Modules are imported on first
use, so listing games stays cheap. The faces find what they know of a game by
its id (:mod:`pyramids.engine.faces`), so the line is all they need.

A game from outside this package (a plugin, the test game of
``tests/toygame``) joins through the environment variable
:data:`EXTRA_GAMES_VARIABLE`: ``PYRAMIDS_EXTRA_GAMES="nim=mypackage.nim:GAME"``
(several entries separated by commas). Why a variable: a program started
by another (a test driving ``pyramids play`` on a terminal, a server's
workers) inherits it, where a line added to :data:`GAMES` in one process
would not reach the next.
"""

from __future__ import annotations

import importlib
import os
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

#: the environment variable naming games to add to :data:`GAMES` (module docstring)
EXTRA_GAMES_VARIABLE = "PYRAMIDS_EXTRA_GAMES"


def parse_extra_games(text: str) -> dict[str, str]:
    """The games named by :data:`EXTRA_GAMES_VARIABLE`: ``"id=module:attribute,..."``.

    Raises :class:`ValueError` naming the entry that is not of that form or
    that takes the id of a game already registered.
    """
    extra: dict[str, str] = {}
    for entry in filter(None, (part.strip() for part in text.split(","))):
        game_id, _, target = entry.partition("=")
        module_name, _, attr = target.partition(":")
        if not game_id or not module_name or not attr:
            raise ValueError(
                f"{EXTRA_GAMES_VARIABLE}: {entry!r} is not of the form id=module:attribute"
            )
        if game_id in GAMES or game_id in extra:
            raise ValueError(f"{EXTRA_GAMES_VARIABLE}: the id {game_id!r} is already taken")
        extra[game_id] = target
    return extra


GAMES.update(parse_extra_games(os.environ.get(EXTRA_GAMES_VARIABLE, "")))

_loaded: dict[str, Game[Any]] = {}


def check_game_id(game_id: str) -> None:
    """Raise :class:`UnknownGame` unless ``game_id`` is registered (nothing is imported)."""
    if game_id not in GAMES:
        raise UnknownGame(
            "unknown game '{game_id}'; known games: {known}",
            game_id=str(game_id),
            known=", ".join(GAMES),
        )


def game_ids() -> list[str]:
    """The ids of every registered game, in registry order."""
    return list(GAMES)


def get_game(game_id: str) -> Game[Any]:
    """The :class:`Game` registered as ``game_id``; :class:`UnknownGame` if none."""
    if game_id in _loaded:
        return _loaded[game_id]
    check_game_id(game_id)
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
