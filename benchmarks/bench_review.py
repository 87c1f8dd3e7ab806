"""Game review: time of a review with settling and two processes, against today's full budget.

For each game, three typical games (two between ``greedy`` players, one of
``greedy`` against ``random``; the solitaire: ``greedy``, ``random``,
``greedy`` alone) are reviewed twice at the same budget and seed:

* the *reference*: every decision spends its whole budget
  (``Budget.settle=False``), in one process, as every review did before
  decisions could settle early;
* the review as it runs now (``settle=True``) with ``jobs=2``, the two
  cores of the machine the figures are meant for.

Reported per game: decisions per game; CPU seconds of the reference and of
the review (its worker processes included), and their ratio; the review's
wall seconds (median and range); the share of decisions given the same grade
by both; and, among the decisions either flagged, the share both flagged.
The machine's load average is printed beside, since wall time on a shared
machine is only what it was then (CPU time is not counted for other work).

``python -m benchmarks review`` (every game, ``normal``) or
``python -m benchmarks.bench_review [BUDGET] [GAME...]``.
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import time
from dataclasses import replace
from typing import Any

from pyramids.ai.registry import make_agent
from pyramids.engine.registry import new_game
from pyramids.engine.rng import Rng
from pyramids.review import GOOD, Review, parse_budget, review

GAMES = ("piramides", "pyramideto", "pyramido", "pyramido-treasure")
#: (deal seed, the players' agents); the solitaire's one player is the table's last agent
TABLES: tuple[tuple[int, tuple[str, ...]], ...] = (
    (1, ("greedy", "greedy")),
    (2, ("greedy", "random")),
    (3, ("greedy", "greedy")),
)
#: processes of the review (the cores of the machine the target is set for)
JOBS = 2


def typical_game(game_id: str, seed: int, agents_of: tuple[str, ...]) -> dict[str, Any]:
    """A whole game between these agents (memory agents observe every move)."""
    names = agents_of[-1:] if game_id == "piramides" else agents_of
    state = new_game(game_id, players=len(names), seed=seed)
    agents = [make_agent(n, game_id) for n in names]
    rng = Rng(seed)
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        move = agents[seat].choose(state, rng)
        state.play(move)
        for agent in agents:
            agent.observe(state, move, seat)
    return state.record()


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the review's workers)."""
    own = time.process_time()
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own + kids.ru_utime + kids.ru_stime


def timed(record: dict[str, Any], budget: Any, jobs: int) -> tuple[Review, float, float]:
    """A review (seed 1) with its CPU and wall seconds."""
    c0, w0 = _cpu(), time.perf_counter()
    result = review(record, budget=budget, seed=1, jobs=jobs)
    return result, _cpu() - c0, time.perf_counter() - w0


def measure(game_id: str, budget_name: str) -> dict[str, Any]:
    _, budget = parse_budget(budget_name)
    reference = replace(budget, settle=False)
    decisions = same = flagged = both = 0
    ref_cpu: list[float] = []
    cpu: list[float] = []
    wall: list[float] = []
    for seed, agents_of in TABLES:
        record = typical_game(game_id, seed, agents_of)
        full, c_ref, _ = timed(record, reference, 1)
        fast, c_new, w_new = timed(record, budget, JOBS)
        ref_cpu.append(c_ref)
        cpu.append(c_new)
        wall.append(w_new)
        grades = {d.ply: d.grade for d in full.decisions}
        for d in fast.decisions:
            other = grades.get(d.ply)
            if other is None:
                continue
            decisions += 1
            same += d.grade == other
            if d.grade != GOOD or other != GOOD:
                flagged += 1
                both += d.grade != GOOD and other != GOOD
    return {
        "decisions/game": decisions / len(TABLES),
        "reference cpu s": ref_cpu,
        "cpu s": cpu,
        "wall s": wall,
        "cpu ratio": sum(cpu) / sum(ref_cpu),
        "agreement": same / decisions if decisions else 1.0,
        "flags": (both, flagged),
    }


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} ({min(values):.1f}-{max(values):.1f})"


def main() -> None:
    args = sys.argv[1:] if __name__ == "__main__" else []
    budget = args[0] if args and args[0] not in GAMES else "normal"
    games = [a for a in args if a in GAMES] or list(GAMES)
    print(f"budget {budget}, {len(TABLES)} games each, review with jobs={JOBS}")
    walls: list[float] = []
    for game_id in games:
        load = os.getloadavg()[0]
        f = measure(game_id, budget)
        walls += f["wall s"]
        both, flagged = f["flags"]
        print(
            f"{game_id}: decisions/game {f['decisions/game']:.0f}, "
            f"reference cpu s {_spread(f['reference cpu s'])}, "
            f"cpu s {_spread(f['cpu s'])}, cpu ratio {f['cpu ratio']:.2f}, "
            f"wall s {_spread(f['wall s'])}, "
            f"grade agreement {f['agreement']:.1%}, flags agreed {both} of {flagged} "
            f"(load average {load:.1f} before, {os.getloadavg()[0]:.1f} after)",
            flush=True,
        )
    print(f"every game: review wall s {_spread(walls)}")


if __name__ == "__main__":
    main()
