"""Treasure-hunt moves: one small immutable value per decision.

All kinds share one NamedTuple with the kind first, so that every move is
distinct from every other (NamedTuples of different classes with equal items
compare equal) and a move is a cheap tuple that search keeps as a dict key
and sorts by. The two int items ``a`` and ``b`` are storage, in the order
moves sort by; read them through the names of what they mean in each kind
(``spot``, ``card``, ...: see :mod:`pyramids.games.move_items`) and build
moves with the constructors below.
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

from pyramids.games.move_items import item
from pyramids.games.pyramido_treasure.board import NEIGHBOURS, SPOTS

MoveKind = Literal["slide", "name", "poker", "give"]

SLIDE: Final = "slide"
NAME: Final = "name"
POKER: Final = "poker"
GIVE: Final = "give"
KINDS: tuple[MoveKind, ...] = (SLIDE, NAME, POKER, GIVE)


class _Items(NamedTuple):
    kind: MoveKind
    a: int = -1
    b: int = -1


class TreasureMove(_Items):
    """A decision of the player to move; its items by kind:

    * ``slide``: :attr:`spot`, the internal spot of the pyramid slid into the gap;
    * ``name`` (danger): :attr:`treasure_a` < :attr:`treasure_b`, the treasures named;
    * ``poker``: :attr:`opponent`, the seat challenged, and :attr:`treasure`, the one named;
    * ``give``: :attr:`card`, the card type given, and :attr:`to`, the seat receiving it.

    An item a kind does not use is -1.
    """

    __slots__ = ()

    spot: int = item(1, "``slide``: the internal spot whose pyramid slides into the gap")
    treasure_a: int = item(1, "``name``: the first (lower) treasure named")
    treasure_b: int = item(2, "``name``: the second (higher) treasure named")
    opponent: int = item(1, "``poker``: the seat challenged to find the treasure")
    treasure: int = item(2, "``poker``: the treasure the opponent must find")
    card: int = item(1, "``give``: the card type given")
    to: int = item(2, "``give``: the seat receiving the card")


#: SLIDES[s]: the slide from spot ``s`` (built once: slides are most of the moves played)
SLIDES: tuple[TreasureMove, ...] = tuple(TreasureMove(SLIDE, s) for s in range(SPOTS))
#: SLIDES_FROM[e]: the slides into a gap at spot ``e``
SLIDES_FROM: tuple[tuple[TreasureMove, ...], ...] = tuple(
    tuple(SLIDES[n] for n in NEIGHBOURS[e]) for e in range(SPOTS)
)


def slide_move(spot: int) -> TreasureMove:
    """Slide the pyramid on internal spot ``spot`` into the gap."""
    return SLIDES[spot] if 0 <= spot < SPOTS else TreasureMove(SLIDE, spot)


def name_move(treasure_a: int, treasure_b: int) -> TreasureMove:
    """Danger: name two treasures (in either order; the move holds them ascending)."""
    low, high = sorted((treasure_a, treasure_b))
    return TreasureMove(NAME, low, high)


def poker_move(opponent: int, treasure: int) -> TreasureMove:
    """Desert poker: challenge seat ``opponent`` to find ``treasure``."""
    return TreasureMove(POKER, opponent, treasure)


def give_move(card: int, to: int) -> TreasureMove:
    """Give a card of type ``card`` to seat ``to``."""
    return TreasureMove(GIVE, card, to)
