"""The exact solver: known answers, replayable lines, pruning that never loses a win."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramids.engine.rng import Rng
from pyramids.games.piramides.cards import shuffled_deck
from pyramids.games.piramides.layout import golf_layout, pyramid_layout
from pyramids.solver.position import Position, deal_position, deal_state
from pyramids.solver.search import DRAW_CODE, JOKER_CODE, LOSE, UNKNOWN, WIN, solve
from pyramids.solver.transitions import step
from tests.solver.helpers import brute_force, replay_score, small

# Small pyramid positions: A1 / B1 B2 / C1 C2 C3 (cards given in that order).


def test_a_climbing_deal_is_won_in_one_run() -> None:
    # 2C 3C 4C (bottom row), then 5H 6H (row B), then the apex 7S: one run from the Ace.
    pos = small("7S 5H 6H 2C 3C 4C", "AH")
    r = solve(pos)
    assert r.verdict == WIN and len(r.line) == 6 and DRAW_CODE not in r.line
    assert replay_score(pos, r.line) == (5 + 10 + 15 + 20 + 25 + 30 + 50, True)
    best = solve(pos, "score")
    assert best.score == 155 and best.line == r.line


def test_no_card_adjacent_anywhere_is_unwinnable() -> None:
    pos = small("9S 9H 9D 5C 5D 5H", "KS", "KH KD")
    r = solve(pos)
    assert r.verdict == LOSE and r.line == []
    assert brute_force(pos)[0] is False


def test_the_joker_is_needed() -> None:
    # Bottom row 2C 3C 4C, then 7S 8S, apex 9S: nothing bridges 4 to 7 but a joker.
    cards = "9S 7S 8S 2C 3C 4C"
    assert solve(small(cards, "AH")).verdict == LOSE
    r = solve(small(cards, "AH", jokers=1))
    assert r.verdict == WIN
    assert JOKER_CODE in r.line
    assert replay_score(small(cards, "AH", jokers=1), r.line)[1]


def test_wrap_decides_king_to_ace() -> None:
    # K on the waste, then A 2 3 (bottom row), 4 5 (row B), 6 (apex): only with wrap.
    cards = "6S 4S 5S AC 2D 3H"
    assert solve(small(cards, "KD", wrap=True)).verdict == WIN
    assert solve(small(cards, "KD", wrap=False)).verdict == LOSE
    assert brute_force(small(cards, "KD", wrap=False))[0] is False


def test_score_mode_line_differs_from_first_win_and_scores_more() -> None:
    # The clear search wins with the first line it finds (two short runs); the best
    # score turns the stock three times first and then clears in one long run.
    pos = small("7D 6S 5S 5D 6D 2C", "AC", "2D 5C 4S")
    first = solve(pos, "clear")
    best = solve(pos, "score")
    assert first.verdict == WIN and best.verdict == WIN
    assert first.line != best.line
    assert replay_score(pos, first.line) == (85, True)
    assert replay_score(pos, best.line) == (115, True)
    assert best.score == 115 == brute_force(pos)[1]


def test_node_limit_gives_an_honest_unknown() -> None:
    pos = deal_position("golf", 7, wrap=False)
    r = solve(pos, max_nodes=50)
    assert r.verdict == UNKNOWN and r.line == [] and r.nodes <= 50
    with pytest.raises(ValueError):
        solve(pos, max_nodes=0)
    with pytest.raises(ValueError):
        solve(pos, "fastest")


def _random_position(seed: int, golf: bool) -> Position:
    rng = Rng(seed)
    deck = shuffled_deck(rng)
    layout = golf_layout(3, 3) if golf else pyramid_layout(3 + rng.below(2))
    n = layout.size
    stock_len = rng.below(6 if n > 6 else 8)
    jokers = 0 if golf else rng.below(2)
    # A window of few ranks (wrapping round King-Ace) makes adjacency common enough
    # for both verdicts to happen, and puts Kings next to Aces often.
    low, width = rng.below(13), 5 + rng.below(8)
    deck = [card for card in deck if (card % 13 - low) % 13 < width]
    return Position(
        layout,
        tuple(deck[:n]),
        deck[n],
        tuple(deck[n + 1 : n + 1 + stock_len]),
        wrap=rng.below(2) == 0,
        jokers=jokers,
    )


@settings(max_examples=150)
@given(seed=st.integers(0, 2**32 - 1), golf=st.booleans())
def test_pruning_never_loses_a_win_and_scores_are_exact(seed: int, golf: bool) -> None:
    pos = _random_position(seed, golf)
    can_clear, best = brute_force(pos, golf)
    pruned = solve(pos)
    plain = solve(pos, prune=False)
    assert pruned.verdict == plain.verdict == (WIN if can_clear else LOSE)
    if can_clear:
        assert replay_score(pos, pruned.line, golf)[1]
    scored = solve(pos, "score")
    assert scored.score == best
    assert replay_score(pos, scored.line, golf)[0] == best


@pytest.mark.parametrize(
    ("layout", "wrap", "deals"),
    [("golf", False, range(1, 7)), ("golf", True, range(1, 5)), ("tripeaks", True, range(1, 9))],
)
def test_lines_replay_through_the_engine(layout: str, wrap: bool, deals: range) -> None:
    verdicts = set()
    for n in deals:
        state = deal_state(layout, n, wrap=wrap)
        r = solve(deal_position(layout, n, wrap=wrap))
        verdicts.add(r.verdict)
        assert r.verdict in (WIN, LOSE)
        for move in r.moves():
            state.play(move)  # raises if the engine disagrees
        if r.verdict == WIN:
            assert state.is_over and state.round_scores()[0].cleared
        else:
            assert r.line == []
    assert WIN in verdicts


def test_pyramid_round_with_joker_replays_and_score_line_scores_as_claimed() -> None:
    state = deal_state("pyramid", 5)
    pos = deal_position("pyramid", 5)
    r = solve(pos, "score")
    assert r.verdict in (WIN, LOSE) and r.score is not None
    s = state.copy()
    for move in r.moves():
        s.play(move)
    assert s.round_scores()[0].total == r.score
    cleared = solve(pos, "clear")
    assert cleared.verdict == (WIN if s.round_scores()[0].cleared else cleared.verdict)


def test_draw_and_joker_codes_are_distinct_from_positions() -> None:
    assert DRAW_CODE < 0 and JOKER_CODE < 0 and DRAW_CODE != JOKER_CODE


@settings(max_examples=80)
@given(seed=st.integers(0, 2**32 - 1), jokers=st.integers(0, 2))
def test_long_stocks_and_jokers_keep_every_win(seed: int, jokers: int) -> None:
    # The table counts a state lost for any later stock pointer, any fewer jokers
    # and the dead-waste form: a long stock and up to two jokers exercise all three.
    rng = Rng(seed)
    deck = shuffled_deck(rng)
    low, width = rng.below(13), 4 + rng.below(6)
    deck = [card for card in deck if (card % 13 - low) % 13 < width]
    layout = pyramid_layout(3)
    stock = tuple(deck[7 : 7 + 4 + rng.below(6)])
    pos = Position(layout, tuple(deck[:6]), deck[6], stock, wrap=rng.below(2) == 0, jokers=jokers)
    pruned = solve(pos)
    assert pruned.verdict == solve(pos, prune=False).verdict
    if pruned.verdict == WIN:
        assert replay_score(pos, pruned.line)[1]
    per_move = solve(pos, each_move=True).per_move
    for code, verdict in per_move.items():
        after = step(pos, code)
        cleared = after.removed == after.layout.full_mask
        assert verdict == (WIN if cleared else solve(after, prune=False).verdict)


def _strict_position(seed: int) -> Position:
    """A random small golf position under PySolFC's rule, Kings common."""
    rng = Rng(seed)
    deck = shuffled_deck(rng)
    layout = golf_layout(3 + rng.below(2), 3)
    n = layout.size
    # ranks near the King (a window that always holds it), so Kings turn up on the waste
    width = 4 + rng.below(6)
    deck = [card for card in deck if card % 13 >= 13 - width]
    return Position(
        layout,
        tuple(deck[:n]),
        deck[n],
        tuple(deck[n + 1 : n + 1 + rng.below(6)]),
        wrap=False,
        strict=True,
    )


