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
from pyramids.solver.batch import Job, run_jobs
from tests.cluster.services import quiet_ports, unavailable

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

HEAD_IP = "127.0.0.2"
NODE_IP = "127.0.0.3"


class RayCluster:
    """A head and one more node, each ``ray start --block`` in the foreground."""

    def __init__(self, ray: str) -> None:
        self.ray = ray
        # a random port below the kernel's range for outgoing connections: two test runs at
        # once (another checkout's CI) do not pick the same one, as free_port() may
        (self.port,) = quiet_ports(1)  # above 20000: Ray's workers take 10002-19999
        self.dir = Path(tempfile.mkdtemp(prefix="pyramids-ray-"))
        self.env = {**os.environ, **RAY_ENV}
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
        """SIGTERM both nodes (each ``ray start --block`` stops what it started), then wait."""
        for proc in reversed(self.procs):
            proc.terminate()
        for proc in self.procs:
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
    saved = {k: os.environ.get(k) for k in RAY_ENV}
    os.environ.update(RAY_ENV)  # this process is one of the cluster's drivers too
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


#: no usage reports, and no token from ~/.ray: a token left there by another Ray makes
#: this fresh cluster refuse its own nodes (InvalidAuthToken)
RAY_ENV = {
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_AUTH_MODE": "disabled",
    "RAY_AUTH_TOKEN_PATH": "/nonexistent/pyramids-test-ray-token",
}


def _slow_node() -> str:
    """The node a task ran on (after a while: one CPU per node, so the other gets work)."""
    import ray

    time.sleep(0.5)
    node: str = ray.get_runtime_context().get_node_id()
    return node


def _cli(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "COLUMNS": "100", **RAY_ENV}
    return subprocess.Popen(
        [sys.executable, "-m", "pyramids", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _output(proc: subprocess.Popen[str]) -> str:
    out, err = proc.communicate(timeout=180)
    assert proc.returncode == 0, err[-3000:]
    return out


def test_arena_simulate_and_solve_on_ray_give_the_local_results(
    ray_cluster: RayCluster, tmp_path: Path
) -> None:
    """One test for all of it: the cluster takes ~20 s to start, once per test process."""
    from pyramids.cluster.ray_executor import RayExecutor

    # the commands, as a user runs them (each its own Ray driver), meanwhile
    sim = ("simulate", "pyramido", "--games", "6", "--agent", "greedy,random", "--players", "2")
    solve = ("solve", "golf", "--deals", "1..12", "--max-nodes", "5000", "--verdicts")
    procs = {
        "sim-ray": _cli(*sim, "--ray", ray_cluster.address),
        "sim-local": _cli(*sim),
        "solve-ray": _cli(*solve, str(tmp_path / "ray.json"), "--ray", ray_cluster.address),
        "solve-local": _cli(*solve, str(tmp_path / "local.json")),
    }
    executor = RayExecutor(ray_cluster.address)
    try:
        assert executor.workers == 2
        nodes: set[str] = set()
        deadline = time.monotonic() + 60  # a node's first worker may be slow to start
        while len(nodes) < 2 and time.monotonic() < deadline:
            nodes |= {f.result(timeout=60) for f in [executor.submit(_slow_node) for _ in range(4)]}
        assert len(nodes) == 2  # both nodes did work

        config = ArenaConfig("pyramideto", ("greedy", "random"), games=12, seed=5)
        seen: list[int] = []
        on_ray = run_arena(config, executor=executor, on_result=lambda r: seen.append(r.index))
        local = run_arena(config)
        assert [r.outcome() for r in on_ray] == [r.outcome() for r in local]
        assert sorted(seen) == list(range(12))  # the progress callback heard of every game

        jobs = [Job("pyramid", deal, max_nodes=20_000) for deal in range(1, 25)]
        done: list[int] = []
        solved = run_jobs(jobs, executor=executor, on_done=lambda o: done.append(o.deal))
        here = run_jobs(jobs)

        def facts(outcomes: list[Any]) -> list[tuple[Any, ...]]:
            return [(o.deal, o.verdict, o.nodes, o.moves, o.score) for o in outcomes]

        assert facts(solved) == facts(here)
        assert sorted(done) == list(range(1, 25))
    finally:
        executor.shutdown()
    assert _output(procs["sim-ray"]) == _output(procs["sim-local"])
    verdicts = {}
    for where in ("ray", "local"):
        _output(procs[f"solve-{where}"])
        data = json.loads((tmp_path / f"{where}.json").read_text())
        verdicts[where] = [
            {k: v for k, v in d.items() if k not in ("seconds", "cpu_seconds")}
            for d in data["deals"]
        ]
    assert verdicts["ray"] == verdicts["local"]
