"""MCTS in Pyramido: greedy's shortlist at tree nodes, and what the search does with it."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from pyramids.ai import make_agent
from pyramids.ai.greedy.pyramido import GreedyPyramido, _after, _best_gem_score
from pyramids.ai.mcts import MCTSAgent
from pyramids.ai.policies import DEFAULT_POLICY, get_policy
from pyramids.ai.policies.pyramido import TOP_CARD, TOP_PLACE, candidates
from pyramids.engine.rng import Rng
from pyramids.games.pyramido import PyramidoMove, PyramidoState
from tests.ai.positions import self_play_positions


def greedy_positions(seed: int, plies: int) -> list[PyramidoState]:
    """Every position of a game ``greedy`` plays against itself, up to ``plies``."""
    seen = self_play_positions("pyramido", GreedyPyramido(), seed, plies)
    assert all(isinstance(s, PyramidoState) for s in seen)
    return [s for s in seen if isinstance(s, PyramidoState)]


def value(state: PyramidoState, move: PyramidoMove) -> tuple[int, int]:
    """Dead cells (fewer is better) and this floor's score after the best gem."""
    p = state.current_player
    assert p is not None
    dead = state.dead_cells(p, (1 << move.b) | (1 << move.c))
    return dead, _best_gem_score(_after(state, move), p)


@pytest.mark.parametrize("seed", [0, 1])
def test_placement_shortlist_is_greedys_best_first(seed: int) -> None:
    places = [s for s in greedy_positions(seed, 400) if s.step == "place"]
    assert len(places) > 15
    for state in places:
        moves = state.legal_moves()
        short = candidates(state, moves)
        assert 1 <= len(short) <= TOP_PLACE
        assert len(short) == min(TOP_PLACE, len(moves))
        assert len(set(short)) == len(short)
        assert set(short) <= set(moves)
        values = [value(state, m) for m in short]
        # dead cells never fall, and within the same dead cells the score never rises
        for (d1, s1), (d2, s2) in itertools.pairwise(values):
            assert d1 < d2 or (d1 == d2 and s1 >= s2)
        fewest = min(value(state, m)[0] for m in moves)
        assert values[0][0] == fewest
        top = max(v for d, v in (value(state, m) for m in moves) if d == fewest)
        assert values[0][1] == top


def test_card_shortlist_is_pass_and_the_cards_that_gain() -> None:
    seen = 0
    for seed in range(4):
        for state in greedy_positions(seed, 400):
            if state.step != "card":
                continue
            p = state.current_player
            assert p is not None
            moves = state.legal_moves()
            short = candidates(state, moves)
            assert PyramidoMove("pass") in short
            cards = [m for m in short if m.kind == "card"]
            assert len(cards) <= TOP_CARD
            base = state.floor_score(p).total
            gains = [_after(state, m).floor_score(p).total - base for m in cards]
            assert all(g > 0 for g in gains)
            assert gains == sorted(gains, reverse=True)
            best = max((_after(state, m).floor_score(p).total - base for m in moves), default=0)
            if cards:
                assert gains[0] == best
            # greedy's rule: a card gaining 3 or more is tried before passing
            assert (short[0].kind == "card") == (best >= 3)
            seen += 1
    assert seen > 20


def test_other_steps_keep_every_move() -> None:
    kinds = set()
    for state in greedy_positions(2, 400):
        if state.step in ("mark", "refill"):
            moves = state.legal_moves()
            assert candidates(state, moves) == moves
            kinds.add(state.step)
    assert kinds == {"mark", "refill"}


def test_search_grows_only_shortlisted_moves_at_the_root() -> None:
    state = next(s for s in greedy_positions(3, 40) if s.step == "place" and s.ply > 10)
    moves = state.legal_moves()
    assert len(moves) > TOP_PLACE
    agent = make_agent("mcts", "pyramido", iterations=60, seconds=0)
    assert isinstance(agent, MCTSAgent)
    move = agent.choose(state, Rng(4))
    short = candidates(state, moves)
    grown = {m for m, n in agent.last_visits.items() if n}
    assert move in short
    assert grown <= set(short)
    assert len(grown) == len(short)  # 60 visits are enough to try all eight


def test_the_shortlist_is_registered_and_optional() -> None:
    assert get_policy("pyramido").candidates is candidates
    assert DEFAULT_POLICY.candidates is None


def test_mcts_keeps_out_of_holes() -> None:
    """With at least ``TOP_PLACE`` placements of fewest dead cells, the search plays one.

    (Every move it may grow is one of them; with fewer, the shortlist is filled
    up with the next-safest, which the playouts may prefer.)"""
    agent = make_agent("mcts", "pyramido", iterations=40, seconds=0)
    checked = 0
    for state in greedy_positions(5, 200)[::7]:
        if state.step != "place" or len(state.legal_moves()) < 2:
            continue
        p = state.current_player
        assert p is not None
        moves = state.legal_moves()
        dead = [state.dead_cells(p, (1 << m.b) | (1 << m.c)) for m in moves]
        fewest = min(dead)
        if dead.count(fewest) < TOP_PLACE:
            continue
        move: Any = agent.choose(state, Rng(state.ply))
        assert state.dead_cells(p, (1 << move.b) | (1 << move.c)) == fewest
        checked += 1
    assert checked >= 4
