"""Where a game's faces keep what they know of it: one module per face, named after the game.

A face that needs game knowledge (the terminal's drawing, the research
adapters' encoding, a playout policy, an agent, a review's grading bands)
looks for it in ``<face package>.<module name>``, the module name being the
game id with hyphens as underscores: ``pyramids.text.pyramido_treasure``
for ``pyramido-treasure``. A game without that module gets the face's generic
behaviour (a pretty-printed view, uniform playouts, the default bands) or, where
there is none, a clear error naming the module to write.

Why a convention rather than maps keyed by game id: a new game then has every
face it has a module for, and the generic one for the rest, without a line in
shared code; and a game registered from outside this package (a plugin, the
test game of ``tests/toygame``) is found the same way. Finding a module only
checks that it exists (:func:`importlib.util.find_spec`), so listing which
games a face serves imports none of them.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import Any

from pyramids.engine.registry import check_game_id


def module_name(game_id: str) -> str:
    """The name of ``game_id``'s face modules; :class:`UnknownGame` if it is not registered."""
    check_game_id(game_id)
    return game_id.replace("-", "_")


def face_path(package: str, game_id: str) -> str:
    """The dotted name of ``game_id``'s module in face ``package`` (which may not exist)."""
    return f"{package}.{module_name(game_id)}"


def has_face(package: str, game_id: str) -> bool:
    """Whether face ``package`` has a module for ``game_id`` (nothing of the game is imported)."""
    return importlib.util.find_spec(face_path(package, game_id)) is not None


def load_face(package: str, game_id: str) -> ModuleType | None:
    """``game_id``'s module of face ``package``, imported; ``None`` if the game has none."""
    if not has_face(package, game_id):
        return None
    return importlib.import_module(face_path(package, game_id))


_attributes: dict[tuple[str, str, str], Any] = {}


def face_attribute(package: str, game_id: str, attribute: str, default: Any) -> Any:
    """``attribute`` of ``game_id``'s module of face ``package``; ``default`` if it has none.

    Remembered per game, since search asks for its game's policy at every move.
    A module that exists but lacks the attribute is an error (``AttributeError``),
    not a game without the face: a misspelt name must not pass unnoticed.
    """
    key = (package, game_id, attribute)
    if key not in _attributes:
        module = load_face(package, game_id)
        _attributes[key] = default if module is None else getattr(module, attribute)
    return _attributes[key]
