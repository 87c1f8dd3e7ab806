"""Clear mode by removed sets: one pass over the layout's removable sets, layers as bits.

Why a second algorithm next to the depth-first search of :mod:`.search`: a
round that cannot be cleared makes a depth-first search visit every state it
cannot prune, one Python call each, and the slowest lost pyramid rounds took
almost half a second that way. A 7-row pyramid has only 1,430 sets of removed
cards that can occur (a card goes only after both cards on it), so this
module visits each of them once, in order of card count, whatever the cards.

A state is (removed set, waste rank, jokers left, *layer*: stock cards
turned). What makes one pass enough: a state reached with fewer cards turned
can do everything the same state can with more turned (it turns the extra
cards together with the other's first turn), so for each (removed set, waste,
jokers) only the *fewest* turns matter. Every move keeps the layer or adds to
it, and playing a card grows the removed set, so once all the sets a set can
come from are done, its fewest turns are known:

- playing free card ``i`` (rank ``r``) from set ``R`` reaches ``R + i`` with
  waste ``r`` in the earliest layer in which ``R`` had a waste ``i`` fits on;
- with ``R`` first reached in layer ``e`` (any waste), turning the stock
  reaches ``R`` with waste ``stock[t - 1]`` in every layer ``t > e``;
- a joker reaches ``R`` with the joker on the waste, one joker fewer, in
  layer ``e``; so the jokers-left counts of a set are done from most to
  fewest.

The layers of a (removed set, jokers left) are one int of 14-bit fields, one
field per layer and one bit per waste rank (13 ranks and the joker), so
"the earliest layer with a waste card ``i`` fits on" is an AND and a lowest
set bit, and all the turns are one OR. The round can be cleared when the
full set is reached. A winning line is read back from these ints afterwards
(each step back finds a move that gives the recorded earliest layer), so
nothing is stored per state during the pass.

The sets and their successors depend only on the layout's shape, not on the
cards, so they are computed once per layout and kept (:func:`_shape_of`).
"""

from __future__ import annotations

from dataclasses import dataclass

from pyramids.games.piramides.layout import Layout
from pyramids.solver.budget import SearchLimit, next_check
from pyramids.solver.position import DRAW_CODE, JOKER_CODE, JOKER_RANK, RANKS, Position

#: the joker's bit in a layer field (any card may follow it)
_JOKER_BIT = 1 << JOKER_RANK
#: bits per layer field: one per waste rank and the joker
_FIELD = JOKER_RANK + 1
#: removed sets handled between two looks at the clock
_CHECK_EVERY = 256

#: the node or time budget was spent (:mod:`.budget`; ``nodes``: removed sets handled)
LayerLimit = SearchLimit


@dataclass(frozen=True)
class _Shape:
    """Every removable set of a layout, with its moves (card-independent, kept per layout)."""

    #: the removed sets, in order of card count (so every set after those it comes from)
    sets: tuple[int, ...]
    index: dict[int, int]
    #: per set: (index of the set after playing position i, i) for each free position i
    moves: tuple[tuple[tuple[int, int], ...], ...]
    #: per set: (position i, index of the set before i was played) for each last-played i
    back: tuple[tuple[tuple[int, int], ...], ...]


_SHAPES: dict[tuple[int, ...], _Shape] = {}


def _shape_of(layout: Layout) -> _Shape:
    """The removable sets of ``layout`` and their moves, computed on first use.

    Meant for layouts with few removable sets: 1,430 for the pyramid (≈ 4 ms),
    22,932 for tripeaks; golf's 6⁷ would take seconds and much memory.
    """
    key = layout.covered_by
    shape = _SHAPES.get(key)
    if shape is not None:
        return shape
    covered_by, covers = layout.covered_by, layout.covers
    sets: list[int] = [0]
    index = {0: 0}
    free = [layout.initially_free]
    moves: list[list[tuple[int, int]]] = [[]]
    back: list[list[tuple[int, int]]] = [[]]
    # sets are numbered as they are first met, level by level of card count: every
    # set gets its number before the sets of its level are expanded
    for k, removed in enumerate(sets):
        rest = free[k]
        while rest:
            bit = rest & -rest
            rest ^= bit
            i = bit.bit_length() - 1
            child = index.get(removed | bit)
            if child is None:
                child = index[removed | bit] = len(sets)
                sets.append(removed | bit)
                opened = free[k] ^ bit
                for below in covers[i]:
                    if not covered_by[below] & ~(removed | bit):
                        opened |= 1 << below
                free.append(opened)
                moves.append([])
                back.append([])
            moves[k].append((child, i))
            back[child].append((i, k))
    shape = _Shape(tuple(sets), index, tuple(map(tuple, moves)), tuple(map(tuple, back)))
    _SHAPES[key] = shape
    return shape


_PUTS: dict[int, list[list[int]]] = {}


def _puts(layers: int) -> list[list[int]]:
    """``[r][p + 1]``: waste rank ``r`` in the layer field of bit ``p`` (kept per layer count).

    Indexed by the length of a lowest set bit, so that "waste r in the earliest
    layer of these fields" is one lookup.
    """
    puts = _PUTS.get(layers)
    if puts is None:
        puts = _PUTS[layers] = [
            [0] + [1 << (p - p % _FIELD + r) for p in range(_FIELD * layers)] for r in range(RANKS)
        ]
    return puts


