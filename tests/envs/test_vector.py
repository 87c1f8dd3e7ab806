"""The vector environment of Pirámides: the same games as the single one, batched."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="needs gymnasium: pip install pyramids[rl]")

import gymnasium
import numpy as np

from pyramids.envs.gym_env import PyramidsEnv
from pyramids.envs.vector_env import PiramidesVectorEnv


def test_spaces_and_shapes() -> None:
    env = PiramidesVectorEnv(num_envs=3)
    obs, info = env.reset(seed=0)
    assert obs.shape == (3, 466) and obs.dtype == np.float32
    assert info["action_mask"].shape == (3, 30) and info["action_mask"].dtype == np.int8
    assert env.action_space.shape == (3,)
    assert env.observation_space.contains(obs)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP


def test_each_row_is_the_single_environment_game() -> None:
    """Same deals, same actions: every row is the game ``PyramidsEnv`` plays."""
    deals = [3, 11, 42]
    vec = PiramidesVectorEnv(num_envs=3)
    singles = [PyramidsEnv() for _ in deals]
    obs, info = vec.reset(options={"deals": deals})
    for env, deal in zip(singles, deals, strict=True):
        env.reset(options={"deal": deal})
    rng = np.random.default_rng(0)
    live = [True] * 3
    for _ in range(400):
        actions = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
        obs, rewards, term, _, info = vec.step(actions)
        for i, env in enumerate(singles):
            if not live[i]:
                continue
            o, r, t, _, inf = env.step(int(actions[i]))
            assert np.array_equal(obs[i], o)
            assert rewards[i] == r and term[i] == t
            assert np.array_equal(info["action_mask"][i], inf["action_mask"])
            live[i] = not t
        if not any(live):
            break
    assert not any(live)


def test_next_step_autoreset_ignores_the_action_and_deals_anew() -> None:
    vec = PiramidesVectorEnv(num_envs=1)
    _, info = vec.reset(seed=5)
    rng = np.random.default_rng(1)
    done = False
    while not done:
        actions = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
        _, _, term, trunc, info = vec.step(actions)
        done = bool(term[0] or trunc[0])
    obs, rewards, term, trunc, info = vec.step(np.array([29]))  # any id: ignored
    assert rewards[0] == 0 and not term[0] and not trunc[0]
    assert vec.states[0].ply == 0 and info["action_mask"][0].any()
    assert np.array_equal(obs[0], vec.codec.observations.encode(vec.states[0].view(0)))


def test_illegal_action_changes_nothing() -> None:
    vec = PiramidesVectorEnv(num_envs=2, illegal_reward=-2.0)
    obs, info = vec.reset(seed=1)
    illegal = np.array([int(np.flatnonzero(info["action_mask"][i] == 0)[0]) for i in range(2)])
    obs2, rewards, term, _, info2 = vec.step(illegal)
    assert list(rewards) == [-2.0, -2.0] and info2["illegal_action"].all()
    assert np.array_equal(obs, obs2) and not term.any()


def test_make_vec_and_truncation() -> None:
    vec = gymnasium.make_vec("pyramids/Piramides-vector-v0", num_envs=2, max_episode_steps=3)
    _, info = vec.reset(seed=2)
    truncated = np.zeros(2, dtype=bool)
    for _ in range(3):
        actions = info["action_mask"].argmax(axis=1)
        _, _, term, truncated, info = vec.step(actions)
    assert (truncated | term).all()
    vec.close()
