"""Exact search of one round: can it be cleared, and what is its best score?

Two modes, one idea: depth-first search over compact states.

* ``clear`` decides whether the layout can be cleared and returns a winning
  line. A state is a few small ints; the transposition table is a plain
  ``dict`` from a key (the removed-positions bitmask, the set of cards
  playable on the waste, the jokers left) to the fewest stock cards turned
  with which that state is known to lose. Prunings keep the search small;
  none can lose a win (the tests compare with a plain search and with brute
  force):

  - *playable-set keys*: the waste card matters only through the free cards
    that may go on it now (a joker: all of them), so states with the same
    playable set are one state; suits never matter at all;
  - *forced turns*: with nothing playable and no joker, the stock is turned
    without a table entry until a card can be played;
  - *dominance*: a state that loses with ``j`` jokers loses with fewer; a
    state that loses with the joker on the waste loses with any card there;
    and a state that loses with ``s`` stock cards turned loses with more
    turned (the shorter stock can mimic the longer one by turning its extra
    front cards at its first turn). Children already known lost are skipped
    without a call;
  - *rank reachability*: without a joker, a layout card can only be played on
    a waste one rank away, and the waste only ever shows the current card, a
    stock card or a layout card. If some rank left in the layout cannot be
    reached from those by steps of one rank through ranks still in the layout,
    the state is lost;
  - *predecessor counting*: each card on the waste is covered by at most one
    card, so the layout cards left need distinct predecessors one rank away
    (:func:`_rank_bound`); more cards without one than jokers
    left: lost. A layout card all of whose possible successors cover it (the
    pyramid's apex, played last) is no predecessor, and neither is a waste
    card nothing can go on.

* ``score`` finds the best score of the round from the position on (runs,
  stock and joker costs, clearing bonus) by memoised search over states that
  also carry the run length; golf's own score (stock left, or minus the cards
  left) by the pass of :mod:`.columns` when NumPy is installed.

For the pyramid, clear mode hands the round to :mod:`.layers` instead: one
pass over the layout's 1,430 removable sets that finds, for each state, the
fewest stock cards turned to reach it; its cost never depends on the move
order or on luck, and it decides any round in a few milliseconds (``LAYERED``;
``docs/performance.md``); a hint's ``each_move`` makes one pass per legal
move. Tripeaks gets 1,000 depth-first nodes first and then the pass over its
22,932 sets (``TRY_FIRST``): most of its deals fall to the search at once,
and the pass bounds the few that took the search seconds. Golf does the same
with :mod:`.columns` (``BY_COLUMNS``), a pass over its 279,936 sets of column
heights in NumPy array operations, when NumPy is installed.

Both stop at a node or time limit and then answer ``unknown`` rather than
guess.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from pyramids.games.piramides import DRAW, PLAY, USE_JOKER, PiramidesMove
from pyramids.games.piramides.game import (
    CLEAR_BONUS,
    JOKER_PENALTY,
    RUN_STEP,
    STOCK_PENALTY,
)
from pyramids.solver.budget import SearchLimit, next_check
from pyramids.solver.columns import best_by_columns, clear_by_columns, usable
from pyramids.solver.layers import clear_by_layers
from pyramids.solver.position import DRAW_CODE as DRAW_CODE  # re-exported: the move codes
from pyramids.solver.position import JOKER_CODE as JOKER_CODE
from pyramids.solver.position import JOKER_RANK as JOKER_RANK
from pyramids.solver.position import KING, POSITION_BITS, RANKS, Position
from pyramids.solver.transitions import legal_codes, step

WIN = "win"
LOSE = "lose"
UNKNOWN = "unknown"

DEFAULT_MAX_NODES = 2_000_000
DEFAULT_MAX_SECONDS = 60.0

MODES = ("clear", "score")

#: layouts whose clear mode goes to :mod:`.layers`: the pyramid has only 1,430
#: removable sets, so a pass over them all is cheap; golf has 6⁷, too many for a pass
#: in Python (:data:`BY_COLUMNS` makes it in NumPy)
LAYERED = frozenset({"pyramid"})
#: layouts whose clear mode tries the depth-first search for this many nodes and then
#: makes the pass (:mod:`.layers`): the peaks have 22,932 removable sets, so a pass
#: costs ≈ 60 ms, while most of their deals fall to the search in a few hundred nodes
#: and a few lost ones took it seconds
TRY_FIRST: dict[str, int] = {"tripeaks": 1_000}

#: layouts whose clear mode tries the depth-first search for this many nodes and then
#: makes the vectorised pass of :mod:`.columns` over every set of column heights, when
#: NumPy is installed (:func:`.columns.usable`): golf has 279,936 such sets, a pass
#: costs about 17 ms whatever the deal (as much as ≈ 4,000 nodes), while most deals
#: fall to the search in far fewer nodes and the slowest took it seconds
BY_COLUMNS: dict[str, int] = {"golf": 2_000}

#: nodes between two looks at the clock (:mod:`.budget`)
_CHECK_EVERY = 4096

# --- Bit layouts -------------------------------------------------------------
#
# A clear-mode key, the transposition table's (the stock pointer is not in it):
#   removed positions  bits 0-35   (POSITION_BITS)
#   playable positions from bit _PLAYABLE_AT (36)
#   jokers left        from bit _JOKERS_AT (72), 8 bits

_PLAYABLE_AT = POSITION_BITS
_JOKERS_AT = 2 * POSITION_BITS
#: the jokers field of a clear-mode key
_JOKERS_FIELD = 0xFF << _JOKERS_AT
#: a table value above every stock pointer: "not known lost with any stock"
_NEVER_LOST = 1 << 30
#: one joker in the jokers field
_ONE_JOKER = 1 << _JOKERS_AT

# Rank counts, the currency of the two rank tests: one 3-bit field per rank
# index r at bit 3·r (there are never more than 4 cards of a rank).

_COUNT_BITS = 3
#: one count field (the Ace's, at bit 0)
_COUNT_MASK = 7
#: the 13 count fields together
_COUNTS_WIDTH = RANKS * _COUNT_BITS
#: where the King's count field starts
_KING_AT = KING * _COUNT_BITS
#: the lowest bit of each rank's count field
_LOW = sum(1 << _COUNT_BITS * r for r in range(RANKS))
#: the count fields of the even and of the odd rank indices
_EVEN = sum(_COUNT_MASK << _COUNT_BITS * r for r in range(0, RANKS, 2))
_ODD = sum(_COUNT_MASK << _COUNT_BITS * r for r in range(1, RANKS, 2))
#: where a chain key keeps its carried-in count (above the 13 rank fields)
_CARRY = _COUNTS_WIDTH
#: the bound's cache key: layout counts | givers << _GIVERS_AT | extra << _EXTRA_AT
_GIVERS_AT = _COUNTS_WIDTH
_EXTRA_AT = 2 * _COUNTS_WIDTH
#: the reachability cache key: ranks left | ranks that can reach the waste << _REACH_AT
_REACH_AT = _COUNTS_WIDTH
#: a bound is the matching's shortfall (the low bits) plus _CUT if a rank is out of reach
_CUT = 256
_SHORTFALL = _CUT - 1

# A score-mode key, the memo's: removed positions (bits 0-35) | stock cards
# turned (6 bits) | waste rank (4 bits) | jokers left (7 bits) | run length.

_SCORE_TURNED_AT = POSITION_BITS
_SCORE_WASTE_AT = _SCORE_TURNED_AT + 6
_SCORE_JOKERS_AT = _SCORE_WASTE_AT + 4
_SCORE_RUN_AT = _SCORE_JOKERS_AT + 7
#: the move stored for a state with no move left: the round ends there
_ROUND_ENDS = 99
#: below any score: the best value of a state before a move is tried
_NO_SCORE = -(1 << 30)


@dataclass
class Result:
    """What a search found.

    ``verdict`` is ``win`` / ``lose`` (clear mode) or ``win`` / ``lose`` for
    whether the best-scoring line clears (score mode), and ``unknown`` when a
    limit stopped the search first. ``line`` is the winning (or best-scoring)
    sequence of move codes; ``score`` the best score from the position on
    (score mode only).
    """

    verdict: str
    line: list[int] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    score: int | None = None
    mode: str = "clear"
    #: clear mode with ``each_move``: the verdict after each legal move code
    per_move: dict[int, str] = field(default_factory=dict)

    def moves(self) -> list[PiramidesMove]:
        """The line as engine moves."""
        return [code_to_move(c) for c in self.line]


def code_to_move(code: int) -> PiramidesMove:
    """Engine move of a solver move code."""
    if code == DRAW_CODE:
        return DRAW
    if code == JOKER_CODE:
        return USE_JOKER
    return PLAY[code]


def move_to_code(move: PiramidesMove) -> int:
    """Solver move code of an engine move."""
    if move.kind == "draw":
        return DRAW_CODE
    if move.kind == "joker":
        return JOKER_CODE
    return move.pos


def _overall(per_move: dict[int, str]) -> str:
    """The verdict of a position from those of its moves: one win wins, then unknown."""
    verdicts = set(per_move.values())
    return WIN if WIN in verdicts else UNKNOWN if UNKNOWN in verdicts else LOSE


def _bits(mask: int) -> list[int]:
    """The positions set in ``mask``."""
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def _count_field(rank: int) -> int:
    """One card of rank index ``rank`` in the packed counts (none for the joker)."""
    return 1 << _COUNT_BITS * rank if rank < RANKS else 0


class _Tables:
    """Per-position constants of the search, computed once."""

    def __init__(self, pos: Position) -> None:
        layout = pos.layout
        self.full = layout.full_mask
        #: opens[i]: (the positions lying on it, its bit) for each card position i lies on:
        #: the card is free once none of those is left
        self.opens = [
            tuple((layout.covered_by[p], 1 << p) for p in layout.covers[i])
            for i in range(layout.size)
        ]
        self.ranks = pos.ranks
        self.stock = pos.stock_ranks
        n = len(self.stock)
        #: one card of each waste rank index in the packed counts (the joker: none)
        self.rank_field = [_count_field(r) for r in range(JOKER_RANK + 1)]
        self.rank_pos = [0] * RANKS
        for i, r in enumerate(self.ranks):
            self.rank_pos[r] |= 1 << i
        table = pos.follow
        # follow[w]: positions whose card may go on a waste of rank w (the joker: all)
        self.follow = [
            sum(self.rank_pos[s] for s in range(RANKS) if table[w] >> s & 1) for w in range(RANKS)
        ]
        self.follow.append(self.full)
        remaining = ~pos.removed
        self.waste = pos.waste_rank
        # stock_counts[sp]: cards per rank still in the stock once sp cards are turned
        # (strict golf: a King passes the waste to nothing, so stock Kings are left out:
        # they are no predecessors, and nothing is reached from them)
        self.stock_counts = [0] * (n + 1)
        for k in range(n - 1, -1, -1):
            gives = 0 if pos.strict and self.stock[k] == KING else self.rank_field[self.stock[k]]
            self.stock_counts[k] = self.stock_counts[k + 1] + gives
        self.wrap = pos.wrap
        #: the count-field bits of the ranks the waste moves on from (strict golf: not King)
        self.steps_from = _LOW & ~(1 << _KING_AT) if pos.strict else _LOW
        self.counts = sum(
            (self.rank_pos[r] & remaining).bit_count() * self.rank_field[r] for r in range(RANKS)
        )
        # blocks[i]: every position that waits, directly or not, for position i to go
        self.blocks = [0] * layout.size
        for i in sorted(range(layout.size), key=lambda k: layout.cells[k][0]):
            for p in layout.covers[i]:
                self.blocks[i] |= 1 << p | self.blocks[p]
        # gives[i]: the count field of position i's rank if its card can be followed by
        # another layout card, else 0. The card played right after it must still be
        # there, so it cannot be one of the cards that cover it (all gone before it):
        # the pyramid's apex, played last, never passes the waste to a layout card.
        covering = [0] * layout.size
        for j in range(layout.size):
            for i in _bits(self.blocks[j]):
                covering[i] |= 1 << j
        self.gives = [
            self.rank_field[self.ranks[i]]
            if self.follow[self.ranks[i]] & remaining & self.full & ~covering[i] & ~(1 << i)
            else 0
            for i in range(layout.size)
        ]
        #: counts per rank of the layout cards left that can pass the waste on
        self.givers = sum(self.gives[i] for i in _bits(~pos.removed & self.full))

    def play(self, removed: int, free: int, i: int) -> tuple[int, int]:
        """(removed, free) after playing free position ``i``: the cards it freed join ``free``.

        The searches inline this step; it is spelled out here for their cold paths.
        """
        removed |= 1 << i
        free ^= 1 << i
        for over, below in self.opens[i]:
            if not over & ~removed:
                free |= below
        return removed, free


def _unreachable(left: int, reach: int, wrap: bool, steps_from: int = _LOW) -> bool:
    """Rank reachability: is some rank left in the layout out of reach for good?

    ``left`` has the lowest bit of each rank's count field set for the ranks
    left in the layout, ``reach`` for the ranks of the cards that can reach the
    waste besides them (the stock and the waste card). Without a joker a
    layout card is played on a waste one rank away; the waste starts from a
    rank of ``reach`` and moves by steps of one rank through ranks still in
    the layout. On these packed masks a shift by one field is a step of one
    rank. Only the ranks in ``steps_from`` lead on (strict golf: nothing goes
    on a King, so a King is reached but leads nowhere).
    """
    step, king_at = _COUNT_BITS, _KING_AT  # bound once: locals are read fastest
    while True:
        source = reach & steps_from
        near = source << step | source >> step
        if wrap:
            near |= source >> king_at | (source & 1) << king_at
        more = near & left & ~reach
        if not more:
            return bool(left & ~reach)
        reach |= more


#: per chain (0: the even ranks, 1: the odd ones), for each rank r of it: where the
#: counts of rank r and of its predecessors (rank r + 1's field; the King's: _CARRY) are
_CHAIN_SHIFTS = tuple(
    tuple(
        (_COUNT_BITS * r, _COUNT_BITS * (r + 1) if r < KING else _CARRY)
        for r in range(first, RANKS, 2)
    )
    for first in (0, 1)
)


def _chain(fields: int, first: int, rest: int) -> tuple[int, int]:
    """Greedy matching along one chain of ranks ``first``, ``first + 2``, ...

    ``fields`` holds, for each rank r of the chain, the layout cards of rank r
    to match and, in the field of rank r + 1, the predecessors of that rank
    (for the King the wrap's predecessors, the Aces, sit at bit ``_CARRY``).
    ``rest`` is what the predecessor before the chain still offers. Returns
    (cards left without a predecessor, predecessors left after the chain).
    """
    mask = _COUNT_MASK
    short = 0
    for need_at, cap_at in _CHAIN_SHIFTS[first]:
        need = fields >> need_at & mask
        take = need if need < rest else rest
        need -= take
        cap = fields >> cap_at & mask
        take = need if need < cap else cap
        short += need - take
        rest = cap - take
    return short, rest


def _rank_bound(wrap: bool, steps_from: int) -> Callable[[int, int, int], int]:
    """The two rank tests of a round as one function, with its caches.

    The search caches the result per count pattern as well; these caches hold
    the parts, which recur more often than whole patterns: the two halves of
    the predecessor matching (a move changes one or two ranks, so one half is
    usually known already) and the reachability test.
    """
    evens: dict[int, tuple[int, int]] = {}
    odds: dict[int, int] = {}
    reaches: dict[int, bool] = {}

    def bound_of(lay: int, pred: int, extra: int) -> int:
        """Both necessary conditions on ranks (cached per count pattern by the search).

        Returns the predecessor-matching shortfall: each card on the waste is
        covered by at most one card, so the layout cards left (``lay``, counts
        per rank packed 3 bits each) need distinct predecessors one rank away
        among every card that can still be on the waste before them (``pred``:
        those layout cards that can pass the waste on to another, plus
        ``extra``: the stock and a waste card with a free successor). The ranks form two
        paths by parity (one cycle with wrap, cut at the King–Ace edge, which
        can add back at most its capacity), where a greedy matching is exact.
        Plus ``_CUT`` when :func:`_unreachable` from the ranks of ``extra`` (the
        caller applies that test only without a joker, as a joker can follow
        anything).
        """
        ekey = lay & _EVEN | pred & _ODD
        if wrap:
            ekey |= (pred & _COUNT_MASK) << _CARRY
        even = evens.get(ekey)
        if even is None:
            even = evens[ekey] = _chain(ekey, 0, 0)
        carry = even[1] if wrap else pred & _COUNT_MASK
        okey = lay & _ODD | pred & _EVEN & ~_COUNT_MASK | carry << _CARRY
        odd = odds.get(okey)
        if odd is None:
            odd = odds[okey] = _chain(okey, 1, carry)[0]
        short = even[0] + odd
        if wrap and short:
            aces, kings = lay & _COUNT_MASK, pred >> _KING_AT & _COUNT_MASK
            back = aces if aces < kings else kings
            short = short - back if short > back else 0
        # the ranks present, one bit per field (each count is at most 4)
        present = (lay | lay >> 1 | lay >> 2) & _LOW
        rkey = present | ((extra | extra >> 1 | extra >> 2) & _LOW) << _REACH_AT
        cut = reaches.get(rkey)
        if cut is None:
            cut = reaches[rkey] = _unreachable(present, rkey >> _REACH_AT, wrap, steps_from)
        return short + (_CUT if cut else 0)

    return bound_of


def solve(
    pos: Position,
    mode: str = "clear",
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_seconds: float = DEFAULT_MAX_SECONDS,
    prune: bool = True,
    golf_score: bool | None = None,
    each_move: bool = False,
) -> Result:
    """Search ``pos`` in ``mode`` (``clear`` or ``score``) within the limits.

    ``prune=False`` turns off the transposition table and the reachability
    test (clear mode): a plain search, kept to check that pruning never loses
    a win. ``golf_score`` picks golf's score for score mode (default: when the
    layout is golf). ``each_move`` (clear mode) decides every legal move of
    the position instead, into :attr:`Result.per_move` (for hints).
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if max_nodes < 1 or max_seconds <= 0:
        raise ValueError("the node and time limits must be positive")
    start = time.perf_counter()
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    # The search makes many small tuples and no reference cycles; the cyclic
    # collector would only walk them again and again (pauses of tens of ms).
    collecting = gc.isenabled()
    gc.disable()
    try:
        name = pos.layout.name
        by_columns = name in BY_COLUMNS and usable(pos)
        if mode == "clear" and prune and by_columns:
            first, deadline = BY_COLUMNS[name], start + max_seconds
            if each_move:
                result = _each_move_by_pass(pos, max_nodes, deadline, first, True)
            else:
                result = _clear_by_pass(pos, max_nodes, deadline, first, True)
        elif (
            mode == "clear" and prune and (name in LAYERED or (name in TRY_FIRST and not each_move))
        ):
            if each_move:
                result = _each_move_by_pass(pos, max_nodes, start + max_seconds, 0, False)
            else:
                first = TRY_FIRST.get(name, 0)
                result = _clear_by_pass(pos, max_nodes, start + max_seconds, first, False)
        elif mode == "clear":
            result = _clear(pos, max_nodes, start + max_seconds, prune, each_move)
        else:
            golf = pos.layout.name == "golf" if golf_score is None else golf_score
            if golf and by_columns:
                result = _golf_score_by_pass(pos, start + max_seconds)
            else:
                result = _score(pos, max_nodes, start + max_seconds, golf)
    finally:
        sys.setrecursionlimit(limit)
        if collecting:
            gc.enable()
    result.seconds = time.perf_counter() - start
    result.mode = mode
    return result


