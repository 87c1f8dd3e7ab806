"""The game review: known best moves are found, hidden information is never read, faces work.

Budgets are small (each test well under 20 s on a shared 2-core machine); the
grades asked for are those that hold at any budget: a move that throws a sure
win away is a mistake or a blunder, the move that keeps it is good.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import pyramids
from pyramids.cli.cmd_review import possible_lines
from pyramids.cli.main import app
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.games.piramides import PiramidesState
from pyramids.games.pyramideto import GOAL_BY_ID
from pyramids.review import (
    BLUNDER,
    GOOD,
    MISTAKE,
    Budget,
    Review,
    RoundPossible,
    grade_agreement,
    parse_budget,
    review,
    review_move,
    thresholds_for,
)
from pyramids.review.positions import positions
from pyramids.review.run import possible_of
from pyramids.solver.position import position_of
from pyramids.solver.search import WIN, code_to_move, solve
from tests.pyramideto.helpers import deal
from tests.review.positions import (
    PYRAMIDETO_WIN,
    PYRAMIDO_WIN,
    piramides_nothing_clears,
    piramides_one_move_clears,
    pyramideto_immediate_win,
    pyramido_last_placement,
)

FLAGGED = (MISTAKE, BLUNDER)


def last(record: dict[str, Any]) -> State[Any]:
    return positions(record)[-1]


# -- hand-made positions whose best move is known -------------------------------------


def test_piramides_a_round_that_nothing_clears_is_not_graded() -> None:
    """Every move would lose nothing: grading them "good" made a lost game read as
    near-perfect accuracy."""
    state = last(piramides_nothing_clears())
    assert isinstance(state, PiramidesState) and len(state.legal_moves()) == 3
    exact = solve(position_of(state), "clear", each_move=True).per_move
    assert exact and all(v != WIN for v in exact.values())
    for move in state.legal_moves():
        assert review_move(state, move, "quick") is None


def test_piramides_the_only_clearing_move_is_good_the_others_are_flagged() -> None:
    state = last(piramides_one_move_clears())
    assert isinstance(state, PiramidesState)
    exact = solve(position_of(state), "clear", each_move=True).per_move
    winners = [state.move_to_str(code_to_move(c)) for c, v in exact.items() if v == WIN]
    assert winners == ["B1"]  # with every card known, only B1 clears
    for move in state.legal_moves():
        d = review_move(state, move, "quick")
        assert d is not None
        assert d.best == "B1" and d.value == 1.0
        if d.move == "B1":
            assert d.grade == GOOD and d.loss == 0.0
        else:
            assert d.grade in FLAGGED and d.played == 0.0, d


def _only_win(state: State[Any], seat: int) -> bool:
    """Whether ``seat`` wins from here with its best moves (it moves until the end)."""
    if state.is_over:
        ranking = state.ranking()
        return ranking[seat] == 1 and ranking.count(1) == 1
    assert state.current_player == seat
    for m in state.legal_moves():
        after = state.copy()
        after.play(m)
        if _only_win(after, seat):
            return True
    return False


def test_pyramideto_missing_an_immediate_win_is_flagged() -> None:
    state = last(pyramideto_immediate_win())
    win = state.parse_move(PYRAMIDETO_WIN)
    after = state.copy()
    after.play(win)
    assert after.is_over and after.winners() == [0]
    legal = state.legal_moves()
    assert len(legal) > 30
    good = review_move(state, win, 150)
    assert good is not None and good.grade == GOOD and good.played == 1.0
    # every other move (a sample across the list: all of them cost 4 s more) draws
    for move in legal[::6]:
        if move == win:
            continue
        d = review_move(state, move, 150)
        assert d is not None and d.grade in FLAGGED and d.best == PYRAMIDETO_WIN, d


def test_pyramido_the_placement_that_wins_the_last_floor_is_found() -> None:
    state = last(pyramido_last_placement())
    seat = state.current_player
    assert seat is not None
    placements = state.legal_moves()
    assert len(placements) == 6
    wins = []
    for m in placements:  # the known answer, by trying every continuation
        after = state.copy()
        after.play(m)
        if _only_win(after, seat):
            wins.append(state.move_to_str(m))
    assert wins == [PYRAMIDO_WIN]
    for m in placements:
        d = review_move(state, m)
        assert d is not None
        if d.move == PYRAMIDO_WIN:
            assert d.grade == GOOD, d
        else:
            assert d.grade in FLAGGED and d.best == PYRAMIDO_WIN, d


# -- the review never reads what the seat could not see ----------------------------------


def _decisions(result: Review) -> list[dict[str, Any]]:
    return [d.to_dict() for d in result.decisions]


def test_piramides_review_ignores_the_unseen_stock_and_later_deals() -> None:
    state = pyramids.new_game("piramides", seed=11)
    rng = Rng(4)
    while state.ply < 14 and not state.is_over:
        moves = state.legal_moves()
        plays = [m for m in moves if m.kind == "play"]
        state.play((plays or moves)[rng.below(len(plays or moves))])
    a = state.record()
    assert isinstance(state, PiramidesState)
    turned = state.stock_pos
    deals = [list(d) for d in a["setup"]["deals"]]
    first = deals[0]
    unseen = first[29 + turned :]
    assert len(unseen) > 2
    first[29 + turned :] = unseen[::-1]  # the stock not yet turned, in another order
    deals[1:] = [d[::-1] for d in deals[1:]]  # the later rounds dealt otherwise
    b = {**a, "setup": {"deals": deals}}
    a = {k: v for k, v in a.items() if k != "seed"}
    b.pop("seed", None)
    assert a["setup"] != b["setup"]
    ra, rb = review(a, budget=Budget(iterations=1, samples=8)), review(b, budget=Budget(1, 8))
    assert ra.decisions and _decisions(ra) == _decisions(rb)


def test_pyramideto_review_of_a_seat_ignores_the_others_hands_and_the_deck() -> None:
    deck = ["pirate", "volcano", "doll", "robot", "candle"]
    a = deal([["bolivia", "spain", "germany"], ["watermelon", "tree", "clown"]], deck=deck)
    b = deal([["bolivia", "spain", "germany"], ["lamp", "bee", "rocket"]], deck=deck[::-1])
    rng = Rng(9)
    while a.ply < 12:
        moves = [m for m in a.legal_moves() if not m.is_exchange]
        move = moves[rng.below(len(moves))]
        trial_a, trial_b = a.copy(), b.copy()
        trial_a.play(move)
        trial_b.play(trial_b.parse_move(a.move_to_str(move)))
        if any(trial_a.displayed(p) or trial_b.displayed(p) for p in range(2)):
            continue  # a goal shown would tell seat 0 about the hands: pick another move
        a, b = trial_a, trial_b
        assert a.view(0) == b.view(0)  # what seat 0 sees is the same in both games
    assert GOAL_BY_ID["lamp"].number in b.hand(1)
    ra = review(a.record(), seat=0, budget=60)
    rb = review(b.record(), seat=0, budget=60)
    assert len(ra.decisions) == 6 and _decisions(ra) == _decisions(rb)


# -- the API ----------------------------------------------------------------------


def small_game() -> dict[str, Any]:
    state = pyramids.new_game("pyramideto", players=2, seed=5)
    rng = Rng(5)
    while state.ply < 10:
        moves = state.legal_moves()
        state.play(moves[rng.below(len(moves))])
    return state.record()


def test_review_is_reproducible_and_round_trips_as_json(tmp_path: Path) -> None:
    record = small_game()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    one = pyramids.review(path, budget=60, seed=3)
    two = review(json.dumps(record), budget=60, seed=3)
    assert _decisions(one) == _decisions(two)
    assert [d.seat for d in one.decisions] == [k % 2 for k in range(10)]
    again = Review.from_dict(json.loads(json.dumps(one.to_dict())))
    assert _decisions(again) == _decisions(one) and again.summary() == one.summary()
    summary = one.summary()
    assert [s.decisions for s in summary] == [5, 5]
    assert all(s.accuracy is not None and 0 <= s.accuracy <= 100 for s in summary)
    assert one.to_dict()["biggest"] == [d.ply for d in one.biggest()]


def test_review_in_processes_gives_the_serial_result() -> None:
    record = small_game()
    serial = review(record, seat=1, budget=40)
    split = review(record, seat=1, budget=40, jobs=2)
    assert _decisions(serial) == _decisions(split)


def test_bad_seats_budgets_and_records_are_refused() -> None:
    record = small_game()
    with pytest.raises(pyramids.PlayersError):
        review(record, seat=2)
    with pytest.raises(ValueError, match="budget"):
        review(record, budget="huge")
    with pytest.raises(pyramids.RecordError):
        review({**record, "moves": ["Zz>table"]})
    assert parse_budget("250") == ("250", Budget(250, 25))
    assert thresholds_for("pyramido").grade(0.2) == MISTAKE


def test_grade_agreement_of_two_reviews_is_measured() -> None:
    """Two reviews with other seeds agree on most grades (reported; the bar is loose)."""
    record = pyramideto_immediate_win()
    one = review(record, budget=40, seed=1)
    two = review(record, budget=40, seed=2)
    share = grade_agreement(one.decisions, two.decisions)
    print(f"grade agreement of two small reviews: {share:.0%} of {len(one.decisions)}")
    assert share >= 0.6


# -- the command --------------------------------------------------------------------


def test_review_command_prints_the_table_summary_and_writes_a_png(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(pyramideto_immediate_win()))
    png = tmp_path / "review.png"
    saved = tmp_path / "review.json"
    result = CliRunner().invoke(
        app,
        ["review", str(path), "--budget", "20", "--plot", str(png), "--json", str(saved)],
    )
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "accuracy" in text and "Player 1" in text and "Player 2" in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000
    assert json.loads(saved.read_text())["game"] == "pyramideto"
    one = CliRunner().invoke(app, ["review", str(path), "--budget", "20", "--seat", "2"])
    assert one.exit_code == 0 and "Player 1:" not in one.output
    bad = CliRunner().invoke(app, ["review", str(path), "--seat", "0"])
    assert bad.exit_code == 2 and "counted from 1" in bad.output
    bad = CliRunner().invoke(app, ["review", str(path), "--budget", "lots"])
    assert bad.exit_code == 2 and "'lots'" in bad.output


def test_what_was_possible_names_the_move_that_lost_the_round() -> None:
    state = last(piramides_one_move_clears())
    state.play(state.parse_move("draw"))  # the mistake: the round can no longer be cleared
    states = positions(state.record())
    rounds = possible_of(states)
    assert len(rounds) == 1
    r = rounds[0]
    assert r.start == WIN and not r.cleared
    assert (r.lost_at, r.lost_move, r.line) == (70, "draw", ["B1", "B2", "A1"])
    assert all(v == WIN for k, v in r.verdicts.items() if k < 70)
    shown = " ".join(possible_lines(_with_possible(rounds)))
    assert "could be cleared until move 71 (draw)" in shown and "B1 B2 A1" in shown


def _with_possible(rounds: list[RoundPossible]) -> Review:
    return Review(
        game="piramides",
        players=["Ann"],
        seats=[0],
        budget="quick",
        iterations=0,
        samples=16,
        seed=0,
        value_kind="clear",
        thresholds=thresholds_for("piramides"),
        possible=rounds,
    )
