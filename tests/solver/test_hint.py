"""Hints sample the unseen cards and never peek."""

from __future__ import annotations

import pyramids
from pyramids.games.piramides import PiramidesState
from pyramids.solver.hint import hint
from pyramids.solver.position import deal_position, deal_state
from pyramids.solver.search import WIN, solve


def _before_last_move(layout: str, deal: int) -> PiramidesState:
    r = solve(deal_position(layout, deal))
    assert r.verdict == WIN
    state = deal_state(layout, deal)
    for move in r.moves()[:-1]:
        state.play(move)
    return state


def test_hint_recommends_the_clearing_move_with_certainty() -> None:
    state = _before_last_move("tripeaks", 5)
    h = hint(state, samples=6, seed=1)
    assert h.samples == 6
    assert {e.move for e in h.estimates} == set(state.legal_moves())
    best = h.estimates[0]
    assert best.chance == 1.0 and best.move == h.best
    after = state.copy()
    after.play(h.best)
    assert after.is_over and after.round_scores()[0].cleared


def test_hint_is_reproducible_and_does_not_change_the_state() -> None:
    state = pyramids.new_game("piramides", seed=9, layout="golf", wrap=True)
    assert isinstance(state, PiramidesState)
    before = state.view(0)
    a = hint(state, samples=3, seed=4, max_nodes=20_000)
    b = hint(state, samples=3, seed=4, max_nodes=20_000)
    assert [(e.move, e.wins, e.unknown) for e in a.estimates] == [
        (e.move, e.wins, e.unknown) for e in b.estimates
    ]
    assert state.view(0) == before


def test_hint_score_mode_gives_mean_scores() -> None:
    state = _before_last_move("golf", 3)
    h = hint(state, samples=2, mode="score", seed=2)
    assert h.mode == "score" and h.estimates[0].mean_score is not None
