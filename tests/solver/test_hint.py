"""Hints sample the unseen cards and never peek."""

from __future__ import annotations

from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import pyramids
from pyramids.engine.rng import Rng
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


LAYOUTS: list[dict[str, Any]] = [
    {"layout": "golf"},
    {"layout": "tripeaks"},
    {"layout": "pyramid", "face_down": True},
    {"layout": "golf", "wrap": True},
]


def _midgame(variant: dict[str, Any], seed: int, plies: int) -> PiramidesState:
    """A position after up to ``plies`` random moves where the player has a choice."""
    state = pyramids.new_game("piramides", seed=seed, **variant)
    assert isinstance(state, PiramidesState)
    rng = Rng(seed + 1)
    while not state.is_over and (state.ply < plies or len(state.legal_moves()) < 2):
        moves = state.legal_moves()
        state.play(moves[rng.below(len(moves))])
    return state


def _estimates(state: PiramidesState, mode: str, seed: int) -> list[tuple[Any, ...]]:
    h = hint(state, samples=3, mode=mode, seed=seed, max_nodes=4_000, max_seconds=60.0)
    return [(e.move, e.wins, e.unknown, e.score_total, e.scored) for e in h.estimates]


@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(LAYOUTS),
    deal=st.integers(0, 2**31),
    plies=st.integers(0, 25),
    other_seed=st.integers(0, 2**31),
    mode=st.sampled_from(["clear", "score"]),
)
def test_hint_never_peeks_at_the_unseen_cards(
    variant: dict[str, Any], deal: int, plies: int, other_seed: int, mode: str
) -> None:
    """The same hint for a state and for any deal of what its player cannot see.

    ``other`` is a determinization of ``state``: the same view, another stock
    order (and other face-down cards). A hint that solved the real deal would
    tell them apart; one that only samples the unseen cards cannot.
    """
    state = _midgame(variant, deal, plies)
    assume(not state.is_over and len(state.legal_moves()) > 1)
    other = state.determinize(0, Rng(other_seed))
    assert isinstance(other, PiramidesState)
    assert other.view(0) == state.view(0)
    assert _estimates(state, mode, 7) == _estimates(other, mode, 7)


def test_the_peeking_test_compares_different_hidden_cards() -> None:
    """Guard for the test above: a determinization really holds another stock order."""
    state = _midgame({"layout": "golf"}, 3, 5)
    other = state.determinize(0, Rng(11))
    assert state.setup() != other.setup()
