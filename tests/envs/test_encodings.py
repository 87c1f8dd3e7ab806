"""Codecs: action ids round-trip, masks equal the legal moves, observations hide secrets."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numpy", reason="the research adapters need numpy: pip install pyramids[rl]")

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import pyramids
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.envs.encodings import make_codec
from pyramids.envs.encodings.base import GameCodec
from tests.envs.cases import CODEC_CASES, CODEC_IDS

seeds = st.integers(min_value=0, max_value=2**32 - 1)

_CODECS: dict[tuple[str, int], GameCodec] = {}


def codec_for(game_id: str, players: int) -> GameCodec:
    key = (game_id, players)
    if key not in _CODECS:
        _CODECS[key] = make_codec(game_id, players)
    return _CODECS[key]


def random_states(game_id: str, players: int, seed: int, agent_seed: int) -> list[State[Any]]:
    """Every state of one random game (capped, to keep the test fast)."""
    state = pyramids.new_game(game_id, players=players, seed=seed)
    rng = Rng(agent_seed)
    seen = [state.copy()]
    while not state.is_over and len(seen) < 150:
        moves = state.legal_moves()
        state.play(moves[rng.below(len(moves))])
        seen.append(state.copy())
    return seen


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
@given(seed=seeds, agent_seed=seeds)
def test_every_legal_move_round_trips_and_the_mask_is_exactly_the_legal_moves(
    game_id: str, players: int, seed: int, agent_seed: int
) -> None:
    codec = codec_for(game_id, players).actions
    for state in random_states(game_id, players, seed, agent_seed):
        legal = state.legal_moves()
        ids = [codec.encode(state, m) for m in legal]
        assert len(set(ids)) == len(legal), "two legal moves share an action id"
        for move, action in zip(legal, ids, strict=True):
            assert 0 <= action < codec.num_actions
            assert codec.decode(state, action) == move
        mask = codec.mask(state)
        assert mask.dtype == np.bool_ and mask.shape == (codec.num_actions,)
        assert set(np.flatnonzero(mask).tolist()) == set(ids)
        assert codec.legal_actions(state) == sorted(ids)


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
@given(seed=seeds, agent_seed=seeds)
def test_observations_have_the_declared_shape_and_range(
    game_id: str, players: int, seed: int, agent_seed: int
) -> None:
    codec = codec_for(game_id, players).observations
    for state in random_states(game_id, players, seed, agent_seed)[::7]:
        for seat in range(players):
            obs = codec.encode(state.view(seat))
            assert obs.shape == codec.shape and obs.dtype == np.float32
            assert float(obs.min()) >= 0.0 and float(obs.max()) <= 1.0


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
@given(seed=seeds, agent_seed=seeds, other=seeds)
def test_observations_cannot_tell_apart_states_a_seat_cannot(
    game_id: str, players: int, seed: int, agent_seed: int, other: int
) -> None:
    codec = codec_for(game_id, players)
    for state in random_states(game_id, players, seed, agent_seed)[::11]:
        for seat in range(players):
            twin = state.determinize(seat, Rng(other))
            a = codec.observations.encode(state.view(seat))
            b = codec.observations.encode(twin.view(seat))
            assert np.array_equal(a, b)
            if state.current_player == seat:
                assert np.array_equal(codec.actions.mask(state), codec.actions.mask(twin))


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
def test_bad_action_ids_are_refused_with_a_clear_error(game_id: str, players: int) -> None:
    codec = codec_for(game_id, players).actions
    state = pyramids.new_game(game_id, players=players, seed=1)
    for bad in (-1, codec.num_actions, 2.5, "3", True):
        with pytest.raises(ValueError, match="action id"):
            codec.decode(state, bad)  # type: ignore[arg-type]
    assert all(codec.describe(a) for a in range(codec.num_actions))


def test_piramides_ids_follow_the_documented_table() -> None:
    from pyramids.games.piramides import DRAW, USE_JOKER, PiramidesMove

    state = pyramids.new_game("piramides", seed=4)
    codec = make_codec("piramides").actions
    assert codec.num_actions == 30
    assert codec.encode(state, PiramidesMove("play", 0)) == 0
    assert codec.encode(state, PiramidesMove("play", 27)) == 27
    assert codec.encode(state, DRAW) == 28
    assert codec.encode(state, USE_JOKER) == 29
    assert codec.describe(27) == "play G7"
    with pytest.raises(ValueError):
        codec.encode(state, ("play", 3))


def test_piramides_observation_reads_the_view() -> None:
    state = pyramids.new_game("piramides", seed=4)
    codec = make_codec("piramides")
    obs = codec.observations.encode(state.view(0))
    view = state.view(0)
    per = 16
    for i, cell in enumerate(view["pyramid"]):
        block = obs[i * per : (i + 1) * per]
        assert block[0] == 1.0  # still there
        assert block[1] == float(cell["free"])
        assert block[3:].sum() == 1.0  # face up: exactly one rank
    waste = obs[28 * per : 28 * per + 14]
    assert waste.sum() == 1.0
    assert obs[-4] == 1.0  # full stock


def test_piramides_codec_follows_other_layouts() -> None:
    for layout in ("tripeaks", "golf"):
        codec = make_codec("piramides", variant={"layout": layout})
        state = pyramids.new_game("piramides", seed=2, layout=layout)
        positions = len(state.view(0)["pyramid"])
        assert codec.actions.num_actions == positions + 2
        assert codec.observations.encode(state.view(0)).shape == codec.observations.shape
        image = codec.raster(state.view(0)) if codec.raster else None
        assert image is not None and image.ndim == 3 and image.shape[2] == 3
