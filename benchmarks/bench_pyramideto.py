"""Random-play throughput of Pyramideto (target: 30,000 moves/s on one core).

Also times ``copy()`` and ``determinize()``, which ISMCTS pays per iteration.
"""

from __future__ import annotations

import time

from benchmarks.common import cpu_moves_per_second, random_play_rates, report
from pyramids.engine.registry import new_game
from pyramids.engine.rng import Rng


def _per_second(fn: object, seconds: float = 1.0) -> float:
    assert callable(fn)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            fn()
        n += 100
    return n / (time.perf_counter() - start)


def main() -> None:
    for players in (2, 3, 4):
        rates = random_play_rates("pyramideto", players)
        rates["moves/s (cpu)"] = cpu_moves_per_second("pyramideto", players, games=60)
        report(f"pyramideto {players}p random play", rates)
    state = new_game("pyramideto", players=4, seed=1)
    rng = Rng(3)
    for _ in range(60):
        moves = state.legal_moves()
        state.play(moves[rng.below(len(moves))])
    report("pyramideto 4p copy", {"copies/s": _per_second(state.copy)})
    report(
        "pyramideto 4p determinize",
        {"determinize/s": _per_second(lambda: state.determinize(1, rng))},
    )
