"""Hand-made positions whose best move is known, for the review tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pyramids.games.piramides import GAME as PIRAMIDES
from pyramids.games.piramides import PYRAMID
from pyramids.games.piramides.cards import card_name
from tests.pyramideto.helpers import deal

DATA = Path(__file__).parent / "data"


def piramides_one_move_clears() -> dict[str, Any]:
    """A Pirámides round that only one move can still clear (a record).

    The pyramid is played down to its last three cards with jokers (25 in
    the round, all used); the waste shows 6♣, B1 7♣, B2 8♣, the apex 9♣.
    Playing B1 clears the round (7, 8, 9); turning the stock cannot, since
    the three cards left in it are Kings (every other 6 to 9 is gone) and no
    joker is left: the chance is exactly 1 for B1 and 0 for the stock, in
    every deal of the unseen cards.
    """
    return _last_three("8C")


def piramides_nothing_clears() -> dict[str, Any]:
    """The same round with 5♣ at B2 (8♣ gone earlier): no move can clear it any more.

    B1 (7♣) or B2 (5♣) fits the waste 6♣, but either leaves the other unplayable,
    and the stock holds only Kings: three legal moves, none that clears, in
    every deal of the unseen cards.
    """
    return _last_three("5C")


def _last_three(b2: str) -> dict[str, Any]:
    """The record of a round played down to A1 9♣, B1 7♣, B2 ``b2`` on the waste 6♣."""
    top = {"A1": "9C", "B1": "7C", "B2": b2, "C3": "6C"}
    low = ["6D", "6H", "6S", "7D", "7H", "7S", "8D", "8H", "8S", "9D", "9H", "9S"]
    if b2 != "8C":
        low.append("8C")  # seen and gone, with the other low cards
    tail = ["KC", "KD", "KH"]
    taken = set(top.values()) | set(low) | set(tail)
    others = [card_name(c) for c in range(52) if card_name(c) not in taken]
    filler = 24 - len(low)
    lower = iter(low + others[:filler])  # the 24 other cards of rows C to G
    pyramid = [top[label] if label in top else next(lower) for label in PYRAMID.labels]
    deal_cards = pyramid + others[filler:] + tail  # then the first waste and 20 stock cards
    rows = [lab for row in "GFEDC" for lab in PYRAMID.labels if lab[0] == row and lab != "C3"]
    moves = ["draw"] * 20
    for label in [*rows, "C3"]:
        moves += ["joker", label]
    variant = PIRAMIDES.resolve_variant({"jokers_per_round": 25, "rounds": 1})
    state = PIRAMIDES.from_setup({"deals": [deal_cards]}, 1, variant)
    for text in moves:
        state.play(state.parse_move(text))
    return state.record()


#: the moves of :func:`pyramideto_immediate_win`, and its winning move
PYRAMIDETO_MOVES = [
    "Ly>Lg", "Lk>table", "Lr>Ly", "Mk>table", "Lr>table",
    "Lb>table", "Ly>Lr", "Mb>Lb", "Mr>Ly", "Sb>Mb",
]  # fmt: skip
PYRAMIDETO_WIN = "Sk>Mr"


def pyramideto_immediate_win() -> dict[str, Any]:
    """A Pyramideto position where one move wins at once (a record, seat 0 to move).

    Seat 0 has displayed two purple (flag) cards, Bolivia and Spain, and holds
    Germany (Ly, Mr, Sk), whose Ly and Mr stand: Sk onto Mr displays a third
    purple card and wins. The game has an 11-move limit, so every other move
    ends it drawn (a 2-player draw is worth 0.5): each of them is a blunder.
    """
    state = deal(
        [["bolivia", "spain", "germany"], ["watermelon", "tree", "clown"]],
        deck=["pirate", "volcano", "doll", "robot"],
        turn_limit=11,
    )
    for text in PYRAMIDETO_MOVES:
        state.play(state.parse_move(text))
    return state.record()


#: the only winning placement of :func:`pyramido_last_placement`
PYRAMIDO_WIN = "q1 a2 a1"


def pyramido_last_placement() -> dict[str, Any]:
    """The last placement of a Pyramido game (floor 4), which decides who wins it.

    A 2-player game between ``greedy`` players (seed 20), stopped before seat
    0 lays the last domino of the game on its top floor. Of the six
    placements (three quarry dominoes, each both ways round), only
    ``q1 a2 a1`` wins the floor's scoring by enough to win the game, with the
    best gem and card after it (worked out by trying every continuation);
    every other placement loses it. The record is stored, so a change of
    ``greedy`` cannot change the position.
    """
    data: dict[str, Any] = json.loads((DATA / "pyramido-last-placement.json").read_text())
    return data
