"""The adapters' fast paths give exactly what the view-based definitions give.

The observation of a seat is *defined* as the codec's encoding of
``view(seat)``, which is what guarantees that nothing hidden leaks. The
adapters build it straight from the state instead (``encode_state``,
``encode_states``) and the mask from a table (``legal_ids``), because a view
costs more than the game; these property tests check on random states of
every game and player count that the fast results are the same arrays, for
every seat and the spectator.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numpy", reason="the research adapters need numpy: pip install pyramids[rl]")

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import pyramids
import pyramids.envs.encodings.pyramido_treasure as treasure_codec
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.envs.encodings import make_codec
from pyramids.envs.encodings.base import GameCodec
from pyramids.games.pyramido_treasure.treasures import CARD_BY_NAME
from tests.envs.cases import CODEC_CASES, CODEC_IDS

seeds = st.integers(min_value=0, max_value=2**32 - 1)
#: plies at which a state is checked: early ones, and deep into long games
plies = st.integers(min_value=0, max_value=600)

_CODECS: dict[tuple[str, int, str], GameCodec] = {}

VARIANTS: dict[str, list[dict[str, Any]]] = {
    "piramides": [{}, {"face_down": True}, {"layout": "tripeaks"}, {"layout": "golf"}],
    "pyramido-treasure": [{}, {"shuffle_fields": True}],
}


def codec_for(game_id: str, players: int, variant: dict[str, Any]) -> GameCodec:
    key = (game_id, players, repr(sorted(variant.items())))
    if key not in _CODECS:
        _CODECS[key] = make_codec(game_id, players, variant)
    return _CODECS[key]


def state_at(
    game_id: str, players: int, variant: dict[str, Any], seed: int, ply: int
) -> State[Any]:
    """A random game of ``seed`` played on for ``ply`` random moves (or to its end)."""
    state = pyramids.new_game(game_id, players=players, seed=seed, **variant)
    rng = Rng(seed ^ 0x5A5A)
    while not state.is_over and state.ply < ply:
        moves = state.legal_moves()
        state.play(moves[rng.below(len(moves))])
    return state


def assert_same(a: Any, b: Any) -> None:
    assert a.dtype == b.dtype and a.shape == b.shape
    assert np.array_equal(a, b), np.flatnonzero(a != b)[:10]


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
@settings(max_examples=12, deadline=None)
@given(seed=seeds, ply=plies, which=st.integers(min_value=0, max_value=3))
def test_fast_observation_equals_the_encoding_of_the_view(
    game_id: str, players: int, seed: int, ply: int, which: int
) -> None:
    options = VARIANTS.get(game_id, [{}])
    variant = options[which % len(options)]
    codec = codec_for(game_id, players, variant)
    state = state_at(game_id, players, variant, seed, ply)
    for seat in [None, *range(players)]:
        assert_same(
            codec.observations.encode_state(state, seat),
            codec.observations.encode(state.view(seat)),
        )
    ids = sorted({codec.actions.encode(state, m) for m in state.legal_moves()})
    assert sorted(codec.actions.legal_ids(state)) == ids
    assert list(np.flatnonzero(codec.actions.mask(state))) == ids


@pytest.mark.parametrize("variant", VARIANTS["piramides"], ids=repr)
def test_batched_observations_equal_the_single_ones(variant: dict[str, Any]) -> None:
    codec = codec_for("piramides", 1, variant)
    states = [state_at("piramides", 1, variant, seed, seed % 40) for seed in range(30)]
    batch = codec.observations.encode_states(states, 0)
    assert_same(batch, np.stack([codec.observations.encode(s.view(0)) for s in states]))


def test_the_memo_of_last_reveals_follows_each_copy() -> None:
    """Copies share the old part of the reveal list: each must still see its own history."""
    state = state_at("pyramido-treasure", 2, {}, 5, 200)
    a, b = state.copy(), state.copy()
    rng = Rng(1)
    for _ in range(30):
        for s in (a, b):
            if not s.is_over:
                moves = s.legal_moves()
                s.play(moves[rng.below(len(moves))])
    for s in (state, a, b):
        history = s.reveal_history()
        last = [-1] * 48
        for ply, spot in history:
            last[spot] = ply
        assert list(s.last_reveals()) == last


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
@settings(max_examples=4, deadline=None)
@given(seed=seeds, which=st.integers(min_value=0, max_value=3))
def test_one_codec_follows_interleaved_games_move_by_move(
    game_id: str, players: int, seed: int, which: int
) -> None:
    """A codec that remembers its last observation (Pirámides) or masks (all) stays exact.

    Two copies of one game diverge and are observed in turn, as an adapter's
    codec sees them after every step (and the vector env after a reset): each
    observation and mask must be that of its own state, never the other's.
    """
    options = VARIANTS.get(game_id, [{}])
    variant = options[which % len(options)]
    codec = make_codec(game_id, players, variant)  # a fresh codec: nothing remembered yet
    first = pyramids.new_game(game_id, players=players, seed=seed, **variant)
    games = [first, first.copy()]
    rng = Rng(seed ^ 0xC0DEC)
    for _ in range(120):
        for state in games:
            if state.is_over:
                continue
            seat = state.current_player
            assert_same(
                codec.observations.encode_state(state, seat),
                codec.observations.encode(state.view(seat)),
            )
            ids = {codec.actions.encode(state, m) for m in state.legal_moves()}
            legal = codec.actions.legal_bytes(state)
            assert len(legal) == codec.actions.num_actions
            assert {i for i, b in enumerate(legal) if b} == ids
            moves = state.legal_moves()
            state.play(moves[rng.below(len(moves))])


@settings(max_examples=6, deadline=None)
@given(
    seed=seeds,
    gaps=st.lists(st.integers(min_value=1, max_value=150), min_size=3, max_size=8),
    shuffle=st.booleans(),
)
def test_treasure_observers_that_look_away_and_back_stay_exact(
    seed: int, gaps: list[int], shuffle: bool
) -> None:
    """Each seat's remembered vector follows the game however long it looked away.

    The treasure hunt's observation is rewritten from the reveals since the
    seat last looked (:meth:`TreasureState.reveals_since`, which gives up
    after 64 reveals): short and long gaps, a seat looking twice at the same
    state, and a seat of another game in between must all give the vector of
    the view.
    """
    variant = {"shuffle_fields": shuffle}
    codec = make_codec("pyramido-treasure", 3, variant)
    state = pyramids.new_game("pyramido-treasure", players=3, seed=seed, **variant)
    other = state_at("pyramido-treasure", 3, variant, seed ^ 1, 90)
    rng = Rng(seed)
    for gap in gaps:
        for _ in range(gap):
            if state.is_over:
                break
            moves = state.legal_moves()
            state.play(moves[rng.below(len(moves))])
        seat = rng.below(3)
        for s in (state, state, other, state):
            assert_same(
                codec.observations.encode_state(s, seat),
                codec.observations.encode(s.view(seat)),
            )


def test_treasure_deck_rest_is_one_tuple_per_position() -> None:
    """``deck_left`` is remembered: the same cards left are the same tuple, and right."""
    state = state_at("pyramido-treasure", 2, {}, 11, 120)
    again = state.copy()
    assert state.deck_left() is again.deck_left()
    names = state.view(0)["deck_left"]
    assert list(state.deck_left()) == sorted(CARD_BY_NAME[n] for n in names)


def _in_empty_deck_window(variant: dict[str, Any], seed: int) -> State[Any]:
    """A state whose current deck (1 or 2) is empty, before the next deck is drawn from."""
    state = pyramids.new_game("pyramido-treasure", players=2, seed=seed, **variant)
    rng = Rng(seed)
    while not state.is_over:
        if not state.deck_left() and state.deck_number < 3:
            return state
        moves = state.legal_moves()
        state.play(moves[rng.below(len(moves))])
    raise AssertionError("the game never reached an empty deck 1 or 2")


def test_treasure_deck_counts_follow_a_game_of_another_variant() -> None:
    """An empty deck's rest is always the same empty tuple, whatever the later decks hold.

    Without the game-over card deck 3 has one card fewer, so a codec shared
    between two variants must not take "same rest" for "same counts" (found
    in review: the counts of deck 3 stayed those of the first game).
    """
    codec = treasure_codec.TreasureObservations(2)
    with_card = _in_empty_deck_window({}, 1)
    without = _in_empty_deck_window({"game_over_card": False}, 1)
    assert with_card.deck_left() is without.deck_left()
    assert with_card.decks_left() != without.decks_left()
    for state in (with_card, without, with_card):
        assert_same(codec.encode_state(state, 0), codec.encode(state.view(0)))


def test_treasure_recency_past_float32_plies_uses_the_float64_formula(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From 2**24 plies on (no float32 holds them all) the recency is computed in float64."""
    state = state_at("pyramido-treasure", 3, {}, 4, 150)
    codec = make_codec("pyramido-treasure", 3, {})
    monkeypatch.setattr(treasure_codec, "_FLOAT32_EXACT", 100)
    for seat in range(3):
        assert_same(
            codec.observations.encode_state(state, seat),
            codec.observations.encode(state.view(seat)),
        )