def _clear_by_pass(
    pos: Position, max_nodes: int, deadline: float, first: int, by_columns: bool
) -> Result:
    """Clear mode by a pass over removed sets, after ``first`` depth-first nodes (if any).

    The pass is :func:`.columns.clear_by_columns` (``by_columns``: golf) or
    :func:`.layers.clear_by_layers`. The pyramid goes straight to its pass:
    it costs a few milliseconds whatever the round, about what 1,000
    depth-first nodes cost. The layouts of :data:`TRY_FIRST` and
    :data:`BY_COLUMNS` have far more removable sets; the depth-first search
    answers most of their deals sooner, and the pass bounds the rest.
    """
    tried = 0
    if first:
        quick = _clear(pos, min(first, max_nodes), deadline, True)
        if quick.verdict != UNKNOWN or quick.nodes >= max_nodes:
            return quick
        tried = quick.nodes
    try:
        if by_columns:
            # bounded by golf's 279,936 heights (≈ 0.1 µs each, a depth-first node
            # ≈ 4 µs), so only the clock stops it: the node budget is the search's
            won, line, nodes = clear_by_columns(pos, deadline)
        else:
            won, line, nodes = clear_by_layers(pos, max_nodes - tried, deadline)
    except SearchLimit as stop:
        return Result(UNKNOWN, nodes=tried + stop.nodes)
    return Result(WIN if won else LOSE, line, tried + nodes)


