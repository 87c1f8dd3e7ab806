"""Building treasure-hunt positions by hand, so each rule can be tested directly."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pyramids.games.pyramido_treasure import GAME, TreasureState
from pyramids.games.pyramido_treasure.board import (
    COLS,
    FIELD_SPOTS,
    ROWS,
    SPOT_BY_INTERNAL,
    SPOTS,
)
from pyramids.games.pyramido_treasure.treasures import (
    CARD_BY_NAME,
    CARD_NAMES,
    DECKS,
    TOKEN_NAMES,
    TREASURES,
)

T = {t.name: i for i, t in enumerate(TREASURES)}


def spot(name: str) -> int:
    """Internal index of a box name like ``C4``."""
    return SPOT_BY_INTERNAL[name.upper()]


def card(name: str) -> int:
    return CARD_BY_NAME[name]


def setup(
    treasure_at: Mapping[str, str] | None = None,
    empty: str = "B2",
    first: int = 0,
    decks: list[list[str]] | None = None,
) -> dict[str, Any]:
    """A setup: treasure of field f at the field's top-left spot unless ``treasure_at``
    moves it (treasure name -> box name); all pyramids red; decks unshuffled."""
    where = {t: FIELD_SPOTS[t][0] for t in range(len(TREASURES))}
    for name, box in (treasure_at or {}).items():
        where[T[name]] = spot(box)
    tokens = ["blank"] * SPOTS
    for t, s in where.items():
        tokens[s] = TOKEN_NAMES[t + 1]
    e = spot(empty)
    pyramids = ["." if s == e else "R" for s in range(SPOTS)]
    return {
        "tokens": [tokens[r * COLS : (r + 1) * COLS] for r in range(ROWS)],
        "pyramids": ["".join(pyramids[r * COLS : (r + 1) * COLS]) for r in range(ROWS)],
        "decks": decks or [[CARD_NAMES[c] for c in d] for d in DECKS],
        "first_player": first,
    }


def start(players: int, su: dict[str, Any] | None = None, **variant: Any) -> TreasureState:
    state = GAME.from_setup(su or setup(), players, GAME.resolve_variant(variant))
    assert isinstance(state, TreasureState)
    return state


def arrange(
    state: TreasureState,
    *,
    deck: int,
    cards: Iterable[str],
    turn: int = 0,
    empty: str | None = None,
    hands: Mapping[int, list[str]] | None = None,
    rotation: int = 0,
) -> TreasureState:
    """Jump to deck ``deck`` (1..3) whose remaining cards are ``cards`` in order, then
    let ``turn`` draw. Private fields are set on purpose: reaching deck 3 by play
    would take hundreds of moves and test nothing more."""
    d = deck - 1
    decks = list(state._decks)
    decks[d] = tuple(card(c) for c in cards)
    state._decks = tuple(decks)
    state._deck_no = d
    state._pos = 0
    state._gone = 0
    if hands:
        hs = list(state._hands)
        for p, names in hands.items():
            hs[p] = tuple(sorted(card(c) for c in names))
        state._hands = tuple(hs)
    if empty is not None:
        e = spot(empty)
        state._empty = e
        state._colors = sum(1 << (s << 1) for s in range(SPOTS) if s != e)
        state._known |= 1 << e
    state._rot = rotation
    state._draw(turn)
    return state


def slide_to(state: TreasureState, *boxes: str) -> None:
    """Slide the pyramids at these box spots, one after the other."""
    for b in boxes:
        state.play(state.parse_move(_seen_name(state, b)))


def _seen_name(state: TreasureState, box: str) -> str:
    from pyramids.games.pyramido_treasure.board import VIEW_NAME

    return VIEW_NAME[state.rotation][spot(box)]
