"""The vector environment of Pirámides: the same games as the single one, batched."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="needs gymnasium: pip install pyramids[rl]")

import gymnasium
import numpy as np

from pyramids.envs.gym_env import ENV_ID, PyramidsEnv
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


def sync_twin(num_envs: int, max_steps: int, **kwargs: object) -> gymnasium.vector.SyncVectorEnv:
    """Gymnasium's own vectorisation of the registered single environment."""
    return gymnasium.vector.SyncVectorEnv(
        [
            lambda: gymnasium.make(ENV_ID, max_episode_steps=max_steps, **kwargs)
            for _ in range(num_envs)
        ]
    )


def assert_same_step(ours: tuple[object, ...], theirs: tuple[object, ...]) -> None:
    """Observations, rewards, endings, masks and scores agree (the infos' own keys)."""
    *arrays, info = ours
    *their_arrays, their_info = theirs
    for a, b in zip(arrays, their_arrays, strict=True):
        assert np.array_equal(a, b)
    for key in ("action_mask", "score", "illegal_action"):
        assert np.array_equal(info[key], their_info[key]), key  # type: ignore[index]


@pytest.mark.parametrize("seed", [5, 6])
def test_same_trajectories_as_gymnasiums_sync_vector_env(seed: int) -> None:
    """Game i is seeded seed + i and deals every next episode from its own stream.

    Short episodes (truncated after 12 steps), so that every game autoresets
    several times: an environment that dealt the same deal at every
    autoreset, or ignored the seed, would part from SyncVectorEnv here.
    """
    n, max_steps = 4, 12
    ours = PiramidesVectorEnv(num_envs=n, max_episode_steps=max_steps)
    theirs = sync_twin(n, max_steps)
    obs, info = ours.reset(seed=seed)
    their_obs, their_info = theirs.reset(seed=seed)
    assert_same_step((obs, info), (their_obs, their_info))
    rng = np.random.default_rng(seed)
    deals = set()
    for step in range(80):
        mask = info["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        if step % 7 == 3:
            actions[0] = 29 if mask[0, 29] == 0 else 0  # an illegal id now and then
        result = ours.step(actions)
        assert_same_step(result, theirs.step(actions))
        info = result[4]
        deals.update(tuple(s.layout_cards) for s in ours.states)
    assert len(deals) > 3 * n  # every autoreset dealt a new game
    # a new seed deals new games; the same seed the same ones again
    first = ours.reset(seed=seed)[0]
    assert not np.array_equal(ours.reset(seed=seed + 100)[0], first)
    assert np.array_equal(ours.reset(seed=seed)[0], first)


def test_same_step_autoreset_reports_the_ended_game() -> None:
    """``autoreset_mode="same_step"``: as Gymnasium's SyncVectorEnv in that mode."""
    n, max_steps = 3, 10
    ours = PiramidesVectorEnv(num_envs=n, max_episode_steps=max_steps, autoreset_mode="same_step")
    theirs = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make(ENV_ID, max_episode_steps=max_steps) for _ in range(n)],
        autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP,
    )
    _, info = ours.reset(seed=1)
    theirs.reset(seed=1)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(40):
        mask = info["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        result, their = ours.step(actions), theirs.step(actions)
        assert_same_step(result, their)
        info = result[4]
        if "final_obs" in their[4]:
            assert np.array_equal(info["_final_obs"], their[4]["_final_obs"])
            for i in np.flatnonzero(info["_final_obs"]):
                assert np.array_equal(info["final_obs"][i], their[4]["final_obs"][i])
                final, their_final = info["final_info"], their[4]["final_info"]
                assert final["score"][i] == their_final["score"][i]
                ended += 1
        else:
            assert "final_obs" not in info
    assert ended >= n


def test_render_mode_is_passed_through() -> None:
    vec = gymnasium.make_vec("pyramids/Piramides-vector-v0", num_envs=2, render_mode="ansi")
    vec.reset(seed=1)
    frames = vec.render()
    assert isinstance(frames, tuple) and len(frames) == 2 and "Stock 23" in frames[0]
    vec = PiramidesVectorEnv(num_envs=2, render_mode="rgb_array")
    vec.reset(seed=1)
    images = vec.render()
    assert images is not None and images[0].shape[2] == 3 and images[0].dtype == np.uint8
    with pytest.raises(ValueError, match="render_mode"):
        PiramidesVectorEnv(render_mode="human")
