"""Clear mode by layers of the stock: every reachable state once, waste ranks as bits.

Why a second algorithm next to the depth-first search of :mod:`.search`: a
round that cannot be cleared makes a depth-first search visit every state it
cannot prune, one Python call each, and the slowest lost pyramid rounds took
almost half a second that way. Here the same states are swept breadth-first,
one *layer* per number of stock cards turned, and the waste card of a state
is one bit of a 14-bit set (13 ranks and the joker), so that one step of the
sweep handles every waste rank a set of removed cards was reached with at
once: "which free cards fit any of these wastes" is one ``&`` per card.

Why it is exact (each rule keeps a state that can still win):

- within a layer, playing a card only grows the removed set, and a joker
  keeps it; so the layer is swept in order of removed-card count, and for one
  removed set from most jokers left to fewest; no state is handled before all
  its predecessors in the layer;
- a state met again in a later layer is skipped: with fewer cards turned it
  can do all the later one can (turn the extra cards together with the later
  one's first turn), the argument of :func:`.search.solve`'s table;
- a state is skipped when the same removed set was reached with at least as
  many jokers left and the same waste rank, or a joker on the waste (which
  lets every card go that any other card lets go).

Each kept state remembers the state it came from and the move, so a win is
read back into a line; a lost round is proved by running out of states.
"""

from __future__ import annotations

import time

from pyramids.games.piramides.cards import NEXT_RANKS, NEXT_RANKS_NO_WRAP
from pyramids.solver.position import JOKER, Position

#: the waste index that stands for a joker (any card may follow); bit 13 of a waste set
JOKER_RANK = 13
_JOKER_BIT = 1 << JOKER_RANK

#: move codes in a line (the same as :mod:`.search`'s)
DRAW_CODE = -1
JOKER_CODE = -2

#: move fields of a ``parent`` entry besides a position: the joker, and turns (+ count)
_JOKER_MOVE = 0x100
_DRAWS = 0x200
#: waste sets of one removed set are packed in one int, 14 bits per number of jokers left
_FIELD = 14
_ALL = (1 << _FIELD) - 1


def _key(removed: int, waste: int, jokers: int) -> int:
    """One int for a state: (removed set, waste index, jokers left)."""
    return (removed << 4 | waste) << 6 | jokers


class LayerLimit(Exception):
    """The node or time budget was spent before the answer was known."""


