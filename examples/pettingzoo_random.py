"""A random agent in every PettingZoo environment of Pyramids (masked actions).

Run: ``.venv/bin/python examples/pettingzoo_random.py`` (needs ``pip install pyramids[rl]``).
"""

from __future__ import annotations

import importlib

import numpy as np

from pyramids.engine.registry import get_game
from pyramids.envs.encodings import codec_ids


def play(game_id: str, players: int, seed: int) -> dict[str, float]:
    """One game with random masked actions; the rewards each agent collected."""
    module = importlib.import_module(f"pyramids.envs.{game_id.replace('-', '_')}_v0")
    env = module.env(players=players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
    env.close()
    return totals


def main() -> None:
    for game_id in codec_ids():
        game = get_game(game_id)
        for players in sorted({game.min_players, game.max_players}):
            totals = play(game_id, players, seed=1)
            scores = ", ".join(f"{a} {v:+.0f}" for a, v in totals.items())
            print(f"{game_id:<18} {players}p  rewards: {scores}")


if __name__ == "__main__":
    main()
