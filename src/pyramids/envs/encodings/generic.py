"""The encoding of a game that has none of its own: moves by their place, views by their leaves.

Why it exists: so that every registered game runs in Gymnasium, PettingZoo
and OpenSpiel from its first day, before anyone writes it a codec. It keeps
every guarantee of the adapters (fixed shapes, exact masks, observations read
from the seat's view only) but is a poor representation to learn from, which
is what a game's own module in this package is for:

* **action** ``k`` is the ``k``-th move of ``state.legal_moves()``, so the same
  id names different moves in different positions. The action space has
  :meth:`~pyramids.engine.state.Game.max_legal_moves` ids, which a game
  without a codec must therefore declare;
* **observation**: every leaf of the view (its path, such as
  ``piles/2``, and its JSON value) is hashed to one of :data:`WIDTH` flags
  (the "hashing trick"). The size is fixed whatever the view holds, and two
  different views share a vector only when all their leaves collide, which
  is rare but possible.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Hashable, Iterator
from typing import Any

import numpy as np

from pyramids.engine.state import State
from pyramids.envs.encodings.base import (
    ActionCodec,
    FloatArray,
    GameCodec,
    ObservationCodec,
    View,
)

#: flags of a generic observation
WIDTH = 512


class GenericActions(ActionCodec):
    """Action ``k``: the ``k``-th legal move of the position."""

    def __init__(self, num_actions: int) -> None:
        if num_actions < 1:
            raise ValueError(f"max_legal_moves must be at least 1, not {num_actions}")
        self.num_actions = num_actions

    def legal_ids(self, state: State[Any]) -> list[int]:
        count = len(state.legal_moves())
        if count > self.num_actions:
            raise ValueError(
                f"{count} legal moves, more than the {self.num_actions} that "
                f"{state.game.id}'s max_legal_moves declares"
            )
        return list(range(count))

    def encode(self, state: State[Any], move: Hashable) -> int:
        moves = state.legal_moves()
        if move not in moves:
            raise ValueError(f"{move!r} is not legal here, and only legal moves have an id")
        return moves.index(move)

    def decode(self, state: State[Any], action: int) -> Hashable:
        action = self.check_action(action)
        moves = state.legal_moves()
        if action >= len(moves):
            raise ValueError(f"action {action} names no move: this position has {len(moves)}")
        move: Hashable = moves[action]
        return move

    def describe(self, action: int) -> str:
        return f"legal move {action + 1} (in the order of legal_moves())"


def _leaves(value: Any, path: str) -> Iterator[str]:
    """``path=value`` for every scalar inside a JSON-able value, dict keys in sorted order."""
    if isinstance(value, dict):
        for key in sorted(value):
            yield from _leaves(value[key], f"{path}/{key}")
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _leaves(item, f"{path}/{i}")
    else:
        yield f"{path}={json.dumps(value)}"


class GenericObservations(ObservationCodec):
    """:data:`WIDTH` flags, one set for each leaf of the view (by a stable hash)."""

    shape = (WIDTH,)

    def index_names(self) -> list[str]:
        """Each value is a bucket of hashed view leaves (``path=value``): no fixed meaning."""
        return [f"leaf_hash[{k}]" for k in range(WIDTH)]

    def encode(self, view: View) -> FloatArray:
        out = np.zeros(WIDTH, dtype=np.float32)
        flags = [zlib.crc32(leaf.encode()) % WIDTH for leaf in _leaves(dict(view), "")]
        if flags:
            out[flags] = 1.0
        return out


def make_codec(sample: State[Any]) -> GameCodec:
    """The generic codec of ``sample``'s game, player count and variant.

    Raises :class:`ValueError` if the game does not declare ``max_legal_moves``
    (the caller, :func:`pyramids.envs.encodings.make_codec`, says so first).
    """
    bound = sample.game.max_legal_moves(sample.players, sample.variant)
    if bound is None:
        raise ValueError(f"{sample.game.id} declares no max_legal_moves")
    return GameCodec(
        game_id=sample.game.id,
        players=sample.players,
        variant=dict(sample.variant),
        actions=GenericActions(bound),
        observations=GenericObservations(),
    )
