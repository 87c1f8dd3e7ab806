"""Random play properties for 2, 3 and 4 players (Hypothesis)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pyramids
from pyramids.engine.errors import NotationError
from pyramids.engine.rng import Rng
from pyramids.games.pyramido import PyramidoMove, PyramidoState
from tests.pyramido.helpers import careful_play, new

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def fingerprint(state: PyramidoState) -> str:
    views = [state.view(p) for p in [None, *range(state.players)]]
    return json.dumps([views, state.scores(), state.ranking()], sort_keys=True)


@pytest.mark.parametrize("n", [2, 3, 4])
@settings(max_examples=8)
@given(seed=seeds, agent=seeds, reckless=st.sampled_from([0.0, 0.3, 1.0]))
def test_whole_games(n: int, seed: int, agent: int, reckless: float) -> None:
    s = new(n, seed)
    careful_play(s, Rng(agent), reckless=reckless)
    assert s.is_over and s.legal_moves() == []
    for p in range(n):
        if not s.is_out(p):
            assert len({(f, c) for f, c, *_ in s.blocks(p)}) == 40
            assert len(s.floor_scores(p)) == 4
        assert s.scores()[p] == sum(fs.total for fs in s.floor_scores(p))
        for fs in s.floor_scores(p):
            jewels = [j for _, j in fs.areas]
            assert fs.total == sum(jewels) + min(jewels, default=0)
            assert len({c for c, _ in fs.areas}) == len(fs.areas)  # one gem per colour
    if s.in_players():
        # nobody refills after the last domino of the game
        assert s.moves_played()[-1].kind in ("place", "mark", "card", "pass", "fill")
    ranking = s.ranking()
    assert min(ranking) == 1
    record = json.loads(json.dumps(s.record()))
    again = pyramids.replay(record)
    assert isinstance(again, PyramidoState)
    assert fingerprint(again) == fingerprint(s)


def _hidden_swapped(s: PyramidoState) -> PyramidoState | None:
    """A twin whose stacks differ only below their tops (two hidden dominoes swapped)."""
    spots = [(i, k) for i, st_ in enumerate(s._stacks) for k in range(len(st_) - 1)]
    if len(spots) < 2:
        return None
    (i, k), (j, m) = spots[0], spots[-1]
    stacks = [list(x) for x in s._stacks]
    stacks[i][k], stacks[j][m] = stacks[j][m], stacks[i][k]
    twin = s.copy()
    twin._stacks = tuple(tuple(x) for x in stacks)
    return twin


@pytest.mark.parametrize("n", [2, 3, 4])
@settings(max_examples=10)
@given(seed=seeds, agent=seeds, cut=st.integers(min_value=0, max_value=150))
def test_views_hide_only_the_order_below_the_tops(n: int, seed: int, agent: int, cut: int) -> None:
    s = new(n, seed)
    rng = Rng(agent)
    while not s.is_over and s.ply < cut:
        moves = s.legal_moves()
        s.play(moves[rng.below(len(moves))])
    twin = _hidden_swapped(s)
    assert twin is not None and twin._stacks != s._stacks
    for seat in [None, *range(n)]:
        assert twin.view(seat) == s.view(seat)
    # a guess depends only on what the seat sees (and the generator)
    assert twin.determinize(0, Rng(agent))._stacks == s.determinize(0, Rng(agent))._stacks
    det = s.determinize(0, Rng(agent + 1))
    assert [len(x) for x in det._stacks] == [len(x) for x in s._stacks]
    assert [x[-1] for x in det._stacks] == [x[-1] for x in s._stacks]
    hidden = sorted(d for x in s._stacks for d in x[:-1])
    assert sorted(d for x in det._stacks for d in x[:-1]) == hidden
    assert det.view(0) == s.view(0)
    assert det.legal_moves() == s.legal_moves()
    # the determinized state carries a setup that replays to it
    again = pyramids.replay(det.record())
    assert isinstance(again, PyramidoState)
    assert again._stacks == det._stacks and again.view(None) == det.view(None)


@given(seed=seeds)
def test_setup_holds_every_domino_once(seed: int) -> None:
    s = new(2, seed)
    setup = s.setup()
    ids = setup["quarry"] + [d for x in setup["stacks"] for d in x]
    assert sorted(ids) == list(range(1, 91))
    assert [len(x) for x in setup["stacks"]] == [22, 22, 22, 21]


def test_random_first_player_comes_from_the_seed() -> None:
    firsts = {pyramids.new_game("pyramido", 4, seed=k, first_player="random").current_player
              for k in range(20)}  # fmt: skip
    assert len(firsts) > 1
    assert pyramids.new_game("pyramido", 3, seed=1, first_player=2).current_player == 2


words = st.sampled_from(["q1", "q3", "#7", "mark", "card", "fill", "refill", "pass", "e5", "r"])


@given(text=st.one_of(st.text(max_size=20), st.lists(words, max_size=5).map(" ".join)))
def test_any_text_is_a_move_or_a_notation_error(text: str) -> None:
    s = new(2, 1)
    try:
        move = s.parse_move(text)
    except NotationError:
        return
    assert isinstance(move, PyramidoMove)
