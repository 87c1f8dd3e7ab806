"""Pyramido, the 4-floor domino pyramid with top-view scoring (RULINGS.md §1).

State layout, chosen so that ``copy()`` is a handful of list copies: global
fields are ints and tuples; each player's pyramid is a few ints per player
(occupancy bitmask of the floor being built, top-view colour masks, jewel
mask, gems and cards as bitmasks) plus a tuple log of placed blocks that
copies share. The top view is kept up to date as blocks are laid, so scoring
a floor is a flood fill per gem over one colour mask (see ``geometry``).

The package's other modules: ``colours``, ``dominoes`` (the set, read from the data
file), ``geometry`` (grids and bitmask tables), ``moves`` (move values and
prebuilt move tables), ``notation`` and ``views``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from pyramids.engine.errors import IllegalMove, RecordError
from pyramids.engine.rng import Rng
from pyramids.engine.state import Game, State
from pyramids.engine.variant import (
    VariantValue,
    check_first_player,
    draw_first_player,
    first_player_option,
)
from pyramids.games.lazy import LazySetup, plain_setup
from pyramids.games.pyramido import notation
from pyramids.games.pyramido.dominoes import (
    COLOURS,
    DOMINOES,
    JEWEL_COUNT,
)
from pyramids.games.pyramido.geometry import (
    FLOOR_CELLS,
    FRAME,
    FRAME_GRID,
    QUARTER_SIZE,
    ROT_MASK,
    START_CELL,
    STRIDE,
    UPPER_GRIDS,
    Grid,
    allowed_cells,
    box_cells,
    flood,
    quarter_shift,
)
from pyramids.games.pyramido.moves import (
    CARD,
    CARD_MOVES,
    FILL,
    MARK,
    MARK_MOVES,
    PASS,
    PASS_MOVE,
    PLACE,
    REFILL,
    REFILL_MOVES,
    MoveTable,
    PyramidoMove,
    is_well_formed,
)
from pyramids.games.pyramido.views import full_view

N_DOMINOES = len(DOMINOES)
N_STACKS = 4
QUARRY_SLOTS = 3
STACK_SIZES = (22, 22, 22, 21)  # Ruling: the 87 dominoes left after the quarry
FLOORS = 4
ALL_CARDS = 0b111
EMPTY_BOX = (FRAME, FRAME, -1, -1)
_FIRST_H = (1 << START_CELL) | (1 << (START_CELL - 1))
_FIRST_V = (1 << START_CELL) | (1 << (START_CELL - FRAME))

#: the place and fill moves of every grid a floor can have
MOVE_TABLES: dict[Grid, MoveTable] = {
    g: MoveTable(g.cols, g.cells) for g in (FRAME_GRID, *UPPER_GRIDS.values())
}


class FloorScore(NamedTuple):
    """One player's score for one floor, part by part."""

    floor: int
    areas: tuple[tuple[int, int], ...]  # (colour, visible jewels) of each marked area
    bonus: int  # Mino bonus: the lowest marked area once more

    @property
    def total(self) -> int:
        """Jewels of all marked areas plus the Mino bonus."""
        return sum(j for _, j in self.areas) + self.bonus


def upper_grid(box: tuple[int, int, int, int], floor: int) -> Grid:
    """The grid of ``floor`` (2..4) over a finished floor 1 with bounding box ``box``."""
    x0, y0, x1, y1 = box
    return UPPER_GRIDS[(x1 - x0 + 1, y1 - y0 + 1, floor)]


def next_floor_starter(floor_totals: Mapping[int, int], last: int, players: int) -> int:
    """Who starts the next floor: the lowest score *for that floor* among players still in.

    Ties go to the first tied seat in turn order counting from the seat after
    ``last``, the player who played last (RULINGS.md §1, "Next floor").
    """
    low = min(floor_totals.values())
    return next(
        q
        for q in ((last + k) % players for k in range(1, players + 1))
        if floor_totals.get(q) == low
    )


