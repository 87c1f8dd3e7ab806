"""Train sb3-contrib's MaskablePPO on Pirámides through the batched environment.

MaskablePPO samples only the actions the mask allows, so the policy never
wastes a step on an illegal move. The environment is
:func:`pyramids.envs.sb3.make_sb3_vec_env`: N games stepped as one batch,
with the SB3 ``VecEnv`` interface and ``env_method("action_masks")``.
After training, the policy plays fixed held-out deals through the single
Gymnasium environment (``action_masks()`` there too) beside random play.

Needs PyTorch, which Pyramids does not install:
``pip install sb3-contrib`` (it brings stable-baselines3 and torch). Without
it the script says so and stops.

Run: ``.venv/bin/python examples/train_masked_ppo.py [timesteps]``
(200,000 steps by default; the policy is small, a CPU is enough).
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

import numpy as np

from pyramids.envs.gym_env import PyramidsEnv
from pyramids.envs.sb3 import make_sb3_vec_env

#: held-out deals for the comparison (training draws its deals from the seeded streams)
DEALS = range(10_000, 10_050)


def evaluate(env: PyramidsEnv, policy: Any, deals: range) -> float:
    """Mean final score over ``deals``; ``policy(obs, mask) -> action``."""
    scores = []
    for deal in deals:
        obs, info = env.reset(options={"deal": deal})
        done = False
        while not done:
            action = policy(obs, env.action_masks())
            obs, _, done, truncated, info = env.step(action)
            done = done or truncated
        scores.append(info["score"])
    return float(np.mean(scores))


def main(timesteps: int = 200_000, num_envs: int = 16, deals: range = DEALS) -> dict[str, float]:
    if importlib.util.find_spec("sb3_contrib") is None:
        print("this example needs sb3-contrib (and so PyTorch): pip install sb3-contrib")
        return {}
    from sb3_contrib import MaskablePPO  # type: ignore[import-not-found,unused-ignore]

    venv = make_sb3_vec_env(num_envs, max_episode_steps=500)
    venv.seed(0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=128, batch_size=512, seed=0, verbose=0)
    model.learn(total_timesteps=timesteps)

    env = PyramidsEnv()
    rng = np.random.default_rng(0)

    def trained(obs: Any, mask: Any) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    def random(obs: Any, mask: Any) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    result = {
        "random": evaluate(env, random, deals),
        "maskable_ppo": evaluate(env, trained, deals),
    }
    print(f"mean score on {len(deals)} held-out deals after {timesteps:,} steps:")
    for name, score in result.items():
        print(f"  {name:<14} {score:7.1f}")
    return result


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200_000)
