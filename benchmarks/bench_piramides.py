"""Random-play throughput of Pirámides (issue target: 100,000 moves/s on one core)."""

from __future__ import annotations

from benchmarks.common import random_play_rates, report


def main() -> None:
    report("piramides random play", random_play_rates("piramides", 1))
    report("piramides face_down", random_play_rates("piramides", 1, face_down=True))
