"""Throughput of the treasure hunt (target: 30,000 random-play moves/s on one core).

Besides random play (what search rollouts cost), this reports the memory
agents, whose per-move path search is the price of playing well, and the cost
of ``copy()`` and ``view()``, which search and the server pay per move.
"""

from __future__ import annotations

import time

from benchmarks.common import cpu_moves_per_second, random_play_rates, report
from pyramids.ai.registry import make_agent
from pyramids.engine.registry import new_game
from pyramids.engine.rng import Rng


def cpu_rates(players: int, games: int = 20) -> dict[str, float]:
    """Random-play moves per second of this process's CPU time (robust on a busy machine)."""
    return {"moves/s (CPU)": cpu_moves_per_second("pyramido-treasure", players, games)}


def agent_rates(agent: str, players: int, games: int = 10) -> dict[str, float]:
    """Moves per second and moves per game for ``players`` seats of one agent."""
    moves = 0
    start = time.perf_counter()
    for seed in range(games):
        state = new_game("pyramido-treasure", players=players, seed=seed)
        agents = [make_agent(agent, "pyramido-treasure") for _ in range(players)]
        rng = Rng(seed)
        while not state.is_over:
            p = state.current_player
            assert p is not None
            state.play(agents[p].choose(state, rng))
            moves += 1
    total = time.perf_counter() - start
    return {"moves/s": moves / total, "moves/game": moves / games}


def copy_view_rates(seconds: float = 1.0) -> dict[str, float]:
    """copy() and view() calls per second on a mid-game position."""
    state = new_game("pyramido-treasure", players=4, seed=1)
    rng = Rng(1)
    while state.ply < 300 and not state.is_over:
        legal = state.legal_moves()
        state.play(legal[rng.below(len(legal))])
    out = {}
    for label, fn in (("copies/s", state.copy), ("views/s", lambda: state.view(0))):
        n = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(100):
                fn()
            n += 100
        out[label] = n / (time.perf_counter() - start)
    return out


def main() -> None:
    for players in (2, 5):
        report(f"random play, {players} players", random_play_rates("pyramido-treasure", players))
    report("random play, 3 players, CPU", cpu_rates(3))
    report("greedy agents, 3 players", agent_rates("greedy", 3))
    report("child agents, 3 players", agent_rates("child", 3))
    report("copy / view (ply 300)", copy_view_rates())