class PyramidoState(State[PyramidoMove]):
    """A position of Pyramido.

    The attributes below are the whole position; each is documented where it
    is declared. Table-wide facts are ints and tuples; each seat's pyramid is
    one entry per seat in a few lists (cells as bits of the floor's grid, the
    top view as quarter masks, see ``geometry``).
    """

    __slots__ = (
        "_bbox",
        "_blocks",
        "_cards",
        "_col",
        "_done",
        "_elim",
        "_fills",
        "_floor",
        "_floor_scores",
        "_gemmask",
        "_gems",
        "_grid",
        "_jew",
        "_last",
        "_occ",
        "_origin",
        "_out",
        "_over",
        "_pa",
        "_pb",
        "_pdom",
        "_pgem",
        "_quarry",
        "_shift",
        "_slot",
        "_stacks",
        "_step",
        "_turn",
    )

    # Whose turn and what comes next (one value for the whole table):
    #: the floor being built, 1..4
    _floor: int
    #: what the mover does next: ``place``, ``mark``, ``card``, ``refill`` or ``fill``
    _step: str
    #: the seat to move
    _turn: int
    #: the seat that last took a turn (the next floor's tie-break counts from it)
    _last: int
    _over: bool
    #: the three quarry slots, each a domino id, ``-1`` while a slot waits for its refill
    _quarry: tuple[int, ...]
    #: the face-down stacks, domino ids, the top of each last
    _stacks: tuple[tuple[int, ...], ...]
    #: for each stack entry, its position in the setup's stacks read one after another
    _origin: tuple[tuple[int, ...], ...]
    #: the quarry slot the mover took from; the refill comes from stack ``_slot`` or ``_slot + 1``
    _slot: int
    # The domino placed this turn (all ``-1`` between turns), for the gem and card steps:
    #: its id
    _pdom: int
    #: the cell of its first block (``a``) and of its second (``b``)
    _pa: int
    _pb: int
    #: which of its blocks got this turn's gem (0 = ``a``, 1 = ``b``), ``-1`` if none
    _pgem: int
    #: cards laid in this ``fill`` turn (the turn ends at two)
    _fills: int
    # Seat sets, as bitmasks by seat:
    #: the seats that have finished the floor being built
    _done: int
    #: the seats eliminated (they could neither place nor fill)
    _out: int
    #: the eliminated seats in the order they went out (the later, the better ranked)
    _elim: tuple[int, ...]
    # Each seat's pyramid, one list entry per seat (lists, copied per copy; their
    # entries are ints and tuples, shared):
    #: the cells of the floor being built that hold a block (bits of ``_grid``'s cells)
    _occ: list[int]
    #: floor 1's bounding box in frame cells, ``(x0, y0, x1, y1)``; fixed once floor 1 is done
    _bbox: list[tuple[int, int, int, int]]
    #: the floor's grid: the frame while floor 1 grows, then the upper grid over its box
    _grid: list[Grid]
    #: where the grid's quarter ``(0, 0)`` lies in the top view (a shift of its quarter masks)
    _shift: list[int]
    #: the top view: six quarter masks, one per colour, of what shows from above
    _col: list[tuple[int, ...]]
    #: the top view's quarters that show a jewel
    _jew: list[int]
    #: the floor's gems: ``(colour, cell)`` for each, in the order marked
    _gems: list[tuple[tuple[int, int], ...]]
    #: the colours that have a gem on this floor (bit per colour; a colour gets one gem)
    _gemmask: list[int]
    #: the cards still in hand: bit ``k`` is the card of colours ``2k`` and ``2k + 1``
    _cards: list[int]
    #: every block laid, ``(floor, cell, colour, jewel quarters, domino id or -1 for a card)``;
    #: the views and the record's replays read it, copies share it
    _blocks: list[tuple[tuple[int, int, int, int, int], ...]]
    #: the score of each finished floor
    _floor_scores: list[tuple[FloorScore, ...]]

    # -- the contract -----------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self._over else self._turn

    @property
    def is_over(self) -> bool:
        return self._over

    def copy(self) -> PyramidoState:
        o = PyramidoState.__new__(PyramidoState)
        self._copy_base(o)
        o._floor = self._floor
        o._step = self._step
        o._turn = self._turn
        o._last = self._last
        o._over = self._over
        o._quarry = self._quarry
        o._stacks = self._stacks
        o._origin = self._origin
        o._slot = self._slot
        o._pdom = self._pdom
        o._pa = self._pa
        o._pb = self._pb
        o._pgem = self._pgem
        o._fills = self._fills
        o._done = self._done
        o._out = self._out
        o._elim = self._elim
        o._occ = self._occ[:]
        o._bbox = self._bbox[:]
        o._grid = self._grid[:]
        o._shift = self._shift[:]
        o._col = self._col[:]
        o._jew = self._jew[:]
        o._gems = self._gems[:]
        o._gemmask = self._gemmask[:]
        o._cards = self._cards[:]
        o._blocks = self._blocks[:]
        o._floor_scores = self._floor_scores[:]
        return o

    # -- legal moves ------------------------------------------------------

    def _free_pairs(self, p: int) -> tuple[int, int]:
        """First cells of the empty horizontal and vertical pairs a domino may take."""
        grid = self._grid[p]
        occ = self._occ[p]
        if grid is not FRAME_GRID:
            return grid.pairs(grid.full & ~occ)
        if not occ:
            return _FIRST_H, _FIRST_V
        h, v = grid.pairs(allowed_cells(*self._bbox[p]) & ~occ)
        front = grid.neighbours(occ)
        return h & (front | (front >> 1)), v & (front | (front >> FRAME))

    def has_fit(self, p: int) -> bool:
        """Whether player ``p`` can place a domino on the floor being built."""
        h, v = self._free_pairs(p)
        return bool(h or v)

    def dead_cells(self, p: int, extra: int = 0) -> int:
        """How many empty cells no domino can ever cover, if mask ``extra`` were built too.

        A lower bound of the cards the floor will need. Once the footprint is
        fixed (upper floors; floor 1 at its full 5×4 or 4×5 box), every
        connected region of empty cells needs as many black as white cells of
        a checkerboard, since a domino covers one of each: the difference is
        lost. While floor 1 can still grow, only cells with no empty
        neighbour inside the box are counted. AI players use this to keep
        their cards for emergencies.
        """
        grid = self._grid[p]
        occ = self._occ[p] | extra
        if grid is FRAME_GRID:
            if not occ:
                return 0
            x0, y0, x1, y1 = self._bbox[p]
            m = extra
            while m:
                low = m & -m
                c = low.bit_length() - 1
                x, y = c % FRAME, c // FRAME
                x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
                m ^= low
            free = allowed_cells(x0, y0, x1, y1) & ~occ
            inside = box_cells(x0, y0, x1, y1) & ~occ
            if free != inside:
                return (inside & ~grid.touching(free)).bit_count()
        else:
            inside = grid.full & ~occ
        lost = 0
        rest = inside
        while rest:
            region = grid.region(rest & -rest, inside)
            black = (region & grid.black).bit_count()
            lost += abs(2 * black - region.bit_count())
            rest &= ~region
        return lost

    def _fill_cells(self, p: int) -> int:
        """Empty cells where a card may go when no domino fits."""
        grid = self._grid[p]
        occ = self._occ[p]
        if grid is not FRAME_GRID:
            return grid.full & ~occ
        return allowed_cells(*self._bbox[p]) & grid.neighbours(occ) & ~occ

    def legal_moves(self) -> list[PyramidoMove]:
        if self._over:
            return []
        step = self._step
        p = self._turn
        if step == PLACE:
            h, v = self._free_pairs(p)
            table = MOVE_TABLES[self._grid[p]]
            moves: list[PyramidoMove] = []
            add = moves.extend
            for mask, pairs in ((h, table.horizontal), (v, table.vertical)):
                while mask:
                    low = mask & -mask
                    add(pairs[low.bit_length() - 1])
                    mask ^= low
            if -1 in self._quarry:
                moves = [m for m in moves if self._quarry[m.slot] >= 0]
            return moves
        if step == MARK:
            used = self._gemmask[p]
            (ca, _), (cb, _) = DOMINOES[self._pdom]
            na, nb = JEWEL_COUNT[self._pdom]
            moves = []
            if na and not used >> ca & 1:
                moves.append(MARK_MOVES[0])
            if nb and not used >> cb & 1:
                moves.append(MARK_MOVES[1])
            return moves
        if step == CARD:
            cards = self._cards[p]
            moves = [PASS_MOVE]
            for colour in range(6):
                if cards >> (colour >> 1) & 1:
                    for blk in (0, 1):
                        if blk != self._pgem:
                            moves.extend(CARD_MOVES[colour][blk])
            return moves
        if step == REFILL:
            s = self._slot
            return [REFILL_MOVES[t] for t in (s, s + 1) if self._stacks[t]]
        # FILL
        cells = self._fill_cells(p)
        cards = self._cards[p]
        fill = MOVE_TABLES[self._grid[p]].fill
        moves = []
        for colour in range(6):
            if cards >> (colour >> 1) & 1:
                by_cell = fill[colour]
                m = cells
                while m:
                    low = m & -m
                    moves.extend(by_cell[low.bit_length() - 1])
                    m ^= low
        return moves

    # -- checking ---------------------------------------------------------

    def _wrong_step(self, move: PyramidoMove) -> IllegalMove:
        step = move.kind
        if self._step == PLACE:
            return IllegalMove(
                "wrong-step",
                "a {step} move is not possible now: you must place a domino from the quarry",
                step=step,
            )
        if self._step == MARK:
            return IllegalMove(
                "wrong-step",
                "a {step} move is not possible now: you must put a gem on the domino just placed",
                step=step,
            )
        if self._step == CARD:
            return IllegalMove(
                "wrong-step",
                "a {step} move is not possible now: you must play a single-block card on the "
                "domino just placed, or pass",
                step=step,
            )
        if self._step == REFILL:
            return IllegalMove(
                "wrong-step",
                "a {step} move is not possible now: you must refill the empty quarry slot from "
                "one of the two stacks behind it",
                step=step,
            )
        return IllegalMove(
            "wrong-step",
            "a {step} move is not possible now: you must place a single-block card on an "
            "empty cell (no domino fits)",
            step=step,
        )

    def _cell_in_grid(self, p: int, cell: int) -> None:
        grid = self._grid[p]
        if not isinstance(cell, int) or not 0 <= cell < grid.cells:
            raise IllegalMove(
                "no-such-cell",
                "floor {floor} has no cell number {number} (cells run from a1 to {last})",
                floor=self._floor,
                number=cell if type(cell) is int else repr(cell),
                last=grid.labels[-1],
            )
        if self._occ[p] >> cell & 1:
            raise IllegalMove(
                "cell-taken", "cell {cell} is already built on", cell=grid.labels[cell]
            )

    def _check(self, move: PyramidoMove) -> None:
        if not is_well_formed(move):
            raise IllegalMove("not-a-move", "{move} is not a Pyramido move", move=repr(move))
        kind = move.kind
        step = self._step
        p = self._turn
        if kind == PLACE:
            if step != PLACE:
                raise self._wrong_step(move)
            self._check_place(p, move)
        elif kind == MARK:
            if step != MARK:
                raise self._wrong_step(move)
            self._check_gem(p, move.block)
        elif kind == CARD:
            if step != CARD:
                raise self._wrong_step(move)
            self._check_card_colour(p, move.colour)
            if move.block not in (0, 1):
                raise IllegalMove("no-such-block", "a domino has two blocks: A and B")
            if move.block == self._pgem:
                raise IllegalMove(
                    "block-has-gem", "a single-block card may only cover a block without a gem"
                )
            self._check_quarter(move.quarter)
        elif kind == PASS:
            if step != CARD:
                raise self._wrong_step(move)
        elif kind == REFILL:
            if step != REFILL:
                raise self._wrong_step(move)
            s = self._slot
            if move.stack not in (s, s + 1):
                raise IllegalMove(
                    "not-behind-slot",
                    "quarry slot {slot} is refilled from stack {stack_a} or {stack_b}",
                    slot=s + 1,
                    stack_a=s + 1,
                    stack_b=s + 2,
                )
            if not self._stacks[move.stack]:
                raise IllegalMove("stack-empty", "stack {stack} is empty", stack=move.stack + 1)
        elif kind == FILL:
            if step != FILL:
                raise self._wrong_step(move)
            self._check_card_colour(p, move.colour)
            self._cell_in_grid(p, move.cell)
            if not self._fill_cells(p) >> move.cell & 1:
                raise IllegalMove(
                    "fill-outside",
                    "on floor 1 a card must touch the structure and stay inside the 5×4 floor",
                )
            self._check_quarter(move.quarter)
        else:
            raise IllegalMove("not-a-move", "{move} is not a Pyramido move", move=repr(move))

    def _check_place(self, p: int, move: PyramidoMove) -> None:
        s, a, b = move.slot, move.cell_a, move.cell_b
        if not 0 <= s < QUARRY_SLOTS:
            raise IllegalMove("no-such-slot", "the quarry has slots 1, 2 and 3")
        if self._quarry[s] < 0:
            raise IllegalMove("empty-slot", "quarry slot {slot} is empty", slot=s + 1)
        self._cell_in_grid(p, a)
        self._cell_in_grid(p, b)
        grid = self._grid[p]
        if grid.direction(a, b) < 0:
            raise IllegalMove(
                "not-adjacent", "the two blocks of a domino lie on two edge-adjacent cells"
            )
        if grid is not FRAME_GRID:
            return
        occ = self._occ[p]
        if not occ:
            if START_CELL not in (a, b):
                raise IllegalMove(
                    "first-domino", "the first domino of floor 1 covers the centre cell e5"
                )
            return
        front = grid.neighbours(occ)
        if not (front >> a & 1 or front >> b & 1):
            raise IllegalMove(
                "not-connected",
                "on floor 1 a domino must share a full block edge with the structure",
            )
        allowed = allowed_cells(*self._bbox[p])
        if not (allowed >> a & 1 and allowed >> b & 1):
            raise IllegalMove(
                "footprint", "floor 1 must fit in 5×4 or 4×5 blocks: this domino would overflow"
            )

    def _check_gem(self, p: int, blk: int) -> None:
        if blk not in (0, 1):
            raise IllegalMove("no-such-block", "a domino has two blocks: A and B")
        colour = DOMINOES[self._pdom][blk][0]
        if not JEWEL_COUNT[self._pdom][blk]:
            raise IllegalMove(
                "no-jewel", "a gem goes only on a block that shows a jewel of the gem's colour"
            )
        if self._gemmask[p] >> colour & 1:
            raise IllegalMove(
                "gem-used",
                "your {colour} gem is already on the pyramid this floor",
                colour=COLOURS[colour],
            )

    def _check_card_colour(self, p: int, colour: int) -> None:
        if not 0 <= colour < 6:
            raise IllegalMove(
                "no-such-colour",
                "there is no colour number {number}",
                number=colour if type(colour) is int else repr(colour),
            )
        if not self._cards[p] >> (colour >> 1) & 1:
            raise IllegalMove(
                "card-used",
                "your {colour_a}/{colour_b} card is already played",
                colour_a=COLOURS[colour & ~1],
                colour_b=COLOURS[colour | 1],
            )

    @staticmethod
    def _check_quarter(q: int) -> None:
        if not 0 <= q < 4:
            raise IllegalMove("no-such-quarter", "the jewel quarter is one of tl, tr, bl, br")

    # -- applying ---------------------------------------------------------

    def _paint(self, p: int, cell: int, colour: int, jewels: int) -> None:
        """Lay a block on top of the player's pyramid: the top view changes at its quarters."""
        grid = self._grid[p]
        shift = self._shift[p]
        qm = grid.quarter_mask[cell] << shift
        keep = ~qm
        col = list(self._col[p])
        for k in range(6):
            col[k] &= keep
        col[colour] |= qm
        self._col[p] = tuple(col)
        self._jew[p] = (self._jew[p] & keep) | (grid.jewel_bits[cell][jewels] << shift)
        self._occ[p] |= 1 << cell
        if grid is FRAME_GRID:
            x, y = cell % FRAME, cell // FRAME
            x0, y0, x1, y1 = self._bbox[p]
            self._bbox[p] = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))

    def _apply(self, move: PyramidoMove) -> None:
        kind = move.kind
        p = self._turn
        floor = self._floor
        if kind == PLACE:
            s, a, b = move.slot, move.cell_a, move.cell_b
            dom = self._quarry[s]
            q = list(self._quarry)
            q[s] = -1
            self._quarry = tuple(q)
            self._slot = s
            turns = self._grid[p].direction(a, b)
            (ca, ja), (cb, jb) = DOMINOES[dom]
            ja = ROT_MASK[turns][ja]
            jb = ROT_MASK[turns][jb]
            self._paint(p, a, ca, ja)
            self._paint(p, b, cb, jb)
            self._blocks[p] = (*self._blocks[p], (floor, a, ca, ja, dom), (floor, b, cb, jb, dom))
            self._pdom, self._pa, self._pb, self._pgem = dom, a, b, -1
            used = self._gemmask[p]
            na, nb = JEWEL_COUNT[dom]
            if (na and not used >> ca & 1) or (nb and not used >> cb & 1):
                self._step = MARK
            else:
                self._card_or_refill(p)
        elif kind == MARK:
            blk = move.block
            colour = DOMINOES[self._pdom][blk][0]
            cell = self._pb if blk else self._pa
            self._gems[p] = (*self._gems[p], (colour, cell))
            self._gemmask[p] |= 1 << colour
            self._pgem = blk
            self._card_or_refill(p)
        elif kind == CARD:
            colour, blk, quarter = move.colour, move.block, move.quarter
            cell = self._pb if blk else self._pa
            self._lay_card(p, colour, cell, quarter)
            if not self._gemmask[p] >> colour & 1:
                self._gems[p] = (*self._gems[p], (colour, cell))
                self._gemmask[p] |= 1 << colour
            self._refill_or_end(p)
        elif kind == PASS:
            self._refill_or_end(p)
        elif kind == REFILL:
            self._refill(move.stack)
            self._end_turn()
        else:  # FILL
            self._lay_card(p, move.colour, move.cell, move.quarter)
            self._fills += 1
            if self._fills == 2:
                self._end_turn()

    def _lay_card(self, p: int, colour: int, cell: int, quarter: int) -> None:
        jewels = 1 << quarter
        self._paint(p, cell, colour, jewels)
        self._cards[p] &= ~(1 << (colour >> 1))
        self._blocks[p] = (*self._blocks[p], (self._floor, cell, colour, jewels, -1))

    def _card_or_refill(self, p: int) -> None:
        if self._cards[p]:
            self._step = CARD
        else:
            self._refill_or_end(p)

    def _refill_or_end(self, p: int) -> None:
        s = self._slot
        if self._game_ends_after(p) or not (self._stacks[s] or self._stacks[s + 1]):
            self._end_turn()
        else:
            self._step = REFILL

    def _game_ends_after(self, p: int) -> bool:
        """Whether this turn completes the last floor of the last player still building it."""
        if self._floor != FLOORS or self._occ[p].bit_count() != FLOOR_CELLS[-1]:
            return False
        waiting = ((1 << self.players) - 1) & ~(self._done | self._out | (1 << p))
        return not waiting

    def _refill(self, t: int) -> None:
        stacks = list(self._stacks)
        origin = list(self._origin)
        q = list(self._quarry)
        q[self._slot] = stacks[t][-1]
        self._quarry = tuple(q)
        stacks[t] = stacks[t][:-1]
        origin[t] = origin[t][:-1]
        if not stacks[t]:
            tallest = max(range(N_STACKS), key=lambda i: (len(stacks[i]), -i))
            half = len(stacks[tallest]) // 2
            if half:
                stacks[t] = stacks[tallest][:half]
                stacks[tallest] = stacks[tallest][half:]
                origin[t] = origin[tallest][:half]
                origin[tallest] = origin[tallest][half:]
        self._stacks = tuple(stacks)
        self._origin = tuple(origin)

    def _end_turn(self) -> None:
        p = self._turn
        self._last = p
        if self._occ[p].bit_count() == FLOOR_CELLS[self._floor - 1]:
            self._done |= 1 << p
        self._pdom = self._pa = self._pb = self._pgem = -1
        self._next_turn(p)

    def _next_turn(self, after: int) -> None:
        n = self.players
        waiting = ((1 << n) - 1) & ~(self._done | self._out)
        for k in range(1, n + 1):
            q = (after + k) % n
            if waiting >> q & 1:
                self._begin(q)
                return
        self._end_floor()

    def _begin(self, p: int) -> None:
        """Start ``p``'s turn: place if anything fits, else cards, else ``p`` is out."""
        self._turn = p
        self._fills = 0
        if self.has_fit(p):
            self._step = PLACE
        elif self._cards[p].bit_count() >= 2:
            self._step = FILL
        else:
            # Going out is not playing: ``_last`` keeps the player who last took a
            # turn, since the next floor's tie-break counts from the one who played last.
            self._out |= 1 << p
            self._elim = (*self._elim, p)
            self._next_turn(p)

    def in_players(self) -> list[int]:
        """Seats still in the game (not eliminated), in seat order."""
        return [p for p in range(self.players) if not self._out >> p & 1]

    def floor_score(self, p: int) -> FloorScore:
        """What player ``p``'s pyramid scores right now for the floor being built."""
        grid = self._grid[p]
        shift = self._shift[p]
        jew = self._jew[p]
        col = self._col[p]
        areas = tuple(
            (colour, (flood(grid.quarter_mask[cell] << shift, col[colour]) & jew).bit_count())
            for colour, cell in self._gems[p]
        )
        return FloorScore(self._floor, areas, min((j for _, j in areas), default=0))

    def area_jewels(self, p: int, cell: int) -> int:
        """Visible jewels of the top-view area that holds ``cell`` of the floor being built."""
        grid = self._grid[p]
        seed = grid.quarter_mask[cell] << self._shift[p]
        for mask in self._col[p]:
            if mask & seed:
                return (flood(seed, mask) & self._jew[p]).bit_count()
        return 0

    def _end_floor(self) -> None:
        players = self.in_players()
        lowest: dict[int, int] = {}
        for p in players:
            fs = self.floor_score(p)
            self._floor_scores[p] = (*self._floor_scores[p], fs)
            lowest[p] = fs.total
            self._gems[p] = ()
            self._gemmask[p] = 0
        self._done = 0
        if self._floor == FLOORS or not players:
            self._over = True
            return
        self._floor += 1
        for p in players:
            box = self._bbox[p]
            self._grid[p] = upper_grid(box, self._floor)
            self._shift[p] = quarter_shift(box[0], box[1])
            self._occ[p] = 0
        start = next_floor_starter(lowest, self._last, self.players)
        self._begin(start)

    # -- scores -------------------------------------------------------------

    def scores(self) -> list[int]:
        return [sum(fs.total for fs in self._floor_scores[p]) for p in range(self.players)]

    def ranking(self) -> list[int]:
        """In players by total, unused cards, best floor; below them the out, later out higher."""
        keys = []
        totals = self.scores()
        for p in range(self.players):
            if self._out >> p & 1:
                keys.append((0, self._elim.index(p), 0, 0))
            else:
                best = max((fs.total for fs in self._floor_scores[p]), default=0)
                keys.append((1, totals[p], self._cards[p].bit_count(), best))
        return [1 + sum(1 for other in keys if other > mine) for mine in keys]

    # -- read-only accessors -----------------------------------------------

    @property
    def floor(self) -> int:
        """The floor being built (1..4)."""
        return self._floor

    @property
    def step(self) -> str:
        """The step of the turn: ``place``, ``mark``, ``card``, ``refill`` or ``fill``."""
        return self._step

    @property
    def quarry(self) -> tuple[int, ...]:
        """Domino index (0..89) in each quarry slot, -1 for an empty slot."""
        return self._quarry

    def stack_sizes(self) -> list[int]:
        """Dominoes in each stack."""
        return [len(s) for s in self._stacks]

    def stack_top(self, s: int) -> int:
        """Domino index on top of stack ``s`` (-1 if empty)."""
        return self._stacks[s][-1] if self._stacks[s] else -1

    def is_out(self, p: int) -> bool:
        """Whether player ``p`` has been eliminated (no fit and fewer than 2 cards)."""
        return bool(self._out >> p & 1)

    def cards_left(self, p: int) -> int:
        """Unused single-block cards of player ``p``."""
        return self._cards[p].bit_count()

    def floor_scores(self, p: int) -> tuple[FloorScore, ...]:
        """Player ``p``'s scored floors so far."""
        return self._floor_scores[p]

    def grid(self, p: int) -> Grid:
        """The grid of the floor player ``p`` is building."""
        return self._grid[p]

    def placed(self) -> tuple[int, int, int, int]:
        """(domino, cell of A, cell of B, block with a gem) of the domino placed this turn."""
        return self._pdom, self._pa, self._pb, self._pgem

    def blocks(self, p: int) -> tuple[tuple[int, int, int, int, int], ...]:
        """Every block player ``p`` laid, in order: (floor, cell, colour, jewel mask, domino).

        The jewel mask is in the frame's orientation; domino is -1 for a card.
        """
        return self._blocks[p]

    def gems(self, p: int) -> tuple[tuple[int, int], ...]:
        """(colour, cell) of each gem player ``p`` has on the floor being built."""
        return self._gems[p]

    def grid_of_floor(self, p: int, floor: int) -> tuple[Grid, int]:
        """Grid and quarter shift of ``floor`` of player ``p``'s pyramid (floor 1 done if > 1)."""
        if floor == 1:
            return FRAME_GRID, 0
        box = self._bbox[p]
        return upper_grid(box, floor), quarter_shift(box[0], box[1])

    def top_view(self, p: int) -> list[list[tuple[int, bool, int] | None]]:
        """Per frame quarter [y][x]: (colour, jewel shown, floor) of the topmost block, or None."""
        out: list[list[tuple[int, bool, int] | None]] = [
            [None] * QUARTER_SIZE for _ in range(QUARTER_SIZE)
        ]
        for floor, cell, colour, jewels, _ in self._blocks[p]:
            grid, shift = self.grid_of_floor(p, floor)
            for q in range(4):
                bit = grid.quarter_bits[cell][q] + shift
                out[bit // STRIDE][bit % STRIDE] = (colour, bool(jewels >> q & 1), floor)
        return out

    # -- views ----------------------------------------------------------------

    def view(self, player: int | None) -> dict[str, Any]:
        self._check_viewer(player)
        return full_view(self, self._view_header(player))

    def determinize(self, player: int | None, rng: Rng) -> PyramidoState:
        """Deal again what nobody sees: the dominoes below the stack tops, stack sizes kept.

        Nobody knows which unseen domino lies in which stack (the stacks were
        shuffled face up), so the hidden dominoes of all stacks are shuffled
        together and dealt back into the same sizes.
        """
        other = self.copy()
        other._rng = rng.fork()
        # sorted first, so that the result depends only on what the seat sees and on rng
        hidden = sorted(d for s in self._stacks for d in s[:-1])
        rng.shuffle(hidden)
        stacks = []
        k = 0
        for s in self._stacks:
            n = max(len(s) - 1, 0)
            stacks.append((*hidden[k : k + n], s[-1]) if s else ())
            k += n
        other._stacks = tuple(stacks)
        other.seed = None
        base, stacks_now, origin = self._setup, other._stacks, self._origin
        # written out only if read (see pyramids.games.lazy): search never reads it
        other._setup = LazySetup(lambda: _setup_with(plain_setup(base), stacks_now, origin))
        return other

    def setup(self) -> Mapping[str, Any]:
        """The explicit setup (for a determinized state: the one that leads to its stacks)."""
        return plain_setup(self._setup)


def _setup_with(
    setup: Mapping[str, Any],
    stacks: tuple[tuple[int, ...], ...],
    origin: tuple[tuple[int, ...], ...],
) -> dict[str, Any]:
    """The setup that, with the moves played, leads to these stacks.

    Each domino now in a stack is written back where its position lay in the
    setup (``origin``, kept up to date by refills); a position below a top
    has never been seen, so changing it changes nothing seen.
    """
    flat = [d for s in setup["stacks"] for d in s]
    for now, where in zip(stacks, origin, strict=True):
        for d, k in zip(now, where, strict=True):
            flat[k] = d + 1
    out = []
    k = 0
    for s in setup["stacks"]:
        out.append(flat[k : k + len(s)])
        k += len(s)
    return {**setup, "stacks": out}


def _ids(value: Any, field: str) -> list[int]:
    if not isinstance(value, list) or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in value
    ):
        raise RecordError(field, "must be a list of domino numbers")
    for k, x in enumerate(value):
        if not 1 <= x <= N_DOMINOES:
            raise RecordError(
                f"{field}[{k}]",
                "{number} is not a domino number (1..{count})",
                number=x,
                count=N_DOMINOES,
            )
    return [x - 1 for x in value]


