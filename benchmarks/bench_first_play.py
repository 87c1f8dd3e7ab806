"""The first ``make play`` of a fresh clone: seconds until the server answers, and the venv's size.

The bar: under 20 s with a warm pip cache, and a venv under 150 MB.
Each run clones the committed tree (``git clone`` of this repository's HEAD into
a temporary folder, so nothing of this checkout's ``.venv`` is reused), runs
``make play`` on a free port, and polls ``/`` until it answers 200; then it stops
the server's process group and measures the venv (once the first start has
written its byte code). Run with::

    python -m benchmarks.bench_first_play [--runs 3] [--vs REVISION] [--pypi-only]

``--pypi-only`` hides the machine's pip configuration (its extra indexes and wheel
folder; ``PIP_CONFIG_FILE`` set to the null device), as on a player's machine
whose pip knows only PyPI.

The figures are wall seconds on whatever else the machine is doing: the load
average is printed beside them, and the median of the runs is the one to quote.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from pyramids.server.launch import free_port

ROOT = Path(__file__).resolve().parent.parent
DEADLINE = 300.0


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as r:
            return bool(r.status == 200)
    except OSError:
        return False


def _size_mb(folder: Path) -> float:
    total = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())
    return total / 1e6


def one_run(ref: str = "HEAD", pypi_only: bool = False) -> tuple[float, float]:
    """(seconds until the first answer, venv MB) of a fresh clone's first ``make play``."""
    with tempfile.TemporaryDirectory(prefix="first-play-") as tmp:
        clone = Path(tmp) / "pyramids"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "checkout", "-q", ref], check=True)
        port = free_port()
        env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
        if pypi_only:
            hidden = ("PIP_FIND_LINKS", "PIP_EXTRA_INDEX_URL", "PIP_INDEX_URL")
            env = {k: v for k, v in env.items() if k not in hidden}
            env["PIP_CONFIG_FILE"] = os.devnull
        start = time.perf_counter()
        server = subprocess.Popen(
            ["make", "play", f"ARGS=--port {port} --database-url sqlite:///{tmp}/games.db"],
            cwd=clone,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            while not _answers(f"http://127.0.0.1:{port}/"):
                if server.poll() is not None:
                    raise RuntimeError(f"make play ended with exit code {server.returncode}")
                if time.perf_counter() - start > DEADLINE:
                    raise RuntimeError("the server did not answer in time")
                time.sleep(0.05)
            seconds = time.perf_counter() - start
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
        return seconds, _size_mb(clone / ".venv")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--vs", metavar="REF", help="another revision, run in turn with HEAD (A B A B ...)"
    )
    parser.add_argument(
        "--pypi-only", action="store_true", help="hide the machine's pip configuration"
    )
    args = parser.parse_args([] if argv is None else argv)
    refs = ["HEAD"] + ([args.vs] if args.vs else [])
    results: dict[str, list[float]] = {ref: [] for ref in refs}
    for k in range(args.runs):
        for ref in refs:
            load = os.getloadavg()[0]
            seconds, size = one_run(ref, args.pypi_only)
            results[ref].append(seconds)
            print(
                f"{ref} run {k + 1}: answered in {seconds:5.1f} s, venv {size:4.0f} MB"
                f" (load {load:.1f})"
            )
    for ref, times in results.items():
        mid, low, high = statistics.median(times), min(times), max(times)
        print(f"{ref}: median {mid:.1f} s (min {low:.1f}, max {high:.1f})")
    if args.vs:
        pairs = [a / b for a, b in zip(results["HEAD"], results[args.vs], strict=True)]
        print(f"HEAD / {args.vs}: median {statistics.median(pairs):.2f} of {len(pairs)} pairs")


if __name__ == "__main__":
    main(sys.argv[1:])