def clear_by_layers(pos: Position, max_nodes: int, deadline: float) -> tuple[bool, list[int], int]:
    """Decide whether ``pos`` can be cleared: (won, line of move codes, nodes).

    A *node* here is one removed set handled in one layer, with all the waste
    ranks and joker counts it was newly reached with. Raises
    :class:`LayerLimit` past ``max_nodes`` nodes or the ``deadline`` (a
    ``time.perf_counter`` value).
    """
    layout = pos.layout
    full = layout.full_mask
    covers, covered_by = layout.covers, layout.covered_by
    size = layout.size
    ranks = [c % 13 for c in pos.cards]
    stock = [c % 13 for c in pos.stock]
    table = NEXT_RANKS if pos.wrap else NEXT_RANKS_NO_WRAP
    jokers = pos.jokers
    fields = range(jokers + 1)
    # fits[i]: the waste indices position i's card may go on (a joker: any), in every field
    fits_rank = [
        sum(1 << w for w in range(13) if table[w] >> s & 1) | _JOKER_BIT for s in range(13)
    ]
    fits = [sum(fits_rank[r] << _FIELD * j for j in fields) for r in ranks]
    # dominated[w][j]: the states (waste w, j jokers) makes pointless: the same waste or
    # the joker's "any waste" with j jokers or fewer (packed like a waste set)
    dominated = [
        [
            sum((_ALL if w == JOKER_RANK else 1 << w) << _FIELD * k for k in range(j + 1))
            for j in fields
        ]
        for w in range(14)
    ]
    # follow[w]: positions whose card may go on waste w (a joker: all)
    follow = [sum(1 << i for i in range(size) if fits[i] >> w & 1) for w in range(14)]
    waste = JOKER_RANK if pos.waste == JOKER else pos.waste % 13
    if pos.removed == full:
        return True, [], 0

    # the free positions of each removed set met so far
    free_of: dict[int, int] = {pos.removed: pos.free}
    # succ[removed]: (waste set it fits, removed set after, rank, position) per free card
    succ: dict[int, list[tuple[int, int, int, int]]] = {}
    # seen[removed]: every (waste, jokers) already reached or dominated by one reached
    seen: dict[int, int] = {}
    # where each kept state came from, keyed by _key(state): the previous state's key
    # << 16 | the move (a position, _JOKER_MOVE, or _DRAWS + the number of turns)
    parent: dict[int, int] = {_key(pos.removed, waste, jokers): -1}
    # removed -> per jokers left: (first layer reached, a waste it had there) or None;
    # from then on it may turn the stock in every later layer (module docstring)
    active: dict[int, list[tuple[int, int] | None]] = {}
    # turn_on[w]: the active removed sets with a card to play on a turned w, and their slots
    turn_on: list[list[tuple[int, list[tuple[int, int] | None]]]] = [[] for _ in range(13)]
    nodes = 0
    check_at = min(1024, max_nodes)
    # this layer, per removed-card count: removed set -> packed waste sets to expand
    layer: list[dict[int, int]] = [{} for _ in range(size + 1)]
    sp = 0

    def reach(removed: int, w: int, j: int) -> None:
        """A new state (``parent`` already set): note it, and expand it if a card fits.

        A state with nothing to play can only turn the stock or take a joker;
        both are done for its removed set once, when the set is first met
        with ``j`` jokers left (``active``), so it needs no expansion.
        """
        got = seen.get(removed, 0) | dominated[w][j]
        slots = active.get(removed)
        if slots is None:
            slots = active[removed] = [None] * (jokers + 1)
            free = free_of[removed]
            for v in range(13):
                if free & follow[v]:
                    turn_on[v].append((removed, slots))
        if slots[j] is None:
            slots[j] = (sp, w)
            # a joker on the waste: every free card fits, so it is always expanded
            k, kw = j, w
            while k and not got >> _FIELD * (k - 1) >> JOKER_RANK & 1:
                parent[_key(removed, JOKER_RANK, k - 1)] = _key(removed, kw, k) << 16 | _JOKER_MOVE
                got |= dominated[JOKER_RANK][k - 1]
                bucket = layer[removed.bit_count()]
                bucket[removed] = bucket.get(removed, 0) | _JOKER_BIT << _FIELD * (k - 1)
                k, kw = k - 1, JOKER_RANK
                if slots[k] is not None:
                    break
                slots[k] = (sp, kw)
        seen[removed] = got
        if free_of[removed] & follow[w]:
            bucket = layer[removed.bit_count()]
            bucket[removed] = bucket.get(removed, 0) | (1 << w) << _FIELD * j

    def line_to(key: int) -> list[int]:
        out: list[int] = []
        link = parent[key]
        while link >= 0:
            key, move = link >> 16, link & 0xFFFF
            if move >= _DRAWS:
                out.extend([DRAW_CODE] * (move - _DRAWS))
            else:
                out.append(JOKER_CODE if move == _JOKER_MOVE else move)
            link = parent[key]
        out.reverse()
        return out

    reach(pos.removed, waste, jokers)
    shifts = [_FIELD * j for j in fields]
    while True:
        for count in range(size):
            bucket = layer[count]
            if not bucket:
                continue
            layer[count] = {}
            for removed, packed in bucket.items():
                nodes += 1
                if nodes >= check_at:
                    if nodes >= max_nodes or time.perf_counter() > deadline:
                        raise LayerLimit
                    check_at = min(nodes + 1024, max_nodes)
                moves = succ.get(removed)
                if moves is None:
                    moves = succ[removed] = []
                    free = free_of[removed]
                    rest = free
                    while rest:
                        i = rest.bit_length() - 1
                        bit = 1 << i
                        rest ^= bit
                        nr = removed | bit
                        if nr not in free_of:
                            nf = free ^ bit
                            for p in covers[i]:
                                if not covered_by[p] & ~nr:
                                    nf |= 1 << p
                            free_of[nr] = nf
                        moves.append((fits[i], nr, ranks[i], i))
                # play a free card that fits one of the wastes
                for fit, nr, r, i in moves:
                    on = packed & fit
                    if not on:
                        continue
                    got = seen.get(nr, 0)
                    for j, shift in enumerate(shifts):
                        bits = on >> shift & _ALL
                        if not bits or got >> shift >> r & 1:
                            continue
                        prev = _key(removed, (bits & -bits).bit_length() - 1, j)
                        parent[_key(nr, r, j)] = prev << 16 | i
                        if nr == full:
                            return True, line_to(_key(nr, r, j)), nodes
                        slots = active.get(nr)
                        if slots is None or slots[j] is None:
                            reach(nr, r, j)
                            got = seen[nr]
                            continue
                        # the common case of reach(), inline: a set already met
                        got |= dominated[r][j]
                        seen[nr] = got
                        if free_of[nr] & follow[r]:
                            nxt = layer[count + 1]
                            nxt[nr] = nxt.get(nr, 0) | (1 << r) << shift
        if sp >= len(stock):
            return False, [], nodes
        # turn the next stock card: every state met so far may have turned up to here
        w = stock[sp]
        sp += 1
        for removed, slots in list(turn_on[w]):
            got = seen[removed]
            for j in fields:
                first = slots[j]
                if first is None or got >> _FIELD * j >> w & 1:
                    continue
                parent[_key(removed, w, j)] = _key(removed, first[1], j) << 16 | (
                    _DRAWS + sp - first[0]
                )
                reach(removed, w, j)
                got = seen[removed]