class PyramidoGame(Game[PyramidoMove]):
    """Pyramido: build a 4-floor pyramid of dominoes; marked areas of the top view score."""

    id = "pyramido"
    #: everything on the table is seen by every seat (the stacks are hidden from all)
    secret_seats = False
    title = "Pyramido"
    min_players = 2
    max_players = 4
    summary = "Build a four-floor pyramid of dominoes; colour areas seen from above score."
    options = (first_player_option(),)
    #: the dominoes are shuffled into stacks that nobody sees
    chance = True
    hidden_information = True

    def score_bounds(
        self, players: int, variant: Mapping[str, VariantValue]
    ) -> tuple[float, float]:
        """No seat can score below 0; 1,000 is far above any pyramid's top view."""
        return 0.0, 1_000.0

    def max_game_length(self, players: int, variant: Mapping[str, VariantValue]) -> int:
        """20 dominoes a player, each at most 4 steps, plus fills and refills."""
        return players * 20 * 6 + 200

    def make_setup(
        self, players: int, variant: Mapping[str, VariantValue], rng: Rng
    ) -> dict[str, Any]:
        """Shuffle the 90 dominoes: 3 to the quarry, then stacks of 22, 22, 22, 21 (bottom up)."""
        first = draw_first_player(variant, players, rng)
        order = list(range(N_DOMINOES))
        rng.shuffle(order)
        stacks = []
        k = QUARRY_SLOTS
        for n in STACK_SIZES:
            stacks.append([d + 1 for d in order[k : k + n]])
            k += n
        return {
            "first_player": first,
            "quarry": [d + 1 for d in order[:QUARRY_SLOTS]],
            "stacks": stacks,
        }

    def from_setup(
        self, setup: Mapping[str, Any], players: int, variant: Mapping[str, VariantValue]
    ) -> PyramidoState:
        if not isinstance(setup, Mapping):
            raise RecordError("setup", "must be an object")
        first = check_first_player(setup, players, variant)
        quarry = _ids(setup.get("quarry"), "setup.quarry")
        if len(quarry) != QUARRY_SLOTS:
            raise RecordError("setup.quarry", "must hold 3 dominoes")
        stacks_in = setup.get("stacks")
        if not isinstance(stacks_in, list) or len(stacks_in) != N_STACKS:
            raise RecordError("setup.stacks", "must be a list of 4 stacks")
        stacks = [_ids(s, f"setup.stacks[{i}]") for i, s in enumerate(stacks_in)]
        for i, s in enumerate(stacks):
            if not s:
                raise RecordError(f"setup.stacks[{i}]", "must not be empty")
        every = quarry + [d for s in stacks for d in s]
        if sorted(every) != list(range(N_DOMINOES)):
            raise RecordError(
                "setup",
                "quarry and stacks must hold each of the {count} dominoes once",
                count=N_DOMINOES,
            )
        st = PyramidoState.__new__(PyramidoState)
        st._init_base(setup, players, variant)
        st._floor = 1
        st._step = PLACE
        st._turn = first
        st._last = first
        st._over = False
        st._quarry = tuple(quarry)
        st._stacks = tuple(tuple(s) for s in stacks)
        starts = [sum(len(s) for s in stacks[:i]) for i in range(N_STACKS)]
        st._origin = tuple(
            tuple(range(start, start + len(s))) for start, s in zip(starts, stacks, strict=True)
        )
        st._slot = -1
        st._pdom = st._pa = st._pb = st._pgem = -1
        st._fills = 0
        st._done = 0
        st._out = 0
        st._elim = ()
        st._occ = [0] * players
        st._bbox = [EMPTY_BOX] * players
        st._grid = [FRAME_GRID] * players
        st._shift = [0] * players
        st._col = [(0,) * 6] * players
        st._jew = [0] * players
        st._gems = [()] * players
        st._gemmask = [0] * players
        st._cards = [ALL_CARDS] * players
        st._blocks = [()] * players
        st._floor_scores = [()] * players
        return st

    # -- notation ---------------------------------------------------------------

    def move_to_str(self, state: State[PyramidoMove], move: PyramidoMove) -> str:
        """See docs/notation.md: ``q2 e5 f5``, ``mark e5``, ``card R e5 tl``, ``pass``, ..."""
        assert isinstance(state, PyramidoState)
        return notation.move_to_str(state, move)

    def parse_move(self, state: State[PyramidoMove], text: str) -> PyramidoMove:
        """Read a step typed by a player or stored in a record (see docs/notation.md)."""
        assert isinstance(state, PyramidoState)
        return notation.parse_move(state, text)


GAME = PyramidoGame()
PyramidoState.game = GAME