def _golf_score_by_pass(pos: Position, deadline: float) -> Result:
    """Score mode for golf by :func:`.columns.best_by_columns`: one pass, whatever the deal.

    Golf scores only at the end (stock left, or minus the cards left), which
    is what the pass's array holds: the memoised search of :func:`_score`
    ran out of 2,000,000 nodes on most deals with the wrap.
    """
    if pos.removed == pos.layout.full_mask:
        # as _score answers (the score still to come: none), where best_by_columns
        # gives golf's final score, the stock left; hints score cleared moves themselves
        return Result(WIN, [], 0, score=0)
    try:
        score, line, nodes, cleared = best_by_columns(pos, deadline)
    except SearchLimit as stop:
        return Result(UNKNOWN, nodes=stop.nodes)
    return Result(WIN if cleared else LOSE, line, nodes, score=score)


def _each_move_by_pass(
    pos: Position, max_nodes: int, deadline: float, first: int, by_columns: bool
) -> Result:
    """``each_move`` for the layouts in :data:`LAYERED` and :data:`BY_COLUMNS`: a decision per move.

    Each legal move's position is decided as :func:`_clear_by_pass` decides
    a position (``first`` depth-first nodes, then the pass), all within the
    one deadline; the pyramid's moves share the node budget, golf's each have
    it for their depth-first try. A hint asks this once per
    sampled deal; a pass costs a few milliseconds (the pyramid) or about
    17 ms (golf) whatever the deal, while the depth-first search could spend a
    whole sample's time budget on one lost move.
    """
    full = pos.layout.full_mask
    per_move: dict[int, str] = {}
    nodes = 0
    codes = legal_codes(pos)
    for code in codes:
        child = step(pos, code)
        if child.removed == full:
            per_move[code] = WIN
            continue
        # the pyramid's passes share the budget (their nodes are removed sets, as the
        # search's are states); golf's pass is bounded by its heights, so each move
        # gets the whole budget for its depth-first try
        budget = max_nodes if by_columns else max_nodes - nodes
        if budget <= 0:
            break  # this move and the rest stay unknown
        result = _clear_by_pass(child, budget, deadline, first, by_columns)
        nodes += result.nodes
        if result.verdict == UNKNOWN:
            break
        per_move[code] = result.verdict
    for code in codes:
        per_move.setdefault(code, UNKNOWN)
    return Result(_overall(per_move), [], nodes, per_move=per_move)


