"""A random agent on ``pyramids/Piramides-v0`` through Gymnasium, using the action mask.

Run: ``.venv/bin/python examples/gym_random.py`` (needs ``pip install pyramids[rl]``).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np

import pyramids.envs  # noqa: F401  (registers pyramids/Piramides-v0)


def main(episodes: int = 20, seed: int = 0) -> float:
    env = gym.make("pyramids/Piramides-v0")
    rng = np.random.default_rng(seed)
    returns = []
    obs, info = env.reset(seed=seed)
    for _ in range(episodes):
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            total += float(reward)
            done = terminated or truncated
        returns.append(total)
        obs, info = env.reset()
    mean = float(np.mean(returns))
    print(f"random agent, {episodes} episodes of Pirámides: mean score {mean:.1f}")
    print(f"observation {obs.shape} float32, {env.action_space} actions")
    env.close()
    return mean


if __name__ == "__main__":
    main()
