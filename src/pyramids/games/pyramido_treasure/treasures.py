"""The twelve treasures, the 48 cards and the three decks (RULINGS.md §2).

The rulebook names only a few treasures and never lists the cards, so the
project fixes its own list here. It is part of what a record means and must
never change: card names are written in records and the deck contents are
checked when a record is read.

Card *types* are small ints. A treasure card is ``treasure * 4 + points - 1``
(0..47: :func:`treasure_card`), so :func:`card_treasure` and :func:`card_points`
read it back; the six event cards follow as 48..53 (:func:`is_treasure_card`
tells them apart). Identical cards (deck 1 holds four
treasures twice, worth 1 each) are the same type: nobody can tell them apart,
so no move needs to.
"""

from __future__ import annotations

from typing import NamedTuple

from pyramids.engine import names


class Treasure(NamedTuple):
    """One treasure: record name, two-letter code for the terminal, and a label."""

    name: str
    code: str
    label: str


#: Treasure i is the treasure of field i of the box (see ``board.py``) unless the
#: ``shuffle_fields`` variant deals the treasures to the fields at random.
TREASURES: tuple[Treasure, ...] = (
    Treasure("sphinx", "SX", "a sphinx"),
    Treasure("mummy", "MU", "a mummy"),
    Treasure("parrot", "PA", "a parrot"),
    Treasure("trumpet", "TR", "a trumpet"),
    Treasure("sacred-dog", "DG", "a sacred dog"),
    Treasure("scarab", "SC", "a scarab"),
    Treasure("crown", "CR", "a crown"),
    Treasure("vase", "VA", "a vase"),
    Treasure("ankh", "AN", "an ankh"),
    Treasure("lamp", "LA", "an oil lamp"),
    Treasure("necklace", "NE", "a necklace"),
    Treasure("cat", "CA", "a cat statue"),
)
N_TREASURES = len(TREASURES)
#: card types below this are treasure cards (four per treasure); the events follow
TREASURE_CARD_TYPES = 4 * N_TREASURES

#: Token values: 0 is a blank token, ``t + 1`` the token of treasure ``t``.
BLANK = 0

#: the six event cards, numbered after the treasure cards (48..53)
SANDSTORM, GIFT, DANGER, MIRAGE, POKER, GAME_OVER = range(
    TREASURE_CARD_TYPES, TREASURE_CARD_TYPES + 6
)
EVENTS = (SANDSTORM, GIFT, DANGER, MIRAGE, POKER)
EVENT_NAMES: dict[int, str] = {
    SANDSTORM: "sandstorm",
    GIFT: "gift",
    DANGER: "danger",
    MIRAGE: "mirage",
    POKER: "desert-poker",
    GAME_OVER: "game-over",
}
N_CARD_TYPES = GAME_OVER + 1


def treasure_card(treasure: int, points: int) -> int:
    """The card type of ``treasure`` worth ``points`` (1..4)."""
    return treasure * 4 + points - 1


def is_treasure_card(card: int) -> bool:
    """True for treasure cards, False for the six event cards (``card`` a card type)."""
    return card < TREASURE_CARD_TYPES


def card_treasure(card: int) -> int:
    """The treasure a treasure card names (meaningless for an event card)."""
    return card >> 2


def card_points(card: int) -> int:
    """Points of a card (events are worth nothing: they leave the game)."""
    return (card & 3) + 1 if card < TREASURE_CARD_TYPES else 0


#: points of every card type, for sums over a hand (``map`` over a tuple runs in C: the
#: adapters ask every seat's score after each step)
CARD_POINTS: tuple[int, ...] = tuple(card_points(c) for c in range(N_CARD_TYPES))


def card_name(card: int) -> str:
    """Record name: ``"mummy/2"`` for a treasure card, ``"sandstorm"`` for an event."""
    if is_treasure_card(card):
        return f"{TREASURES[card_treasure(card)].name}/{card_points(card)}"
    return EVENT_NAMES[card]


def card_label(card: int) -> str:
    """Name shown to players: ``"mummy (2)"`` or ``"Sandstorm"``."""
    if is_treasure_card(card):
        return f"{TREASURES[card_treasure(card)].name} ({card_points(card)})"
    return EVENT_NAMES[card].replace("-", " ").capitalize()


#: the names players see: kind ``treasure`` keyed by treasure name (``sacred-dog`` is
#: "sacred dog"), kind ``event`` keyed by event card name (``desert-poker`` is "Desert poker")
names.register("treasure", {t.name: t.name.replace("-", " ") for t in TREASURES})
names.register("event", {EVENT_NAMES[c]: card_label(c) for c in sorted(EVENT_NAMES)})

CARD_NAMES: tuple[str, ...] = tuple(card_name(c) for c in range(N_CARD_TYPES))
CARD_BY_NAME: dict[str, int] = {n: c for c, n in enumerate(CARD_NAMES)}
TOKEN_NAMES: tuple[str, ...] = ("blank", *(t.name for t in TREASURES))
TOKEN_BY_NAME: dict[str, int] = {n: i for i, n in enumerate(TOKEN_NAMES)}


def parse_treasure(text: str) -> int | None:
    """A treasure from its name, code or label (``"sacred-dog"``, ``"dg"``, ``"sacred dog"``)."""
    t = text.strip().lower().replace("_", "-").replace(" ", "-")
    for i, tr in enumerate(TREASURES):
        if t in (tr.name, tr.code.lower()):
            return i
    return None


def _deck(*groups: tuple[tuple[int, ...], int]) -> tuple[int, ...]:
    return tuple(treasure_card(t, p) for ts, p in groups for t in ts)


#: Deck 1: every treasure once worth 1, and four of them (sphinx, trumpet,
#: crown, lamp) a second time. Deck 2: eleven treasures (all but the lamp), six
#: worth 2 and five worth 3, plus the five events. Deck 3: ten treasures worth 4
#: (all but the trumpet and the crown), the five events and the game-over card.
#: Over the three decks the sphinx has 4 cards and every other treasure 3.
DECKS: tuple[tuple[int, ...], ...] = (
    _deck((tuple(range(12)), 1), ((0, 3, 6, 9), 1)),
    _deck(((0, 1, 2, 3, 4, 5), 2), ((6, 7, 8, 10, 11), 3)) + EVENTS,
    (*_deck(((0, 1, 2, 4, 5, 7, 8, 9, 10, 11), 4)), *EVENTS, GAME_OVER),
)
