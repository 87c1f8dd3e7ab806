"""Run every ``benchmarks/bench_*.py`` (or those named on the command line).

Each module has ``main() -> None`` that prints its figures as per-second
rates or ratios. Benchmarks are never timed assertions: they report.
"""

from __future__ import annotations

import importlib
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    names = sorted(p.stem for p in here.glob("bench_*.py"))
    if argv:
        wanted = {a if a.startswith("bench_") else f"bench_{a}" for a in argv}
        unknown = wanted - set(names)
        if unknown:
            print(f"unknown benchmark(s): {', '.join(sorted(unknown))}; have: {', '.join(names)}")
            return 2
        names = [n for n in names if n in wanted]
    for name in names:
        print(f"== {name}")
        start = time.perf_counter()
        importlib.import_module(f"benchmarks.{name}").main()
        print(f"   ({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
