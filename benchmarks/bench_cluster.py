"""Load test of a cluster through HAProxy: 1 and 3 instances on PostgreSQL and Redis.

Starts the ready cluster of ``deploy/cluster.sh`` on loopback (PostgreSQL with
its fsync on, Redis, N ``pyramids serve --broker`` instances, HAProxy in
front), in a temporary directory on free ports, and runs the clients of
``bench_server`` against HAProxy: each plays its own Pirámides game over a
WebSocket, offering ``--rate`` moves per second in all. It reports accepted
moves per second and the send-to-acknowledgement latency (p50/p99), then
checks that every acknowledged move is in PostgreSQL.

With more than one instance it also measures **cross-instance delivery**:
ten probe rooms for two seats, seat 0 connected to instance 1 and seat 1 to
instance 2 (directly, not through HAProxy), both playing; for each probe
move, the time from its acknowledgement on the mover's instance to the
event's arrival at the other seat on the other instance (negative when it
arrives first: an instance publishes an event as soon as it is committed,
before it answers its own client).

    python -m benchmarks cluster                     # 1 and 3 instances, defaults
    python benchmarks/bench_cluster.py --instances 3 --clients 100 --seconds 10

Needs the Debian packages postgresql, redis-server and haproxy and the extras
``postgres`` and ``redis``; without them it says what is missing and stops.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

if not __package__:  # run as a script: the benchmarks package is beside this file
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_server import Stats, cpu_seconds, run

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "deploy" / "cluster.sh"


def missing() -> str | None:
    """What is missing to run a cluster here, or None."""
    for tool in ("redis-server", "haproxy"):
        if shutil.which(tool) is None:
            return f"no {tool} (apt-get install {tool})"
    if not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")) and not shutil.which("initdb"):
        return "no PostgreSQL server (apt-get install postgresql)"
    for module in ("psycopg", "redis"):
        try:
            __import__(module)
        except ImportError:
            return f"no {module} package (pip install 'pyramids[postgres,redis]')"
    return None


def quiet_ports(count: int) -> list[int]:
    """Free ports below the range the kernel hands out to outgoing connections.

    The instances' ports follow each other (the script's ``PYRAMIDS_FIRST_PORT``):
    the first ``count - 4`` are consecutive, the four others anywhere.
    """
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    rng = random.Random()
    while True:
        first = rng.randrange(20000, low - count)  # Ray's workers use 10002-19999
        wanted = [*range(first, first + count - 4), *rng.sample(range(20000, low), 4)]
        if len(set(wanted)) < count:
            continue
        socks = []
        try:
            for port in wanted:
                s = socket.socket()
                socks.append(s)
                s.bind(("127.0.0.1", port))
        except OSError:
            continue
        finally:
            for s in socks:
                s.close()
        return wanted


class Cluster:
    """``deploy/cluster.sh`` with its own directory and ports; ``stop`` purges it."""

    def __init__(self, instances: int) -> None:
        self.instances = instances
        self.dir = Path(tempfile.mkdtemp(prefix="pyramids-bench-cluster-"))
        self.dir.chmod(0o755)  # PostgreSQL's user must reach its data directory
        ports = quiet_ports(instances + 4)
        self.instance_ports = ports[:instances]
        front, stats, self.pg_port, redis = ports[instances:]
        self.url = f"http://127.0.0.1:{front}"
        self.env = {
            **os.environ,
            "PYRAMIDS_CLUSTER_DIR": str(self.dir),
            "PYRAMIDS_PORT": str(front),
            "PYRAMIDS_STATS_PORT": str(stats),
            "PYRAMIDS_PG_PORT": str(self.pg_port),
            "PYRAMIDS_REDIS_PORT": str(redis),
            "PYRAMIDS_FIRST_PORT": str(ports[0]),
            "PYRAMIDS_INSTANCES": str(instances),
            "PYRAMIDS": str(Path(sys.executable).with_name("pyramids")),
            # one address sends all the load (HAProxy forwards it as such): the per-address
            # limits would throttle it
            "PYRAMIDS_SERVE_OPTIONS": "--rate-limit off --websockets-per-address 100000 "
            "--bot-delay 0",
        }

    def _script(self, command: str) -> None:
        done = subprocess.run(
            ["bash", str(SCRIPT), command], env=self.env, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise RuntimeError(f"cluster.sh {command} failed: {done.stdout}{done.stderr}")

    def start(self) -> None:
        self._script("start")

    def stop(self) -> None:
        self._script("purge")
        shutil.rmtree(self.dir, ignore_errors=True)

    def instance_url(self, k: int) -> str:
        return f"http://127.0.0.1:{self.instance_ports[k]}"

    def processes(self) -> dict[str, list[int]]:
        """The cluster's processes by part: instances, PostgreSQL (all), Redis, HAProxy."""
        parts: dict[str, list[int]] = {
            "instances": [],
            "postgresql": [],
            "redis": [],
            "haproxy": [],
        }
        for f in self.dir.glob("instance-*.pid"):
            parts["instances"].append(int(f.read_text()))
        for name in ("redis", "haproxy"):
            f = self.dir / f"{name}.pid"
            if f.exists():
                parts[name].append(int(f.read_text()))
        postmaster = self.dir / "pg" / "data" / "postmaster.pid"
        if postmaster.exists():
            root = int(postmaster.read_text().split()[0])
            parts["postgresql"] = [root, *_children(root)]
        return parts

    def stored_moves(self) -> int:
        from sqlalchemy import create_engine, text

        engine = create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{self.pg_port}/pyramids")
        with engine.connect() as conn:
            count = conn.execute(text("SELECT COUNT(*) FROM events WHERE kind = 'move'")).scalar()
        engine.dispose()
        return int(count or 0)


