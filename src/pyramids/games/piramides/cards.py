"""Playing cards as small integers, with their names.

A card is ``suit * 13 + (rank - 1)``: suits in the order clubs, diamonds,
hearts, spades (``C D H S``) and ranks Ace=1 .. King=13. This order is the
unshuffled deck that every deal starts from, so it is part of what a deal
number means and must never change.
"""

from __future__ import annotations

from pyramids.engine.rng import Rng

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
DECK_SIZE = 52

#: The joker as a waste-pile value: any card may follow it.
JOKER = 52


def card_name(card: int) -> str:
    """Two-character name used in records: ``"TH"`` is the ten of hearts."""
    if card == JOKER:
        return "joker"
    return RANK_CHARS[card % 13] + SUIT_CHARS[card // 13]


def card_label(card: int) -> str:
    """Name shown to a player: ``"10♥"``."""
    if card == JOKER:
        return "Joker"
    rank = "10" if card % 13 == 9 else RANK_CHARS[card % 13]
    return rank + SUIT_SYMBOLS[card // 13]


_SYMBOL_TO_SUIT = {**{c: i for i, c in enumerate(SUIT_CHARS)}}
_SYMBOL_TO_SUIT.update({s: i for i, s in enumerate(SUIT_SYMBOLS)})
_SYMBOL_TO_SUIT.update({"♤": 3, "♡": 2, "♢": 1, "♧": 0})


def parse_card(text: str) -> int | None:
    """Read a card name (``"TH"``, ``"10h"``, ``"q♠"``); ``None`` if it is not one."""
    t = text.strip().upper()
    if len(t) < 2:
        return None
    rank_text, suit_text = t[:-1], t[-1]
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANK_CHARS:
        return None
    suit = _SYMBOL_TO_SUIT.get(suit_text, _SYMBOL_TO_SUIT.get(suit_text.lower()))
    if suit is None:
        return None
    return suit * 13 + RANK_CHARS.index(rank_text)


def ranks_adjacent(a: int, b: int, wrap: bool = True) -> bool:
    """True if ranks ``a`` and ``b`` (1..13) are one apart; with ``wrap``, Ace touches King."""
    d = abs(a - b)
    return d == 1 or (wrap and d == 12)


def _next_ranks(wrap: bool) -> tuple[int, ...]:
    return tuple(
        sum(1 << s for s in range(13) if ranks_adjacent(r + 1, s + 1, wrap)) for r in range(13)
    )


#: For a waste card's rank index r (0..12), the bitmask of rank indices that may follow
#: (Ace is next to both 2 and King: RULINGS §4).
NEXT_RANKS: tuple[int, ...] = _next_ranks(True)
#: The same without the King–Ace wrap (the ``wrap=false`` option, classic Golf).
NEXT_RANKS_NO_WRAP: tuple[int, ...] = _next_ranks(False)
#: PySolFC's default Golf: no wrap, and nothing may go on a King (only the solver's
#: ``strict`` golf uses it; the engine does not offer this rule).
NEXT_RANKS_STRICT: tuple[int, ...] = (*NEXT_RANKS_NO_WRAP[:12], 0)


#: Record names of the 52 cards, and the reverse lookup (fast path for setups).
CARD_NAMES: tuple[str, ...] = tuple(card_name(c) for c in range(DECK_SIZE))
CARD_BY_NAME: dict[str, int] = {n: c for c, n in enumerate(CARD_NAMES)}


def shuffled_deck(rng: Rng) -> list[int]:
    """The 52 cards shuffled by ``rng`` (Fisher-Yates from the unshuffled order)."""
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    return deck
