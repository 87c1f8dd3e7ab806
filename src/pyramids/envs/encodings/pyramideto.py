"""Pyramideto for the research adapters: action ids, observation vector, picture.

Pieces are numbered 0..14 as in the engine (colour red, yellow, green, blue,
black; each small, medium, large): piece ``p`` is colour ``p // 3``, size
``p % 3``. Goal cards are numbered 0..29 in ``goals.json`` order.

Actions (270):

====================  =====================================================
id                    move
====================  =====================================================
``16 * p``            move piece ``p`` and everything on it to the table
``16 * p + 1 + u``    move piece ``p`` and everything on it onto piece ``u``
``240 + c``           exchange goal card ``c`` (it goes under the deck)
====================  =====================================================

Observation (float32 in [0, 1]), from ``view(seat)``; seats are counted from
the observer (0 = me, 1 = the next seat clockwise, ...):

* per piece, 16 values: what it stands on (table, or one of the 15 pieces);
* per piece, 1 value: it belongs to the group the previous player moved;
* my hand: 30 card flags;
* per seat: its 30 displayed-card flags;
* per seat: cards in hand / hand size;
* cards in the deck / 30; moves played / turn limit (0 without a limit);
* per seat: it is to move; and whether the game is over.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from pyramids.engine.state import State
from pyramids.envs.encodings.base import (
    ActionCodec,
    FloatArray,
    GameCodec,
    ImageArray,
    ObservationCodec,
    OneHot,
    View,
    one_hot_names,
    vector,
)
from pyramids.envs.encodings.raster import canvas, rect, text
from pyramids.games.pyramideto import CODES, GOAL_BY_ID, GOALS, PyramidetoMove, parse_piece
from pyramids.games.pyramideto.game import PyramidetoState

PIECES = len(CODES)
CARDS = len(GOALS)
_SLOT = PIECES + 1  # table + every piece
EXCHANGE_BASE = PIECES * _SLOT
_BY_CODE = {code: p for p, code in enumerate(CODES)}


class PyramidetoActions(ActionCodec):
    """Piece moves by (piece, target), then exchanges by card (see the module table)."""

    num_actions = EXCHANGE_BASE + CARDS

    def __init__(self) -> None:
        ids: dict[Hashable, int] = {
            PyramidetoMove(a // _SLOT, a % _SLOT - 1): a for a in range(EXCHANGE_BASE)
        }
        ids.update({PyramidetoMove(-1, -1, c): EXCHANGE_BASE + c for c in range(CARDS)})
        self._ids = ids

    def _id_table(self) -> Mapping[Hashable, int]:
        return self._ids

    def encode(self, state: State[Any], move: Hashable) -> int:
        if not isinstance(move, PyramidetoMove):
            raise ValueError(f"{move!r} is not a Pyramideto move")
        if move.piece < 0:
            if not 0 <= move.card < CARDS:
                raise ValueError(f"{move!r} has no action id")
            return EXCHANGE_BASE + move.card
        if not 0 <= move.piece < PIECES or not -1 <= move.onto < PIECES or move.card != -1:
            raise ValueError(f"{move!r} has no action id")
        return move.piece * _SLOT + move.onto + 1

    def decode(self, state: State[Any], action: int) -> Hashable:
        action = self.check_action(action)
        if action >= EXCHANGE_BASE:
            return PyramidetoMove(-1, -1, action - EXCHANGE_BASE)
        return PyramidetoMove(action // _SLOT, action % _SLOT - 1)

    def describe(self, action: int) -> str:
        action = self.check_action(action)
        if action >= EXCHANGE_BASE:
            return f"exchange {GOALS[action - EXCHANGE_BASE].id}"
        p, u = action // _SLOT, action % _SLOT - 1
        return f"{CODES[p]}>{'table' if u < 0 else CODES[u]}"


class PyramidetoObservations(ObservationCodec):
    """The view as a vector (layout in the module docstring)."""

    def __init__(self, players: int, hand_size: int, turn_limit: int) -> None:
        self.players = players
        self.hand_size = hand_size
        self.turn_limit = turn_limit
        size = PIECES * _SLOT + PIECES + CARDS + players * CARDS + players + 2 + players + 1
        self.shape = (size,)

    def index_names(self) -> list[str]:
        n = self.players
        names: list[str] = []
        for p in range(PIECES):
            names += one_hot_names(f"piece[{CODES[p]}].on", ("table", *CODES))
        names += [f"last_group[{code}]" for code in CODES]
        names += [f"hand[{goal.id}]" for goal in GOALS]
        for k in range(n):
            names += [f"seat+{k}.displayed[{goal.id}]" for goal in GOALS]
        names += [f"seat+{k}.hand_size" for k in range(n)]
        names += ["deck", "ply"]
        names += [f"seat+{k}.to_move" for k in range(n)]
        return [*names, "is_over"]

    def encode(self, view: View) -> FloatArray:
        n = self.players
        me = view["viewer"] or 0
        order = [(me + k) % n for k in range(n)]
        below = [0] * PIECES  # 0 = table, 1 + u = on piece u
        for stack in view["stacks"]:
            prev = -1
            for code in stack:
                p = _BY_CODE[code]
                below[p] = prev + 1
                prev = p
        out = OneHot(self.shape[0])
        for p in range(PIECES):
            out.one_hot(below[p], _SLOT)
        out.flags({_BY_CODE[c] for c in view["last_group"]}, PIECES)
        out.flags({GOAL_BY_ID[c["id"]].number for c in view["hand"] or ()}, CARDS)
        for seat in order:
            out.flags({GOAL_BY_ID[c["id"]].number for c in view["displayed"][seat]}, CARDS)
        for seat in order:
            out.scalar(view["hand_sizes"][seat], self.hand_size)
        out.scalar(view["deck"], CARDS)
        out.scalar(view["ply"], self.turn_limit)
        mover = view["current_player"]
        for seat in order:
            out.flag(seat == mover)
        out.flag(bool(view["is_over"]))
        return out.done()

    def encode_state(self, state: State[Any], seat: int | None) -> FloatArray:
        """The same vector from the state's public accessors and ``seat``'s own hand."""
        if not isinstance(state, PyramidetoState):
            return super().encode_state(state, seat)
        n = self.players
        me = seat or 0
        order = [(me + k) % n for k in range(n)]
        ones = [p * _SLOT + u + 1 for p, u in enumerate(state.below)]
        base = PIECES * _SLOT
        ones += [base + p for p in state.last_group()]
        base += PIECES
        if seat is not None:
            ones += [base + c for c in state.hand(seat)]
        base += CARDS
        for k, q in enumerate(order):
            ones += [base + CARDS * k + c for c in state.displayed(q)]
        base += CARDS * n
        top = self.hand_size
        scalars = [
            (base + k, len(state.hand(q)) / top if top > 0 else 0.0) for k, q in enumerate(order)
        ]
        base += n
        scalars.append((base, state.deck_size / CARDS))
        limit = self.turn_limit
        scalars.append((base + 1, state.ply / limit if limit > 0 else 0.0))
        base += 2
        mover = state.current_player
        ones += [base + k for k, q in enumerate(order) if q == mover]
        if state.is_over:
            ones.append(base + n)
        return vector(self.shape[0], ones, scalars)


# -- picture ---------------------------------------------------------------

_COLOURS = {
    "r": (210, 40, 40),
    "y": (235, 200, 40),
    "g": (40, 160, 70),
    "b": (40, 90, 200),
    "k": (30, 30, 30),
}
_WIDTH = {"S": 12, "M": 20, "L": 28}
_BG = (235, 228, 210)


def raster(view: View) -> ImageArray:
    """Each stack as a column of pieces, bottom up, sized and coloured like the pyramids."""
    stacks = view["stacks"]
    col_w, piece_h = 36, 14
    height = 15 * piece_h + 30
    img = canvas(height, max(len(stacks), 1) * col_w + 8, _BG)
    rect(img, height - 12, 0, 2, img.shape[1], (120, 100, 80))
    last = set(view["last_group"])
    for i, stack in enumerate(stacks):
        centre = 4 + i * col_w + col_w // 2
        for k, code in enumerate(stack):
            w = _WIDTH[code[0]]
            top = height - 12 - (k + 1) * piece_h
            if code in last:
                rect(img, top - 1, centre - w // 2 - 2, piece_h, w + 4, (250, 250, 250))
            rect(img, top, centre - w // 2, piece_h - 2, w, _COLOURS[code[1]])
    text(img, 2, 4, str(view["deck"]), (60, 60, 60), scale=2)
    return img


def make_codec(sample: State[Any]) -> GameCodec:
    """The codec for the player count and variant of ``sample``."""
    view = sample.view(0)
    limit = int(view["turn_limit"])
    return GameCodec(
        game_id="pyramideto",
        players=sample.players,
        variant=dict(sample.variant),
        actions=PyramidetoActions(),
        observations=PyramidetoObservations(sample.players, int(view["hand_size"]), limit),
        raster=raster,
    )


assert parse_piece("Lg") == _BY_CODE["Lg"], "piece numbering must match the engine's"
