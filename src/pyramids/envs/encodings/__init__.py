"""Per-game codecs (action ids, observation vectors, pictures), found by the game's name.

A game's codec is the module of this package named after it
(:mod:`pyramids.engine.faces`: ``pyramids.envs.encodings.pyramido_treasure``)
with a ``make_codec(sample_state) -> GameCodec`` function. A game without one
gets the generic codec (:mod:`pyramids.envs.encodings.generic`) if it declares
:meth:`~pyramids.engine.state.Game.max_legal_moves`. The adapters themselves
never look inside a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pyramids.engine.errors import UnknownGame
from pyramids.engine.faces import face_path, has_face, load_face
from pyramids.engine.registry import game_ids, get_game
from pyramids.envs.encodings import generic
from pyramids.envs.encodings.base import ActionCodec, GameCodec, ObservationCodec

__all__ = ["ActionCodec", "GameCodec", "ObservationCodec", "codec_ids", "make_codec"]


def codec_ids() -> list[str]:
    """Games that have a codec of their own (not the generic one), in registry order."""
    return [g for g in game_ids() if has_face(__name__, g)]


def make_codec(
    game_id: str, players: int | None = None, variant: Mapping[str, Any] | None = None
) -> GameCodec:
    """The codec of ``game_id`` for a player count and variant (defaults filled in).

    The numbering can depend on both (the layout decides how many positions
    there are), so the codec is derived from a freshly dealt sample game.
    """
    game = get_game(game_id)
    sample = game.new(players=players, seed=0, **dict(variant or {}))
    module = load_face(__name__, game_id)
    if module is not None:
        codec: GameCodec = module.make_codec(sample)
        return codec
    if game.max_legal_moves(sample.players, sample.variant) is None:
        raise UnknownGame(
            "no research-adapter codec for {game_id}: write the module {module}, "
            "or declare max_legal_moves on the game for the generic codec",
            game_id=repr(game_id),
            module=face_path(__name__, game_id),
        )
    return generic.make_codec(sample)
