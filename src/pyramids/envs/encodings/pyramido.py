"""Pyramido for the research adapters: every *step* of a turn is one action.

A turn is several moves in the engine (place, mark, card or pass, refill; or
two fills when no domino fits), and so it is several actions here: the
action space stays small (a whole turn in one id would need millions) and
the mask of each step is exact.

Cells are indices on the grid of the floor the player is building (as in
the engine): floor 1 is the 9×9 frame (cell ``9 * row + column``, 0..80),
floors 2-4 are their own small grids (``cols * row + column``). Colours are
0..5 in the order red, yellow, green, blue, purple, orange; quarters 0..3 are
top-left, top-right, bottom-left, bottom-right.

Actions (2,971):

==============================  ================================================
id                              step
==============================  ================================================
``4 (81 s + a) + d``            place: quarry slot ``s`` (0..2), block A on cell
                                ``a``, block B on the neighbour in direction
                                ``d``: 0 right, 1 left, 2 below, 3 above (on the
                                grid of the floor being built)
``972 + k``                     mark: put the gem on block ``k`` (0 = A, 1 = B)
``974 + 8 c + 4 k + q``         card: show colour ``c`` on block ``k``, jewel in
                                quarter ``q``
``1022``                        pass (no single-block card this turn)
``1023 + t``                    refill the empty quarry slot from stack ``t``
``1027 + 4 (81 c + x) + q``     fill (no domino fits): card showing colour ``c``
                                on cell ``x``, jewel in quarter ``q``
==============================  ================================================

Observation (float32 in [0, 1]) from ``view(seat)``, seats counted from the
observer (0 = me). Per seat, the 18×18 quarters of the top view (row by
row), each with 9 values: colour (6 one-hot, none if empty), jewel shown,
floor / 4, and a gem of this floor on it; then unused gems (6 flags), unused
cards (3 flags), out, floor done, current floor score / 40 and total / 160.
Then the floor (4 one-hot), the step (5 one-hot: place, mark, card, refill,
fill), the empty quarry slot (3 one-hot), the domino just placed (2 blocks ×
(6 colours + 4 jewel quarters)) and which block has its gem (2 flags), fill
cards laid / 2, the quarry (3 × (present + 2 blocks × 10)) and the stacks
(4 × (size / 22 + the top domino as 2 blocks × 10)), and per seat whether it
is to move.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from functools import cache
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
from pyramids.envs.encodings.raster import canvas, rect
from pyramids.games.pyramido.dominoes import COLOUR_LETTERS, COLOURS, DOMINOES, QUARTERS
from pyramids.games.pyramido.game import PyramidoState
from pyramids.games.pyramido.geometry import FRAME_CELLS, QUARTER_SIZE, STRIDE
from pyramids.games.pyramido.moves import (
    CARD,
    FILL,
    MARK,
    PASS,
    PASS_MOVE,
    PLACE,
    REFILL,
    PyramidoMove,
    card_move,
    fill_move,
    mark_move,
    place_move,
    refill_move,
)
from pyramids.games.pyramido.views import public_facts

CELLS = FRAME_CELLS  # 81: the largest grid (floor 1's frame)
PLACE_BASE = 0
MARK_BASE = PLACE_BASE + 3 * CELLS * 4
CARD_BASE = MARK_BASE + 2
PASS_ID = CARD_BASE + 6 * 2 * 4
REFILL_BASE = PASS_ID + 1
FILL_BASE = REFILL_BASE + 4
NUM_ACTIONS = FILL_BASE + 6 * CELLS * 4
STEPS = (PLACE, MARK, CARD, REFILL, FILL)
QUARTER_CELLS = QUARTER_SIZE * QUARTER_SIZE
PER_QUARTER = 9
_COLOUR_INDEX = {name: i for i, name in enumerate(COLOURS)}
_QUARTER_INDEX = {name: i for i, name in enumerate(QUARTERS)}

# byte -> colour index 0..5 of a top-view letter, 6 for "no block"
_LETTER_TABLE = np.full(256, 6, dtype=np.int64)
for _i, _ch in enumerate(COLOUR_LETTERS):
    _LETTER_TABLE[ord(_ch)] = _i
_COLOUR_ROWS = np.vstack([np.eye(6, dtype=np.float32), np.zeros((1, 6), dtype=np.float32)])


def _cols(state: State[Any]) -> int:
    """Columns of the grid the player to move is building."""
    if not isinstance(state, PyramidoState):
        raise ValueError(f"{state!r} is not a Pyramido state")
    player = state.current_player
    if player is None:
        raise ValueError("the game is over: no grid is being built")
    return state.grid(player).cols


@cache
def _placement_ids(cols: int) -> Mapping[Hashable, int]:
    """Move value -> id for a grid ``cols`` wide (built once per width, read only)."""
    table: dict[Hashable, int] = {}
    for action in range(NUM_ACTIONS):
        if action < MARK_BASE:
            rest, d = divmod(action - PLACE_BASE, 4)
            slot, cell = divmod(rest, CELLS)
            move = place_move(slot, cell, cell + (1, -1, cols, -cols)[d])
            table.setdefault(move, action)
        else:
            table[PyramidoActions._fixed(action)] = action
    return table  # shared by every codec: typed read-only


class PyramidoActions(ActionCodec):
    """Step actions (see the module table)."""

    num_actions = NUM_ACTIONS

    def legal_ids(self, state: State[Any]) -> list[int]:
        """Ids by table lookup: one table per grid width, built on first use.

        Why: a placement's id depends on the width of the grid being built,
        and a position offers up to 168 placements, so encoding each one was
        most of the cost of a mask. The tables are the process's, not the
        codec's: building one costs about 9 ms, and OpenSpiel makes a codec
        per game it loads (a game per deal), which spent most of its time so.
        """
        moves = state.legal_moves()
        if not moves:
            return []
        table = _placement_ids(_cols(state))
        try:
            return [table[m] for m in moves]
        except KeyError:
            return [self.encode(state, m) for m in moves]

    @staticmethod
    def _fixed(action: int) -> PyramidoMove:
        """The move of a non-placement id (these need no grid)."""
        if action < CARD_BASE:
            return mark_move(action - MARK_BASE)
        if action < PASS_ID:
            colour, rest = divmod(action - CARD_BASE, 8)
            block, quarter = divmod(rest, 4)
            return card_move(colour, block, quarter)
        if action == PASS_ID:
            return PASS_MOVE
        if action < FILL_BASE:
            return refill_move(action - REFILL_BASE)
        rest, quarter = divmod(action - FILL_BASE, 4)
        colour, cell = divmod(rest, CELLS)
        return fill_move(colour, cell, quarter)

    def encode(self, state: State[Any], move: Hashable) -> int:
        if not isinstance(move, PyramidoMove):
            raise ValueError(f"{move!r} is not a Pyramido move")
        kind = move.kind
        if kind == PLACE and 0 <= move.slot < 3 and 0 <= move.cell_a < CELLS:
            delta = move.cell_b - move.cell_a
            cols = _cols(state)
            for d, step in enumerate((1, -1, cols, -cols)):
                if delta == step:
                    return PLACE_BASE + 4 * (CELLS * move.slot + move.cell_a) + d
        elif kind == MARK and move.block in (0, 1):
            return MARK_BASE + move.block
        elif (
            kind == CARD and 0 <= move.colour < 6 and move.block in (0, 1) and 0 <= move.quarter < 4
        ):
            return CARD_BASE + 8 * move.colour + 4 * move.block + move.quarter
        elif kind == PASS:
            return PASS_ID
        elif kind == REFILL and 0 <= move.stack < 4:
            return REFILL_BASE + move.stack
        elif (
            kind == FILL
            and 0 <= move.colour < 6
            and 0 <= move.cell < CELLS
            and 0 <= move.quarter < 4
        ):
            return FILL_BASE + 4 * (CELLS * move.colour + move.cell) + move.quarter
        raise ValueError(f"{move!r} has no action id")

    def decode(self, state: State[Any], action: int) -> Hashable:
        action = self.check_action(action)
        if action < MARK_BASE:
            rest, d = divmod(action - PLACE_BASE, 4)
            slot, cell = divmod(rest, CELLS)
            cols = _cols(state)
            return place_move(slot, cell, cell + (1, -1, cols, -cols)[d])
        return self._fixed(action)

    def describe(self, action: int) -> str:
        action = self.check_action(action)
        if action < MARK_BASE:
            rest, d = divmod(action - PLACE_BASE, 4)
            slot, cell = divmod(rest, CELLS)
            where = ("right", "left", "below", "above")[d]
            return f"place quarry slot {slot + 1}: A on cell {cell}, B {where}"
        if action < CARD_BASE:
            return f"mark block {'AB'[action - MARK_BASE]}"
        if action < PASS_ID:
            colour, rest = divmod(action - CARD_BASE, 8)
            block, quarter = divmod(rest, 4)
            return f"card {COLOURS[colour]} on block {'AB'[block]}, jewel {QUARTERS[quarter]}"
        if action == PASS_ID:
            return "pass"
        if action < FILL_BASE:
            return f"refill from stack {action - REFILL_BASE + 1}"
        rest, quarter = divmod(action - FILL_BASE, 4)
        colour, cell = divmod(rest, CELLS)
        return f"fill cell {cell} with a {COLOURS[colour]} card, jewel {QUARTERS[quarter]}"


def _domino_names(prefix: str) -> list[str]:
    """The names of :func:`_domino`'s 20 values."""
    names: list[str] = []
    for block in "AB":
        names += one_hot_names(f"{prefix}.block{block}.colour", COLOUR_LETTERS)
        names += [f"{prefix}.block{block}.jewel[{q}]" for q in QUARTERS]
    return names