class _Node(NamedTuple):
    """The arguments of the clear-mode search at one state (see :func:`_clear_search`)."""

    removed: int
    free: int
    #: stock cards turned
    sp: int
    #: waste rank index (:data:`JOKER_RANK` after a joker)
    w: int
    #: jokers left
    jk: int
    #: packed counts per rank of the layout cards left
    cnt: int
    #: packed counts per rank of those that can pass the waste on (``_Tables.gives``)
    pc: int


class _ClearSearch(NamedTuple):
    """A depth-first clear-mode search of one position, built by :func:`_clear_search`."""

    #: decides a state (the fields of :class:`_Node`): can it be cleared?
    dfs: Callable[[int, int, int, int, int, int, int], bool]
    #: after a ``True``: the winning line from that state, last move first
    line: list[int]
    #: the nodes visited so far
    nodes: Callable[[], int]


def _clear(
    pos: Position, max_nodes: int, deadline: float, prune: bool, each_move: bool = False
) -> Result:
    """Clear mode by depth-first search (the prunings: the module docstring)."""
    t = _Tables(pos)
    search = _clear_search(t, pos.jokers > 0, max_nodes, deadline, prune)
    root = _Node(pos.removed, pos.free, 0, t.waste, pos.jokers, t.counts, t.givers)
    if each_move:
        return _each_move_by_search(t, root, search)
    try:
        won = root.removed == t.full or search.dfs(*root)
    except SearchLimit:
        return Result(UNKNOWN, nodes=search.nodes())
    line = search.line
    line.reverse()
    return Result(WIN if won else LOSE, line, search.nodes())


