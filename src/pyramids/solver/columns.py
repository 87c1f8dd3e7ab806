"""Golf decided by one vectorised pass over every vector of column heights.

Why a third algorithm: a golf deal that cannot be cleared, or a won one whose
early plays open big lost subtrees, makes the depth-first search of
:mod:`.search` visit up to millions of states, one Python call each. With the
King–Ace wrap that made it about twice as slow as the established C solver
over deals 1..1000. Yet golf has few sets of removed cards: a column is
always taken from the top, so a set is a height (cards taken, 0..5) per
column, 6⁷ = 279,936 sets in all. That is few enough to visit every one of
them, as NumPy operations over a whole layer (the sets with the same number
of cards taken) at a time: at most about 20 ms a deal (a lost deal stops
early, at the first layer it cannot reach).

The idea is the one of :mod:`.layers`. A state is (heights, the *source* of
the waste card, stock cards turned). The source is a column (the waste is the
card last taken from it, which the heights name) or the stock (the card
turned last, which the number of turns names). For each (heights, source)
only the fewest turns matter: a state reached with fewer turns can do
whatever the same state with more turns can, by turning the extra cards
together with the other's first turn. So the pass keeps one small int per
(source, heights), the fewest turns, in an ``int8`` array:

- taking column ``c``'s top card ``x`` at heights ``H`` reaches
  ``(H + 1 in column c, source c)`` with the fewest turns over the sources of
  ``H`` whose waste ``x`` may go on; from the stock source that is the first
  turn count, from its fewest on, whose card ``x`` fits on (one small table
  per deal, :func:`_first_fit`);
- turning the stock reaches ``(H, stock)`` with one turn more than the
  fewest of ``H``'s column sources (and the stock source keeps its own).

Playing adds one to the heights' sum and turning keeps it, so one pass over
the layers in order decides the round: it can be cleared if the full heights
are reached from some source. A winning line is read back from the array
afterwards (each step back finds a move that gives the recorded value).

The heights, their layers and their successors depend only on the layout's
shape; they are computed once per process (0.07–0.2 s of CPU) and kept. NumPy is
an optional dependency (the ``solver`` extra, also part of ``rl``): without
it :func:`usable` is false and the depth-first search decides golf alone.
"""

from __future__ import annotations

import importlib.util
import time
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from pyramids.games.piramides.layout import Layout
from pyramids.solver.budget import SearchLimit
from pyramids.solver.position import DRAW_CODE, JOKER_RANK, RANKS, Position

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

#: the rank index that stands for "no card" (an empty column's top): no waste takes it
_NONE = RANKS
#: width of a row of the first-fit table (:func:`_first_fit`): the 13 ranks and _NONE
_WIDTH = RANKS + 1


#: the most heights vectors a layout may have for this pass: golf's 6⁷ (the arrays
#: take about 15 bytes per vector; a layout of 12 columns of 3 would need 16.7 million)
MAX_HEIGHTS = 6**7


def usable(pos: Position) -> bool:
    """Whether this pass can decide ``pos``: NumPy is there, a column layout, no joker.

    Jokers are left to the depth-first search: golf deals have none, and a
    joker would add a dimension to the array for no deal that exists. A
    column layout with more heights vectors than :data:`MAX_HEIGHTS` is left
    to it too (the arrays grow as (depth + 1) to the power of the columns).
    """
    return _form_of(pos) is not None and importlib.util.find_spec("numpy") is not None


def _form_of(pos: Position) -> tuple[int, int] | None:
    """(columns, depth) of ``pos``'s layout if this pass takes the position (NumPy aside)."""
    form = _columns_of(pos.layout)
    if form is None or pos.jokers or (form[1] + 1) ** form[0] > MAX_HEIGHTS:
        return None
    return form


def _columns_of(layout: Layout) -> tuple[int, int] | None:
    """(columns, depth) if ``layout`` is columns dealt bottom card first, like golf's."""
    columns = 1 + max(col for _, col in layout.cells)
    depth = 1 + max(d for d, _ in layout.cells)
    if layout.size != columns * depth:
        return None
    for i, (d, col) in enumerate(layout.cells):
        on_it = 1 << i + 1 if d + 1 < depth else 0
        if i != col * depth + d or layout.covered_by[i] != on_it:
            return None
    return columns, depth


