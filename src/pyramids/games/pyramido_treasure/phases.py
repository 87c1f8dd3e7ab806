"""What the player to move must decide (the phase) and the event under way.

A phase is a small int (an :class:`IntEnum`) because states copy and compare
it on every slide; its :attr:`Phase.label` is the name views, encodings and
the AI read. An event that takes more than one decision keeps what it needs
in one record of its own kind (:data:`Event`), so that no code reads a tuple
whose shape depends on the phase.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from pyramids.games.pyramido_treasure.moves import GIVE, NAME, POKER, SLIDE, MoveKind


class Phase(IntEnum):
    """The decision awaited. Values are stable: encodings one-hot them in this order."""

    SEARCH = 0  # slide to find the sought treasure
    GIFT_SLIDE = 1  # gift: slide until any treasure shows
    GIFT_GIVE = 2  # gift: a holder chooses which card of that treasure to give
    DANGER_NAME = 3  # danger: name two treasures
    DANGER_SLIDE = 4  # danger: slide until a treasure shows (twice)
    DANGER_GIVE = 5  # danger failed: give a card to an opponent
    MIRAGE_SLIDE = 6  # mirage: slide until a treasure shows
    MIRAGE_GIVE = 7  # mirage failed: give the neighbour a card
    POKER_NAME = 8  # desert poker: name an opponent and a treasure
    POKER_SLIDE = 9  # desert poker: the opponent slides until a treasure shows
    OVER = 10

    @property
    def label(self) -> str:
        """The phase's name in views (``"search"``, ``"danger-name"``, ...)."""
        return PHASE_NAMES[self]


# Each member bound to a module name once: the rules and the search compare phases on every
# move, and reading a member off an Enum class costs several times a global's lookup.
SEARCH = Phase.SEARCH
GIFT_SLIDE = Phase.GIFT_SLIDE
GIFT_GIVE = Phase.GIFT_GIVE
DANGER_NAME = Phase.DANGER_NAME
DANGER_SLIDE = Phase.DANGER_SLIDE
DANGER_GIVE = Phase.DANGER_GIVE
MIRAGE_SLIDE = Phase.MIRAGE_SLIDE
MIRAGE_GIVE = Phase.MIRAGE_GIVE
POKER_NAME = Phase.POKER_NAME
POKER_SLIDE = Phase.POKER_SLIDE
OVER = Phase.OVER

#: Phase.label of each phase, in phase order (what views show and encodings one-hot)
PHASE_NAMES: tuple[str, ...] = (
    "search",
    "gift",
    "gift-give",
    "danger-name",
    "danger",
    "danger-give",
    "mirage",
    "mirage-give",
    "poker-name",
    "poker",
    "over",
)
SLIDE_PHASES = frozenset({SEARCH, GIFT_SLIDE, DANGER_SLIDE, MIRAGE_SLIDE, POKER_SLIDE})
GIVE_PHASES = frozenset({GIFT_GIVE, DANGER_GIVE, MIRAGE_GIVE})


def _awaited(phase: Phase) -> MoveKind | None:
    if phase in SLIDE_PHASES:
        return SLIDE
    if phase in GIVE_PHASES:
        return GIVE
    if phase == DANGER_NAME:
        return NAME
    if phase == POKER_NAME:
        return POKER
    return None


#: AWAITS[phase]: the one kind of move the phase takes (None once the game is over)
AWAITS: tuple[MoveKind | None, ...] = tuple(_awaited(phase) for phase in Phase)


# -- the event under way ---------------------------------------------------------------


class GiftEvent(NamedTuple):
    """Gift, once a treasure has shown: the seats still to give a card of it, in turn."""

    treasure: int
    givers: tuple[int, ...]


class DangerEvent(NamedTuple):
    """Danger: the two treasures named (ascending) and those revealed since, in order."""

    treasure_a: int
    treasure_b: int
    revealed: tuple[int, ...] = ()


class MirageEvent(NamedTuple):
    """Mirage: the neighbour the card was taken from, and that card (given back on a miss)."""

    neighbour: int
    card: int


class PokerEvent(NamedTuple):
    """Desert poker: the opponent challenged (who slides now) and the treasure named."""

    opponent: int
    treasure: int


#: the event under way; None while a search card is sought or before an event's first step
Event = GiftEvent | DangerEvent | MirageEvent | PokerEvent | None
