"""Pirámides for the research adapters: action ids, observation vector, picture.

Actions (``n`` = positions of the layout: 28 for the default pyramid):

====================  =============================================
id                    move
====================  =============================================
``0 .. n-1``          play the card at position ``id`` (row by row
                      from the apex: 0 = A1, 1 = B1, 2 = B2, ...,
                      27 = G7 on the pyramid)
``n``                 ``draw``: turn the top stock card
``n + 1``             ``joker``: play the joker onto the waste
====================  =============================================

So the default game has 30 actions. Other layouts (``tripeaks``, ``golf``)
keep the same shape with their own ``n``; the position numbering is the
layout's own (its labels are in the rules page).

Observation (float32, every value in [0, 1]), built from ``view(0)`` only:

* per position, 16 values: still there, free, face down (card not shown),
  then the card's rank as 13 one-hot values (all zero when not shown or
  gone). Suits are left out on purpose: the rules never look at them;
* the waste card: 13 rank one-hot values and a joker flag;
* stock cards left / stock size, run / (n + jokers per round), jokers left /
  jokers per round, and round / rounds.
"""

from __future__ import annotations

from collections.abc import Hashable
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
)
from pyramids.envs.encodings.raster import canvas, rect, text
from pyramids.games.piramides.cards import RANK_CHARS
from pyramids.games.piramides.game import DRAW, RUN_STEP, USE_JOKER, PiramidesMove

_DRAW_NAME = "draw"


def _rank_index(card: str | None) -> int | None:
    """Rank index 0 (Ace) .. 12 (King) of a card name like ``"TH"``; None if not a card."""
    if card is None or card == "joker":
        return None
    return RANK_CHARS.index(card[0])


class PiramidesActions(ActionCodec):
    """Positions first, then draw, then joker (see the module table)."""

    def __init__(self, positions: int, labels: list[str]) -> None:
        self.positions = positions
        self.labels = labels
        self.num_actions = positions + 2
        self._plays = tuple(PiramidesMove("play", i) for i in range(positions))

    def encode(self, state: State[Any], move: Hashable) -> int:
        if not isinstance(move, PiramidesMove):
            raise ValueError(f"{move!r} is not a Pirámides move")
        if move.kind == "play" and 0 <= move.pos < self.positions:
            return move.pos
        if move.kind == "draw":
            return self.positions
        if move.kind == "joker":
            return self.positions + 1
        raise ValueError(f"{move!r} has no action id")

    def decode(self, state: State[Any], action: int) -> Hashable:
        action = self.check_action(action)
        if action < self.positions:
            return self._plays[action]
        return DRAW if action == self.positions else USE_JOKER

    def describe(self, action: int) -> str:
        action = self.check_action(action)
        if action < self.positions:
            return f"play {self.labels[action]}"
        return _DRAW_NAME if action == self.positions else "joker"


class PiramidesObservations(ObservationCodec):
    """The view as a vector (layout described in the module docstring)."""

    PER_POSITION = 16

    def __init__(self, positions: int, stock: int, jokers: int, rounds: int) -> None:
        self.positions = positions
        self.stock = stock
        self.jokers = jokers
        self.rounds = rounds
        self.shape = (positions * self.PER_POSITION + 14 + 4,)

    def encode(self, view: View) -> FloatArray:
        pyramid = view["pyramid"]
        if len(pyramid) != self.positions:
            raise ValueError(f"expected {self.positions} positions, the view has {len(pyramid)}")
        out = OneHot(self.shape[0])
        for cell in pyramid:
            there = not cell["removed"]
            out.flag(there)
            out.flag(bool(cell["free"]) and there)
            out.flag(there and cell["card"] is None)
            out.one_hot(_rank_index(cell["card"]) if there else None, 13)
        waste = view["waste"]
        out.one_hot(_rank_index(waste), 13)
        out.flag(waste == "joker")
        out.scalar(view["stock"], self.stock)
        out.scalar(view["run"], self.positions + self.jokers)
        out.scalar(view["jokers_left"], self.jokers)
        out.scalar(view["round"], self.rounds)
        return out.done()


