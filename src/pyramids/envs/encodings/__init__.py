"""Per-game codecs (action ids, observation vectors, pictures) and their registry.

Adding a game to every research adapter means writing one module here with a
``make_codec(sample_state) -> GameCodec`` function and adding one line to
:data:`CODECS`. The adapters themselves never look inside a game.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from pyramids.engine.errors import UnknownGame
from pyramids.engine.registry import get_game
from pyramids.envs.encodings.base import ActionCodec, GameCodec, ObservationCodec

#: game id -> module defining ``make_codec``
CODECS: dict[str, str] = {
    "piramides": "pyramids.envs.encodings.piramides",
    "pyramido": "pyramids.envs.encodings.pyramido",
    "pyramideto": "pyramids.envs.encodings.pyramideto",
    "pyramido-treasure": "pyramids.envs.encodings.pyramido_treasure",
}

__all__ = ["CODECS", "ActionCodec", "GameCodec", "ObservationCodec", "codec_ids", "make_codec"]


def codec_ids() -> list[str]:
    """Games that have a codec, in registry order."""
    return list(CODECS)


def make_codec(
    game_id: str, players: int | None = None, variant: Mapping[str, Any] | None = None
) -> GameCodec:
    """The codec of ``game_id`` for a player count and variant (defaults filled in).

    The numbering can depend on both (the layout decides how many positions
    there are), so the codec is derived from a freshly dealt sample game.
    """
    if game_id not in CODECS:
        raise UnknownGame(
            "no research-adapter codec for {game_id}; games with one: {known}",
            game_id=repr(game_id),
            known=", ".join(CODECS),
        )
    game = get_game(game_id)
    sample = game.new(players=players, seed=0, **dict(variant or {}))
    module = importlib.import_module(CODECS[game_id])
    codec: GameCodec = module.make_codec(sample)
    return codec
