"""PettingZoo: the official API, seed and max-cycles tests for every game with a codec."""

from __future__ import annotations

import importlib
import types
from functools import partial
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the research adapters need numpy: pip install pyramids[rl]")
pytest.importorskip("pettingzoo", reason="pip install pyramids[rl]")

import numpy as np
from pettingzoo.test import api_test, max_cycles_test, seed_test

from pyramids.engine.registry import get_game
from pyramids.envs.pettingzoo_env import PyramidsAECEnv
from tests.envs.cases import CODEC_CASES, CODEC_GAMES, CODEC_IDS, short

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def module_of(game_id: str) -> Any:
    return importlib.import_module(f"pyramids.envs.{game_id.replace('-', '_')}_v0")


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
@pytest.mark.parametrize("render_mode", ["ansi", "rgb_array"])
def test_api_test(game_id: str, players: int, render_mode: str) -> None:
    env = module_of(game_id).env(players=players, render_mode=render_mode)
    api_test(env, num_cycles=60)
    env.reset(seed=1)
    assert env.render() is not None


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
def test_seed_test(game_id: str, players: int) -> None:
    seed_test(partial(module_of(game_id).env, players=players), num_cycles=40)


#: Games in which every move passes the turn. PettingZoo's max_cycles_test counts
#: how often each agent is selected and expects max_cycles + 1 for all of them,
#: which cannot hold where one turn is several moves (pyramido's steps, the
#: treasure hunt's slides); those games get test_max_cycles_truncates_every_game.
ONE_MOVE_TURNS = [g for g in CODEC_GAMES if g in ("piramides", "pyramideto")]


@pytest.mark.parametrize("game_id", ONE_MOVE_TURNS)
def test_max_cycles_test(game_id: str) -> None:
    module = module_of(game_id)
    if get_game(game_id).max_players == 1:
        max_cycles_test(module)  # the module as it is: an illegal action keeps the one seat
    else:
        # The test samples actions without masks; with several seats only the
        # "random" policy keeps the turn order of a real game (see the module docstring).
        max_cycles_test(
            types.SimpleNamespace(
                env=partial(module.env, illegal_action="random"),
                parallel_env=partial(module.parallel_env, illegal_action="random"),
            )
        )


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
def test_masked_random_play_reaches_the_end_with_rewards_adding_up(
    game_id: str, players: int
) -> None:
    env = module_of(game_id).env(players=players, **short(game_id))
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=20_000):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert obs["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = env.unwrapped.game_state
    assert state.is_over
    assert [totals[a] for a in env.possible_agents] == [float(s) for s in state.scores()]


def test_illegal_action_keeps_the_seat_and_the_state() -> None:
    env = module_of("piramides").raw_env(illegal_reward=-3.0)
    env.reset(seed=5)
    obs = env.observe("player_0")
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.game_state.view(0)
    env.step(illegal)
    assert env.agent_selection == "player_0"
    assert env.rewards["player_0"] == -3.0 and env.infos["player_0"]["illegal_action"]
    assert env.game_state.view(0) == before


def test_random_policy_plays_a_legal_move_for_an_illegal_action() -> None:
    env = module_of("pyramideto").raw_env(players=2, illegal_action="random")
    env.reset(seed=5)
    illegal = int(np.flatnonzero(env.observe("player_0")["action_mask"] == 0)[0])
    env.step(illegal)
    assert env.game_state.ply == 1 and env.agent_selection == "player_1"
    assert env.infos["player_0"]["illegal_action"]
    assert env.rewards["player_0"] == -1.0


def test_rank_rewards_are_zero_sum_at_the_end() -> None:
    env = module_of("pyramideto").env(players=3, reward="rank")
    env.reset(seed=4)
    rng = np.random.default_rng(1)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=5_000):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert abs(sum(totals.values())) < 1e-9
    state = env.unwrapped.game_state
    best = [f"player_{s}" for s in state.winners()]
    assert all(totals[a] == max(totals.values()) for a in best)


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
def test_max_cycles_truncates_every_game(game_id: str, players: int) -> None:
    env = module_of(game_id).raw_env(players=players, max_cycles=3)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    steps = 0
    while not any(env.truncations.values()):
        assert not env.game_state.is_over
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert steps == 3 * players
    assert all(env.truncations.values())


def test_max_cycles_truncates() -> None:
    env = module_of("piramides").raw_env(max_cycles=3)
    env.reset(seed=5)
    for _ in range(3):
        assert not env.truncations["player_0"]
        env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[0]))
    assert env.truncations["player_0"]


def test_parallel_env_plays_one_move_per_step() -> None:
    par = module_of("piramides").parallel_env()
    observations, _infos = par.reset(seed=2)
    mask = observations["player_0"]["action_mask"]
    _, rewards, terms, truncs, _ = par.step({"player_0": int(np.flatnonzero(mask)[0])})
    assert par.aec.game_state.ply == 1
    assert set(rewards) == set(terms) == set(truncs) == {"player_0"}
    with pytest.raises(ValueError, match="no action"):
        par.step({})


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        PyramidsAECEnv("piramides", render_mode="human")
    with pytest.raises(ValueError, match="reward"):
        PyramidsAECEnv("piramides", reward="points")
    with pytest.raises(ValueError, match="two players"):
        PyramidsAECEnv("piramides", reward="rank")
    with pytest.raises(ValueError, match="max_cycles"):
        PyramidsAECEnv("piramides", max_cycles=0)
    with pytest.raises(ValueError, match="illegal_action"):
        PyramidsAECEnv("piramides", illegal_action="ignore")


def test_module_names_follow_pettingzoo_conventions() -> None:
    for game_id in CODEC_GAMES:
        module = module_of(game_id)
        assert isinstance(module, types.ModuleType)
        raw = module.raw_env()
        assert raw.metadata["name"] == f"{game_id.replace('-', '_')}_v0"
        assert raw.possible_agents[0] == "player_0"
