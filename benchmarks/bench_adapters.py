"""Research adapters: steps per second through each adapter against the bare engine.

Every loop plays random legal moves on the same games (deal numbers 0, 1, 2,
...), so the ratio ``engine / adapter`` is the overhead of the adapter alone:
encoding observations and masks from the view, decoding action ids, and the
library's own bookkeeping. A second part compares search speed: iterations
per second of our ``mcts`` agent and of OpenSpiel's Python ``MCTSBot`` on the
same Pirámides deal with the same budget.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import Any

from benchmarks.common import report
from pyramids.engine.registry import GAMES, get_game, new_game
from pyramids.engine.rng import Rng

SECONDS = 2.0


def _rate(loop: Callable[[int], int], seconds: float = SECONDS) -> float:
    """Steps per second of ``loop(game_number) -> steps`` run for about ``seconds``."""
    steps = 0
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += loop(games)
        games += 1
    return steps / (time.perf_counter() - start)


def engine_loop(game_id: str, players: int) -> Callable[[int], int]:
    rng = Rng(1)

    def loop(deal: int) -> int:
        state = new_game(game_id, players=players, seed=deal)
        n = 0
        while not state.is_over:
            moves = state.legal_moves()
            state.play(moves[rng.below(len(moves))])
            n += 1
        return n

    return loop


def gym_loop() -> Callable[[int], int]:
    import numpy as np

    from pyramids.envs.gym_env import PyramidsEnv

    env = PyramidsEnv()
    rng = np.random.default_rng(1)

    def loop(deal: int) -> int:
        _, info = env.reset(options={"deal": deal})
        n, done = 0, False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, _, done, _, info = env.step(int(legal[rng.integers(len(legal))]))
            n += 1
        return n

    return loop


def pettingzoo_loop(game_id: str, players: int) -> Callable[[int], int]:
    import numpy as np

    module = importlib.import_module(f"pyramids.envs.{game_id.replace('-', '_')}_v0")
    env = module.env(players=players)
    rng = np.random.default_rng(1)

    def loop(deal: int) -> int:
        env.reset(options={"deal": deal})
        n = 0
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            n += 1
        return n

    return loop


def openspiel_loop(game_id: str, players: int) -> Callable[[int], int]:
    import numpy as np
    import pyspiel

    from pyramids.envs.openspiel_game import register

    name = register(game_id)
    rng = np.random.default_rng(1)

    def loop(deal: int) -> int:
        game = pyspiel.load_game(name, {"players": players, "deal": deal})
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            n += 1
        return n

    return loop


def adapter_overheads() -> None:
    from pyramids.envs.encodings import CODECS

    print("   random play, steps per second (overhead = engine rate / adapter rate)")
    for game_id in CODECS:
        if game_id not in GAMES:
            continue
        players = get_game(game_id).min_players
        label = f"{game_id} {players}p"
        base = _rate(engine_loop(game_id, players))
        report(f"{label} engine", {"steps/s": base})
        loops: dict[str, Callable[[int], int]] = {}
        if players == 1:
            loops["gymnasium"] = gym_loop()
        loops["pettingzoo"] = pettingzoo_loop(game_id, players)
        loops["openspiel"] = openspiel_loop(game_id, players)
        for adapter, loop in loops.items():
            rate = _rate(loop)
            report(f"{label} {adapter}", {"steps/s": rate, "overhead x": base / rate})


def mcts_rates(simulations: int = 300) -> None:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from pyramids.ai.registry import make_agent
    from pyramids.envs.openspiel_game import register

    print(f"   search on Pirámides deal 7, first move, {simulations} iterations, one core")
    state = new_game("piramides", seed=7)
    agent: Any = make_agent("mcts", "piramides", iterations=simulations, seconds=0)
    start = time.perf_counter()
    agent.choose(state, Rng(1))
    ours = simulations / (time.perf_counter() - start)
    report("our mcts (ISMCTS)", {"iterations/s": ours})

    game = pyspiel.load_game(register("piramides"), {"deal": 7})
    bot = mcts.MCTSBot(
        game,
        uct_c=60.0,
        max_simulations=simulations,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        random_state=np.random.RandomState(1),
    )
    spiel_state = game.new_initial_state()
    start = time.perf_counter()
    bot.step(spiel_state)
    theirs = simulations / (time.perf_counter() - start)
    report("OpenSpiel Python MCTSBot", {"iterations/s": theirs, "ours x": ours / theirs})


def main() -> None:
    adapter_overheads()
    mcts_rates()


if __name__ == "__main__":
    main()