def _lowest(bits: int) -> int:
    """Index of the lowest set bit of a non-zero int."""
    return (bits & -bits).bit_length() - 1


@dataclass(frozen=True)
class _Masks:
    """Per-round masks of a pass, from the cards (the two passes build the same ones)."""

    ranks: list[int]
    stock: list[int]
    #: fit[i]: the wastes position i's card may go on, in every layer field
    fit: list[int]
    #: put[i][p + 1]: position i's rank as the waste in the layer field of bit p
    put: list[list[int]]
    #: turns[e]: for a set first reached in layer e, each later layer with its turned card
    turns: list[int]


def _masks_of(pos: Position) -> _Masks:
    """The masks of ``pos``'s round (a joker on the waste fits every card)."""
    ranks = pos.ranks
    stock = pos.stock_ranks
    layers = len(stock) + 1
    table = pos.follow
    # one bit in every layer field: times a waste set, that set in every layer
    every_layer = sum(1 << _FIELD * s for s in range(layers))
    fit_of_rank = [
        (sum(1 << w for w in range(RANKS) if table[w] >> r & 1) | _JOKER_BIT) * every_layer
        for r in range(RANKS)
    ]
    put_of_rank = _puts(layers)
    turns = [0] * layers
    for t in range(layers - 1, 0, -1):
        turns[t - 1] = turns[t] | 1 << (_FIELD * t + stock[t - 1])
    return _Masks(
        ranks,
        stock,
        [fit_of_rank[r] for r in ranks],
        [put_of_rank[r] for r in ranks],
        turns,
    )


