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

from array import array
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np

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
)
from pyramids.envs.encodings.raster import canvas, rect, text
from pyramids.games.piramides.cards import JOKER, RANK_CHARS
from pyramids.games.piramides.game import (
    DRAW,
    USE_JOKER,
    PiramidesMove,
    PiramidesState,
)

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
        self._ids: dict[Hashable, int] = {m: i for i, m in enumerate(self._plays)}
        self._ids[DRAW] = positions
        self._ids[USE_JOKER] = positions + 1

    def _id_table(self) -> Mapping[Hashable, int]:
        return self._ids

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
        # the last vector encode_state built, with the cards and masks it encodes
        self._last: (
            tuple[tuple[int, ...], int, int, int, tuple[int, int, int, int, int], FloatArray] | None
        ) = None
        # the counts' scales (OneHot.scalar: a field whose top is 0 stays 0); every
        # count is at least 0; min() clips at 1, as OneHot.scalar does
        tops = (stock, positions + jokers, jokers, rounds)
        self._scales = tuple(1.0 / top if top > 0 else 0.0 for top in tops)

    def index_names(self) -> list[str]:
        names: list[str] = []
        for p in range(self.positions):
            at = f"position[{p}]"
            names += [f"{at}.there", f"{at}.free", f"{at}.face_down"]
            names += one_hot_names(f"{at}.rank", RANK_CHARS)
        names += [*one_hot_names("waste.rank", RANK_CHARS), "waste.joker"]
        return [*names, "stock_left", "run", "jokers_left", "round"]

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

    def encode_state(self, state: State[Any], seat: int | None) -> FloatArray:
        """The same vector from the state's masks and cards, without building the view.

        Each position's 16 values take one of four shapes (gone; face down;
        free with its rank; covered with its rank), prebuilt as rows of a
        table. Why incremental: an adapter observes after every move, and a
        move changes the masks of one to three positions, so the codec keeps
        the last vector it built (with the cards and masks it encoded) and
        rewrites only the positions whose bits changed; a new round's cards,
        or another layout's, start from scratch. A face-down card's rank is
        never read. The vector returned is a copy: callers may keep or change it.
        """
        if not isinstance(state, PiramidesState):
            return super().encode_state(state, seat)
        removed, free = state.removed_mask, state.free_mask
        down = state.face_down_mask
        cards = state.layout_cards
        size = self.positions
        if len(cards) != size:
            raise ValueError(f"expected {size} positions, the state has {len(cards)}")
        last = self._last
        if last is not None and last[0] is cards:
            _, was_removed, was_free, was_down, was_tail, out = last
            changed = (removed ^ was_removed) | (free ^ was_free) | (down ^ was_down)
        else:
            out = np.zeros(self.shape[0], dtype=np.float32)
            changed = (1 << size) - 1
            was_tail = (-1, -1, -1, -1, -1)
        width = self.PER_POSITION
        while changed:
            low = changed & -changed
            changed ^= low
            i = low.bit_length() - 1
            if removed & low:
                row = _GONE
            elif down & low:
                row = _HIDDEN
            elif free & low:
                row = _FREE + cards[i] % 13
            else:
                row = _COVERED + cards[i] % 13
            out[i * width : i * width + width] = _ROWS[row]
        # the waste's one-hot and the four counts, each written only when it changed
        waste = state.waste
        tail = (
            13 if waste == JOKER else waste % 13,
            state.stock_left,
            state.run,
            state.jokers_left,
            state.round,
        )
        head = size * width
        if tail[0] != was_tail[0]:
            if was_tail[0] >= 0:
                out[head + was_tail[0]] = 0.0
            out[head + tail[0]] = 1.0
        head += 13
        for k in range(1, 5):
            if tail[k] != was_tail[k]:
                out[head + k] = min(tail[k] * self._scales[k - 1], 1.0) if tail[k] > 0 else 0.0
        self._last = (cards, removed, free, down, tail, out)
        return out.copy()

    def encode_states(self, states: Sequence[State[Any]], seat: int | None) -> FloatArray:
        """The rows of :meth:`encode_state` for a batch, with one array operation per field.

        Why: a vector environment observes every game after every step, and
        the per-game Python loop over the 28 positions was most of its step.
        The masks of the whole batch become one ``(N, positions)`` array of
        bits; the ranks come from one array of the layouts' cards.
        """
        if not all(isinstance(s, PiramidesState) for s in states):
            return super().encode_states(states, seat)
        batch = [s for s in states if isinstance(s, PiramidesState)]
        n, size = len(batch), self.positions
        if any(len(s.layout_cards) != size for s in batch):
            raise ValueError(f"expected {size} positions in every state")
        shifts = _SHIFTS[:size]
        removed = (np.array([s.removed_mask for s in batch], dtype=np.int64)[:, None] >> shifts) & 1
        free = (np.array([s.free_mask for s in batch], dtype=np.int64)[:, None] >> shifts) & 1
        down = (np.array([s.face_down_mask for s in batch], dtype=np.int64)[:, None] >> shifts) & 1
        ranks = np.array([s.layout_cards for s in batch], dtype=np.int64) % 13
        there = 1 - removed
        shown = there * (1 - down)
        out = np.zeros((n, self.shape[0]), dtype=np.float32)
        cells = out[:, : size * self.PER_POSITION].reshape(n, size, self.PER_POSITION)
        cells[:, :, 0] = there
        cells[:, :, 1] = free
        cells[:, :, 2] = there * down
        rows, cols = np.nonzero(shown)
        cells[rows, cols, 3 + ranks[rows, cols]] = 1.0
        head = size * self.PER_POSITION
        waste = np.array([s.waste for s in batch], dtype=np.int64)
        out[np.arange(n), head + np.where(waste == JOKER, 13, waste % 13)] = 1.0
        head += 14
        tops = (self.stock, self.positions + self.jokers, self.jokers, self.rounds)
        values = np.array([(s.stock_left, s.run, s.jokers_left, s.round) for s in batch], float)
        for k, top in enumerate(tops):
            if top > 0:  # as OneHot.scalar: a field whose top is 0 stays 0
                out[:, head + k] = np.minimum(np.maximum(values[:, k] / top, 0.0), 1.0)
        return out


