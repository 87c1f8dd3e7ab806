"""Dealing the cards a seat cannot see, consistently with what it has seen.

A seat sees its hand, the displayed cards and the stacks. It also knows more
than its view shows, and a sample of the hidden cards must respect that:

* **Cards it put under the deck.** The seat knows each one's place counted
  from the bottom, and who drew it when the deck reached it. If that player
  later exchanges a card, the remembered card is either still in their hand
  or the one just put under the deck. The state keeps these facts as
  ``(seat, card, places)``: a place is a deck slot (its serial number, given
  when a card enters the deck) or a hand (``-(seat + 1)``).
* **Standing towers.** A hand never keeps a card whose tower has stood since
  the card was drawn: it would have been displayed. (The one exception is the
  final check of a won game, which stops at the winner.)

Most cards carry no such constraint; those that do are placed first by a
random bipartite matching (which always exists, as the true deal is one), and
the rest are shuffled into the places left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyramids.engine.rng import Rng

if TYPE_CHECKING:
    from pyramids.games.pyramideto.game import PyramidetoState


def hand_place(seat: int) -> int:
    """The place code of ``seat``'s hand in the knowledge facts."""
    return -(seat + 1)


def deal_unseen(
    state: PyramidetoState, player: int | None, rng: Rng
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
    """New hands, deck and draw plies (per card) for a sample seen from ``player``."""
    from pyramids.games.pyramideto.game import tower_stands

    # Cards and places are listed in an order the seat can know (cards by number,
    # hand places by seat and draw ply, deck places top to bottom), so that two
    # states the seat cannot tell apart give the same sample for the same rng.
    cards: list[int] = sorted(state._deck)
    slots: list[tuple[int, int]] = []  # (seat, ply drawn) in hands, (-1, serial) in the deck
    for q, hand in enumerate(state._hands):
        if q != player:
            cards.extend(hand)
            slots.extend(sorted((q, state._since[c]) for c in hand))
    cards.sort()
    slots.extend((-1, serial) for serial in state._serials)
    known = {c: places for v, c, places in state._know if v == player}
    earliest = min((x for seat, x in slots if seat >= 0), default=state._ply + 1)
    above = state._above
    ply = state._ply

    def fits(card: int, seat: int, x: int, stands: bool) -> bool:
        places = known.get(card)
        if seat < 0:
            return places is None or x in places
        if places is not None and hand_place(seat) not in places:
            return False
        if state._last_stood[card] >= x:
            return False
        return not stands or (seat in state._unchecked and (card in state._fresh or x == ply))

    free: list[int] = []
    options: dict[int, list[int]] = {}
    for c in cards:
        stands = tower_stands(above, c)
        if c not in known and not stands and state._last_stood[c] < earliest:
            free.append(c)
            continue
        opts = [j for j, (seat, x) in enumerate(slots) if fits(c, seat, x, stands)]
        rng.shuffle(opts)
        options[c] = opts
    holder: dict[int, int] = {}  # slot -> card

    def place(c: int, seen: set[int]) -> bool:
        for j in options[c]:
            if j not in seen:
                seen.add(j)
                if j not in holder or place(holder[j], seen):
                    holder[j] = c
                    return True
        return False

    constrained = list(options)
    rng.shuffle(constrained)
    for c in constrained:
        if not place(c, set()):  # pragma: no cover - the true deal always fits
            raise AssertionError("no deal fits what the seat has seen")
    rng.shuffle(free)
    rest = iter(free)
    hands: list[list[int]] = [list(h) if q == player else [] for q, h in enumerate(state._hands)]
    deck: list[int] = []
    since = list(state._since)
    for j, (seat, x) in enumerate(slots):
        c = holder[j] if j in holder else next(rest)
        if seat < 0:
            deck.append(c)
            since[c] = 0  # not in a hand: no draw ply
        else:
            hands[seat].append(c)
            since[c] = x
    return tuple(tuple(sorted(h)) for h in hands), tuple(deck), tuple(since)
