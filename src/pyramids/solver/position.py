"""What the solver searches: one round of one layout with every card known.

The solver works on its own flat description of a round instead of on
:class:`~pyramids.games.piramides.PiramidesState` objects: a depth-first
search visits millions of nodes, and ints in local variables are many times
cheaper than copying states. :func:`position_of` reads a state into this form
and the tests replay every line the solver returns through the engine, so the
two cannot drift apart unnoticed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pyramids.engine.registry import new_game
from pyramids.games.piramides import GAME, JOKER, PiramidesState
from pyramids.games.piramides.cards import NEXT_RANKS, NEXT_RANKS_NO_WRAP, NEXT_RANKS_STRICT
from pyramids.games.piramides.layout import LAYOUTS, Layout

#: ranks per suit: a card's rank index is ``card % RANKS`` (0 = Ace .. 12 = King)
RANKS = 13
#: the rank index of a King (strict golf: nothing goes on it)
KING = RANKS - 1
#: the waste rank index that stands for a joker (any card may follow)
JOKER_RANK = RANKS
#: move codes in a solver line: a position index, or these two
DRAW_CODE = -1
JOKER_CODE = -2
#: bits of a positions bitmask (golf, the largest layout, has 35 positions): the
#: searches pack other fields above this many bits
POSITION_BITS = 36


@dataclass(frozen=True)
class Position:
    """A round in progress, fully known: layout cards, waste, stock order, counters."""

    layout: Layout
    #: the card dealt at each position of the layout (played ones included)
    cards: tuple[int, ...]
    #: the card on the waste (:data:`~pyramids.games.piramides.JOKER` after a joker)
    waste: int
    #: the cards still in the stock, next first
    stock: tuple[int, ...]
    wrap: bool = True
    jokers: int = 0
    #: positions already played
    removed: int = 0
    #: steps of the current run (score mode: the next card scores 5·(run+1))
    run: int = 0
    #: PySolFC's default Golf rule: nothing may go on a King (and no wrap). The
    #: engine does not play this rule; the solver decides deals under it so that
    #: its verdicts can be checked against other Golf solvers
    strict: bool = False

    def __post_init__(self) -> None:
        if self.layout.size > POSITION_BITS:
            raise ValueError(f"the solver handles layouts of at most {POSITION_BITS} positions")
        if len(self.cards) != self.layout.size:
            raise ValueError(f"a {self.layout.name} needs {self.layout.size} cards")
        if self.removed & ~self.layout.full_mask:
            raise ValueError("removed names positions the layout does not have")
        if self.strict and self.wrap:
            raise ValueError("strict golf has no King-Ace wrap: give wrap=False")

    @property
    def follow(self) -> tuple[int, ...]:
        """For a waste rank index (0..12), the bitmask of the rank indices that may go on it."""
        if self.strict:
            return NEXT_RANKS_STRICT
        return NEXT_RANKS if self.wrap else NEXT_RANKS_NO_WRAP

    @property
    def ranks(self) -> list[int]:
        """The rank index of the card at each layout position (suits never matter)."""
        return [c % RANKS for c in self.cards]

    @property
    def stock_ranks(self) -> list[int]:
        """The rank indices of the stock, next first."""
        return [c % RANKS for c in self.stock]

    @property
    def waste_rank(self) -> int:
        """The waste's rank index, :data:`JOKER_RANK` after a joker."""
        return JOKER_RANK if self.waste == JOKER else self.waste % RANKS

    @property
    def free(self) -> int:
        """Bitmask of positions still there and no longer overlapped."""
        removed = self.removed
        out = 0
        for i, cover in enumerate(self.layout.covered_by):
            if not removed >> i & 1 and not cover & ~removed:
                out |= 1 << i
        return out


def position_of(state: PiramidesState) -> Position:
    """The current round of ``state`` as a solver position (reads the secret stock order).

    Use it on a state whose hidden cards are known (a fresh deal solved
    double-dummy, or a copy made by :meth:`~PiramidesState.determinize`).
    """
    if state.is_over:
        raise ValueError("the game is over: there is no round to solve")
    layout = state.layout
    return Position(
        layout=layout,
        cards=tuple(state.card_at(i) for i in range(layout.size)),
        waste=state.waste,
        stock=state.stock_order(),
        wrap=state.wrap,
        jokers=state.jokers_left,
        removed=state.removed_mask,
        run=state.run,
    )


def deal_state(
    layout: str, deal: int, *, wrap: bool | None = None, **variant: Any
) -> PiramidesState:
    """Deal number ``deal`` of ``layout`` as a fresh engine state (deal N = seed N, round 1)."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; layouts: {', '.join(LAYOUTS)}")
    options: dict[str, Any] = {"layout": layout, **variant}
    if wrap is not None:
        options["wrap"] = wrap
    state = new_game(GAME.id, seed=deal, **options)
    assert isinstance(state, PiramidesState)
    return state


def deal_position(
    layout: str, deal: int, *, wrap: bool | None = None, strict: bool = False, **variant: Any
) -> Position:
    """Deal number ``deal`` of ``layout`` as a solver position (``strict``: see :class:`Position`).

    A strict deal is the same deal as without wrap; only the rule differs.
    """
    if strict:
        if wrap:
            raise ValueError("strict golf has no King-Ace wrap")
        pos = position_of(deal_state(layout, deal, wrap=False, **variant))
        return replace(pos, strict=True)
    return position_of(deal_state(layout, deal, wrap=wrap, **variant))


__all__ = [
    "DRAW_CODE",
    "JOKER",
    "JOKER_CODE",
    "JOKER_RANK",
    "KING",
    "POSITION_BITS",
    "RANKS",
    "Position",
    "deal_position",
    "deal_state",
    "position_of",
]