class Seen:
    """What the two seats of a probe room have received: the last state, arrival times."""

    def __init__(self, first: list[dict[str, Any]]) -> None:
        self.last = first
        self.arrived: list[dict[int, float]] = [{}, {}]
        self.changed = asyncio.Event()

    async def listen(self, i: int, ws: Any) -> None:
        async for raw in ws:
            m = orjson.loads(raw)
            if m.get("type") in ("event", "snapshot"):
                self.arrived[i][m["version"]] = time.perf_counter()
                self.last[i] = m
                self.changed.set()


async def probe(urls: list[str], stop: float, delays: list[float], seed: int) -> None:
    """One probe room for two seats, each connected to its own instance, both moving.

    For each move: the time from its acknowledgement on the mover's instance
    (the mover's own event) to the event's arrival at the other seat, on the
    other instance.
    """
    rng = random.Random(seed)
    async with httpx.AsyncClient(timeout=30) as http:
        spec = {"game": "pyramido", "seats": [{"kind": "human"}] * 2}
        while time.perf_counter() < stop:
            room = (await http.post(f"{urls[0]}/api/rooms", json=spec)).json()
            uris = [
                f"{u.replace('http', 'ws', 1)}/ws/rooms/{room['room']}?token={s['token']}"
                for u, s in zip(urls, room["seats"], strict=True)
            ]
            async with websockets.connect(uris[0]) as ws0, websockets.connect(uris[1]) as ws1:
                conns = [ws0, ws1]
                seen = Seen([orjson.loads(await ws.recv()) for ws in conns])
                last, arrived, changed = seen.last, seen.arrived, seen.changed
                listeners = [asyncio.create_task(seen.listen(i, conns[i])) for i in (0, 1)]
                try:
                    while time.perf_counter() < stop:
                        movers = [i for i in (0, 1) if last[i].get("legal")]
                        if not movers:
                            break  # the game is over
                        i = movers[0]
                        version = last[i]["version"]
                        text = rng.choice(last[i]["legal"])
                        await conns[i].send(
                            orjson.dumps(
                                {"type": "move", "move": text, "version": version}
                            ).decode()
                        )
                        deadline = time.perf_counter() + 5
                        while time.perf_counter() < deadline and not all(
                            version + 1 in a for a in arrived
                        ):
                            changed.clear()
                            with contextlib.suppress(asyncio.TimeoutError):
                                await asyncio.wait_for(changed.wait(), 0.5)
                        if all(version + 1 in a for a in arrived):
                            delays.append(arrived[1 - i][version + 1] - arrived[i][version + 1])
                        else:
                            break
                        await asyncio.sleep(0.05)
                finally:
                    for task in listeners:
                        task.cancel()


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (PostgreSQL's backends)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def cpu_of(parts: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds used so far by each part's processes."""
    return {name: sum(cpu_seconds(pid) for pid in pids) for name, pids in parts.items()}


async def load(
    cluster: Cluster, clients: int, seconds: float, warmup: float, rate: float, ramp: float
) -> tuple[Stats, float, list[float], dict[str, float]]:
    """The bench_server clients through HAProxy, and probes between instances 1 and 2.

    Also the CPU seconds each part of the cluster spent in the measured window.
    """
    delays: list[float] = []
    probes: list[asyncio.Task[None]] = []
    cpu: dict[str, dict[str, float]] = {}

    async def sample(at: float, key: str) -> None:
        await asyncio.sleep(at)
        cpu[key] = cpu_of(cluster.processes())

    samplers = [
        asyncio.create_task(sample(warmup, "start")),
        asyncio.create_task(sample(warmup + seconds, "end")),
    ]
    if cluster.instances > 1:
        stop = time.perf_counter() + warmup + seconds
        urls = [cluster.instance_url(0), cluster.instance_url(1)]
        for k in range(10):
            probes.append(asyncio.create_task(probe(urls, stop, delays, k)))
    stats, elapsed, _ = await run(cluster.url, clients, seconds, warmup, 0, rate, ramp)
    await asyncio.gather(*probes, *samplers)
    spent = {k: cpu["end"][k] - cpu["start"].get(k, 0.0) for k in cpu["end"]}
    return stats, elapsed, delays, spent


def measure(
    instances: int,
    clients: int = 200,
    seconds: float = 20.0,
    warmup: float = 10.0,
    rate: float = 1000.0,
    ramp: float = 5.0,
) -> dict[str, float]:
    """Start a cluster of ``instances``, load it, check durability; the figures."""
    cluster = Cluster(instances)
    cluster.start()
    try:
        stats, elapsed, delays, spent = asyncio.run(
            load(cluster, clients, seconds, warmup, rate, ramp)
        )
        stored = cluster.stored_moves()
    finally:
        cluster.stop()
    lat = sorted(stats.latencies)
    accepted = len(lat)
    out = {
        "instances": instances,
        "clients": clients,
        "offered": rate,
        "moves/s": accepted / elapsed,
        "p50 ms": 1000 * statistics.median(lat) if lat else float("nan"),
        "p99 ms": 1000 * lat[int(0.99 * (len(lat) - 1))] if lat else float("nan"),
        "rejected": stats.rejected,
        "durable": 1.0 if stored >= accepted else 0.0,
        "load": os.getloadavg()[0],
    }
    for part, seconds_spent in spent.items():
        out[f"{part} cpu ms/move"] = 1000 * seconds_spent / accepted if accepted else float("nan")
    if delays:
        d = sorted(delays)
        out["cross p50 ms"] = 1000 * statistics.median(d)
        out["cross p99 ms"] = 1000 * d[int(0.99 * (len(d) - 1))]
        out["cross samples"] = len(d)
    return out


def report(r: dict[str, Any]) -> str:
    offered = f"{r['offered']:,.0f} moves/s offered" if r["offered"] else "flat out"
    line = (
        f"   cluster of {r['instances']:.0f} through HAProxy, {r['clients']:.0f} clients, "
        f"{offered}: {r['moves/s']:,.0f} accepted moves/s, p50 {r['p50 ms']:.1f} ms, "
        f"p99 {r['p99 ms']:.1f} ms, {r['rejected']:.0f} rejected, every acknowledged move "
        f"stored: {'yes' if r['durable'] else 'NO'}"
    )
    if "cross p50 ms" in r:
        line += (
            f"; acknowledged on instance 1 -> received on instance 2: p50 "
            f"{r['cross p50 ms']:.1f} ms, p99 {r['cross p99 ms']:.1f} ms "
            f"({r['cross samples']:.0f} moves)"
        )
    cpu = ", ".join(f"{k.split(' ')[0]} {v:.2f}" for k, v in r.items() if k.endswith("cpu ms/move"))
    return line + f"; CPU ms per move: {cpu} (machine load average {r['load']:.1f})"


def measure_ray(deals: int = 200, games: int = 400) -> list[str]:
    """Throughput per worker core of solve and arena: one local process, then Ray.

    Ray runs as a one-machine cluster started for the measurement (``--ray
    local``: one worker per core); the work is the same and so are its results
    (checked here too), so the ratio is the cost of Ray per task, and what a
    cluster of N such cores would do is N times the per-core figure.
    """
    from pyramids.ai.arena import ArenaConfig, run_arena
    from pyramids.cluster.ray_executor import RayExecutor
    from pyramids.solver.batch import Job, run_jobs

    jobs = [Job("pyramid", deal) for deal in range(1, deals + 1)]
    config = ArenaConfig("pyramideto", ("greedy", "random"), games=games, seed=1)
    lines = []
    t = time.perf_counter()
    local_solve = run_jobs(jobs)
    solve_local = time.perf_counter() - t
    t = time.perf_counter()
    local_arena = run_arena(config)
    arena_local = time.perf_counter() - t
    executor = RayExecutor("local")
    try:
        cores = executor.workers
        run_jobs(jobs[:16], executor=executor)  # workers started and warm
        t = time.perf_counter()
        ray_solve = run_jobs(jobs, executor=executor)
        solve_ray = time.perf_counter() - t
        t = time.perf_counter()
        ray_arena = run_arena(config, executor=executor)
        arena_ray = time.perf_counter() - t
    finally:
        executor.shutdown()
    same_solve = [(o.deal, o.verdict, o.nodes) for o in ray_solve] == [
        (o.deal, o.verdict, o.nodes) for o in local_solve
    ]
    same_arena = [r.outcome() for r in ray_arena] == [r.outcome() for r in local_arena]
    lines.append(
        f"   solve pyramid deals 1..{deals}: 1 local process {deals / solve_local:,.1f} deals/s; "
        f"Ray, {cores} worker cores: {deals / solve_ray:,.1f} deals/s = "
        f"{deals / solve_ray / cores:,.1f} per core; same verdicts: {'yes' if same_solve else 'NO'}"
    )
    lines.append(
        f"   arena pyramideto greedy vs random, {games} games: 1 local process "
        f"{games / arena_local:,.1f} games/s; Ray, {cores} worker cores: "
        f"{games / arena_ray:,.1f} games/s = {games / arena_ray / cores:,.1f} per core; "
        f"same games: {'yes' if same_arena else 'NO'} (machine load average "
        f"{os.getloadavg()[0]:.1f})"
    )
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--instances", type=int, action="append", help="instances (repeatable; default 1 and 3)"
    )
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--ramp", type=float, default=5.0)
    parser.add_argument("--rate", type=float, default=1000.0, help="moves/s offered (0: flat out)")
    parser.add_argument(
        "--ray", action="store_true", help="measure solve and arena on Ray instead (extra cluster)"
    )
    args = parser.parse_args([] if argv is None else argv)
    if args.ray:
        try:
            import ray  # noqa: F401
        except ImportError:
            print("   Ray benchmark skipped: pip install 'pyramids[cluster]'")
            return
        for line in measure_ray():
            print(line, flush=True)
        return
    why = missing()
    if why is not None:
        print(f"   cluster benchmark skipped: {why}")
        return
    for n in args.instances or [1, 3]:
        r = measure(n, args.clients, args.seconds, args.warmup, args.rate, args.ramp)
        print(report(r), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
