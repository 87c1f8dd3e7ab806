"""Arena, simulate and solve on a Ray cluster of two nodes give exactly the local results.

The test starts a Ray head and a second node on loopback (``ray start --block``
as our own child processes, one CPU each, small object stores, no dashboard)
and stops both by their pids at the end. Ray maps 127.0.0.1 to the machine's
outward address, so the nodes use 127.0.0.2 and 127.0.0.3: loopback too, but
not a name Ray rewrites.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pyramids.ai.arena import ArenaConfig, run_arena
from pyramids.server.launch import free_port
from pyramids.solver.batch import Job, run_jobs
from tests.cluster.services import unavailable

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

HEAD_IP = "127.0.0.2"
NODE_IP = "127.0.0.3"


class RayCluster:
    """A head and one more node, each ``ray start --block`` in the foreground."""

    def __init__(self, ray: str) -> None:
        self.ray = ray
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="pyramids-ray-"))
        self.env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
        self.procs: list[subprocess.Popen[bytes]] = []

    @property
    def address(self) -> str:
        return f"{HEAD_IP}:{self.port}"

    def _start(self, name: str, *args: str) -> None:
        log = (self.dir / f"{name}.log").open("wb")
        common = ["--num-cpus=1", "--object-store-memory=80000000", "--disable-usage-stats"]
        self.procs.append(
            subprocess.Popen(
                [self.ray, "start", "--block", *args, *common],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=self.env,
            )
        )
        deadline = time.monotonic() + 90
        while b"Ray runtime started" not in (self.dir / f"{name}.log").read_bytes():
            if time.monotonic() > deadline or self.procs[-1].poll() is not None:
                text = (self.dir / f"{name}.log").read_text(errors="replace")
                raise RuntimeError(f"ray {name} did not start:\n{text[-3000:]}")
            time.sleep(0.2)

    def start(self) -> None:
        self._start(
            "head",
            "--head",
            f"--port={self.port}",
            f"--node-ip-address={HEAD_IP}",
            "--include-dashboard=false",
            f"--temp-dir={self.dir / 'tmp'}",
        )
        self._start("node", f"--address={self.address}", f"--node-ip-address={NODE_IP}")

    def stop(self) -> None:
        """SIGTERM the nodes (each ``ray start --block`` stops what it started), newest first."""
        for proc in reversed(self.procs):
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[RayCluster]:
    try:
        import ray  # noqa: F401
    except ImportError:
        unavailable(
            "Ray is not installed (pip install 'pyramids[cluster]')", "PYRAMIDS_REQUIRE_RAY"
        )
    binary = Path(sys.executable).with_name("ray")
    if not binary.exists():
        unavailable(f"no ray command beside {sys.executable}", "PYRAMIDS_REQUIRE_RAY")
    cluster = RayCluster(str(binary))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="module")
def executor(ray_cluster: RayCluster) -> Iterator[Any]:
    from pyramids.cluster.ray_executor import RayExecutor

    ex = RayExecutor(ray_cluster.address)
    try:
        yield ex
    finally:
        ex.shutdown()


def test_the_cluster_has_both_nodes(executor: Any) -> None:
    assert executor.workers == 2
    pids = {f.result(timeout=60) for f in [executor.submit(_slow_pid) for _ in range(6)]}
    assert len(pids) >= 2  # two nodes of one CPU each: at least two workers did the work


def _slow_pid() -> int:
    time.sleep(0.2)
    return os.getpid()


def test_an_arena_on_ray_plays_exactly_the_local_games(executor: Any) -> None:
    config = ArenaConfig("pyramideto", ("greedy", "random"), games=12, seed=5)
    seen: list[int] = []
    on_ray = run_arena(config, executor=executor, on_result=lambda r: seen.append(r.index))
    local = run_arena(config)
    assert [r.outcome() for r in on_ray] == [r.outcome() for r in local]
    assert sorted(seen) == list(range(12))  # the progress callback heard of every game


def test_a_solve_range_on_ray_gives_the_local_verdicts(executor: Any) -> None:
    jobs = [Job("pyramid", deal, max_nodes=20_000) for deal in range(1, 25)]
    done: list[int] = []
    on_ray = run_jobs(jobs, executor=executor, on_done=lambda o: done.append(o.deal))
    local = run_jobs(jobs)

    def facts(outcomes: list[Any]) -> list[tuple[Any, ...]]:
        return [(o.deal, o.verdict, o.nodes, o.moves, o.score) for o in outcomes]

    assert facts(on_ray) == facts(local)
    assert sorted(done) == list(range(1, 25))


def _cli(*args: str) -> str:
    env = {**os.environ, "COLUMNS": "100", "RAY_USAGE_STATS_ENABLED": "0"}
    done = subprocess.run(
        [sys.executable, "-m", "pyramids", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_commands_take_ray_and_print_the_local_figures(
    ray_cluster: RayCluster, tmp_path: Path
) -> None:
    """``simulate --ray`` prints the local table; ``solve --deals --ray`` writes its verdicts."""
    args = ("simulate", "pyramido", "--games", "6", "--agent", "greedy,random", "--players", "2")
    assert _cli(*args, "--ray", ray_cluster.address) == _cli(*args)
    files = {}
    for where, extra in (("ray", ("--ray", ray_cluster.address)), ("local", ())):
        path = tmp_path / f"{where}.json"
        _cli(
            "solve",
            "golf",
            "--deals",
            "1..12",
            "--max-nodes",
            "5000",
            "--verdicts",
            str(path),
            *extra,
        )
        data = json.loads(path.read_text())
        files[where] = [
            {k: v for k, v in d.items() if k not in ("seconds", "cpu_seconds")}
            for d in data["deals"]
        ]
    assert files["ray"] == files["local"]
