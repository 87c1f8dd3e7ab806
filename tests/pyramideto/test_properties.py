"""Hypothesis: random and greedy play keep every invariant; views keep secrets."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import pyramids
from pyramids.ai.greedy.pyramideto import GreedyPyramideto
from pyramids.engine.rng import Rng
from pyramids.games.pyramideto import CODES, GOALS, PyramidetoState, tower_stands
from pyramids.games.pyramideto.game import _BOARD_MOVES, _board_key

GREEDY = GreedyPyramideto()
ALL_CODES = sorted(CODES)
ALL_IDS = {g.id for g in GOALS}

games = st.fixed_dictionaries(
    {
        "players": st.integers(min_value=2, max_value=4),
        "seed": st.integers(min_value=0, max_value=2**32 - 1),
        "hand_size": st.sampled_from([1, 3, 5, 7]),
        "turn_limit": st.sampled_from([60, 200, 300]),
        "greed": st.sampled_from([0.0, 0.5, 0.9]),
        "agent_seed": st.integers(min_value=0, max_value=2**32 - 1),
    }
)


def run(params: dict[str, Any], check: Any = None, stop: int = 10**6) -> PyramidetoState:
    """Play (until the end or ``stop`` moves) greedy with probability ``greed``, else random."""
    state = pyramids.new_game(
        "pyramideto",
        players=params["players"],
        seed=params["seed"],
        hand_size=params["hand_size"],
        turn_limit=params["turn_limit"],
    )
    assert isinstance(state, PyramidetoState)
    rng = Rng(params["agent_seed"])
    while not state.is_over and state.ply < stop:
        if rng.random() < params["greed"]:
            move = GREEDY.choose(state, rng)
        else:
            moves = state.legal_moves()
            move = moves[rng.below(len(moves))]
        state.play(move)  # type: ignore[arg-type]
        if check is not None:
            check(state)
    return state


def card_ids(data: Any) -> set[str]:
    """Every goal id mentioned anywhere in a JSON value."""
    text = json.dumps(data)
    return {i for i in ALL_IDS if f'"{i}"' in text}


def invariants(state: PyramidetoState) -> None:
    view = state.view(None)
    pieces = [c for s in view["stacks"] for c in s]
    assert sorted(pieces) == ALL_CODES  # always 15, each exactly once
    assert state._board == _board_key(state.below)  # the kept key follows every move
    held = [c for p in range(state.players) for c in state.hand(p)]
    shown = [c for p in range(state.players) for c in state.displayed(p)]
    assert sorted(held + shown + list(state._deck)) == list(range(len(GOALS)))
    assert all(len(state.hand(p)) <= int(state.variant["hand_size"]) for p in range(state.players))
    if not state.is_over:
        assert not any(tower_stands(state.above, c) for c in held), "standing card left in hand"
    for p in range(state.players):
        for c in state.displayed(p):
            # a displayed card stood when shown; it need not stand any more
            assert c not in held


@given(games)
def test_play_never_raises_and_conserves_pieces_and_cards(params: dict[str, Any]) -> None:
    state = run(params, invariants)
    assert state.is_over
    if state.winner is not None:
        from pyramids.games.pyramideto import has_won

        assert has_won(state.displayed(state.winner))
        assert state.ranking()[state.winner] == 1
        assert sorted(state.ranking()).count(1) == 1
    else:
        assert state.ranking() == [1] * state.players


@given(games)
def test_replays_reproduce(params: dict[str, Any]) -> None:
    state = run(params)
    record = json.loads(json.dumps(state.record()))
    again = pyramids.replay(record)
    assert isinstance(again, PyramidetoState)
    for seat in [None, *range(state.players)]:
        assert again.view(seat) == state.view(seat)
    assert again._deck == state._deck and again._hands == state._hands


@given(games, st.integers(min_value=0, max_value=300))
def test_views_leak_no_other_hand(params: dict[str, Any], cut: int) -> None:
    state = run(params, stop=cut)
    public = {
        g.id for p in range(state.players) for g in map(GOALS.__getitem__, state.displayed(p))
    }
    assert card_ids(state.view(None)) <= public
    for seat in range(state.players):
        own = {GOALS[c].id for c in state.hand(seat)}
        remembered = {GOALS[c].id for v, c, _ in state._know if v == seat}
        view = state.view(seat)
        assert card_ids(view) == own | public | remembered
        assert {r["card"] for r in view["remembered"]} == remembered


@given(games, st.integers(min_value=0, max_value=2**32 - 1), st.integers(0, 250))
def test_determinized_states_respect_what_the_seat_knows(
    params: dict[str, Any], det_seed: int, cut: int
) -> None:
    state = run({**params, "greed": 0.5}, stop=cut)
    for seat in [None, *range(state.players)]:
        det = state.determinize(seat, Rng(det_seed))
        assert det.view(seat) == state.view(seat)
        invariants(det)
        known = {c: locs for v, c, locs in state._know if v == seat}
        for c, locs in known.items():
            where = next(
                (-(p + 1) for p in range(det.players) if c in det.hand(p)),
                None,
            )
            if where is None:
                where = det._serials[det._deck.index(c)]
            assert where in locs


def test_a_seat_knows_where_the_card_it_put_under_went() -> None:
    hands = [
        ["watermelon", "bee", "robot", "lamp", "tree", "candle", "clown"],
        ["pirate", "doll", "spain", "island", "bolivia", "volcano", "gabon"],
        ["muffin", "hamburger", "strawberry", "ice-cream", "pineapple", "germany", "lithuania"],
        ["colombia", "sunflower", "ladybird", "traffic-light", "potted-flower", "lighthouse"],
    ]
    hands[3].append("birthday-cake")
    from tests.pyramideto.helpers import card, deal, play

    state = deal(hands, deck=["spinning-top", "rocket"])
    play(state, "x watermelon")  # seat 0 puts it third from the top of the deck
    assert state.view(0)["remembered"] == [
        {"card": "watermelon", "in_hands": [], "deck_from_bottom": [0]}
    ]
    assert state.view(1)["remembered"] == []
    for k in range(20):
        det = state.determinize(0, Rng(k))
        assert det._deck[-1] == card("watermelon")
        assert det.view(0) == state.view(0)
    play(state, "x pirate", "x muffin")  # seat 2 draws watermelon
    for k in range(20):
        assert card("watermelon") in state.determinize(0, Rng(k)).hand(2)
    assert state.view(0)["remembered"][0]["in_hands"] == [2]
    seen_in_deck = seen_in_hand = 0
    play(state, "x colombia", "Lr>table", "Lb>table", "x hamburger")  # seat 2 swaps a card
    assert state.view(0)["remembered"] == [
        {"card": "watermelon", "in_hands": [2], "deck_from_bottom": [0]}
    ]
    for k in range(60):
        det = state.determinize(0, Rng(k))
        if card("watermelon") in det.hand(2):
            seen_in_hand += 1
        else:
            assert det._deck[-1] == card("watermelon")
            seen_in_deck += 1
    assert seen_in_hand and seen_in_deck
    # seat 1 knows nothing of it: it can be anywhere hidden from seat 1
    places = set()
    for k in range(60):
        det = state.determinize(1, Rng(k))
        places.add(next((p for p in range(4) if card("watermelon") in det.hand(p)), -1))
    assert len(places) >= 3


def test_determinize_never_hides_a_standing_tower_in_a_hand() -> None:
    from tests.pyramideto.helpers import deal, play

    state = deal([["tree", "bee", "robot"], ["clown", "lamp", "candle"]])
    play(state, "Mk>table", "Lr>Lg", "Lk>table", "Sk>Lr")  # watermelon stands, nobody held it
    for k in range(40):
        det = state.determinize(0, Rng(k))
        assert all(not tower_stands(det.above, c) for p in range(2) for c in det.hand(p))


@given(games, st.integers(min_value=0, max_value=2**32 - 1), st.integers(0, 250))
def test_determinize_depends_only_on_what_the_seat_knows(
    params: dict[str, Any], det_seed: int, cut: int
) -> None:
    """Two states the seat cannot tell apart give the same sample for the same generator."""
    state = run({**params, "greed": 0.5}, stop=cut)
    for seat in range(state.players):
        other = state.determinize(seat, Rng(det_seed))
        a = state.determinize(seat, Rng(5))
        b = other.determinize(seat, Rng(5))
        assert a._hands == b._hands and a._deck == b._deck
        assert a._rng.state == b._rng.state


@given(games, st.integers(min_value=0, max_value=200))
def test_legal_moves_are_exactly_the_moves_the_rules_accept(
    params: dict[str, Any], cut: int
) -> None:
    """Every conceivable move is in ``legal_moves()`` iff ``play`` accepts it."""
    from pyramids.engine.errors import IllegalMove
    from pyramids.games.pyramideto import EXCHANGE, MOVE_ONTO, TO_TABLE

    state = run(params, stop=cut)
    if state.is_over:
        return
    legal = set(state.legal_moves())
    universe = [*EXCHANGE, *TO_TABLE, *(m for row in MOVE_ONTO for m in row)]
    for move in universe:
        try:
            state._check(move)
        except IllegalMove as e:
            assert move not in legal, (move, e.rule)
            assert e.rule in {
                "not-in-hand",
                "deck-empty",
                "same-group",
                "no-change",
                "not-a-top",
                "same-stack",
                "too-small",
            }
        else:
            assert move in legal, move


@given(games, st.integers(min_value=0, max_value=200), st.integers(min_value=0, max_value=40))
def test_kept_board_moves_are_those_built_afresh(
    params: dict[str, Any], cut: int, more: int
) -> None:
    """The moves kept per board are those built from scratch, in the same order.

    The states are reached through copies as a search reaches them, and each
    copy plays on by itself: a key that did not follow its own board would
    return another board's moves.
    """
    state = run(params, stop=cut)
    rng = Rng(params["agent_seed"] + 1)
    seen = []
    for _ in range(more):
        if state.is_over:
            break
        seen.append(state)
        state.legal_moves()  # keeps this board's moves
        state = state.copy()
        state.play_legal(state.random_move(rng))
        assert state._board == _board_key(state.below)
    kept = [s.legal_moves() for s in seen]
    _BOARD_MOVES.clear()
    assert [s.legal_moves() for s in seen] == kept
