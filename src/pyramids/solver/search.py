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
    (``bound_of`` in :func:`_clear`); more cards without one than jokers
    left: lost. A layout card all of whose possible successors cover it (the
    pyramid's apex, played last) is no predecessor, and neither is a waste
    card nothing can go on.

* ``score`` finds the best score of the round from the position on (runs,
  stock and joker costs, clearing bonus; golf's own score for golf) by
  memoised search over states that also carry the run length.

For the pyramid, clear mode hands the round to :mod:`.layers` instead: one
pass over the layout's 1,430 removable sets that finds, for each state, the
fewest stock cards turned to reach it; its cost never depends on the move
order or on luck, and it decides any round in a few milliseconds (``LAYERED``;
``docs/performance.md``); a hint's ``each_move`` makes one pass per legal
move. Tripeaks gets 1,000 depth-first nodes first and then the pass over its
22,932 sets (``TRY_FIRST``): most of its deals fall to the search at once,
and the pass bounds the few that took the search seconds.

Both stop at a node or time limit and then answer ``unknown`` rather than
guess.
"""

from __future__ import annotations

import gc
import sys
import time
from dataclasses import dataclass, field

from pyramids.games.piramides import DRAW, PLAY, USE_JOKER, PiramidesMove
from pyramids.games.piramides.game import (
    CLEAR_BONUS,
    JOKER_PENALTY,
    RUN_STEP,
    STOCK_PENALTY,
)
from pyramids.solver.layers import LayerLimit, clear_by_layers
from pyramids.solver.position import JOKER, Position

#: move codes in a solver line: a position index, or these two
DRAW_CODE = -1
JOKER_CODE = -2
#: the waste rank index that stands for a joker (any card may follow)
JOKER_RANK = 13

WIN = "win"
LOSE = "lose"
UNKNOWN = "unknown"

DEFAULT_MAX_NODES = 2_000_000
DEFAULT_MAX_SECONDS = 60.0

MODES = ("clear", "score")

#: layouts whose clear mode goes to :mod:`.layers`: the pyramid has only 1,430
#: removable sets, so a pass over them all is cheap; golf has up to 6⁷ and the
#: depth-first search with pruning finds its wins much sooner
LAYERED = frozenset({"pyramid"})
#: layouts whose clear mode tries the depth-first search for this many nodes and then
#: makes the pass (:mod:`.layers`): the peaks have 22,932 removable sets, so a pass
#: costs ≈ 60 ms, while most of their deals fall to the search in a few hundred nodes
#: and a few lost ones took it seconds
TRY_FIRST: dict[str, int] = {"tripeaks": 1_000}


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


class _Limit(Exception):
    """Raised inside the search when the node or time budget is spent."""


def _bits(mask: int) -> list[int]:
    """The positions set in ``mask``."""
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


class _Tables:
    """Per-position constants of the search, computed once."""

    def __init__(self, pos: Position) -> None:
        layout = pos.layout
        self.full = layout.full_mask
        self.covers = layout.covers
        self.covered_by = layout.covered_by
        self.ranks = [c % 13 for c in pos.cards]
        self.stock = [c % 13 for c in pos.stock]
        n = len(self.stock)
        self.rank_pos = [0] * 13
        for i, r in enumerate(self.ranks):
            self.rank_pos[r] |= 1 << i
        table = pos.follow
        # follow[w]: positions whose card may go on a waste of rank w (13 = joker: all)
        self.follow = [
            sum(self.rank_pos[s] for s in range(13) if table[w] >> s & 1) for w in range(13)
        ]
        self.follow.append(self.full)
        remaining = ~pos.removed
        self.waste = JOKER_RANK if pos.waste == JOKER else pos.waste % 13
        # stock_counts[sp]: cards per rank still in the stock once sp cards are turned,
        # packed 3 bits per rank (never more than 4 of a rank)
        # (strict golf: a King passes the waste to nothing, so stock Kings are left out:
        # they are no predecessors, and nothing is reached from them)
        self.stock_counts = [0] * (n + 1)
        for k in range(n - 1, -1, -1):
            gives = 0 if pos.strict and self.stock[k] == 12 else 1 << 3 * self.stock[k]
            self.stock_counts[k] = self.stock_counts[k + 1] + gives
        self.wrap = pos.wrap
        #: the count-field bits of the ranks the waste moves on from (strict golf: not King)
        self.steps_from = _LOW & ~(1 << 36) if pos.strict else _LOW
        self.counts = sum((self.rank_pos[r] & remaining).bit_count() << 3 * r for r in range(13))
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
            (1 << 3 * self.ranks[i])
            if self.follow[self.ranks[i]] & remaining & self.full & ~covering[i] & ~(1 << i)
            else 0
            for i in range(layout.size)
        ]
        #: counts per rank of the layout cards left that can pass the waste on
        self.givers = sum(self.gives[i] for i in _bits(~pos.removed & self.full))


#: the field of the jokers left in a clear-mode key (from bit 72)
_JOKERS = 0xFF
#: the lowest bit of each rank's 3-bit count field
_LOW = sum(1 << 3 * r for r in range(13))
#: the count fields of the even and of the odd rank indices
_EVEN = sum(7 << 3 * r for r in range(0, 13, 2))
_ODD = sum(7 << 3 * r for r in range(1, 13, 2))
#: where a chain key keeps its carried-in count (above the 13 rank fields)
_CARRY = 39


def _unreachable(left: int, reach: int, wrap: bool, steps_from: int = _LOW) -> bool:
    """Rank reachability: is some rank left in the layout out of reach for good?

    ``left`` has the lowest bit of each rank's count field set for the ranks
    left in the layout, ``reach`` for the ranks of the cards that can reach the
    waste besides them (the stock and the waste card). Without a joker a
    layout card is played on a waste one rank away; the waste starts from a
    rank of ``reach`` and moves by steps of one rank through ranks still in
    the layout. On these packed masks a shift by 3 is a step of one rank.
    Only the ranks in ``steps_from`` lead on (strict golf: nothing goes on a
    King, so a King is reached but leads nowhere).
    """
    while True:
        source = reach & steps_from
        near = source << 3 | source >> 3
        if wrap:
            near |= source >> 36 | (source & 1) << 36
        more = near & left & ~reach
        if not more:
            return bool(left & ~reach)
        reach |= more


def _chain(fields: int, first: int, rest: int) -> tuple[int, int]:
    """Greedy matching along one chain of ranks ``first``, ``first + 2``, ...

    ``fields`` holds, for each rank r of the chain, the layout cards of rank r
    to match and, in the field of rank r + 1, the predecessors of that rank
    (for rank 12 the wrap's predecessors, rank 0, sit at bit ``_CARRY``).
    ``rest`` is what the predecessor before the chain still offers. Returns
    (cards left without a predecessor, predecessors left after the chain).
    """
    short = 0
    for r in range(first, 13, 2):
        need = fields >> 3 * r & 7
        take = need if need < rest else rest
        need -= take
        cap = fields >> (3 * r + 3 if r < 12 else _CARRY) & 7
        take = need if need < cap else cap
        short += need - take
        rest = cap - take
    return short, rest


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
        if mode == "clear" and prune and (name in LAYERED or (name in TRY_FIRST and not each_move)):
            if each_move:
                result = _each_move_layered(pos, max_nodes, start + max_seconds)
            else:
                result = _clear_layered(pos, max_nodes, start + max_seconds)
        elif mode == "clear":
            result = _clear(pos, max_nodes, start + max_seconds, prune, each_move)
        else:
            golf = pos.layout.name == "golf" if golf_score is None else golf_score
            result = _score(pos, max_nodes, start + max_seconds, golf)
    finally:
        sys.setrecursionlimit(limit)
        if collecting:
            gc.enable()
    result.seconds = time.perf_counter() - start
    result.mode = mode
    return result


def _clear_layered(pos: Position, max_nodes: int, deadline: float) -> Result:
    """Clear mode by :func:`.layers.clear_by_layers`, after a depth-first try for some layouts.

    The pyramid goes straight to the pass: it costs a few milliseconds
    whatever the round, about what 1,000 depth-first nodes cost. The layouts of
    :data:`TRY_FIRST` have far more removable sets; the depth-first search
    answers most of their deals sooner, and the pass bounds the rest.
    """
    tried = 0
    first = TRY_FIRST.get(pos.layout.name, 0)
    if first:
        quick = _clear(pos, min(first, max_nodes), deadline, True)
        if quick.verdict != UNKNOWN or quick.nodes >= max_nodes:
            return quick
        tried = quick.nodes
    try:
        won, line, nodes = clear_by_layers(pos, max_nodes - tried, deadline)
    except LayerLimit as stop:
        return Result(UNKNOWN, nodes=tried + stop.nodes)
    return Result(WIN if won else LOSE, line, tried + nodes)


def _each_move_layered(pos: Position, max_nodes: int, deadline: float) -> Result:
    """``each_move`` for the layouts in :data:`LAYERED`: one pass per legal move.

    A hint asks this once per sampled deal; a pass costs a few milliseconds
    whatever the deal, while the depth-first search could spend a whole
    sample's time budget on one lost move.
    """
    from pyramids.solver.transitions import legal_codes, step  # it imports this module

    full = pos.layout.full_mask
    per_move: dict[int, str] = {}
    nodes = 0
    codes = legal_codes(pos)
    for code in codes:
        child = step(pos, code)
        if child.removed == full:
            per_move[code] = WIN
            continue
        try:
            won, _, used = clear_by_layers(child, max_nodes - nodes, deadline)
        except LayerLimit as stop:
            nodes += stop.nodes
            break  # this move and the rest stay unknown
        nodes += used
        per_move[code] = WIN if won else LOSE
    for code in codes:
        per_move.setdefault(code, UNKNOWN)
    verdicts = set(per_move.values())
    verdict = WIN if WIN in verdicts else UNKNOWN if UNKNOWN in verdicts else LOSE
    return Result(verdict, [], nodes, per_move=per_move)


def _clear(
    pos: Position, max_nodes: int, deadline: float, prune: bool, each_move: bool = False
) -> Result:
    t = _Tables(pos)
    full, covers, covered_by = t.full, t.covers, t.covered_by
    ranks, stock, follow = t.ranks, t.stock, t.follow
    nstock = len(stock)
    stock_counts, wrap, blocks, gives = t.stock_counts, t.wrap, t.blocks, t.gives
    steps_from = t.steps_from
    waste_count = [1 << 3 * r for r in range(13)] + [0]
    field_of = waste_count
    jokers = pos.jokers > 0
    failed: dict[int, int] = {}
    bounds: dict[int, int] = {}
    line: list[int] = []
    nodes = 0
    check_at = min(4096, max_nodes)
    # the two halves of the predecessor matching, cached apart: a move changes
    # one or two ranks, so one half is usually known already
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
        Plus 256 when :func:`_unreachable` from the ranks of ``extra`` (the
        caller applies that test only without a joker, as a joker can follow
        anything).
        """
        ekey = lay & _EVEN | pred & _ODD
        if wrap:
            ekey |= (pred & 7) << _CARRY
        even = evens.get(ekey)
        if even is None:
            even = evens[ekey] = _chain(ekey, 0, 0)
        carry = even[1] if wrap else pred & 7
        okey = lay & _ODD | pred & _EVEN & ~7 | carry << _CARRY
        odd = odds.get(okey)
        if odd is None:
            odd = odds[okey] = _chain(okey, 1, carry)[0]
        short = even[0] + odd
        if wrap and short:
            lay0, pred12 = lay & 7, pred >> 36 & 7
            back = lay0 if lay0 < pred12 else pred12
            short = short - back if short > back else 0
        # the ranks present, one bit per field (each count is at most 4)
        rkey = (lay | lay >> 1 | lay >> 2) & _LOW | ((extra | extra >> 1 | extra >> 2) & _LOW) << 39
        cut = reaches.get(rkey)
        if cut is None:
            cut = reaches[rkey] = _unreachable(rkey & _LOW, rkey >> 39, wrap, steps_from)
        return short + (256 if cut else 0)

    def lost(key: int, sp: int, jk: int) -> None:
        """Record that ``key`` (lost with ``sp`` cards turned) loses with fewer jokers too.

        Two dominances make one verdict cover many states. With fewer jokers a
        state loses too. With more stock cards turned it loses too: whatever
        the player could do with the shorter stock, the longer one allows as
        well, by turning the extra cards (all at the front) together with the
        first turn of the shorter line, or never if that line never turns.
        """
        base = key & ~(_JOKERS << 72)
        for j in range(jk):
            k = base | j << 72
            known = failed.get(k)
            if known is None or known > sp:
                failed[k] = sp

    def dfs(removed: int, free: int, sp: int, w: int, jk: int, cnt: int, pc: int) -> bool:
        nonlocal nodes, check_at
        nodes += 1
        if nodes >= check_at:
            if nodes >= max_nodes or time.perf_counter() > deadline:
                raise _Limit
            check_at = min(nodes + 4096, max_nodes)
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
        key = removed | playable << 36 | jk << 72
        if prune:
            known = failed.get(key)
            if known is not None and known <= sp:
                return False
            if jokers and not jk and playable != free:
                # a joker on the waste allows every move any other card allows
                known = failed.get(removed | free << 36)
                if known is not None and known <= sp:
                    return False
            # what can still reach the waste: the layout cards, the stock, and the
            # waste card unless nothing can go on it (then it is turned over unused)
            extra = stock_counts[sp] + (waste_count[w] if playable else 0)
            ckey = cnt | pc << 39 | extra << 78
            bound = bounds.get(ckey)
            if bound is None:
                bound = bounds[ckey] = bound_of(cnt, pc + extra, extra)
            if (bound & 255) > jk + (w == JOKER_RANK) or (
                bound > 255 and not jk and w != JOKER_RANK
            ):
                failed[key] = sp  # the lookup above found nothing as strong
                if jk:
                    lost(key, sp, jk)
                return False
        if not playable:
            children: list[tuple[int, int, int]] = []
        elif playable & (playable - 1):
            # Several choices: first a card after which the run can go on, then the
            # card with most cards still waiting under it.
            order: list[tuple[int, int, int, int, int]] = []
            rest = ~removed
            while playable:
                i = playable.bit_length() - 1
                bit = 1 << i
                playable ^= bit
                nr = removed | bit
                nf = free ^ bit
                for p in covers[i]:
                    if not covered_by[p] & ~nr:
                        nf |= 1 << p
                order.append(
                    (1 if nf & follow[ranks[i]] else 0, (blocks[i] & rest).bit_count(), i, nr, nf)
                )
            order.sort(reverse=True)
            children = [(i, nr, nf) for _, _, i, nr, nf in order]
        else:
            i = playable.bit_length() - 1
            bit = 1 << i
            nr = removed | bit
            nf = free ^ bit
            for p in covers[i]:
                if not covered_by[p] & ~nr:
                    nf |= 1 << p
            children = [(i, nr, nf)]
        for i, nr, nf in children:
            if nr == full:
                line.append(i)
                line.extend([DRAW_CODE] * drawn)
                return True
            r = ranks[i]
            if prune:
                # a child already known lost is not worth a call
                after = nf & follow[r]
                if after or jk:
                    known = failed.get(nr | after << 36 | jk << 72)
                    if known is not None and known <= sp:
                        continue
            if dfs(nr, nf, sp, r, jk, cnt - field_of[r], pc - gives[i]):
                line.append(i)
                line.extend([DRAW_CODE] * drawn)
                return True
        if sp < nstock:
            turned = stock[sp]
            after = free & follow[turned]
            known = (
                failed.get(removed | after << 36 | jk << 72) if prune and (after or jk) else None
            )
            if (known is None or known > sp + 1) and dfs(
                removed, free, sp + 1, turned, jk, cnt, pc
            ):
                line.extend([DRAW_CODE] * (drawn + 1))
                return True
        if jk:
            known = failed.get(removed | free << 36 | (jk - 1) << 72) if prune else None
            if known is not None and known <= sp:
                pass
            elif dfs(removed, free, sp, JOKER_RANK, jk - 1, cnt, pc):
                line.append(JOKER_CODE)
                line.extend([DRAW_CODE] * drawn)
                return True
        if prune:
            failed[key] = sp
            if jk:
                lost(key, sp, jk)
        return False

    if each_move:
        # Every root move on its own, sharing the table: the subtrees overlap a lot.
        per_move: dict[int, str] = {}
        removed, free, w, jk = pos.removed, pos.free, t.waste, pos.jokers
        cnt, pc = t.counts, t.givers
        children: list[tuple[int, tuple[int, int, int, int, int, int, int]]] = []
        playable = free & follow[w] if removed != full else 0
        while playable:
            i = playable.bit_length() - 1
            bit = 1 << i
            playable ^= bit
            nr = removed | bit
            nf = free ^ bit
            for p in covers[i]:
                if not covered_by[p] & ~nr:
                    nf |= 1 << p
            r = ranks[i]
            children.append((i, (nr, nf, 0, r, jk, cnt - (1 << 3 * r), pc - t.gives[i])))
        if nstock and removed != full:
            children.append((DRAW_CODE, (removed, free, 1, stock[0], jk, cnt, pc)))
        if jk and removed != full:
            children.append((JOKER_CODE, (removed, free, 0, JOKER_RANK, jk - 1, cnt, pc)))
        for code, args in children:
            if args[0] == full:
                per_move[code] = WIN
                continue
            try:
                per_move[code] = WIN if dfs(*args) else LOSE
            except _Limit:
                per_move[code] = UNKNOWN
                break
            line.clear()
        for code, _ in children:
            per_move.setdefault(code, UNKNOWN)
        verdicts = set(per_move.values())
        verdict = WIN if WIN in verdicts else UNKNOWN if UNKNOWN in verdicts else LOSE
        return Result(verdict, [], nodes, per_move=per_move)
    try:
        won = pos.removed == full or dfs(
            pos.removed, pos.free, 0, t.waste, pos.jokers, t.counts, t.givers
        )
    except _Limit:
        return Result(UNKNOWN, nodes=nodes)
    line.reverse()
    return Result(WIN if won else LOSE, line, nodes)


def _score(pos: Position, max_nodes: int, deadline: float, golf: bool) -> Result:
    t = _Tables(pos)
    full, covers, covered_by, ranks, stock, follow = (
        t.full,
        t.covers,
        t.covered_by,
        t.ranks,
        t.stock,
        t.follow,
    )
    nstock = len(stock)
    size = pos.layout.size
    # Golf scores only at the end; the pyramid family scores every step.
    step = 0 if golf else RUN_STEP
    draw_cost = 0 if golf else STOCK_PENALTY
    joker_cost = 0 if golf else JOKER_PENALTY
    memo: dict[int, tuple[int, int]] = {}
    nodes = 0
    check_at = min(4096, max_nodes)

    def best(removed: int, free: int, sp: int, w: int, jk: int, run: int) -> int:
        nonlocal nodes, check_at
        key = removed | sp << 36 | w << 42 | jk << 46 | run << 53
        hit = memo.get(key)
        if hit is not None:
            return hit[0]
        nodes += 1
        if nodes >= check_at:
            if nodes >= max_nodes or time.perf_counter() > deadline:
                raise _Limit
            check_at = min(nodes + 4096, max_nodes)
        top = -(1 << 30)
        choice = 0
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
                for p in covers[i]:
                    if not covered_by[p] & ~nr:
                        nf |= 1 << p
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
        if choice == 0 and top < -(1 << 29):
            # stuck: the round ends here
            top = -(size - removed.bit_count()) if golf else 0
            choice = 99
        memo[key] = (top, choice)
        return top

    if pos.removed == full:
        return Result(WIN, [], 0, score=0)
    try:
        value = best(pos.removed, pos.free, 0, t.waste, pos.jokers, pos.run)
    except _Limit:
        return Result(UNKNOWN, nodes=nodes)
    # Follow the stored choices to write the line down.
    line: list[int] = []
    removed, free, sp, w, jk, run = pos.removed, pos.free, 0, t.waste, pos.jokers, pos.run
    while True:
        key = removed | sp << 36 | w << 42 | jk << 46 | run << 53
        _, choice = memo[key]
        if choice == 99:
            break
        line.append(choice)
        if choice == DRAW_CODE:
            w, sp, run = stock[sp], sp + 1, 0
        elif choice == JOKER_CODE:
            w, jk, run = JOKER_RANK, jk - 1, run + 1
        else:
            bit = 1 << choice
            removed |= bit
            if removed == full:
                break
            free ^= bit
            for p in covers[choice]:
                if not covered_by[p] & ~removed:
                    free |= 1 << p
            w, run = ranks[choice], run + 1
    return Result(WIN if removed == full else LOSE, line, nodes, score=value)
