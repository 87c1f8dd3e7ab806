"""OpenSpiel: random_sim_test, information states, resampling and the bots."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the research adapters need numpy: pip install pyramids[rl]")
pytest.importorskip("pyspiel", reason="pip install pyramids[openspiel]")

import numpy as np
import pyspiel

from pyramids.envs.openspiel_game import register, short_name
from tests.envs.cases import CODEC_CASES, CODEC_IDS, short


def load(game_id: str, **params: object) -> object:
    register(game_id)
    return pyspiel.load_game(short_name(game_id), params)


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
def test_random_sim_test(game_id: str, players: int) -> None:
    game = load(game_id, players=players, **short(game_id))
    # serialize=False: OpenSpiel cannot serialize the RNG of a Python sampled-stochastic
    # game; states serialize on their own (tested below).
    sims = 2 if players == 1 else 1
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
def test_resample_keeps_the_information_state(game_id: str, players: int) -> None:
    game = load(game_id, players=players, seed=9)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0
    while not state.is_terminal() and checked < 40:
        for p in range(players):
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.current_player() == state.current_player()
            if other.current_player() == p:
                assert other.legal_actions() == state.legal_actions()
        state.apply_action(int(rng.choice(state.legal_actions())))
        checked += 1


def test_information_state_remembers_what_the_view_forgets() -> None:
    game = load("piramides", deal=7)
    a = game.new_initial_state()
    b = game.new_initial_state()
    assert a.information_state_string(0) == b.information_state_string(0)
    draw = 28
    a.apply_action(draw)
    a.apply_action(draw)
    b.apply_action(draw)
    b.apply_action(draw)
    assert a.information_state_string(0) == b.information_state_string(0)
    c = game.new_initial_state()
    c.apply_action(draw)
    assert a.information_state_string(0) != c.information_state_string(0)


def test_resamples_differ_and_hide_the_stock() -> None:
    game = load("piramides", deal=7)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    stocks = set()
    for _ in range(5):
        other = state.resample_from_infostate(0, sampler)
        other.apply_action(28)  # draw: shows the next stock card
        stocks.add(other.observation_string(0))
    assert len(stocks) > 1


def test_fixed_deal_and_seeded_streams() -> None:
    fixed = load("piramides", deal=3)
    assert str(fixed.new_initial_state()) == str(fixed.new_initial_state())
    one = load("piramides", seed=1)
    two = load("piramides", seed=1)
    assert str(one.new_initial_state()) == str(two.new_initial_state())


def test_unplayed_deals_are_dealt_again_and_copied_ones_are_not() -> None:
    plain = load("piramides", seed=4)
    kept = [plain.new_initial_state() for _ in range(2)]
    expected = [s.engine_state.seed for s in kept]
    assert expected[0] != expected[1]
    game = load("piramides", seed=4)
    probe = game.new_initial_state()
    probe.observation_tensor(0)  # OpenSpiel deals throwaway states for tensor sizes here
    del probe  # never played: its deal comes back
    first = game.new_initial_state()
    assert first.engine_state.seed == expected[0]
    twin = first.clone()
    del first  # copied: the twin still holds that deal, so it must not come back
    assert game.new_initial_state().engine_state.seed == expected[1]
    assert twin.engine_state.seed == expected[0]


def test_states_serialize_and_clone() -> None:
    game = load("piramides", deal=2)
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state)
    assert again.information_state_string(0) == state.information_state_string(0)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert str(clone) != str(state)
    assert state.history() == again.history()


def test_game_metadata() -> None:
    game = load("piramides")
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_distinct_actions() == 30
    assert game.min_utility() < 0 < game.max_utility()
    golf = load("piramides", layout="golf")
    assert golf.num_distinct_actions() == 37


def test_openspiel_bots_play_a_game() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = load("piramides", deal=5, rounds=1)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [
        mcts.MCTSBot(game, 100.0, 5, evaluator, random_state=np.random.RandomState(1)),
        ismcts.ISMCTSBot(game, evaluator, 100.0, 5, random_state=np.random.RandomState(2)),
    ]
    for bot in bots:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bot.step(state))
        assert game.min_utility() <= state.returns()[0] <= game.max_utility()


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
def test_an_observer_without_private_info_gives_every_seat_the_spectators_view(
    game_id: str, players: int
) -> None:
    from open_spiel.python.observation import make_observation

    from pyramids.envs.encodings import make_codec

    game = load(game_id, players=players, **short(game_id))
    codec = make_codec(game_id, players, short(game_id))
    public = make_observation(
        game,
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
        ),
    )
    private = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    differed = False
    for _ in range(40):
        if state.is_terminal():
            break
        spectator = codec.observations.encode(state.engine_state.view(None))
        for p in range(players):
            public.set_from(state, p)
            assert np.array_equal(public.tensor, spectator)
            assert public.string_from(state, p) == public.string_from(state, 0)
            private.set_from(state, p)
            own = codec.observations.encode(state.engine_state.view(p))
            assert np.array_equal(private.tensor, own)
            if p > 0:
                differed |= not np.array_equal(
                    own, codec.observations.encode(state.engine_state.view(0))
                )
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert differed or players == 1  # the seats' own tensors differ; without private info not
    for kind, public_info in (
        (pyspiel.PrivateInfoType.ALL_PLAYERS, True),
        (pyspiel.PrivateInfoType.SINGLE_PLAYER, False),
    ):
        obs_type = pyspiel.IIGObservationType(
            perfect_recall=False, public_info=public_info, private_info=kind
        )
        with pytest.raises(ValueError, match="not supported"):
            game.make_py_observer(obs_type)
