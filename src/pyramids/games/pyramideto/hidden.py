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
    return UnseenDeal(state, player).deal(rng)


class UnseenDeal:
    """What every sample of one position seen from one seat shares, worked out once.

    Why a class: a search draws thousands of samples of the same position,
    and listing the hidden cards and places, reading the seat's knowledge and
    finding where each constrained card may go took most of a sample's cost
    (about two thirds of ``determinize()`` in Pyramideto). :meth:`deal` then
    only shuffles, matches and hands out, drawing from ``rng`` exactly as
    :func:`deal_unseen` always has (same samples for the same stream).
    """

    __slots__ = ("_free", "_hands", "_options", "_since", "_slots")

    def __init__(self, state: PyramidetoState, player: int | None) -> None:
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
        #: per constrained card (in card order), the slots it may take
        options: list[tuple[int, tuple[int, ...]]] = []
        for c in cards:
            stands = tower_stands(above, c)
            if c not in known and not stands and state._last_stood[c] < earliest:
                free.append(c)
                continue
            options.append(
                (c, tuple(j for j, (seat, x) in enumerate(slots) if fits(c, seat, x, stands)))
            )
        self._free = tuple(free)
        self._options = tuple(options)
        self._slots = tuple(slots)
        self._hands = tuple(tuple(h) if q == player else None for q, h in enumerate(state._hands))
        self._since = tuple(state._since)

    def deal(
        self, rng: Rng
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
        """New hands, deck and draw plies (per card): one sample, drawn from ``rng``."""
        options: dict[int, list[int]] = {}
        for c, allowed in self._options:
            opts = list(allowed)
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
        free = list(self._free)
        rng.shuffle(free)
        rest = iter(free)
        hands: list[list[int]] = [[] if h is None else list(h) for h in self._hands]
        deck: list[int] = []
        since = list(self._since)
        for j, (seat, x) in enumerate(self._slots):
            c = holder[j] if j in holder else next(rest)
            if seat < 0:
                deck.append(c)
                since[c] = 0  # not in a hand: no draw ply
            else:
                hands[seat].append(c)
                since[c] = x
        return tuple(tuple(sorted(h)) for h in hands), tuple(deck), tuple(since)
