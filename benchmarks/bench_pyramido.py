"""Random-play throughput of Pyramido (target: 50 full 4-player random games/s, one core).

Uniformly random players leave holes on floor 1 and are soon out of cards,
so most random games end early; the "careful" line measures whole games
(every player fills all four floors) with a player that avoids dead cells,
which is closer to what search plays.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from benchmarks.common import random_play_rates, report
from pyramids.engine.registry import new_game
from pyramids.engine.rng import Rng
from pyramids.games.pyramido import PyramidoState


def careful_rates(players: int, seconds: float = 3.0) -> dict[str, float]:
    """Whole games by a random player that never leaves a dead cell if it can help it."""
    rng = Rng(7)
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game("pyramido", players=players, seed=games)
        assert isinstance(state, PyramidoState)
        while not state.is_over:
            legal = state.legal_moves()
            p = state.current_player
            if state.step == "place" and p is not None:
                dead: dict[int, int] = {}  # one look per pair of cells
                for m in legal:
                    pair = (1 << m.b) | (1 << m.c)
                    if pair not in dead:
                        dead[pair] = state.dead_cells(p, pair)
                fewest = min(dead.values())
                legal = [m for m in legal if dead[(1 << m.b) | (1 << m.c)] == fewest]
            state.play(legal[rng.below(len(legal))])
            moves += 1
        games += 1
    total = time.perf_counter() - start
    return {"games/s": games / total, "moves/game": moves / games}


def _per_second(fn: Callable[[], object], seconds: float, batch: int) -> float:
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(batch):
            fn()
        n += batch
    return n / (time.perf_counter() - start)


def copy_rate(seconds: float = 1.0) -> dict[str, float]:
    """``copy()``, ``determinize()`` and ``view()`` of a mid-game 4-player state.

    Search pays a copy per node and a determinization per iteration; the
    server pays a view per seat per move.
    """
    state = new_game("pyramido", players=4, seed=1)
    rng = Rng(3)
    for _ in range(40):
        legal = state.legal_moves()
        state.play(legal[rng.below(len(legal))])
    return {
        "copies/s": _per_second(state.copy, seconds, 1000),
        "determinize/s": _per_second(lambda: state.determinize(1, rng), seconds, 100),
        "views/s": _per_second(lambda: state.view(1), seconds, 10),
    }


def main() -> None:
    for n in (2, 3, 4):
        report(f"pyramido {n}p random play", random_play_rates("pyramido", n))
    report("pyramido 4p careful (full)", careful_rates(4))
    report("pyramido 4p mid-game", copy_rate())
