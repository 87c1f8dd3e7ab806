"""Learn to play Pirámides better than random, through the Gymnasium adapter.

The learner is deliberately small (no neural network, no PPO): a linear
scoring of the legal actions, trained with the cross-entropy method. Each
legal action gets a few features read from the observation vector and the
action id (is it a card, the stock or the joker; how deep the card lies; how
much of the stock is left; how long the current run is); the policy plays the
best-scoring legal action. The method keeps a Gaussian over the weights,
samples candidates, scores each on a few training deals, and refits the
Gaussian to the best ones.

It then compares, on held-out deals no candidate was trained on, the mean
score of a uniformly random policy with the mean score of the learned one.

Run: ``.venv/bin/python examples/train_piramides.py`` (about half a minute).
"""

from __future__ import annotations

import time

import numpy as np
import numpy.typing as npt

from pyramids.ai.registry import make_agent
from pyramids.engine.registry import new_game
from pyramids.engine.rng import Rng
from pyramids.envs.gym_env import PyramidsEnv

FloatArray = npt.NDArray[np.float64]
FEATURES = 7


class Featurizer:
    """Per-action features from the observation vector (layout in the codec's docstring)."""

    def __init__(self, env: PyramidsEnv) -> None:
        codec = env.codec.observations
        self.positions = env.codec.actions.num_actions - 2
        labels = [env.codec.actions.describe(a) for a in range(self.positions)]
        rows = [ord(label.split()[-1][0]) - ord("A") for label in labels]
        self.depth = np.array(rows, dtype=np.float64) / max(max(rows), 1)
        tail = codec.shape[0] - 4
        self.stock_index, self.run_index = tail, tail + 1

    def __call__(self, obs: npt.NDArray[np.float32], legal: npt.NDArray[np.int64]) -> FloatArray:
        stock = float(obs[self.stock_index])
        run = float(obs[self.run_index])
        out = np.zeros((len(legal), FEATURES))
        for k, action in enumerate(legal):
            if action < self.positions:  # play a card
                out[k, 0] = 1.0
                out[k, 1] = self.depth[action]
            elif action == self.positions:  # turn the stock
                out[k, 2] = 1.0
                out[k, 3] = stock
                out[k, 4] = run
            else:  # joker
                out[k, 5] = 1.0
                out[k, 6] = 1.0 - stock
        return out


def episode(
    env: PyramidsEnv, deal: int, weights: FloatArray | None, rng: np.random.Generator
) -> float:
    """Score of one deal: learned policy if ``weights`` is given, else uniformly random."""
    features = Featurizer(env)
    obs, info = env.reset(options={"deal": deal})
    total, done = 0.0, False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        if weights is None:
            action = int(rng.choice(legal))
        else:
            action = int(legal[int(np.argmax(features(obs, legal) @ weights))])
        obs, reward, done, _, info = env.step(action)
        total += float(reward)
    return total


def mean_score(env: PyramidsEnv, deals: range, weights: FloatArray | None, seed: int = 0) -> float:
    rng = np.random.default_rng(seed)
    return float(np.mean([episode(env, d, weights, rng) for d in deals]))


def train(
    env: PyramidsEnv, iterations: int = 12, population: int = 16, elite: int = 4, seed: int = 1
) -> FloatArray:
    """Cross-entropy method over the weights; returns the final mean."""
    rng = np.random.default_rng(seed)
    mean, std = np.zeros(FEATURES), np.full(FEATURES, 2.0)
    for it in range(iterations):
        deals = range(1000 + it * 6, 1000 + it * 6 + 6)  # fresh training deals each round
        candidates = rng.normal(mean, std, size=(population, FEATURES))
        scores = np.array([mean_score(env, deals, w) for w in candidates])
        best = candidates[np.argsort(scores)[-elite:]]
        mean, std = best.mean(axis=0), best.std(axis=0) + 0.05
        print(
            f"  iteration {it + 1:>2}: best {scores.max():7.1f}, "
            f"population mean {scores.mean():7.1f}"
        )
    return mean


def main() -> None:
    start = time.perf_counter()
    env = PyramidsEnv(rounds=1)  # one deal per game keeps the example short
    held_out = range(50_000, 50_040)
    random_score = mean_score(env, held_out, None)
    print(f"random policy on {len(held_out)} held-out deals: mean score {random_score:.1f}")
    weights = train(env)
    learned_score = mean_score(env, held_out, weights)
    print(f"learned policy on the same deals:       mean score {learned_score:.1f}")
    print(f"improvement over random: {learned_score - random_score:+.1f} points per game")
    greedy = make_agent("greedy", "piramides")
    scores = []
    for deal in held_out:
        state = new_game("piramides", seed=deal, rounds=1)
        rng = Rng(deal)
        while not state.is_over:
            state.play(greedy.choose(state, rng))
        scores.append(state.scores()[0])
    print(f"(for scale: the built-in greedy agent scores {np.mean(scores):.1f} on them)")
    print(f"weights {np.round(weights, 2).tolist()}  ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