def _domino(out: OneHot, domino: Any) -> None:
    """Two blocks × (colour one-hot + jewel quarter flags); all zero for no domino."""
    blocks = domino["blocks"] if domino else [None, None]
    for block in blocks:
        if block is None:
            out.one_hot(None, 6)
            out.flags(set(), 4)
        else:
            out.one_hot(_COLOUR_INDEX[block["colour"]], 6)
            out.flags({_QUARTER_INDEX[q] for q in block["jewels"]}, 4)


def _domino_ones(d: int) -> tuple[int, ...]:
    """Offsets of the ones of :func:`_domino` for engine domino ``d``."""
    (ca, ja), (cb, jb) = DOMINOES[d]
    return (
        ca,
        *(6 + q for q in range(4) if ja >> q & 1),
        10 + cb,
        *(16 + q for q in range(4) if jb >> q & 1),
    )


#: per engine domino, the offsets of its 20 values that are 1
_DOMINO_ONES: tuple[tuple[int, ...], ...] = tuple(_domino_ones(d) for d in range(len(DOMINOES)))


class PyramidoObservations(ObservationCodec):
    """The view as a vector (layout in the module docstring)."""

    def __init__(self, players: int) -> None:
        self.players = players
        per_seat = QUARTER_CELLS * PER_QUARTER + 6 + 3 + 4
        shared = 4 + len(STEPS) + 3 + 20 + 2 + 1 + 3 * 21 + 4 * 21
        self.shape = (players * per_seat + shared + players,)
        #: per observer seat, the vector last returned (see :meth:`encode_state`)
        self._buffers: dict[int, _Buffer] = {}
        #: where the shared part's values lie (after the seats' parts)
        self._tables = _SharedTables(players * per_seat)

    def index_names(self) -> list[str]:
        n = self.players
        names: list[str] = []
        for k in range(n):
            seat = f"seat+{k}"
            for y in range(QUARTER_SIZE):
                for x in range(QUARTER_SIZE):
                    at = f"{seat}.quarter[{y},{x}]"
                    names += one_hot_names(f"{at}.colour", COLOUR_LETTERS)
                    names += [f"{at}.jewel", f"{at}.floor", f"{at}.gem"]
            names += [f"{seat}.gems_unused[{c}]" for c in COLOUR_LETTERS]
            names += [f"{seat}.cards_unused[{k2}]" for k2 in range(3)]
            names += [f"{seat}.out", f"{seat}.floor_done", f"{seat}.floor_score", f"{seat}.score"]
        names += one_hot_names("floor", range(1, 5))
        names += one_hot_names("step", STEPS)
        names += one_hot_names("empty_slot", range(1, 4))
        names += _domino_names("placed")
        names += one_hot_names("placed.gem_on", "AB")
        names.append("fill_cards_laid")
        for slot in range(3):
            names += [f"quarry[{slot}].present", *_domino_names(f"quarry[{slot}]")]
        for t in range(4):
            names += [f"stack[{t}].size", *_domino_names(f"stack[{t}].top")]
        return names + [f"seat+{k}.to_move" for k in range(n)]

    def _top_view(self, pyramid: Any) -> FloatArray:
        top = pyramid["top_view"]
        letters = np.frombuffer("".join(top["colour"]).encode(), dtype=np.uint8)
        colour = _COLOUR_ROWS[_LETTER_TABLE[letters]]
        jewel = np.frombuffer("".join(top["jewel"]).encode(), dtype=np.uint8) == ord("1")
        floor = (np.frombuffer("".join(top["floor"]).encode(), dtype=np.uint8) - ord("0")) / 4.0
        gem = np.zeros(QUARTER_CELLS, dtype=np.float32)
        for g in pyramid["gems_placed"]:
            x, y = g["quarter"]
            if 0 <= x < QUARTER_SIZE and 0 <= y < QUARTER_SIZE:
                gem[y * QUARTER_SIZE + x] = 1.0
        block: FloatArray = np.column_stack(
            [colour, jewel.astype(np.float32), floor.astype(np.float32), gem]
        ).astype(np.float32)
        return block.ravel()

    def encode(self, view: View) -> FloatArray:
        n = self.players
        me = view["viewer"] or 0
        order = [(me + k) % n for k in range(n)]
        parts: list[FloatArray] = []
        for seat in order:
            pyramid = view["pyramids"][seat]
            parts.append(self._top_view(pyramid))
            tail = OneHot(13)
            tail.flags({_COLOUR_INDEX[c] for c in pyramid["gems_unused"]}, 6)
            tail.flags({_COLOUR_INDEX[pair[0]] // 2 for pair in pyramid["cards_unused"]}, 3)
            tail.flag(bool(pyramid["out"]))
            tail.flag(bool(pyramid["floor_done"]))
            tail.scalar(pyramid["current_floor_score"] or 0, 40)
            tail.scalar(view["scores"][seat], 160)
            parts.append(tail.done())
        shared = OneHot(self.shape[0] - sum(len(p) for p in parts))
        shared.one_hot(int(view["floor"]) - 1, 4)
        step = view["step"]
        shared.one_hot(STEPS.index(step) if step in STEPS else None, len(STEPS))
        turn = view["turn"] or {}
        slot = turn.get("empty_slot")
        shared.one_hot(None if slot is None else int(slot) - 1, 3)
        placed = turn.get("placed")
        _domino(shared, placed["domino"] if placed else None)
        gem_on = placed.get("gem_on") if placed else None
        shared.one_hot(None if gem_on is None else "AB".index(gem_on), 2)
        shared.scalar(turn.get("fill_cards_laid") or 0, 2)
        for domino in view["quarry"]:
            shared.flag(domino is not None)
            _domino(shared, domino)
        for stack in view["stacks"]:
            shared.scalar(stack["size"], 22)
            _domino(shared, stack["top"])
        mover = view["current_player"]
        for seat in order:
            shared.flag(seat == mover)
        parts.append(shared.done())
        out: FloatArray = np.concatenate(parts).astype(np.float32)
        return out

    def encode_state(self, state: State[Any], seat: int | None) -> FloatArray:
        """The same vector from the state, rewriting only what changed since the last call.

        Why: a seat's 324 × 9 top-view values are most of the vector, and a
        step lays at most two blocks or one gem. Each observer seat keeps the
        vector it was last given (:class:`_Buffer`) with, per pyramid, the
        block tuple, gems and floor it was written from. The engine only ever
        replaces a seat's block tuple by a longer one (it never edits it), so
        when the new tuple starts with the old one only the blocks after it
        are painted, on top (a later block covers an earlier one, as in the
        view); anything else (another game, a new floor, a new episode)
        writes the pyramid anew. The rest of the vector (a few dozen values)
        is written every time, from precomputed index tables.
        """
        if not isinstance(state, PyramidoState):
            return super().encode_state(state, seat)
        n = self.players
        me = seat or 0
        buf = self._buffers.get(me)
        if buf is None:
            buf = self._buffers[me] = _Buffer(self.shape[0], n)
        out = buf.out
        facts = public_facts(state)
        scores = state.scores()
        over = facts["over"]
        per_seat = _PER_SEAT
        order = [(me + k) % n for k in range(n)]
        for k, q in enumerate(order):
            base = k * per_seat
            _write_pyramid(
                out[base : base + _TOP_VALUES].reshape(QUARTER_CELLS, PER_QUARTER),
                buf.pyramids[k],
                state,
                q,
            )
            out_seat = state.is_out(q)
            floor_score = 0.0
            if not (over or out_seat):
                floor_score = _floor_score(state, q)
            tail = base + _TOP_VALUES
            out[tail : tail + 13] = (
                *_GEM_FLAGS[facts["gems_unused"][q]],
                *_CARD_FLAGS[facts["cards"][q]],
                1.0 if out_seat else 0.0,
                float(facts["done"] >> q & 1),
                min(max(floor_score / 40, 0.0), 1.0),
                min(max(scores[q] / 160, 0.0), 1.0),
            )
        shared = n * per_seat
        out[shared:] = 0.0
        tables = self._tables
        ones: list[int] = [tables.floor + facts["floor"] - 1]
        step = facts["step"]
        if step in STEPS:
            ones.append(tables.step + STEPS.index(step))
        if facts["empty_slot"] is not None:
            ones.append(tables.slot + facts["empty_slot"])
        placed = facts["placed"]
        if placed >= 0:
            ones += tables.placed[placed]
            if facts["gem_on"] >= 0:
                ones.append(tables.placed_gem + facts["gem_on"])
        for s, d in enumerate(facts["quarry"]):
            if d >= 0:
                ones += tables.quarry[s][d]
        for t, (size, top) in enumerate(facts["stacks"]):
            out[tables.stacks[t]] = min(size / 22, 1.0)
            if top >= 0:
                ones += tables.stack_tops[t][top]
        mover = state.current_player
        if mover is not None:
            ones.append(tables.mover + (mover - me) % n)
        out[ones] = 1.0
        out[tables.fills] = min(facts["fills"] / 2, 1.0)
        return out.copy()


_TOP_VALUES = QUARTER_CELLS * PER_QUARTER
_PER_SEAT = _TOP_VALUES + 13
#: unused-gem bits -> the 6 flags (1 for a gem used), unused-card bits -> the 3 flags
_GEM_FLAGS = tuple(tuple(0.0 if bits >> c & 1 else 1.0 for c in range(6)) for bits in range(64))
_CARD_FLAGS = tuple(tuple(1.0 if bits >> c & 1 else 0.0 for c in range(3)) for bits in range(8))
#: (colour, jewel, floor) -> the first 8 values of a quarter (colour one-hot, jewel, floor / 4)
_QUARTER_ROWS = np.zeros((6 * 2 * 5, 8), dtype=np.float32)
for _c in range(6):
    for _j in range(2):
        for _f in range(5):
            _r = _QUARTER_ROWS[(_c * 2 + _j) * 5 + _f]
            _r[_c], _r[6], _r[7] = 1.0, _j, _f / 4


def _write_pyramid(block: FloatArray, memo: _Pyramid, state: PyramidoState, p: int) -> None:
    """Bring seat ``p``'s (324, 9) values in ``block`` up to date (``memo``: what they hold)."""
    blocks = state.blocks(p)
    gems = state.gems(p)
    grid = state.grid(p)
    old = memo.blocks
    if old is blocks and memo.gems == gems and memo.floor == grid.floor:
        return
    if old is not None and len(old) <= len(blocks) and blocks[: len(old)] == old:
        _paint(block, state, p, blocks[len(old) :])
    else:
        block[:] = 0.0
        _paint(block, state, p, blocks)
        memo.gems = ()
    if memo.gems != gems or memo.floor != grid.floor:
        block[:, 8] = 0.0
        shift = state.grid_of_floor(p, grid.floor)[1]
        for _, cell in gems:
            y, x = divmod(grid.quarter_bits[cell][0] + shift, STRIDE)
            if 0 <= x < QUARTER_SIZE and 0 <= y < QUARTER_SIZE:
                block[y * QUARTER_SIZE + x, 8] = 1.0
    memo.blocks, memo.gems, memo.floor = blocks, gems, grid.floor


def _paint(block: FloatArray, state: PyramidoState, p: int, new: Any) -> None:
    """Lay ``new`` blocks of seat ``p`` on its top-view values, in order (the last on top)."""
    rows: dict[int, int] = {}
    for floor, cell, c, jewels, _ in new:
        grid, shift = state.grid_of_floor(p, floor)
        qb = grid.quarter_bits[cell]
        for q in range(4):
            y, x = divmod(qb[q] + shift, STRIDE)
            rows[y * QUARTER_SIZE + x] = (c * 2 + (jewels >> q & 1)) * 5 + floor
    if rows:
        block[list(rows), :8] = _QUARTER_ROWS[list(rows.values())]


class _Pyramid:
    """What one pyramid's values in a :class:`_Buffer` were written from."""

    __slots__ = ("blocks", "floor", "gems")

    def __init__(self) -> None:
        self.blocks: tuple[Any, ...] | None = None
        self.gems: tuple[tuple[int, int], ...] = ()
        self.floor = 0


#: id of a block tuple -> (the tuple, gems, floor, the floor score they give)
_FLOOR_SCORES: dict[int, tuple[Any, tuple[tuple[int, int], ...], int, int]] = {}
_FLOOR_SCORES_MAX = 1 << 12


def _floor_score(state: PyramidoState, p: int) -> int:
    """``state.floor_score(p).total``, once per block tuple, gems and floor.

    Why remembered: the observation asks for every pyramid at every step, a
    pyramid changes only when its seat lays a block or a gem, and in
    PettingZoo every seat observes the same changed pyramid. The engine never
    edits a block tuple (it replaces it), so the tuple with the gems and the
    floor decide the score.
    """
    blocks, gems, floor = state.blocks(p), state.gems(p), state.grid(p).floor
    hit = _FLOOR_SCORES.get(id(blocks))
    if hit is not None and hit[0] is blocks and hit[1] == gems and hit[2] == floor:
        return hit[3]
    score = state.floor_score(p).total
    if len(_FLOOR_SCORES) >= _FLOOR_SCORES_MAX:
        _FLOOR_SCORES.clear()
    _FLOOR_SCORES[id(blocks)] = (blocks, gems, floor, score)
    return score


class _Buffer:
    """The last observation given to one observer seat, and what its pyramids were written from."""

    __slots__ = ("out", "pyramids")

    def __init__(self, size: int, players: int) -> None:
        self.out: FloatArray = np.zeros(size, dtype=np.float32)
        self.pyramids = [_Pyramid() for _ in range(players)]


class _SharedTables:
    """Absolute indices of the shared part's values, for a shared part starting at ``start``."""

    def __init__(self, start: int) -> None:
        self.floor = start
        self.step = self.floor + 4
        self.slot = self.step + len(STEPS)
        placed = self.slot + 3
        self.placed = [[placed + i for i in ones] for ones in _DOMINO_ONES]
        self.placed_gem = placed + 20
        self.fills = placed + 22
        quarry = self.fills + 1
        self.quarry = [
            [[quarry + 21 * s, *(quarry + 21 * s + 1 + i for i in ones)] for ones in _DOMINO_ONES]
            for s in range(3)
        ]
        stacks = quarry + 3 * 21
        self.stacks = [stacks + 21 * t for t in range(4)]
        self.stack_tops = [
            [[stacks + 21 * t + 1 + i for i in ones] for ones in _DOMINO_ONES] for t in range(4)
        ]
        self.mover = stacks + 4 * 21


# -- picture ---------------------------------------------------------------

_RGB = {
    "R": (210, 50, 50),
    "Y": (230, 200, 40),
    "G": (50, 160, 70),
    "B": (50, 90, 200),
    "P": (140, 60, 170),
    "O": (240, 140, 30),
}


def raster(view: View) -> ImageArray:
    """Every seat's top view side by side: colours, jewels darker, higher floors brighter."""
    px = 5
    side = QUARTER_SIZE * px
    pyramids = view["pyramids"]
    img = canvas(side + 8, len(pyramids) * (side + 8) + 8, (240, 236, 225))
    for k, pyramid in enumerate(pyramids):
        left = 8 + k * (side + 8)
        rect(img, 4, left - 1, side + 2, side + 2, (200, 195, 185))
        top = pyramid["top_view"]
        for y in range(QUARTER_SIZE):
            for x in range(QUARTER_SIZE):
                ch = top["colour"][y][x]
                if ch not in _RGB:
                    continue
                floor = int(top["floor"][y][x])
                r, g, b = _RGB[ch]
                lift = 12 * (floor - 1)
                colour = (min(r + lift, 255), min(g + lift, 255), min(b + lift, 255))
                rect(img, 4 + y * px, left + x * px, px, px, colour)
                if top["jewel"][y][x] == "1":
                    rect(img, 5 + y * px, left + x * px + 1, px - 2, px - 2, (30, 30, 30))
    return img


def make_codec(sample: State[Any]) -> GameCodec:
    """The codec for the player count of ``sample`` (pyramido has no other options)."""
    return GameCodec(
        game_id="pyramido",
        players=sample.players,
        variant=dict(sample.variant),
        actions=PyramidoActions(),
        observations=PyramidoObservations(sample.players),
        raster=raster,
    )
