"""Shared measuring loops for the benchmarks (one core, wall-clock time)."""

from __future__ import annotations

import time
from typing import Any

from pyramids.engine.registry import new_game
from pyramids.engine.rng import Rng


def random_play_rates(
    game_id: str, players: int, seconds: float = 3.0, **variant: Any
) -> dict[str, float]:
    """Random-play throughput of one game for about ``seconds``.

    ``moves/s`` counts only the play loop (``legal_moves`` + choice + ``play``),
    which is what search pays per move; ``games/s`` counts whole games
    including dealing a new one.
    """
    rng = Rng(12345)
    moves = 0
    games = 0
    play_time = 0.0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        state = new_game(game_id, players=players, seed=seed, **variant)
        seed += 1
        t0 = time.perf_counter()
        while not state.is_over:
            legal = state.legal_moves()
            state.play(legal[rng.below(len(legal))])
            moves += 1
        play_time += time.perf_counter() - t0
        games += 1
    total = time.perf_counter() - start
    return {
        "moves/s": moves / play_time,
        "games/s": games / total,
        "moves/game": moves / games,
    }


def report(label: str, rates: dict[str, float]) -> None:
    """Print one line of figures."""
    figures = "  ".join(f"{k} {v:,.0f}" if v >= 100 else f"{k} {v:,.1f}" for k, v in rates.items())
    print(f"   {label:<28} {figures}")


def cpu_moves_per_second(game_id: str, players: int, games: int = 40, **variant: Any) -> float:
    """Random-play moves per second of this process's CPU time.

    Why beside the wall-clock figure: on a shared machine other processes steal
    the core, and wall time then understates what the engine does.
    """
    rng = Rng(12345)
    moves = 0
    used = 0.0
    for seed in range(games):
        state = new_game(game_id, players=players, seed=seed, **variant)
        t0 = time.process_time()
        while not state.is_over:
            legal = state.legal_moves()
            state.play(legal[rng.below(len(legal))])
            moves += 1
        used += time.process_time() - t0
    return moves / used
