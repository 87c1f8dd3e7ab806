"""MCTS iterations per second per game, and how long each level takes per move.

An iteration is one determinization, one walk down the tree, one playout
(with the game's playout policy) and one backup, so the figure folds in the
speed of ``determinize``, ``copy``, ``legal_moves`` and ``play`` together.
Measured single-threaded on a few early- and mid-game positions.
"""

from __future__ import annotations

import time
from typing import Any

from pyramids.ai.mcts import LEVELS, MCTSAgent
from pyramids.engine.registry import all_games, new_game
from pyramids.engine.rng import Rng
from pyramids.engine.state import State


def positions(game_id: str, players: int, count: int = 3) -> list[State[Any]]:
    """Positions after 0, 8, 16, ... random plies, each with a real choice to make."""
    out = []
    for k in range(count):
        state = new_game(game_id, players=players, seed=100 + k)
        rng = Rng(k)
        while not state.is_over and (state.ply < 8 * k or len(state.legal_moves()) < 2):
            moves = state.legal_moves()
            state.play(moves[rng.below(len(moves))])
        if not state.is_over:
            out.append(state)
    return out


def iteration_rate(game_id: str, players: int, iterations: int = 300) -> tuple[float, float]:
    """Iterations per CPU second and per wall-clock second over :func:`positions`.

    CPU time is what one core would give the search on an idle machine; the
    wall-clock rate is what it got here, with whatever else was running.
    """
    agent = MCTSAgent(iterations=iterations, seconds=0)
    done = 0
    cpu = wall = 0.0
    for state in positions(game_id, players):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        agent.choose(state, Rng(1))
        cpu += time.process_time() - start_cpu
        wall += time.perf_counter() - start_wall
        done += iterations
    return done / cpu, done / wall


def level_seconds(game_id: str, players: int, level: str) -> float:
    """Mean seconds per decision at ``level`` (its iteration budget and time cap)."""
    agent = MCTSAgent(level=level)
    states = positions(game_id, players, count=2)
    start = time.perf_counter()
    for state in states:
        agent.choose(state, Rng(2))
    return (time.perf_counter() - start) / len(states)


def main() -> None:
    for game in all_games():
        players = 1 if game.max_players == 1 else 2
        cpu, wall = iteration_rate(game.id, players)
        per_level = "  ".join(
            f"{level} {level_seconds(game.id, players, level):.2f} s" for level in LEVELS
        )
        print(
            f"   {game.id + f' {players}p':<22} {cpu:>6,.0f} it/CPU-s {wall:>6,.0f} it/s"
            f"   per move: {per_level}"
        )
