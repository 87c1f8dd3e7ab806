"""The exact solver on 1,000 deals per setting.

Solves deals 1..N (N = 1,000 unless ``SOLVER_BENCH_DEALS`` says otherwise) of
``golf`` without and with the King-Ace wrap and under PySolFC's default rule
(``golf-strict``: nothing may go on a King), ``pyramid`` (one joker, as in a
round of Pirámides) and ``tripeaks``, on one core unless ``SOLVER_BENCH_JOBS``
asks for more. Prints deals/s, nodes/s, the winnable count and time
percentiles (wall time, and CPU time, which a busy machine distorts less),
and writes one verdict file per setting (JSON, one entry per
deal) into ``SOLVER_VERDICTS_DIR`` (default ``./solver-verdicts/``) so that
another solver's verdicts can be compared deal by deal.

Golf's nodes are the depth-first search's plus, for a deal it hands to the
vectorised pass (:mod:`pyramids.solver.columns`), the column heights that
pass reached; so golf's nodes/s mixes two units and says little.

Each deal gets at most ``SOLVER_BENCH_NODES`` nodes (default 3,000,000) and
60 s; past that its verdict is ``unknown`` and counted as such.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from pyramids.solver.batch import Job, Outcome, run_jobs, summarize, write_verdicts

#: (name, layout, wrap, strict): strict is PySolFC's default Golf, nothing on a King
SETTINGS: list[tuple[str, str, bool | None, bool]] = [
    ("golf-nowrap", "golf", False, False),
    ("golf-strict", "golf", False, True),
    ("golf-wrap", "golf", True, False),
    ("pyramid", "pyramid", None, False),
    ("tripeaks", "tripeaks", None, False),
]


def main() -> None:
    deals = int(os.environ.get("SOLVER_BENCH_DEALS", "1000"))
    workers = int(os.environ.get("SOLVER_BENCH_JOBS", "1"))
    max_nodes = int(os.environ.get("SOLVER_BENCH_NODES", "3000000"))
    only = os.environ.get("SOLVER_BENCH_ONLY", "")
    folder = Path(os.environ.get("SOLVER_VERDICTS_DIR", "solver-verdicts"))
    for name, layout, wrap, strict in SETTINGS:
        if only and name not in only.split(","):
            continue
        jobs = [
            Job(layout, n, wrap, None, "clear", max_nodes, 60.0, strict)
            for n in range(1, deals + 1)
        ]
        start = time.perf_counter()
        done: list[Outcome] = []

        def progress(o: Outcome, done: list[Outcome] = done, name: str = name) -> None:
            done.append(o)
            if len(done) % 100 == 0:
                wins = sum(x.verdict == "win" for x in done)
                print(f"   {name:<12} {len(done)} deals, {wins} winnable", flush=True)

        outcomes = run_jobs(jobs, workers, progress)
        wall = time.perf_counter() - start
        s = summarize(outcomes, wall)
        nodes = sum(o.nodes for o in outcomes)
        print(
            f"   {name:<12} deals 1..{deals}: winnable {s.wins}, not {s.losses}, "
            f"unknown {s.unknown} ({100 * s.fraction:.1f}%, 95% {100 * s.low:.1f}-"
            f"{100 * s.high:.1f}%)"
        )
        print(
            f"   {'':<12} deals/s {deals / wall:,.1f}  nodes/s {nodes / s.cpu_seconds:,.0f}  "
            f"ms p50 {s.ms['p50']:,.1f} p90 {s.ms['p90']:,.1f} p99 {s.ms['p99']:,.1f} "
            f"max {s.ms['max']:,.1f}  nodes p50 {s.nodes['p50']:,.0f} max {s.nodes['max']:,.0f}",
            flush=True,
        )
        print(
            f"   {'':<12} CPU ms p50 {s.cpu_ms['p50']:,.1f} p90 {s.cpu_ms['p90']:,.1f} "
            f"p99 {s.cpu_ms['p99']:,.1f} max {s.cpu_ms['max']:,.1f}  "
            f"CPU s in all {s.cpu_seconds:,.1f}",
            flush=True,
        )
        folder.mkdir(parents=True, exist_ok=True)  # the benchmark's own output folder
        path = folder / f"{name}-1-{deals}.json"
        write_verdicts(path, jobs[0], outcomes)
        print(f"   {'':<12} verdicts: {path}")


if __name__ == "__main__":
    main()
