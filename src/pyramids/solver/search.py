"""Exact search of one round: can it be cleared, and what is its best score?

Two modes, one idea: depth-first search over compact states.

* ``clear`` decides whether the layout can be cleared and returns a winning
  line. A state is four small ints packed into one key (the removed-positions
  bitmask, the stock pointer, the waste *rank* and the jokers left), so the
  transposition table is a plain ``dict`` of keys known to lose. Four prunings
  keep the search small; none can lose a win (the tests compare with a plain
  search and with brute force):

  - *suit symmetry*: suits never matter for a move, so states that differ only
    in the waste card's suit share one key;
  - *joker dominance*: a state that loses with ``j`` jokers loses with fewer,
    so the table stores the most jokers known to lose; and a joker on the
    waste allows every move any card allows, so if that state is lost without
    jokers, so is every other waste card there;
  - *rank reachability*: without a joker, a layout card can only be played on
    a waste one rank away, and the waste only ever shows the current card, a
    stock card or a layout card. If some rank left in the layout cannot be
    reached from those by steps of one rank through ranks still in the layout,
    the state is lost;
  - *predecessor counting*: each card on the waste is covered by at most one
    card, so the layout cards left need distinct predecessors one rank away
    (:func:`_unmatched`); more cards without one than jokers left: lost.

* ``score`` finds the best score of the round from the position on (runs,
  stock and joker costs, clearing bonus; golf's own score for golf) by
  memoised search over states that also carry the run length.

Both stop at a node or time limit and then answer ``unknown`` rather than
guess.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from functools import cache

from pyramids.games.piramides import DRAW, PLAY, USE_JOKER, PiramidesMove
from pyramids.games.piramides.cards import NEXT_RANKS, NEXT_RANKS_NO_WRAP
from pyramids.games.piramides.game import (
    CLEAR_BONUS,
    JOKER_PENALTY,
    RUN_STEP,
    STOCK_PENALTY,
)
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


@cache
def _adjacency(wrap: bool) -> tuple[int, ...]:
    """For each 13-bit set of ranks, the set of ranks one step away from any of them."""
    table = NEXT_RANKS if wrap else NEXT_RANKS_NO_WRAP
    out = [0] * (1 << 13)
    for mask in range(1, 1 << 13):
        low = mask & -mask
        out[mask] = out[mask ^ low] | table[low.bit_length() - 1]
    return tuple(out)


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
        table = NEXT_RANKS if pos.wrap else NEXT_RANKS_NO_WRAP
        # follow[w]: positions whose card may go on a waste of rank w (13 = joker: all)
        self.follow = [
            sum(self.rank_pos[s] for s in range(13) if table[w] >> s & 1) for w in range(13)
        ]
        self.follow.append(self.full)
        self.adj = _adjacency(pos.wrap)
        remaining = ~pos.removed
        self.waste = JOKER_RANK if pos.waste == JOKER else pos.waste % 13
        # stock_counts[sp]: cards per rank still in the stock once sp cards are turned,
        # packed 3 bits per rank (never more than 4 of a rank)
        self.stock_counts = [0] * (n + 1)
        for k in range(n - 1, -1, -1):
            self.stock_counts[k] = self.stock_counts[k + 1] + (1 << 3 * self.stock[k])
        self.wrap = pos.wrap
        self.counts = sum((self.rank_pos[r] & remaining).bit_count() << 3 * r for r in range(13))
        # blocks[i]: every position that waits, directly or not, for position i to go
        self.blocks = [0] * layout.size
        for i in sorted(range(layout.size), key=lambda k: layout.cells[k][0]):
            for p in layout.covers[i]:
                self.blocks[i] |= 1 << p | self.blocks[p]


#: the waste-rank field of a clear-mode key set to the joker
JOKER_KEY = JOKER_RANK << 42


def _bound(lay: int, pred: int, wrap: bool, adj: tuple[int, ...]) -> int:
    """Both necessary conditions on ranks at once (cached per count pattern by the search).

    Returns the :func:`_unmatched` shortfall, plus 256 when some rank left in
    the layout cannot be reached at all: from the ranks that can be on the
    waste before it (the stock and the waste card), by steps of one rank
    through ranks still in the layout. The caller applies the second test only
    without a joker, as a joker can follow anything.
    """
    left = 0
    sources = 0
    for r in range(13):
        mine = lay >> 3 * r & 7
        if mine:
            left |= 1 << r
        if (pred >> 3 * r & 7) > mine:
            sources |= 1 << r
    reach = sources
    more = adj[reach] & left & ~reach
    while more:
        reach |= more
        more = adj[reach] & left & ~reach
    return _unmatched(lay, pred, wrap) + (256 if left & ~reach else 0)


#: layout ranks in the order of the wrap cycle (each followed by its upper neighbour)
_CYCLE = (0, 2, 4, 6, 8, 10, 12, 1, 3, 5, 7, 9, 11)


def _unmatched(lay: int, pred: int, wrap: bool) -> int:
    """A lower bound on the layout cards left that can have no card to be played on.

    ``lay`` packs the count of layout cards left per rank, 3 bits each (rank
    index r at bits 3r..3r+2); ``pred`` the same for every card that can still
    be on the waste before one of them: those layout cards, the stock and the
    current waste card. Each card on the waste is covered by at most one card,
    so the cards left in the layout need distinct predecessors one rank away.
    That is a matching problem on ranks: without wrap the ranks form two paths
    (by parity) where a greedy matching is exact; with wrap they form one
    cycle, cut at one edge (which can add back at most its capacity).
    """
    short = 0
    if wrap:
        rest = 0
        for r in _CYCLE:
            need = lay >> 3 * r & 7
            take = need if need < rest else rest
            need -= take
            cap = pred >> 3 * ((r + 1) % 13) & 7
            take = need if need < cap else cap
            short += need - take
            rest = cap - take
        lay0, pred12 = lay & 7, pred >> 36 & 7
        back = lay0 if lay0 < pred12 else pred12
        return short - back if short > back else 0
    for parity in (0, 1):
        rest = pred & 7 if parity else 0
        for r in range(parity, 13, 2):
            need = lay >> 3 * r & 7
            take = need if need < rest else rest
            need -= take
            cap = pred >> 3 * r + 3 & 7 if r < 12 else 0
            take = need if need < cap else cap
            short += need - take
            rest = cap - take
    return short


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
    try:
        if mode == "clear":
            result = _clear(pos, max_nodes, start + max_seconds, prune, each_move)
        else:
            golf = pos.layout.name == "golf" if golf_score is None else golf_score
            result = _score(pos, max_nodes, start + max_seconds, golf)
    finally:
        sys.setrecursionlimit(limit)
    result.seconds = time.perf_counter() - start
    result.mode = mode
    return result


def _clear(
    pos: Position, max_nodes: int, deadline: float, prune: bool, each_move: bool = False
) -> Result:
    t = _Tables(pos)
    full, covers, covered_by = t.full, t.covers, t.covered_by
    ranks, stock, follow, adj = t.ranks, t.stock, t.follow, t.adj
    nstock = len(stock)
    stock_counts, wrap, blocks = t.stock_counts, t.wrap, t.blocks
    waste_count = [1 << 3 * r for r in range(13)] + [0]
    jokers = pos.jokers > 0
    failed: dict[int, int] = {}
    bounds: dict[int, int] = {}
    line: list[int] = []
    nodes = 0
    check_at = min(4096, max_nodes)

    def dfs(removed: int, free: int, sp: int, w: int, jk: int, cnt: int) -> bool:
        nonlocal nodes, check_at
        nodes += 1
        if nodes >= check_at:
            if nodes >= max_nodes or time.perf_counter() > deadline:
                raise _Limit
            check_at = min(nodes + 4096, max_nodes)
        key = removed | sp << 36 | w << 42
        if prune:
            known = failed.get(key)
            if known is not None and known >= jk:
                return False
            if jokers and not jk and w != JOKER_RANK and removed | sp << 36 | JOKER_KEY in failed:
                # a joker on the waste allows every move any other card allows
                return False
            # what can still reach the waste: the layout cards, the stock, the waste card
            pred = cnt + stock_counts[sp] + waste_count[w]
            ckey = cnt | pred << 39
            bound = bounds.get(ckey)
            if bound is None:
                bound = bounds[ckey] = _bound(cnt, pred, wrap, adj)
            if (bound & 255) > jk + (w == JOKER_RANK) or (
                bound > 255 and not jk and w != JOKER_RANK
            ):
                failed[key] = jk
                return False
        playable = free & follow[w]
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
                return True
            r = ranks[i]
            if dfs(nr, nf, sp, r, jk, cnt - (1 << 3 * r)):
                line.append(i)
                return True
        if sp < nstock and dfs(removed, free, sp + 1, stock[sp], jk, cnt):
            line.append(DRAW_CODE)
            return True
        if jk and dfs(removed, free, sp, JOKER_RANK, jk - 1, cnt):
            line.append(JOKER_CODE)
            return True
        if prune:
            failed[key] = jk
        return False

    if each_move:
        # Every root move on its own, sharing the table: the subtrees overlap a lot.
        per_move: dict[int, str] = {}
        removed, free, w, jk = pos.removed, pos.free, t.waste, pos.jokers
        cnt = t.counts
        children: list[tuple[int, tuple[int, int, int, int, int, int]]] = []
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
            children.append((i, (nr, nf, 0, r, jk, cnt - (1 << 3 * r))))
        if nstock and removed != full:
            children.append((DRAW_CODE, (removed, free, 1, stock[0], jk, cnt)))
        if jk and removed != full:
            children.append((JOKER_CODE, (removed, free, 0, JOKER_RANK, jk - 1, cnt)))
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
        won = pos.removed == full or dfs(pos.removed, pos.free, 0, t.waste, pos.jokers, t.counts)
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
