"""Start-up of the ``pyramids`` command: ``pyramids --help`` must answer within 150 ms.

Timed from outside, as a user waits for it: a new process each run, from its
start to its exit (interpreter start-up, imports and Typer's help included).
The median is the figure (one slow or lucky run must not move it); min and max
show how noisy the machine was. The process's CPU time (user + system, from
the kernel's accounting of the finished child) is printed too: on a shared
machine other work stretches the wall time, much less the CPU time.
``python -c pass`` is printed beside it as the floor no command can go under;
``pyramids games`` loads Rich, Babel and the four games, so it shows what the
lazy imports of ``--help`` save.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 21


def _command(*args: str) -> list[str]:
    script = Path(sys.executable).with_name("pyramids")
    if script.exists():
        return [str(script), *args]
    return [sys.executable, "-m", "pyramids", *args]


def timed(command: list[str], runs: int = RUNS) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of ``runs`` runs of ``command`` (after one warm-up run)."""
    env = {**os.environ, "COLUMNS": "80"}
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wall, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        wall.append(1000 * (time.perf_counter() - start))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        cpu.append(1000 * used)
    return wall, cpu


def _line(label: str, figures: tuple[list[float], list[float]]) -> float:
    wall, cpu = figures
    print(
        f"   {label:<28} median {statistics.median(wall):5.0f} ms wall"
        f" (min {min(wall):.0f}, max {max(wall):.0f}),"
        f" {statistics.median(cpu):4.0f} ms CPU, {len(wall)} runs"
    )
    return statistics.median(wall)


def main() -> None:
    _line("python -c pass (floor)", timed([sys.executable, "-c", "pass"]))
    median = _line("pyramids --help", timed(_command("--help")))
    _line("pyramids --version", timed(_command("--version")))
    _line("pyramids games (Rich, games)", timed(_command("games"), runs=9))
    verdict = "met" if median < 150 else "not met on this run"
    print(f"   target: pyramids --help under 150 ms (median wall): {verdict}")
    print(f"   load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