@settings(max_examples=150)
@given(seed=st.integers(0, 2**32 - 1))
def test_strict_golf_pruning_never_loses_a_win(seed: int) -> None:
    """PySolFC's rule (nothing on a King): pruned, plain and brute force agree."""
    pos = _strict_position(seed)
    can_clear, best = brute_force(pos, golf=True)
    pruned = solve(pos)
    assert pruned.verdict == solve(pos, prune=False).verdict == (WIN if can_clear else LOSE)
    if can_clear:
        assert replay_score(pos, pruned.line, golf=True)[1]
    assert solve(pos, "score").score == best


def test_strict_golf_wins_are_no_wrap_wins_that_never_play_on_a_king() -> None:
    from pyramids.solver.transitions import step

    strict_wins = 0
    for n in range(1, 31):
        strict = solve(deal_position("golf", n, strict=True))
        loose = solve(deal_position("golf", n, wrap=False))
        if strict.verdict == WIN:
            strict_wins += 1
            assert loose.verdict == WIN
            pos = deal_position("golf", n, strict=True)
            for code in strict.line:
                if code >= 0:
                    assert pos.waste % 13 != 12, f"deal {n}: a card played on a King"
                pos = step(pos, code)
            state = deal_state("golf", n, wrap=False)
            for move in strict.moves():
                state.play(move)
            assert state.is_over and state.round_scores()[0].cleared
    assert strict_wins > 0
    with pytest.raises(ValueError):
        deal_position("golf", 1, wrap=True, strict=True)
