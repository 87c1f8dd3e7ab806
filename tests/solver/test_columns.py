"""The vectorised golf pass (:mod:`pyramids.solver.columns`): verdicts, scores, lines."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramids.engine.rng import Rng
from pyramids.games.piramides import JOKER
from pyramids.games.piramides.cards import shuffled_deck
from pyramids.games.piramides.layout import LAYOUTS, golf_layout
from pyramids.solver import columns
from pyramids.solver.budget import SearchLimit
from pyramids.solver.columns import MAX_HEIGHTS, best_by_columns, clear_by_columns, usable
from pyramids.solver.position import Position, deal_position, deal_state, position_of
from pyramids.solver.search import (
    BY_COLUMNS,
    LOSE,
    UNKNOWN,
    WIN,
    _clear,
    _score,
    code_to_move,
    solve,
)
from pyramids.solver.transitions import legal_codes, step
from tests.solver.helpers import brute_force, replay_score

NO_DEADLINE = float("inf")
VERDICTS = Path(__file__).parents[2] / "benchmarks" / "verdicts"


def _small_golf(seed: int) -> Position:
    """A small column layout, ranks from a narrow window, any of the three rules.

    Sometimes a joker on the waste (after a joker played: any card may follow),
    and sometimes a few random moves in, so that the pass starts from heights
    other than zero.
    """
    rng = Rng(seed)
    deck = shuffled_deck(rng)
    low, width = rng.below(13), 4 + rng.below(7)
    deck = [card for card in deck if (card % 13 - low) % 13 < width]
    layout = golf_layout(1 + rng.below(4), 1 + rng.below(3))
    n = layout.size
    rule = rng.below(3)  # 0: wrap, 1: no wrap, 2: strict
    pos = Position(
        layout,
        tuple(deck[:n]),
        JOKER if rng.below(7) == 0 else deck[n],
        tuple(deck[n + 1 : n + 1 + rng.below(7)]),
        wrap=rule == 0,
        strict=rule == 2,
    )
    for _ in range(rng.below(4)):
        codes = legal_codes(pos)
        if not codes or pos.removed == layout.full_mask:
            break
        pos = step(pos, codes[rng.below(len(codes))])
    return pos


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_pass_agrees_with_brute_force_and_its_lines_clear(seed: int) -> None:
    pos = _small_golf(seed)
    won, line, _ = clear_by_columns(pos, NO_DEADLINE)
    assert won == brute_force(pos, golf=True)[0]
    if won:
        assert replay_score(pos, line, golf=True)[1]  # every move legal, board cleared
    else:
        assert line == []


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_best_score_agrees_with_brute_force_and_its_line_scores_it(seed: int) -> None:
    pos = _small_golf(seed)
    score, line, _, cleared = best_by_columns(pos, NO_DEADLINE)
    can_clear, best = brute_force(pos, golf=True)
    assert (score, cleared) == (best, can_clear)
    assert replay_score(pos, line, golf=True) == (score, cleared)
    if not cleared:  # the line plays the round to its end: nothing is left to do
        end = pos
        for code in line:
            end = step(end, code)
        assert legal_codes(end) == []


def _mid_round(deal: int, wrap: bool, played: int, walk: int) -> Position | None:
    """Golf deal ``deal`` after ``played`` random moves (``None`` if the game ended)."""
    state = deal_state("golf", deal, wrap=wrap)
    rng = Rng(walk)
    for _ in range(played):
        if state.is_over:
            return None
        legal = state.legal_moves()
        state.play(legal[rng.below(len(legal))])
    return None if state.is_over else position_of(state)


def _mid_rounds(played: st.SearchStrategy[int]) -> st.SearchStrategy[Position | None]:
    """Positions of :func:`_mid_round`: any deal, with or without wrap, ``played`` moves in."""
    seeds = st.integers(0, 2**32 - 1)
    return st.builds(_mid_round, seeds, st.booleans(), played, seeds)


@settings(max_examples=25, deadline=None)
@given(pos=_mid_rounds(st.integers(1, 30)))
def test_pass_agrees_with_the_depth_first_search_in_mid_round(pos: Position | None) -> None:
    # Real deals part played: the pass starts from heights other than zero and from
    # a waste card that came from the layout.
    if pos is None:
        return
    won, line, _ = clear_by_columns(pos, NO_DEADLINE)
    assert won == (_clear(pos, 10**9, NO_DEADLINE, True).verdict == WIN)
    if won:
        assert replay_score(pos, line, golf=True)[1]


@settings(max_examples=15, deadline=None)
@given(pos=_mid_rounds(st.integers(0, 20)))
def test_each_move_decides_every_move_as_the_search_does(pos: Position | None) -> None:
    # what a hint asks of each sampled deal: a verdict per legal move, none unknown
    if pos is None:
        return
    per_move = solve(pos, each_move=True).per_move
    assert set(per_move) == set(legal_codes(pos))
    for code, verdict in per_move.items():
        after = step(pos, code)
        cleared = after.removed == after.layout.full_mask
        expected = WIN if cleared else _clear(after, 10**9, NO_DEADLINE, True).verdict
        assert verdict == expected, code


@settings(max_examples=20, deadline=None)
@given(pos=_mid_rounds(st.integers(8, 30)))
def test_score_mode_gives_the_memoised_search_s_best_score(pos: Position | None) -> None:
    if pos is None:
        return
    r = solve(pos, "score")
    reference = _score(pos, 10**9, NO_DEADLINE, True)
    assert r.score == reference.score and r.verdict == reference.verdict
    assert replay_score(pos, r.line, golf=True) == (r.score, r.verdict == WIN)


def test_score_mode_decides_whole_deals_the_memoised_search_could_not() -> None:
    # deal 14 with wrap: the memoised search alone ran out of 2,000,000 nodes
    pos = deal_position("golf", 14, wrap=True)
    r = solve(pos, "score")
    assert r.verdict in (WIN, LOSE) and r.score is not None and r.nodes <= 279_936
    assert replay_score(pos, r.line, golf=True) == (r.score, r.verdict == WIN)


@pytest.mark.parametrize("deal", [2, 8])
def test_each_move_hands_hard_moves_to_the_pass(deal: int) -> None:
    # deal 2 (won) and 8 (lost) with wrap take the search 93,000 and 24,000 nodes
    pos = deal_position("golf", deal, wrap=True)
    r = solve(pos, each_move=True)
    assert r.nodes > BY_COLUMNS["golf"] and UNKNOWN not in r.per_move.values()
    for code, verdict in r.per_move.items():
        assert verdict == _clear(step(pos, code), 10**9, NO_DEADLINE, True).verdict, code
    assert r.verdict == solve(pos).verdict == (WIN if deal == 2 else LOSE)


@pytest.mark.parametrize("rule", ["wrap", "nowrap", "strict"])
def test_pass_gives_the_stored_verdicts_of_real_deals(rule: str) -> None:
    # The stored verdicts of deals 1..1000 agree with the C solver's, deal by deal
    # (docs/performance.md); the pass must give the same on the first 100.
    table = json.loads((VERDICTS / f"golf-{rule}-1-1000.json").read_text())
    stored = {d["deal"]: d["verdict"] for d in table["deals"]}
    for deal in range(1, 101):
        pos = deal_position("golf", deal, wrap=rule == "wrap", strict=rule == "strict")
        won, line, nodes = clear_by_columns(pos, NO_DEADLINE)
        assert (WIN if won else LOSE) == stored[deal], deal
        assert 0 < nodes <= 279_936
        if won and rule != "strict":  # the engine plays wrap and no wrap, not strict
            state = deal_state("golf", deal, wrap=rule == "wrap")
            for code in line:
                state.play(code_to_move(code))  # raises if the engine disagrees
            assert state.is_over and state.round_scores()[0].cleared


def test_solve_hands_golf_to_the_pass_after_its_first_nodes() -> None:
    # Deal 2 with wrap is won, but the depth-first search needs about 93,000 nodes.
    pos = deal_position("golf", 2, wrap=True)
    r = solve(pos)
    first = BY_COLUMNS["golf"]
    assert r.verdict == WIN and first < r.nodes <= first + 279_936
    assert replay_score(pos, r.line, golf=True)[1]
    # a deal the search decides at once never reaches the pass
    quick = solve(deal_position("golf", 1, wrap=True))
    assert quick.verdict == WIN and quick.nodes < first


def test_without_numpy_golf_is_left_to_the_depth_first_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pos = deal_position("golf", 8, wrap=True)  # lost, in about 24,000 nodes
    with_pass = solve(pos)
    monkeypatch.setattr(columns.importlib.util, "find_spec", lambda name: None)
    assert not usable(pos)
    alone = solve(pos)
    assert with_pass.verdict == alone.verdict == LOSE
    assert alone.nodes == _clear(pos, 10**9, NO_DEADLINE, True).nodes != with_pass.nodes


def test_the_clock_stops_the_pass_and_the_node_budget_only_the_search() -> None:
    pos = deal_position("golf", 8, wrap=True)  # lost: the search needs about 24,000 nodes
    with pytest.raises(SearchLimit):
        clear_by_columns(pos, time.perf_counter() - 1)
    assert solve(pos, max_seconds=1e-9).verdict == UNKNOWN
    first = BY_COLUMNS["golf"]
    # a budget the search's first try spends: unknown, as without the pass
    short = solve(pos, max_nodes=first - 1)
    assert short.verdict == UNKNOWN and short.line == [] and short.nodes == first - 1
    # any budget above it: the pass decides, however many heights it reaches
    r = solve(pos, max_nodes=first + 1)
    assert r.verdict == LOSE and r.nodes > first + 1


def test_only_column_layouts_without_jokers_are_taken() -> None:
    pos = deal_position("golf", 3, wrap=True)
    assert usable(pos)
    assert not usable(replace(pos, jokers=1))
    assert not usable(replace(deal_position("pyramid", 3), jokers=0))
    assert not usable(deal_position("tripeaks", 3))
    with pytest.raises(ValueError, match="column layouts"):
        clear_by_columns(deal_position("pyramid", 3), NO_DEADLINE)
    assert "golf" in LAYOUTS and BY_COLUMNS.keys() <= LAYOUTS.keys()


def test_layouts_with_too_many_heights_are_left_to_the_search() -> None:
    layout = golf_layout(12, 3)  # 4**12 = 16.7 million heights vectors
    pos = Position(layout, tuple(range(36)), 40, (41, 42), wrap=True)
    assert MAX_HEIGHTS < (3 + 1) ** 12 and not usable(pos)
    with pytest.raises(ValueError, match="at most"):
        clear_by_columns(pos, NO_DEADLINE)
    assert usable(deal_position("golf", 1))  # golf's 6**7 itself


def test_a_card_taken_from_under_another_is_refused() -> None:
    pos = deal_position("golf", 3, wrap=True)
    under = replace(pos, removed=1 << 3)  # A4 gone while A5 lies on it
    with pytest.raises(ValueError, match="before a card lying on it"):
        clear_by_columns(under, NO_DEADLINE)


def test_a_cleared_position_is_won_with_no_moves() -> None:
    pos = deal_position("golf", 3, wrap=True)
    assert clear_by_columns(replace(pos, removed=pos.layout.full_mask), NO_DEADLINE) == (
        True,
        [],
        0,
    )