def clear_by_layers(pos: Position, max_nodes: int, deadline: float) -> tuple[bool, list[int], int]:
    """Decide whether ``pos`` can be cleared: (won, line of move codes, nodes).

    A *node* here is one reachable removed set, handled once with all its
    wastes, layers and joker counts. Raises :class:`LayerLimit` past
    ``max_nodes`` nodes or the ``deadline`` (a ``time.perf_counter`` value).
    """
    layout = pos.layout
    full = layout.full_mask
    if pos.removed == full:
        return True, [], 0
    shape = _shape_of(layout)
    m = _masks_of(pos)
    ranks, stock, fit, put, turns = m.ranks, m.stock, m.fit, m.put, m.turns
    jokers = pos.jokers
    # reached[j][k]: the layer fields of set k with j jokers left (0: not reached)
    reached = [[0] * len(shape.sets) for _ in range(jokers + 1)]
    start = shape.index.get(pos.removed)
    if start is None:
        raise ValueError("removed names a card played before a card lying on it")
    waste = pos.waste_rank
    reached[jokers][start] = 1 << waste
    moves_of = shape.moves
    last = len(shape.sets) - 1  # the full set
    nodes = 0
    check_at = min(_CHECK_EVERY, max_nodes)
    down = range(jokers, -1, -1)
    for k in range(start, last):
        node = False
        for j in down:
            here = reached[j]
            fields = here[k]
            if not fields:
                continue
            node = True
            first = (fields & -fields).bit_length() - 1
            fields |= turns[first // _FIELD]
            here[k] = fields
            if j:
                reached[j - 1][k] |= _JOKER_BIT << first - first % _FIELD
            for child, i in moves_of[k]:
                on = fields & fit[i]
                if on:
                    here[child] |= put[i][(on & -on).bit_length()]
        if node:
            nodes += 1
            if nodes >= check_at:
                check_at = next_check(nodes, max_nodes, deadline, _CHECK_EVERY)
    for j in down:
        if reached[j][last]:
            line = _line_back(shape, reached, j, ranks, stock, fit, (start, waste, jokers))
            return True, line, nodes + 1
    return False, [], nodes


def _line_back(
    shape: _Shape,
    reached: list[list[int]],
    jokers: int,
    ranks: list[int],
    stock: list[int],
    fit: list[int],
    origin: tuple[int, int, int],
) -> list[int]:
    """A winning line: from the full set back to ``origin`` (set index, waste, jokers).

    At each step the state (set, waste, jokers, earliest layer) is explained
    by a move from a state with a fewer cards removed, more jokers left or an
    earlier layer, so the walk ends at the origin.
    """
    k, j = len(shape.sets) - 1, jokers
    p = _lowest(reached[j][k])
    layer, w = divmod(p, _FIELD)
    out: list[int] = []
    while (k, w, j) != origin or layer:
        fields = reached[j][k]
        first = _lowest(fields)
        if w < JOKER_RANK and first < layer * _FIELD and stock[layer - 1] == w:
            # turned the stock from the set's first layer
            out.extend([DRAW_CODE] * (layer - first // _FIELD))
            layer, w = divmod(first, _FIELD)
            continue
        if w == JOKER_RANK and j < len(reached) - 1:
            more = reached[j + 1][k]
            if more and _lowest(more) // _FIELD == layer:
                out.append(JOKER_CODE)
                j += 1
                w = _lowest(more) % _FIELD
                continue
        for i, parent in shape.back[k]:
            if ranks[i] != w:
                continue
            on = reached[j][parent] & fit[i]
            if on and _lowest(on) // _FIELD == layer:
                out.append(i)
                k, w = parent, _lowest(on) % _FIELD
                break
        else:  # pragma: no cover - the pass recorded a state no move explains
            raise AssertionError("no move leads to a reached state")
    out.reverse()
    return out


def clear_by_levels(pos: Position, max_nodes: int, deadline: float) -> tuple[bool, list[int], int]:
    """:func:`clear_by_layers` for layouts with too many removable sets to list: only those reached.

    Why: golf has up to 6⁷ removable sets, too many to tabulate as the
    pyramid's 1,430 are, yet a lost golf deal with the King-Ace wrap made the
    depth-first search visit up to a million states. The same pass works
    over the sets a deal actually reaches: they are kept level by level (one
    dict per card count, set -> layer fields), each level expanded once after
    the one before it is complete, so every set is handled once, after every
    set it comes from, as in :func:`clear_by_layers`. The first time the full
    set is reached the round is won and the line is read back from the
    levels. No jokers to play (golf and tripeaks have none; one already on
    the waste fits every card); a *node* is one reached set. Raises
    :class:`LayerLimit` past ``max_nodes`` nodes or ``deadline``.
    """
    if pos.jokers:
        raise ValueError("clear_by_levels plays rounds without jokers")
    layout = pos.layout
    full = layout.full_mask
    if pos.removed == full:
        return True, [], 0
    covers, covered_by = layout.covers, layout.covered_by
    m = _masks_of(pos)
    ranks, stock, fit, put, turns = m.ranks, m.stock, m.fit, m.put, m.turns
    waste = pos.waste_rank
    level: dict[int, int] = {pos.removed: 1 << waste}
    frees: dict[int, int] = {pos.removed: pos.free}
    levels = [level]
    nodes = 0
    check_at = min(_CHECK_EVERY, max_nodes)
    while level:
        upper: dict[int, int] = {}
        for removed, fields in level.items():
            nodes += 1
            if nodes >= check_at:
                check_at = next_check(nodes, max_nodes, deadline, _CHECK_EVERY)
            first = (fields & -fields).bit_length() - 1
            fields |= turns[first // _FIELD]
            level[removed] = fields
            free = frees[removed]
            rest = free
            while rest:
                bit = rest & -rest
                rest ^= bit
                i = bit.bit_length() - 1
                on = fields & fit[i]
                if not on:
                    continue
                grown = removed | bit
                if grown == full:
                    at = (on & -on).bit_length() - 1
                    line = _line_back_levels(
                        layout, levels, removed, at // _FIELD, at % _FIELD, stock, ranks, fit
                    )
                    return True, [*line, i], nodes
                value = put[i][(on & -on).bit_length()]
                known = upper.get(grown)
                if known is None:
                    upper[grown] = value
                    opened = free ^ bit
                    for p in covers[i]:
                        if not covered_by[p] & ~grown:
                            opened |= 1 << p
                    frees[grown] = opened
                else:
                    upper[grown] = known | value
        levels.append(upper)
        level = upper
    return False, [], nodes


def _line_back_levels(
    layout: Layout,
    levels: list[dict[int, int]],
    removed: int,
    layer: int,
    waste: int,
    stock: list[int],
    ranks: list[int],
    fit: list[int],
) -> list[int]:
    """The line from the start to (``removed``, ``waste`` in ``layer``), from the levels.

    As :func:`_line_back`: each step finds a move from a set with one card
    fewer, or turns from the set's first layer, that gives the recorded
    earliest layer; the sets a card can have come from are those whose last
    card played lay on no card still there and was no longer covered.
    """
    covered_by, covers = layout.covered_by, layout.covers
    base = levels[0]
    (origin,) = base
    start_waste = _lowest(base[origin]) % _FIELD
    depth = removed.bit_count() - origin.bit_count()
    out: list[int] = []
    while (removed, waste, layer) != (origin, start_waste, 0):
        fields = levels[depth][removed]
        first = _lowest(fields)
        if first < layer * _FIELD and stock[layer - 1] == waste:
            out.extend([DRAW_CODE] * (layer - first // _FIELD))
            layer, waste = divmod(first, _FIELD)
            continue
        below = levels[depth - 1] if depth else {}
        rest = removed & ~origin
        while rest:
            bit = rest & -rest
            rest ^= bit
            i = bit.bit_length() - 1
            parent = removed ^ bit
            if (
                ranks[i] != waste
                or covered_by[i] & ~parent
                or any(parent >> p & 1 for p in covers[i])
            ):
                continue
            on = below.get(parent, 0) & fit[i]
            if on and _lowest(on) // _FIELD == layer:
                out.append(i)
                removed, waste = parent, _lowest(on) % _FIELD
                depth -= 1
                break
        else:  # pragma: no cover - the pass recorded a state no move explains
            raise AssertionError("no move leads to a reached state")
    out.reverse()
    return out
