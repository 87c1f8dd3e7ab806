"""Random play of every Pyramids game through OpenSpiel's API (``pyspiel``).

Run: ``.venv/bin/python examples/openspiel_random.py`` (needs ``pip install pyramids[openspiel]``).
"""

from __future__ import annotations

import numpy as np
import pyspiel

from pyramids.envs.openspiel_game import register_all


def main(seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    for name in register_all():
        game = pyspiel.load_game(name)
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            action = int(rng.choice(state.legal_actions()))
            state.apply_action(action)
            moves += 1
        print(
            f"{name:<28} {game.num_players()}p  {moves:>4} moves  "
            f"returns {[round(r, 2) for r in state.returns()]}  "
            f"obs tensor {game.observation_tensor_shape()}"
        )


if __name__ == "__main__":
    main()
