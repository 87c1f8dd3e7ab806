"""The batched Pirámides environment against Gymnasium's ``SyncVectorEnv``, steps per second.

Both step N games of the registered environment's rules with the same
random legal actions (one NumPy call per batch: the arg-max of uniform noise
on the mask, as a training loop would draw them), truncated after 2,000
steps as the registered id is. ``SyncVectorEnv`` runs over
``gymnasium.make("pyramids/Piramides-v0")``, what a user gets without our
vector environment. The two alternate three times and the ratio of each
round is printed with the median and the spread, because the machine is
shared and one pair of figures can mislead. Beside them, the bare engine
doing each step's own work (legal moves, the move, the score) gives the
ceiling: how much faster than ``SyncVectorEnv`` any environment of these
rules could be, and how much of it ours reaches.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from benchmarks.common import report

SECONDS = 2.0


def rate(env: Any, num_envs: int, seconds: float = SECONDS) -> float:
    """Game steps per second (N per batch step) of random legal play on ``env``."""
    import numpy as np

    rng = np.random.default_rng(1)
    _, info = env.reset(seed=1)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        mask = info["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        info = env.step(actions)[4]
        steps += num_envs
    return steps / (time.perf_counter() - start)


def engine_rate(num_envs: int, seconds: float = SECONDS) -> float:
    """The bare engine doing each game step's own work: no environment can go faster.

    Per game and step: the legal moves, a random one played, the score read
    (the reward); a finished game is dealt anew. The vector environment adds
    the observation, the mask check and the batch arrays to exactly this.
    """
    import random

    from pyramids.engine.registry import new_game

    uniform = random.Random(1).random
    states = [new_game("piramides", seed=i) for i in range(num_envs)]
    deal, steps = num_envs, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for i, state in enumerate(states):
            if state.is_over:
                states[i] = new_game("piramides", seed=deal)
                deal += 1
                continue
            moves = state.legal_moves()
            state.play(moves[int(uniform() * len(moves))])
            state.scores()
            steps += 1
    return steps / (time.perf_counter() - start)


def compare(num_envs: int, rounds: int = 3) -> None:
    import gymnasium

    import pyramids.envs  # noqa: F401  (registers the ids)
    from pyramids.envs.gym_env import ENV_ID
    from pyramids.envs.vector_env import PiramidesVectorEnv

    ours_env = PiramidesVectorEnv(num_envs=num_envs)
    sync_env = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make(ENV_ID) for _ in range(num_envs)]
    )
    ours, sync, bare = [], [], []
    for _ in range(rounds):
        ours.append(rate(ours_env, num_envs))
        sync.append(rate(sync_env, num_envs))
        bare.append(engine_rate(num_envs))
    ratios = [o / s for o, s in zip(ours, sync, strict=True)]
    ceiling = [b / s for b, s in zip(bare, sync, strict=True)]
    share = [o / b for o, b in zip(ours, bare, strict=True)]
    report(f"vector env, N={num_envs}", {"steps/s": statistics.median(ours)})
    report(f"SyncVectorEnv, N={num_envs}", {"steps/s": statistics.median(sync)})
    report(f"bare engine work, N={num_envs}", {"steps/s": statistics.median(bare)})
    for label, values in (
        ("ours / SyncVectorEnv", ratios),
        ("engine / SyncVectorEnv", ceiling),
        ("ours / engine", share),
    ):
        report(
            f"{label}, N={num_envs}",
            {"median x": statistics.median(values), "min": min(values), "max": max(values)},
        )


def main() -> None:
    for num_envs in (256, 16):
        compare(num_envs)


if __name__ == "__main__":
    main()