@dataclass(frozen=True)
class _Shape:
    """The heights of a column layout in layer order, with their successors (card-free).

    Index ``j`` of every array is a heights vector's place in layer order
    (sets with fewer cards taken first); ``index`` maps the mixed-radix number
    of a heights vector (``Σ h[c]·(depth+1)^c``) to that place.
    """

    columns: int
    depth: int
    #: heights[c, j]: cards taken from column c at place j
    heights: NDArray[np.int8]
    #: after[c, j]: the place of j with one more card taken from column c (``count``
    #: when column c is empty: a spare slot that the pass writes and never reads)
    after: NDArray[np.int32]
    #: layer L is the places layers[L] .. layers[L + 1] - 1
    layers: tuple[int, ...]
    index: NDArray[np.int32]

    @property
    def count(self) -> int:
        """The number of heights vectors."""
        return int(self.index.shape[0])

    @property
    def full(self) -> int:
        """The place of the full heights (every card taken): alone in the last layer."""
        return self.count - 1

    def place(self, heights: list[int]) -> int:
        """The place of a heights vector."""
        radix = self.depth + 1
        return int(self.index[sum(h * radix**c for c, h in enumerate(heights))])


@cache
def _shape_of(columns: int, depth: int) -> _Shape:
    """Build (once per process) the card-independent arrays of a column layout."""
    import numpy as np

    radix = depth + 1
    count = radix**columns
    number = np.arange(count, dtype=np.int64)
    raw = np.stack([number // radix**c % radix for c in range(columns)]).astype(np.int8)
    layer = raw.sum(axis=0, dtype=np.int64)
    order = np.argsort(layer, kind="stable")
    index = np.empty(count, dtype=np.int32)
    index[order] = np.arange(count, dtype=np.int32)
    heights = np.ascontiguousarray(raw[:, order])
    after = np.full((columns, count), count, dtype=np.int32)
    for c in range(columns):
        more = heights[c] < depth
        after[c, more] = index[order[more] + radix**c]
    layers = tuple(int(b) for b in np.searchsorted(layer[order], np.arange(columns * depth + 2)))
    return _Shape(columns, depth, heights, after, layers, index)


def _first_fit(pos: Position, never: int) -> NDArray[np.int8]:
    """Flat table: at ``t * _WIDTH + x``, the first turn count ``u >= t`` whose waste takes ``x``.

    The waste after ``u`` turns is the position's waste card (``u = 0``) or
    the stock card turned ``u``-th; ``never`` (one more than the stock's size)
    where no such ``u`` exists, and in the row ``t = never`` itself.
    """
    import numpy as np

    follow, stock = pos.follow, pos.stock_ranks
    table = np.full((len(stock) + 2, _WIDTH), never, dtype=np.int8)
    for t in range(len(stock), -1, -1):
        waste = pos.waste_rank if t == 0 else stock[t - 1]
        for x in range(RANKS):
            fits = waste == JOKER_RANK or follow[waste] >> x & 1
            table[t, x] = t if fits else table[t + 1, x]
    return table.ravel()


def clear_by_columns(pos: Position, deadline: float) -> tuple[bool, list[int], int]:
    """Decide whether ``pos`` can be cleared: (won, line of move codes, nodes).

    A *node* is one heights vector the pass reaches (with any source). No
    node limit: the pass visits each heights vector at most once, so its
    cost is bounded by the layout (about 17 ms for golf). The clock is looked
    at before each layer: past the ``deadline`` (a ``time.perf_counter``
    value) it raises :class:`~.budget.SearchLimit`. Raises ``ValueError`` for
    a position no play can reach (a card taken from under another), or for
    one this pass does not take (:func:`usable`, NumPy aside).
    """
    if pos.removed == pos.layout.full_mask:
        return True, [], 0
    done = _run(pos, deadline)
    if done.deepest < pos.layout.size:
        return False, [], done.nodes
    full = done.shape.full
    return True, _line_back(done, full, done.best_source(full)), done.nodes


def best_by_columns(pos: Position, deadline: float) -> tuple[int, list[int], int, bool]:
    """Golf's best score from ``pos`` on: (score, a line that gets it, nodes, cleared).

    Golf scores only at the end: the stock cards left when the layout is
    cleared, else minus the cards left when nothing more can be done. The
    pass gives both at once: the fewest turns with which the full heights
    are reached, or the deepest layer reached at all (the line then turns
    the rest of the stock, which no card can follow any more). Limits and
    errors as :func:`clear_by_columns`.
    """
    size, stock = pos.layout.size, len(pos.stock)
    if pos.removed == pos.layout.full_mask:
        return stock, [], 0, True
    done = _run(pos, deadline)
    shape, turns = done.shape, done.turns
    columns = shape.columns
    if done.deepest == size:
        place = shape.full
        source = done.best_source(place)
        used = int(turns[source, place])
        return stock - used, _line_back(done, place, source), done.nodes, True
    if done.deepest == done.start_layer:  # no card can ever be played: turn the whole stock
        return -(size - done.deepest), [DRAW_CODE] * stock, done.nodes, False
    a, b = shape.layers[done.deepest], shape.layers[done.deepest + 1]
    fewest = turns[:columns, a:b].min(axis=0)
    place = a + int((fewest < done.never).argmax())  # any reached heights of that layer
    source = done.best_source(place)
    line = _line_back(done, place, source) + [DRAW_CODE] * (stock - int(turns[source, place]))
    return -(size - done.deepest), line, done.nodes, False


@dataclass(frozen=True)
class _Pass:
    """A finished pass: its array, and what reading a line back from it needs."""

    shape: _Shape
    pos: Position
    #: [source, place]: the fewest turns (``never`` if not reached)
    turns: NDArray[np.int8]
    #: [column, place]: the rank of the column's top card
    tops: NDArray[np.int16]
    #: [column, place]: the ranks that may go on the card last taken from the column
    onto: NDArray[np.int16]
    #: the place of the position's own heights, and their layer
    root: int
    start_layer: int
    #: the value that means "not reached": one more than the stock's size
    never: int
    #: the last layer with heights reached (the layout's size: cleared)
    deepest: int
    nodes: int

    def best_source(self, place: int) -> int:
        """The column source from which ``place`` is reached with the fewest turns."""
        return int(self.turns[: self.shape.columns, place].argmin())


def _run(pos: Position, deadline: float) -> _Pass:
    """The pass itself, over the layers from the position's own to the last reached."""
    import numpy as np

    form = _form_of(pos)
    if form is None:
        raise ValueError(
            f"the column pass decides column layouts of at most {MAX_HEIGHTS:,} heights"
            " vectors, without jokers"
        )
    shape = _shape_of(*form)
    columns, depth, count = shape.columns, shape.depth, shape.count
    start = _start_heights(pos, columns, depth)
    ranks, follow = pos.ranks, pos.follow
    # per deal, by column and height: the rank of the column's top card (_NONE once
    # empty) and the ranks that may go on the card last taken from it (a bit each; 0
    # before any is taken); then the top card as a bit (_NONE's bit is in no mask)
    top_by_height = np.full((columns, depth + 1), _NONE, dtype=np.int16)
    onto_by_height = np.zeros((columns, depth + 1), dtype=np.int16)
    for c in range(columns):
        for h in range(depth):
            r = ranks[_code(c, h, depth)]
            top_by_height[c, h] = r
            onto_by_height[c, h + 1] = follow[r]
    tops = _by_place(top_by_height, shape)
    onto = _by_place(onto_by_height, shape)
    top_bits = np.left_shift(np.int16(1), tops)
    never = len(pos.stock) + 1  # "not reached": above every turn count
    blocked = np.int8(never)
    first_fit = _first_fit(pos, never)
    # turns[source, place]: the fewest turns with which (place, source) is reached;
    # sources 0 .. columns - 1 are the columns, `columns` the stock
    turns = np.full((columns + 1, count + 1), never, dtype=np.int8)
    root = shape.place(start)
    turns[columns, root] = 0
    by_column = turns[:columns]
    first = deepest = sum(start)
    nodes = 1
    for level in range(first, columns * depth):
        a, b = shape.layers[level], shape.layers[level + 1]
        if level > first:
            fewest = by_column[:, a:b].min(axis=0)
            reached = int(np.count_nonzero(fewest < never))
            if not reached:
                break  # nor any later layer: the round ends before this one
            nodes += reached
            deepest = level
            fewest += 1
            np.minimum(fewest, never, out=fewest)
            turns[columns, a:b] = fewest
        if time.perf_counter() > deadline:
            raise SearchLimit(nodes)
        here = by_column[:, a:b]
        stock_rows = turns[columns, a:b].astype(np.int16) * _WIDTH
        wastes = onto[:, a:b]
        for c in range(columns):
            best = first_fit.take(stock_rows + tops[c, a:b])
            # from each column source: its turns if the top card goes on its waste,
            # else `never` (bit operations: a table look-up per element costs 5x more)
            from_columns = np.equal(wastes & top_bits[c, a:b], 0).view(np.int8)
            np.multiply(from_columns, blocked, out=from_columns)
            np.maximum(from_columns, here, out=from_columns)
            np.minimum(best, from_columns.min(axis=0), out=best)
            turns[c, shape.after[c, a:b]] = best
    else:
        if int(by_column[:, shape.full].min()) < never:
            deepest, nodes = columns * depth, nodes + 1
    return _Pass(shape, pos, turns, tops, onto, root, first, never, deepest, nodes)


def _by_place(by_height: NDArray[np.int16], shape: _Shape) -> NDArray[np.int16]:
    """A per-deal (column, height) table spread over every place: [column, place]."""
    import numpy as np

    return np.stack([by_height[c].take(shape.heights[c]) for c in range(shape.columns)])


def _code(column: int, height: int, depth: int) -> int:
    """The position of the card on top of ``column`` when ``height`` cards are taken."""
    return column * depth + depth - 1 - height


def _start_heights(pos: Position, columns: int, depth: int) -> list[int]:
    """The heights of ``pos``; ``ValueError`` if a card went before one lying on it."""
    heights = []
    for c in range(columns):
        h = 0
        while h < depth and pos.removed >> _code(c, h, depth) & 1:
            h += 1
        if any(pos.removed >> _code(c, k, depth) & 1 for k in range(h, depth)):
            raise ValueError("removed names a card played before a card lying on it")
        heights.append(h)
    return heights


def _line_back(t: _Pass, place: int, source: int) -> list[int]:
    """A line from the position to ``place`` reached from ``source`` with its fewest turns.

    Each step back takes a state whose value is exact (reached with exactly
    that many turns) to a state of the layer below or of the same heights
    with one turn fewer, by a move that gives that value; the array
    guarantees that one exists.
    """
    shape, turns, pos, root = t.shape, t.turns, t.pos, t.root
    columns, depth = shape.columns, shape.depth
    stock, follow, waste = pos.stock_ranks, pos.follow, pos.waste_rank
    used = int(turns[source, place])
    line: list[int] = []
    while True:
        if source < columns:
            # the last move took column `source`'s top card
            c = source
            heights = [int(h) for h in shape.heights[:, place]]
            heights[c] -= 1
            place = shape.place(heights)
            card = int(t.tops[c, place])
            line.append(_code(c, heights[c], depth))
            source = columns  # unless a column's card was on the waste:
            for d in range(columns):
                fits = int(t.onto[d, place]) >> card & 1
                if fits and int(turns[d, place]) == used:
                    source = d
                    break
            else:
                on = waste if used == 0 else stock[used - 1]
                assert on == JOKER_RANK or follow[on] >> card & 1
                assert int(turns[columns, place]) <= used
            continue
        if place == root and used == 0:
            break
        line.append(DRAW_CODE)
        used -= 1
        if used + 1 == int(turns[columns, place]):
            # the first turn at these heights: from the column source with `used` turns
            source = next(d for d in range(columns) if int(turns[d, place]) == used)
    line.reverse()
    return line


__all__ = ["MAX_HEIGHTS", "best_by_columns", "clear_by_columns", "usable"]
