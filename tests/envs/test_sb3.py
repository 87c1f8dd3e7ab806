"""The Stable-Baselines3 adapter and the masks' contract, without SB3 or PyTorch installed.

MaskablePPO trusts the masks completely: it samples only masked-in actions
and never learns that the others exist. So the contract tested here is the
whole of what it relies on: ``env_method("action_masks")`` gives, per game,
exactly the actions that the next step accepts as legal.
"""

from __future__ import annotations

import copy

import pytest

pytest.importorskip("gymnasium", reason="pip install pyramids[rl]")

import numpy as np

from pyramids.envs.sb3 import Sb3VecEnv, make_sb3_vec_env
from pyramids.envs.vector_env import PiramidesVectorEnv


def random_actions(env: Sb3VecEnv, rng: np.random.Generator) -> np.ndarray:
    masks = np.stack(env.env_method("action_masks"))
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def test_masks_are_exactly_the_actions_the_next_step_accepts() -> None:
    env = Sb3VecEnv(num_envs=3, max_episode_steps=40)
    env.seed(2)
    env.reset()
    rng = np.random.default_rng(2)
    for _ in range(25):
        masks = np.stack(env.env_method("action_masks"))
        assert masks.dtype == np.bool_ and masks.shape == (3, env.action_space.n)
        assert np.array_equal(masks, env.action_masks())
        assert [m.tolist() for m in env.get_attr("action_masks")[0]()] == masks.tolist()
        assert masks.any(axis=1).all()  # a game in play always has a legal action
        for action in range(env.action_space.n):
            trial = copy.deepcopy(env)
            _, _, _, infos = trial.step(np.full(3, action))
            for i in range(3):
                assert infos[i]["illegal_action"] == (not masks[i, action])
        env.step(random_actions(env, rng))


def test_sb3_conventions_reset_same_step_and_report_the_last_observation() -> None:
    env = Sb3VecEnv(num_envs=2, max_episode_steps=15)
    assert env.seed(5) == [5, 6]
    obs = env.reset()
    twin_obs, _ = PiramidesVectorEnv(num_envs=2).reset(seed=5)
    assert np.array_equal(obs, twin_obs)  # game i seeded 5 + i, as Gymnasium's vector envs
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(60):
        games = env.venv.states
        obs, rewards, dones, infos = env.step(random_actions(env, rng))
        assert rewards.dtype == np.float32 and dones.dtype == np.bool_ and len(infos) == 2
        for i in np.flatnonzero(dones):
            last = env.venv.codec.observations.encode_state(games[i], 0)
            assert np.array_equal(infos[i]["terminal_observation"], last)
            assert infos[i]["TimeLimit.truncated"] == (not games[i].is_over)
            assert env.venv.states[i].ply == 0  # the next game is already dealt
            assert np.array_equal(
                obs[i], env.venv.codec.observations.encode_state(env.venv.states[i], 0)
            )
            ended += 1
    assert ended >= 2


def test_the_rest_of_the_interface() -> None:
    env = Sb3VecEnv(num_envs=2)
    env.set_options({"deal": 7})
    obs = env.reset()
    assert env.venv.states[0].setup() == env.venv.states[1].setup()
    assert obs.shape == (2, *env.observation_space.shape)
    assert env.has_attr("action_masks") and env.get_attr("num_envs") == [2, 2]
    assert env.env_is_wrapped(object) == [False, False]
    with pytest.raises(AttributeError):
        env.env_method("render")
    with pytest.raises(ValueError, match="unknown reset option"):
        env.set_options({"deel": 1})
        env.reset()


def test_make_sb3_vec_env_says_what_is_missing() -> None:
    try:
        import stable_baselines3  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="stable-baselines3"):
            make_sb3_vec_env(2)
    else:
        from stable_baselines3.common.vec_env import VecEnv

        assert isinstance(make_sb3_vec_env(2), VecEnv)