def _each_move_by_search(t: _Tables, root: _Node, search: _ClearSearch) -> Result:
    """``each_move`` by one search: every root move on its own, sharing the table.

    The subtrees of the moves overlap a lot, so the later moves are cheap.
    """
    per_move: dict[int, str] = {}
    children = _root_moves(t, root)
    for code, child in children:
        if child.removed == t.full:
            per_move[code] = WIN
            continue
        try:
            per_move[code] = WIN if search.dfs(*child) else LOSE
        except SearchLimit:
            per_move[code] = UNKNOWN
            break
        search.line.clear()
    for code, _ in children:
        per_move.setdefault(code, UNKNOWN)
    return Result(_overall(per_move), [], search.nodes(), per_move=per_move)


def _root_moves(t: _Tables, root: _Node) -> list[tuple[int, _Node]]:
    """The legal moves of ``root`` with the state each leads to (none once cleared)."""
    removed, free, _, w, jk, cnt, pc = root
    if removed == t.full:
        return []
    out: list[tuple[int, _Node]] = []
    playable = free & t.follow[w]
    while playable:
        i = playable.bit_length() - 1
        playable ^= 1 << i
        nr, nf = t.play(removed, free, i)
        r = t.ranks[i]
        out.append((i, _Node(nr, nf, 0, r, jk, cnt - t.rank_field[r], pc - t.gives[i])))
    if t.stock:
        out.append((DRAW_CODE, _Node(removed, free, 1, t.stock[0], jk, cnt, pc)))
    if jk:
        out.append((JOKER_CODE, _Node(removed, free, 0, JOKER_RANK, jk - 1, cnt, pc)))
    return out