_SHIFTS = np.arange(64, dtype=np.int64)


class ObservationBatch:
    """The observations of N games, updated where their moves changed them.

    Why: a vector environment observes every game after every step, and a
    move changes one to three positions. Writing each into the float array
    costs a NumPy call (about a microsecond), and rebuilding all rows costs
    more; here :meth:`write` only notes which positions of a game changed and
    to which of the prebuilt rows of :data:`_ROWS`, and :meth:`array` applies
    the notes of the whole batch with one assignment, then the waste and the
    counts of every game with a gather and a product. Rows equal
    :meth:`PiramidesObservations.encode_state` exactly (the vector
    environment's tests compare them with the single environment's).
    """

    def __init__(self, codec: PiramidesObservations, n: int) -> None:
        self.codec = codec
        self.n = n
        self.positions = codec.positions
        self._out = np.zeros((n, codec.shape[0]), dtype=np.float32)
        #: the changes :meth:`array` has yet to apply: game, position, row of _ROWS
        self._games: list[int] = []
        self._cells: list[int] = []
        self._rows: list[int] = []
        #: per game: waste code (0..12 rank, 13 joker); stock, run, jokers, round
        self._waste = bytearray(n)
        self._counts = array("q", bytes(8 * 4 * n))
        #: per game: the cards and masks its positions were written from
        self._memo: list[tuple[tuple[int, ...], int, int, int] | None] = [None] * n
        tops = (codec.stock, codec.positions + codec.jokers, codec.jokers, codec.rounds)
        self._scales = np.array([1.0 / t if t > 0 else 0.0 for t in tops], dtype=np.float64)

    def write(self, i: int, state: PiramidesState) -> None:
        """Note game ``i``'s position as ``state`` (only the positions that changed)."""
        removed, free = state.removed_mask, state.free_mask
        down = state.face_down_mask
        cards = state.layout_cards
        size = self.positions
        memo = self._memo[i]
        if memo is not None and memo[0] is cards:
            changed = (removed ^ memo[1]) | (free ^ memo[2]) | (down ^ memo[3])
        else:
            if len(cards) != size:
                raise ValueError(f"expected {size} positions, the state has {len(cards)}")
            changed = (1 << size) - 1
        games, cells, rows = self._games, self._cells, self._rows
        while changed:
            low = changed & -changed
            changed ^= low
            k = low.bit_length() - 1
            games.append(i)
            cells.append(k)
            if removed & low:
                rows.append(_GONE)
            elif down & low:
                rows.append(_HIDDEN)
            elif free & low:
                rows.append(_FREE + cards[k] % 13)
            else:
                rows.append(_COVERED + cards[k] % 13)
        self._memo[i] = (cards, removed, free, down)
        waste = state.waste
        self._waste[i] = 13 if waste == JOKER else waste % 13
        counts = self._counts
        at = 4 * i
        counts[at] = state.stock_left
        counts[at + 1] = state.run
        counts[at + 2] = state.jokers_left
        counts[at + 3] = state.round

    def array(self) -> FloatArray:
        """The ``(N, size)`` observations now (a new array: callers may keep it)."""
        n, size = self.n, self.positions
        width = PiramidesObservations.PER_POSITION
        out = self._out
        head = size * width
        if self._games:
            cells = out[:, :head].reshape(n, size, width)
            cells[self._games, self._cells] = _ROWS[self._rows]
            self._games, self._cells, self._rows = [], [], []
        out[:, head : head + 14] = _WASTE_ROWS[np.frombuffer(self._waste, dtype=np.uint8)]
        counts = np.frombuffer(self._counts, dtype=np.int64).reshape(n, 4)
        np.minimum(counts * self._scales, 1.0, out=out[:, head + 14 :], casting="unsafe")
        return out.copy()


def _row(there: bool, free: bool, down: bool, rank: int | None) -> list[float]:
    out = [0.0] * PiramidesObservations.PER_POSITION
    out[0], out[1], out[2] = float(there), float(free), float(down)
    if rank is not None:
        out[3 + rank] = 1.0
    return out


#: a position's 16 values, by row: gone, face down, then free by rank, then covered by rank
_GONE, _HIDDEN, _FREE, _COVERED = 0, 1, 2, 15
_ROWS = np.array(
    [_row(False, False, False, None), _row(True, False, True, None)]
    + [_row(True, True, False, r) for r in range(13)]
    + [_row(True, False, False, r) for r in range(13)],
    dtype=np.float32,
)


#: the waste's 14 values by code: a rank's one-hot (0..12), or the joker flag (13)
_WASTE_ROWS = np.eye(14, dtype=np.float32)


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
    return GameCodec(
        game_id="piramides",
        players=1,
        variant=dict(sample.variant),
        actions=PiramidesActions(positions, [c["pos"] for c in view["pyramid"]]),
        observations=PiramidesObservations(positions, stock, jokers, rounds),
        raster=raster,
    )
