"""Solving ranges of deals: one worker function, summary statistics, verdict files.

Used by ``pyramids solve LAYOUT --deals A..B`` and by the benchmark, so both
report the same figures. A verdict file is JSON with one entry per deal, easy
to compare with another solver's results deal by deal.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, as_completed, wait
from dataclasses import asdict, dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from pyramids.solver.position import deal_position
from pyramids.solver.search import DEFAULT_MAX_NODES, DEFAULT_MAX_SECONDS, LOSE, UNKNOWN, WIN, solve


@dataclass(frozen=True)
class Job:
    """One deal to solve (picklable, for worker processes)."""

    layout: str
    deal: int
    wrap: bool | None = None
    jokers: int | None = None
    mode: str = "clear"
    max_nodes: int = DEFAULT_MAX_NODES
    max_seconds: float = DEFAULT_MAX_SECONDS
    #: golf under PySolFC's rule, nothing on a King (see :class:`~.position.Position`)
    strict: bool = False
    #: golf: ``deal`` is PySolFC's deal number (its own shuffle), not the project's seed
    pysol: bool = False


@dataclass(frozen=True)
class Outcome:
    """The verdict on one deal, as written to a verdict file."""

    deal: int
    verdict: str
    nodes: int
    seconds: float
    moves: int
    score: int | None = None
    #: CPU time of this process for the deal (wall time suffers on a busy machine)
    cpu_seconds: float = 0.0


def run_job(job: Job) -> Outcome:
    """Solve one deal (module-level so that worker processes can run it)."""
    variant: dict[str, object] = {}
    if job.jokers is not None:
        variant["jokers_per_round"] = job.jokers
    if job.pysol:
        from pyramids.solver.pysol import pysol_position

        pos = pysol_position(job.deal, wrap=bool(job.wrap), strict=job.strict)
    else:
        pos = deal_position(job.layout, job.deal, wrap=job.wrap, strict=job.strict, **variant)
    cpu = time.process_time()
    r = solve(pos, job.mode, max_nodes=job.max_nodes, max_seconds=job.max_seconds)
    cpu = time.process_time() - cpu
    return Outcome(
        job.deal, r.verdict, r.nodes, round(r.seconds, 6), len(r.line), r.score, round(cpu, 6)
    )


def run_chunk(jobs: list[Job]) -> list[Outcome]:
    """Solve a few deals in one go: a task of an executor (one task per deal costs more)."""
    return [run_job(j) for j in jobs]


#: deals per task handed to an executor: enough to hide a task's cost (a few ms on
#: Ray), few enough that the progress bar moves and the cores share the work evenly
CHUNK = 8


class Interrupted(Exception):
    """Ctrl-C during :func:`run_jobs`: the deals solved so far, in deal order."""

    def __init__(self, outcomes: list[Outcome]) -> None:
        super().__init__("interrupted")
        self.outcomes = outcomes


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to its parent, which stops and keeps what was solved."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunks(jobs: Iterable[Job]) -> Iterator[list[Job]]:
    chunk: list[Job] = []
    for job in jobs:
        chunk.append(job)
        if len(chunk) == CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def run_jobs(
    jobs: Iterable[Job],
    workers: int = 1,
    on_done: Callable[[Outcome], None] | None = None,
    executor: Executor | None = None,
) -> list[Outcome]:
    """Solve every job, on ``workers`` processes; results in deal order.

    The jobs are read as they are solved (a range of a billion deals starts at
    once), and Ctrl-C raises :class:`Interrupted` with the deals solved so far.
    ``executor`` (e.g. a Ray cluster, :mod:`pyramids.cluster.ray_executor`)
    solves them instead, :data:`CHUNK` deals per task; a deal's verdict does
    not depend on where it is solved.
    """
    out: list[Outcome] = []

    def done(o: Outcome) -> None:
        out.append(o)
        if on_done:
            on_done(o)

    try:
        if executor is not None:
            pending: set[Future[list[Outcome]]] = set()
            for chunk in _chunks(jobs):
                pending.add(executor.submit(run_chunk, chunk))
                if len(pending) >= 64:
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in finished:
                        for o in future.result():
                            done(o)
            for future in as_completed(pending):
                for o in future.result():
                    done(o)
        elif workers <= 1:
            for job in jobs:
                done(run_job(job))
        else:
            context = get_context("spawn")
            with context.Pool(workers, initializer=_ignore_interrupts) as pool:
                for o in pool.imap_unordered(run_job, jobs, chunksize=4):
                    done(o)
    except KeyboardInterrupt:
        out.sort(key=lambda o: o.deal)
        raise Interrupted(out) from None
    out.sort(key=lambda o: o.deal)
    return out


def parse_range(text: str) -> range:
    """``"1..1000"`` (both ends included) as a range; :class:`ValueError` if malformed."""
    a, sep, b = text.partition("..")
    try:
        lo, hi = int(a), int(b)
    except ValueError:
        raise ValueError(f"{text!r} is not a deal range like 1..1000") from None
    if not sep or lo > hi or lo < 0:
        raise ValueError(f"{text!r} is not a deal range like 1..1000 (first <= last, >= 0)")
    return range(lo, hi + 1)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion k/n (good near 0 and 1, unlike k/n ± ...)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100), nearest rank."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = max(0, math.ceil(q / 100 * len(ordered)) - 1)
    return ordered[k]


@dataclass
class Summary:
    """Figures over a batch of deals."""

    deals: int
    wins: int
    losses: int
    unknown: int
    low: float
    high: float
    nodes: dict[str, float]
    ms: dict[str, float]
    cpu_ms: dict[str, float]
    wall_seconds: float
    #: CPU seconds spent in the searches, over all deals
    cpu_seconds: float

    @property
    def fraction(self) -> float:
        """Winnable fraction among the decided deals."""
        decided = self.wins + self.losses
        return self.wins / decided if decided else 0.0


def summarize(outcomes: list[Outcome], wall_seconds: float) -> Summary:
    """Counts, the winnable fraction's 95% interval and node/time percentiles."""
    wins = sum(o.verdict == WIN for o in outcomes)
    losses = sum(o.verdict == LOSE for o in outcomes)
    unknown = sum(o.verdict == UNKNOWN for o in outcomes)
    low, high = wilson(wins, wins + losses)
    nodes = [float(o.nodes) for o in outcomes]
    ms = [1000 * o.seconds for o in outcomes]
    qs = {"p50": 50.0, "p90": 90.0, "p99": 99.0, "max": 100.0}
    return Summary(
        len(outcomes),
        wins,
        losses,
        unknown,
        low,
        high,
        {k: percentile(nodes, q) for k, q in qs.items()},
        {k: percentile(ms, q) for k, q in qs.items()},
        {k: percentile([1000 * o.cpu_seconds for o in outcomes], q) for k, q in qs.items()},
        wall_seconds,
        sum(o.cpu_seconds for o in outcomes),
    )


def write_verdicts(path: Path, job: Job, outcomes: list[Outcome]) -> None:
    """The verdict file: settings, then one entry per deal."""
    data: dict[str, Any] = {
        "format": "pyramids-solver-verdicts",
        "layout": job.layout,
        "wrap": job.wrap,
        "strict": job.strict,
        "jokers": job.jokers,
        "mode": job.mode,
        "max_nodes": job.max_nodes,
        "max_seconds": job.max_seconds,
        "written": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "deals": [asdict(o) for o in outcomes],
    }
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
