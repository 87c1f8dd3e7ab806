"""Random-play throughput of Pirámides, against a minimal bitmask reference.

This measures the engine against :mod:`benchmarks.ref_piramides` (the
rules as six ints and no contract): random play through the public API is
to run at least half as fast in the play loop, and dealing is not to
dominate a game. Both sides deal the same seeds and choose with the same
chooser, in alternating slices of one process, so that the load of a
shared machine falls on both alike; the ratio of each slice is kept and the
median and spread of the ratios are printed. The chooser is Python's
``random.random`` (≈ 40 ns) rather than our :class:`~pyramids.engine.rng.Rng`
(≈ 1 µs a draw): a benchmark of the rules must not be a benchmark of the
chooser, which would hide most of the difference between the two sides.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from benchmarks.common import random_play_rates, report
from benchmarks.ref_piramides import RefPiramides
from pyramids.engine.registry import new_game
from pyramids.engine.rng import Rng

#: one side's loop: (first seed, seconds) -> (moves, seconds in the play loop, seconds in all)
Loop = Callable[[int, float], tuple[int, float, float]]


def ours(first: int, seconds: float) -> tuple[int, float, float]:
    """Random games through ``new_game`` / ``legal_moves`` / ``play``."""
    uniform = random.Random(12345).random
    moves = 0
    loop = 0.0
    seed = first
    perf = time.perf_counter
    start = perf()
    while perf() - start < seconds:
        state = new_game("piramides", seed=seed)
        seed += 1
        t0 = perf()
        legal_moves, play = state.legal_moves, state.play
        while not state.is_over:
            legal = legal_moves()
            play(legal[int(uniform() * len(legal))])
            moves += 1
        loop += perf() - t0
    return moves, loop, perf() - start


def reference(first: int, seconds: float, lazy: bool = True) -> tuple[int, float, float]:
    """The same games on :class:`RefPiramides`."""
    uniform = random.Random(12345).random
    moves = 0
    loop = 0.0
    seed = first
    perf = time.perf_counter
    start = perf()
    while perf() - start < seconds:
        deal_rng = Rng(seed)
        state = RefPiramides(deal_rng, lazy)
        seed += 1
        t0 = perf()
        legal_moves, play = state.legal_moves, state.play
        while not state.over:
            legal = legal_moves()
            play(legal[int(uniform() * len(legal))], deal_rng)
            moves += 1
        loop += perf() - t0
    return moves, loop, perf() - start


def compare(slices: int = 7, seconds: float = 0.5) -> dict[str, list[float]]:
    """Per slice: both play-loop rates, both rates with dealing, and the two ratios."""
    out: dict[str, list[float]] = {
        "ours loop": [],
        "ref loop": [],
        "ours dealing": [],
        "ref dealing": [],
        "loop ratio": [],
        "dealing ratio": [],
    }
    for k in range(slices):
        a_moves, a_loop, a_all = ours(1000 * k, seconds)
        b_moves, b_loop, b_all = reference(1000 * k, seconds)
        out["ours loop"].append(a_moves / a_loop)
        out["ref loop"].append(b_moves / b_loop)
        out["ours dealing"].append(a_moves / a_all)
        out["ref dealing"].append(b_moves / b_all)
        out["loop ratio"].append(out["ours loop"][-1] / out["ref loop"][-1])
        out["dealing ratio"].append(out["ours dealing"][-1] / out["ref dealing"][-1])
    return out


def main() -> None:
    figures = compare()
    print("   Pirámides random play, ours against the bitmask reference (7 alternating slices)")
    for name, values in figures.items():
        unit = "x" if "ratio" in name else " moves/s"
        med = statistics.median(values)
        fmt = (lambda v: f"{v:.2f}") if "ratio" in name else (lambda v: f"{v:,.0f}")
        print(
            f"   {name:<14} median {fmt(med)}{unit}   min {fmt(min(values))}   "
            f"max {fmt(max(values))}"
        )
    report("piramides face_down", random_play_rates("piramides", 1, face_down=True))