def _clear_search(
    t: _Tables, jokers: bool, max_nodes: int, deadline: float, prune: bool
) -> _ClearSearch:
    """Build the clear-mode search of one position: its table of lost states and its ``dfs``.

    ``jokers``: whether the round has any (then a loss with the joker on the
    waste covers every waste). ``prune=False``: no table and no rank tests.

    ``dfs`` stays one function, for speed (a Python call per node is the main
    cost): its per-position tables are closure variables, the bit layouts
    named module constants (a closure variable is copied into every call, a
    global only read where used: measured, globals cost less here), and the
    key packing and the move step are written out in the loop. Only the rare
    steps are helpers: recording a loss for fewer jokers (``lost``) and
    writing down a win (``won``).
    """
    full, opens, ranks, stock, follow = t.full, t.opens, t.ranks, t.stock, t.follow
    nstock = len(stock)
    stock_counts, blocks, gives, rank_field = t.stock_counts, t.blocks, t.gives, t.rank_field
    bound_of = _rank_bound(t.wrap, t.steps_from)
    # key -> the fewest stock cards turned with which that state is known to lose
    failed: dict[int, int] = {}
    lost_with = failed.get
    # count pattern -> bound_of's answer
    bounds: dict[int, int] = {}
    line: list[int] = []
    nodes = 0
    check_at = min(_CHECK_EVERY, max_nodes)

    def lost(key: int, sp: int, jk: int) -> None:
        """Record that ``key`` (lost with ``sp`` cards turned) loses with fewer jokers too.

        Two dominances make one verdict cover many states. With fewer jokers a
        state loses too. With more stock cards turned it loses too: whatever
        the player could do with the shorter stock, the longer one allows as
        well, by turning the extra cards (all at the front) together with the
        first turn of the shorter line, or never if that line never turns.
        """
        base = key & ~_JOKERS_FIELD
        for j in range(jk):
            k = base | j << _JOKERS_AT
            if lost_with(k, _NEVER_LOST) > sp:
                failed[k] = sp

    def won(move: int, drawn: int) -> bool:
        """Write down ``move`` and the ``drawn`` forced turns before it (the line is reversed)."""
        line.append(move)
        line.extend([DRAW_CODE] * drawn)
        return True

    def dfs(removed: int, free: int, sp: int, w: int, jk: int, cnt: int, pc: int) -> bool:
        """Whether the state can be cleared (the fields are those of :class:`_Node`)."""
        nonlocal nodes, check_at
        nodes += 1
        if nodes >= check_at:
            check_at = next_check(nodes, max_nodes, deadline, _CHECK_EVERY)
        playable = free & follow[w]
        drawn = 0
        if prune and not playable and not jk:
            # Nothing to play and no joker: turning the stock is forced.
            while sp < nstock:
                w = stock[sp]
                sp += 1
                drawn += 1
                playable = free & follow[w]
                if playable:
                    break
            else:
                return False
        # The waste card matters only through the cards it lets go now: states with
        # the same playable set are the same game (a joker is "every free card").
        # The stock pointer is not in the key: the table keeps the fewest cards
        # turned with which the state is known to lose (see ``lost``).
        jokers_key = jk << _JOKERS_AT
        key = removed | playable << _PLAYABLE_AT | jokers_key
        if prune:
            if lost_with(key, _NEVER_LOST) <= sp:
                return False
            if (
                jokers
                and not jk
                and playable != free
                and lost_with(removed | free << _PLAYABLE_AT, _NEVER_LOST) <= sp
            ):
                return False  # a joker on the waste allows every move any other card allows
            # what can still reach the waste: the layout cards, the stock, and the
            # waste card unless nothing can go on it (then it is turned over unused)
            extra = stock_counts[sp] + (rank_field[w] if playable else 0)
            ckey = cnt | pc << _GIVERS_AT | extra << _EXTRA_AT
            bound = bounds.get(ckey)
            if bound is None:
                bound = bounds[ckey] = bound_of(cnt, pc + extra, extra)
            joker_on_waste = w == JOKER_RANK
            if (bound & _SHORTFALL) > jk + joker_on_waste or (
                bound > _SHORTFALL and not jk and not joker_on_waste
            ):
                failed[key] = sp  # the lookup above found nothing as strong
                if jk:
                    lost(key, sp, jk)
                return False
        # The plays: (the run can go on after it, cards still waiting under it, position,
        # removed and free after it), tried in that order, highest first.
        children: list[tuple[bool, int, int, int, int]] = []
        rest = ~removed
        while playable:
            i = playable.bit_length() - 1
            bit = 1 << i
            playable ^= bit
            nr = removed | bit
            nf = free ^ bit
            for over, below in opens[i]:
                if not over & ~nr:
                    nf |= below
            children.append((nf & follow[ranks[i]] != 0, (blocks[i] & rest).bit_count(), i, nr, nf))
        if len(children) > 1:
            children.sort(reverse=True)
        for _, _, i, nr, nf in children:
            if nr == full:
                return won(i, drawn)
            r = ranks[i]
            if prune:
                # a child already known lost is not worth a call
                after = nf & follow[r]
                if (after or jk) and lost_with(
                    nr | after << _PLAYABLE_AT | jokers_key, _NEVER_LOST
                ) <= sp:
                    continue
            if dfs(nr, nf, sp, r, jk, cnt - rank_field[r], pc - gives[i]):
                return won(i, drawn)
        if sp < nstock:
            turned = stock[sp]
            after = free & follow[turned]
            skip = (
                prune
                and (after or jk)
                and lost_with(removed | after << _PLAYABLE_AT | jokers_key, _NEVER_LOST) <= sp + 1
            )
            if not skip and dfs(removed, free, sp + 1, turned, jk, cnt, pc):
                return won(DRAW_CODE, drawn)
        if jk:
            fewer = removed | free << _PLAYABLE_AT | jokers_key - _ONE_JOKER
            skip = prune and lost_with(fewer, _NEVER_LOST) <= sp
            if not skip and dfs(removed, free, sp, JOKER_RANK, jk - 1, cnt, pc):
                return won(JOKER_CODE, drawn)
        if prune:
            failed[key] = sp
            if jk:
                lost(key, sp, jk)
        return False

    def count() -> int:
        return nodes

    return _ClearSearch(dfs, line, count)


