"""The layered clear-mode pass (pyramid rounds): same verdicts, lines that replay."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramids.engine.rng import Rng
from pyramids.games.piramides import PiramidesState
from pyramids.games.piramides.cards import shuffled_deck
from pyramids.games.piramides.layout import LAYOUTS, pyramid_layout
from pyramids.solver.layers import LayerLimit, _shape_of, clear_by_layers
from pyramids.solver.position import Position, deal_position, deal_state, position_of
from pyramids.solver.search import (
    JOKER_CODE,
    LOSE,
    TRY_FIRST,
    UNKNOWN,
    WIN,
    _clear,
    code_to_move,
    solve,
)
from tests.solver.helpers import brute_force, replay_score, small

NO_DEADLINE = float("inf")


def _position(seed: int) -> Position:
    """A small pyramid with ranks from a narrow window, a long stock and 0-2 jokers."""
    rng = Rng(seed)
    deck = shuffled_deck(rng)
    low, width = rng.below(13), 4 + rng.below(7)
    deck = [card for card in deck if (card % 13 - low) % 13 < width]
    layout = pyramid_layout(3 + rng.below(3))
    n = layout.size
    stock = tuple(deck[n + 1 : n + 1 + rng.below(16)])
    return Position(
        layout, tuple(deck[:n]), deck[n], stock, wrap=rng.below(2) == 0, jokers=rng.below(3)
    )


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_pass_agrees_with_the_depth_first_search_and_its_lines_clear(seed: int) -> None:
    # The depth-first search is checked against brute force in test_search.py; it is
    # the reference here because brute force is too slow for stocks this long.
    pos = _position(seed)
    won, line, _ = clear_by_layers(pos, 10**9, NO_DEADLINE)
    assert won == (_depth_first(pos) == WIN)
    if won:
        assert replay_score(pos, line)[1]  # every move legal, and the board is cleared
    else:
        assert line == []


def _depth_first(pos: Position) -> str:
    """The depth-first verdict (``solve`` itself would hand a pyramid to the pass)."""
    return _clear(pos, 10**9, NO_DEADLINE, True).verdict


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_pass_agrees_with_brute_force_on_tiny_pyramids(seed: int) -> None:
    pos = _position(seed)
    pos = replace(
        pos,
        layout=pyramid_layout(3),
        cards=pos.cards[:6],
        stock=pos.stock[:6],
    )
    assert clear_by_layers(pos, 10**9, NO_DEADLINE)[0] == brute_force(pos)[0]


def _mid_round(layout: str, seed: int, played: int) -> PiramidesState | None:
    """A real deal of ``layout`` after ``played`` random moves, or ``None`` once past round 1."""
    state = deal_state(layout, seed % 5000 + 1)
    rng = Rng(seed)
    for _ in range(played):
        if state.is_over or state.round != 1:
            return None
        moves = state.legal_moves()
        state.play(moves[rng.below(len(moves))])
    return None if state.is_over or state.round != 1 else state


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), played=st.integers(0, 12))
def test_pass_from_mid_round_positions(seed: int, played: int) -> None:
    # Start from a position part-way through a real deal, the waste possibly a joker.
    _check_pass_from_mid_round("pyramid", seed, played)


def _check_pass_from_mid_round(layout: str, seed: int, played: int) -> None:
    """The pass agrees with the depth-first search, and a winning line clears in the engine."""
    state = _mid_round(layout, seed, played)
    if state is None:
        return
    pos = position_of(state)
    won, line, _ = clear_by_layers(pos, 10**9, NO_DEADLINE)
    assert won == (_depth_first(pos) == WIN)
    if won:
        assert replay_score(pos, line)[1]
        s = state.copy()
        for code in line:
            s.play(code_to_move(code))
        assert s.round_scores()[0].cleared


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), played=st.integers(0, 12))
def test_hint_verdicts_per_move_match_the_depth_first_search(seed: int, played: int) -> None:
    # ``each_move`` (what a hint asks per sample) runs one pass per legal move for the
    # pyramid; the depth-first search decides every root move in its own way.
    if seed % 2:
        pos = _position(seed)
    else:
        state = _mid_round("pyramid", seed, played)
        if state is None:
            return
        pos = position_of(state)
    layered = solve(pos, each_move=True)
    dfs = _clear(pos, 10**9, NO_DEADLINE, True, True)
    assert layered.per_move == dfs.per_move
    assert layered.verdict == dfs.verdict


def test_hint_verdicts_past_the_node_limit_are_unknown() -> None:
    pos = deal_position("pyramid", 20)
    r = solve(pos, each_move=True, max_nodes=50)
    assert r.per_move and set(r.per_move.values()) == {UNKNOWN} and r.verdict == UNKNOWN


# Deals whose verdict the depth-first search needs more than 1,000 nodes for (its
# verdicts): two winnable, two lost.
HARD = {78: WIN, 20: LOSE, 284: LOSE, 58: WIN}


@pytest.mark.parametrize(("deal", "verdict"), sorted(HARD.items()))
def test_real_rounds_through_solve_use_the_pass_and_replay(deal: int, verdict: str) -> None:
    pos = deal_position("pyramid", deal)
    r = solve(pos)
    # a pass node is a removed set: at most 1,430, where the depth-first search needed more
    assert r.verdict == verdict and 0 < r.nodes <= 1430
    state = deal_state("pyramid", deal)
    for move in r.moves():
        state.play(move)  # raises if the engine disagrees
    assert (verdict == WIN) == (state.is_over or state.round > 1)
    if verdict == WIN:
        assert state.round_scores()[0].cleared


def test_the_shape_lists_every_removable_set_after_the_sets_it_comes_from() -> None:
    layout = LAYOUTS["pyramid"]
    pos = deal_position("pyramid", 1)
    shape = _shape_of(layout)
    assert _shape_of(pyramid_layout(7)) is shape  # kept per shape, whatever the cards
    assert len(shape.sets) == 1430  # the Catalan number C(8)
    assert shape.sets[0] == 0 and shape.sets[-1] == layout.full_mask
    for k, removed in enumerate(shape.sets):
        assert shape.index[removed] == k
        free = replace(pos, removed=removed).free
        # the moves are exactly the free positions, each to a set handled later
        assert sorted(i for _, i in shape.moves[k]) == [
            i for i in range(layout.size) if free >> i & 1
        ]
        for child, i in shape.moves[k]:
            assert child > k and shape.sets[child] == removed | 1 << i
            assert (i, k) in shape.back[child]
    # and every way back is a way forward
    assert sum(map(len, shape.back)) == sum(map(len, shape.moves))


def test_a_removed_set_that_cannot_occur_is_refused() -> None:
    pos = deal_position("pyramid", 1)
    with pytest.raises(ValueError, match="played before"):
        clear_by_layers(replace(pos, removed=1), 10**9, NO_DEADLINE)  # the apex alone


def test_limits_give_unknown() -> None:
    pos = deal_position("pyramid", 20)
    with pytest.raises(LayerLimit) as spent:
        clear_by_layers(pos, 100, NO_DEADLINE)
    assert spent.value.nodes == 100
    with pytest.raises(LayerLimit) as late:
        clear_by_layers(pos, 10**9, time.perf_counter() - 1)
    assert 0 < late.value.nodes < 1430  # stopped by the clock, not by the node budget
    r = solve(pos, max_nodes=100)
    assert r.verdict == UNKNOWN and r.line == [] and r.nodes == 100


def test_a_cleared_board_and_a_board_needing_two_jokers() -> None:
    pos = small("AS 2S 3S 4S 5S 6S", "7S")
    assert clear_by_layers(replace(pos, removed=0b111111), 10, NO_DEADLINE) == (True, [], 0)
    # A1 / B1 B2 / C1 C2 C3 = 3 / 2 T / 4 5 9 on a waste 3: 4 and 5 go; the 9 needs a
    # joker (the T is under it), and so does the 2 (the other 3 is under it)
    pos = small("3S 2D TH 4C 5D 9S", "3H", jokers=2)
    won, line, _ = clear_by_layers(pos, 10**9, NO_DEADLINE)
    assert won and line.count(JOKER_CODE) == 2 and replay_score(pos, line)[1]
    assert not clear_by_layers(replace(pos, jokers=1), 10**9, NO_DEADLINE)[0]


# Tripeaks deals the depth-first search needed tens of thousands of nodes for (its
# verdicts): after its 1,000-node try, ``solve`` makes the pass over the peaks' sets.
HARD_PEAKS = {28: LOSE, 36: LOSE, 30: WIN, 70: WIN}


@pytest.mark.parametrize(("deal", "verdict"), sorted(HARD_PEAKS.items()))
def test_hard_tripeaks_deals_go_to_the_pass_after_a_short_try(deal: int, verdict: str) -> None:
    pos = deal_position("tripeaks", deal)
    r = solve(pos)
    assert r.verdict == verdict
    assert (
        TRY_FIRST["tripeaks"] < r.nodes <= TRY_FIRST["tripeaks"] + len(_shape_of(pos.layout).sets)
    )
    state = deal_state("tripeaks", deal)
    for move in r.moves():
        state.play(move)  # raises if the engine disagrees
    if verdict == WIN:
        assert state.round_scores()[0].cleared


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), played=st.integers(6, 20))
def test_pass_agrees_with_the_depth_first_search_on_tripeaks_positions(
    seed: int, played: int
) -> None:
    # the peaks overlap differently from a pyramid (three peaks, shared bottom row)
    _check_pass_from_mid_round("tripeaks", seed, played)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), strict=st.booleans())
def test_the_pass_over_reached_sets_agrees_with_the_search(seed: int, strict: bool) -> None:
    """``clear_by_levels`` (no table of sets) against the depth-first search, lines replayed."""
    import time

    from pyramids.games.piramides.layout import golf_layout
    from pyramids.solver.layers import clear_by_levels
    from pyramids.solver.transitions import legal_codes, step

    rng = Rng(seed)
    deck = shuffled_deck(rng)
    low, width = rng.below(13), 5 + rng.below(8)
    deck = [card for card in deck if (card % 13 - low) % 13 < width]
    layout = golf_layout(3 + rng.below(2), 3)
    n = layout.size
    wrap = not strict and rng.below(2) == 0
    pos = Position(
        layout,
        tuple(deck[:n]),
        deck[n],
        tuple(deck[n + 1 : n + 1 + rng.below(6)]),
        wrap=wrap,
        strict=strict,
    )
    won, line, _ = clear_by_levels(pos, 10**6, time.perf_counter() + 30)
    assert won == (solve(pos, prune=False).verdict == WIN)
    for code in line:
        assert code in legal_codes(pos)
        pos = step(pos, code)
    assert not won or pos.removed == pos.layout.full_mask