# -- picture ---------------------------------------------------------------

_CARD_W, _CARD_H, _GAP = 22, 30, 4
_FELT = (22, 96, 52)
_FACE = (245, 245, 235)
_BACK = (40, 70, 160)
_RED = (200, 30, 30)
_BLACK = (20, 20, 20)
_GOLD = (240, 200, 40)


def _draw_card(img: ImageArray, top: int, left: int, card: str | None, free: bool) -> None:
    if card is None:
        rect(img, top, left, _CARD_H, _CARD_W, _BACK)
        return
    if free:
        rect(img, top - 2, left - 2, _CARD_H + 4, _CARD_W + 4, _GOLD)
    rect(img, top, left, _CARD_H, _CARD_W, _FACE)
    if card == "joker":
        text(img, top + 4, left + 4, "*", (150, 30, 150), scale=2)
        return
    ink = _RED if card[-1] in "DH" else _BLACK
    text(img, top + 4, left + 3, card[0], ink, scale=2)
    # suit as a small coloured bar under the rank (the rules ignore suits)
    rect(img, top + 20, left + 3, 4, 4 + 4 * "CDHS".index(card[-1]), ink)


def raster(view: View) -> ImageArray:
    """The layout (free cards outlined in gold), then waste, stock count and score."""
    cells = view["pyramid"]
    cols = max(c["col"] for c in cells) + 1
    rows = max(c["row"] for c in cells) + 1
    # pyramid rows are centred: a row with fewer cards is shifted by half a card per missing one
    width = (cols + 1) * (_CARD_W + _GAP) + 6 * (_CARD_W + _GAP)
    height = max(rows * (_CARD_H // 2 + _GAP) + _CARD_H, 2 * _CARD_H) + 2 * _GAP
    img = canvas(height, width, _FELT)
    per_row: dict[int, int] = {}
    for c in cells:
        per_row[c["row"]] = per_row.get(c["row"], 0) + 1
    widest = max(per_row.values())
    for c in cells:
        if c["removed"]:
            continue
        shift = (widest - per_row[c["row"]]) * (_CARD_W + _GAP) // 2
        left = _GAP + shift + c["col"] * (_CARD_W + _GAP)
        top = _GAP + c["row"] * (_CARD_H // 2 + _GAP)
        _draw_card(img, top, left, c["card"], bool(c["free"]))
    right = (widest + 1) * (_CARD_W + _GAP)
    _draw_card(img, _GAP + 2, right, view["waste"], False)
    rect(img, _GAP + 2, right + _CARD_W + 2 * _GAP, _CARD_H, _CARD_W, _BACK)
    text(img, _GAP + 10, right + _CARD_W + 2 * _GAP + 2, str(view["stock"]), _FACE, scale=2)
    text(img, _GAP + _CARD_H + 10, right, str(view["scores"][0]), _GOLD, scale=2)
    return img


def make_codec(sample: State[Any]) -> GameCodec:
    """The codec for the layout and variant of ``sample`` (a fresh game)."""
    view = sample.view(0)
    positions = len(view["pyramid"])
    stock = int(view["stock"])
    jokers = int(view["jokers_left"])
    rounds = int(view["rounds"])
    per_round_max = RUN_STEP * (positions + jokers) * (positions + jokers + 1) // 2 + 50
    return GameCodec(
        game_id="piramides",
        players=1,
        variant=dict(sample.variant),
        actions=PiramidesActions(positions, [c["pos"] for c in view["pyramid"]]),
        observations=PiramidesObservations(positions, stock, jokers, rounds),
        raster=raster,
        min_score=-float(rounds * (5 * stock + 50 * jokers) + positions),
        max_score=float(rounds * per_round_max),
        max_game_length=rounds * (positions + stock + jokers),
    )