def _score_key(removed: int, sp: int, w: int, jk: int, run: int) -> int:
    """Score mode's memo key of a state (the layout: ``_SCORE_TURNED_AT`` ...)."""
    return (
        removed
        | sp << _SCORE_TURNED_AT
        | w << _SCORE_WASTE_AT
        | jk << _SCORE_JOKERS_AT
        | run << _SCORE_RUN_AT
    )


def _score(pos: Position, max_nodes: int, deadline: float, golf: bool) -> Result:
    """Score mode: the best score from ``pos`` on, by memoised search, and its line."""
    t = _Tables(pos)
    full, opens, ranks, stock, follow = t.full, t.opens, t.ranks, t.stock, t.follow
    nstock = len(stock)
    size = pos.layout.size
    # Golf scores only at the end; the pyramid family scores every step.
    step = 0 if golf else RUN_STEP
    draw_cost = 0 if golf else STOCK_PENALTY
    joker_cost = 0 if golf else JOKER_PENALTY
    # key -> (best score, the move that reaches it)
    memo: dict[int, tuple[int, int]] = {}
    nodes = 0
    check_at = min(_CHECK_EVERY, max_nodes)

    def best(removed: int, free: int, sp: int, w: int, jk: int, run: int) -> int:
        nonlocal nodes, check_at
        key = (  # _score_key, written out: a call per state would cost more than the state
            removed
            | sp << _SCORE_TURNED_AT
            | w << _SCORE_WASTE_AT
            | jk << _SCORE_JOKERS_AT
            | run << _SCORE_RUN_AT
        )
        hit = memo.get(key)
        if hit is not None:
            return hit[0]
        nodes += 1
        if nodes >= check_at:
            check_at = next_check(nodes, max_nodes, deadline, _CHECK_EVERY)
        top = _NO_SCORE
        choice = _ROUND_ENDS
        gain = step * (run + 1)
        playable = free & follow[w]
        while playable:
            i = playable.bit_length() - 1
            bit = 1 << i
            playable ^= bit
            nr = removed | bit
            if nr == full:
                value = gain + (nstock - sp if golf else CLEAR_BONUS)
            else:
                nf = free ^ bit
                for over, below in opens[i]:
                    if not over & ~nr:
                        nf |= below
                value = gain + best(nr, nf, sp, ranks[i], jk, run + 1)
            if value > top:
                top, choice = value, i
        if sp < nstock:
            value = best(removed, free, sp + 1, stock[sp], jk, 0) - draw_cost
            if value > top:
                top, choice = value, DRAW_CODE
        if jk:
            value = best(removed, free, sp, JOKER_RANK, jk - 1, run + 1) - joker_cost
            if value > top:
                top, choice = value, JOKER_CODE
        if choice == _ROUND_ENDS:
            # stuck: the round ends here
            top = -(size - removed.bit_count()) if golf else 0
        memo[key] = (top, choice)
        return top

    if pos.removed == full:
        return Result(WIN, [], 0, score=0)
    try:
        value = best(pos.removed, pos.free, 0, t.waste, pos.jokers, pos.run)
    except SearchLimit:
        return Result(UNKNOWN, nodes=nodes)
    # Follow the stored choices to write the line down.
    line: list[int] = []
    removed, free, sp, w, jk, run = pos.removed, pos.free, 0, t.waste, pos.jokers, pos.run
    while True:
        _, choice = memo[_score_key(removed, sp, w, jk, run)]
        if choice == _ROUND_ENDS:
            break
        line.append(choice)
        if choice == DRAW_CODE:
            w, sp, run = stock[sp], sp + 1, 0
        elif choice == JOKER_CODE:
            w, jk, run = JOKER_RANK, jk - 1, run + 1
        else:
            removed, free = t.play(removed, free, choice)
            if removed == full:
                break
            w, run = ranks[choice], run + 1
    return Result(WIN if removed == full else LOSE, line, nodes, score=value)
