"""Load test of the game server on loopback: many clients, each playing its own game.

Starts ``pyramids serve`` as a subprocess on a fresh SQLite file (WAL, full
sync), opens ``--clients`` WebSocket connections, each to its own solitaire
game, and has the clients play random legal moves (a new deal when a game
ends): together they offer ``--rate`` moves per second (each client one move
every clients/rate seconds, an open loop), or with ``--rate 0`` each client
sends its next move as soon as the last one is acknowledged. It reports accepted
moves per second and the latency from sending a move to receiving its
acknowledging event (p50/p99), then checks durability: every acknowledged
move must be in the database file.

    python -m benchmarks server                  # 200 clients offering 1,000 moves/s, 20 s
    python benchmarks/bench_server.py --clients 50 --seconds 5 --rate 0   # flat out
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import orjson
import websockets

from pyramids.server.launch import free_port, serve_command, wait_until_serving


def start_server(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``pyramids serve`` on ``db``; returns the process and its base URL once it answers."""
    port = free_port()
    proc = subprocess.Popen(
        # the load comes from one address: the per-address limits would throttle it, and
        # more than 64 clients would pass its cap on WebSockets
        serve_command(
            port,
            f"sqlite:///{db}",
            options=("--rate-limit", "off", "--websockets-per-address", "100000"),
        ),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    if wait_until_serving(url, timeout=60.0, poll=0.05):
        return proc, url
    proc.kill()
    raise RuntimeError("the server did not start")


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) used so far by process ``pid`` (Linux ``/proc``; else 0)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


class Stats:
    """Latencies of acknowledged moves and counts, shared by every client."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.rejected = 0
        self.games = 0
        self.measuring = False


async def client(
    url: str, stats: Stats, stop: float, seed: int, interval: float, ramp: float = 0.0
) -> None:
    """One player: random legal moves in its own games until ``stop``.

    With ``interval`` > 0 the client sends one move every ``interval`` seconds
    (an open loop: the load stays the same whatever the latency); with 0 it
    sends the next move as soon as the previous one is acknowledged. The
    client arrives at a random moment of the first ``ramp`` seconds.
    """
    rng = random.Random(seed)
    await asyncio.sleep(rng.uniform(0, ramp))
    next_send = time.perf_counter() + rng.uniform(0, interval)
    ws_base = url.replace("http", "ws", 1)
    # no keep-alive: a client comes back for a new game after many seconds on its
    # WebSocket, by which time the server has closed the idle HTTP connection
    limits = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=url, timeout=30, verify=False, limits=limits) as http:
        while time.perf_counter() < stop:
            room = (await http.post("/api/rooms", json={"game": "piramides"})).json()
            token = room["seats"][0]["token"]
            stats.games += 1
            uri = f"{ws_base}/ws/rooms/{room['room']}?token={token}"
            async with websockets.connect(uri, max_size=None) as ws:
                msg = orjson.loads(await ws.recv())
                while time.perf_counter() < stop and msg["legal"]:
                    text = rng.choice(msg["legal"])
                    if interval:
                        wait = next_send - time.perf_counter()
                        if wait > 0:
                            await asyncio.sleep(wait)
                        next_send = max(next_send + interval, time.perf_counter() - interval)
                    sent = time.perf_counter()
                    await ws.send(
                        orjson.dumps(
                            {"type": "move", "move": text, "version": msg["version"], "id": 1}
                        ).decode()
                    )
                    while True:
                        reply = orjson.loads(await ws.recv())
                        if reply.get("reply_to") == 1:
                            break
                    if reply["type"] != "event":
                        stats.rejected += 1
                        msg = reply.get("snapshot", msg)
                        continue
                    if stats.measuring:
                        stats.latencies.append(time.perf_counter() - sent)
                    msg = reply


async def run(
    url: str,
    clients: int,
    seconds: float,
    warmup: float,
    pid: int = 0,
    rate: float = 0,
    ramp: float = 0.0,
) -> tuple[Stats, float, float]:
    """Load the server at ``url``; returns the stats, the measured seconds and server CPU s.

    ``rate`` is the total moves per second the clients offer (0: as fast as
    acknowledged); the clients arrive spread over the first ``ramp`` seconds.
    """
    stats = Stats()
    begin = time.perf_counter()
    stop = begin + warmup + seconds
    interval = clients / rate if rate else 0.0
    tasks = [
        asyncio.create_task(client(url, stats, stop, k, interval, ramp)) for k in range(clients)
    ]
    await asyncio.sleep(warmup)
    stats.measuring = True
    t0 = time.perf_counter()
    cpu0 = cpu_seconds(pid) if pid else 0.0
    await asyncio.wait(tasks, timeout=seconds)
    cpu = (cpu_seconds(pid) - cpu0) if pid else 0.0
    elapsed = time.perf_counter() - t0
    stats.measuring = False
    await asyncio.gather(*tasks)
    return stats, elapsed, cpu


def measure(
    clients: int = 200,
    seconds: float = 20.0,
    warmup: float = 15.0,
    rate: float = 1000.0,
    ramp: float = 10.0,
) -> dict[str, float]:
    """Run the load test; returns the figures (also used by ``main``).

    The clients arrive over the first ``ramp`` seconds and the measurement
    starts after ``warmup``: a server's players do not all start (and so all
    finish) their games in the same second. With ``ramp=0`` they do, and each
    round of game endings becomes a burst of 200 new rooms at once.
    """
    try:  # the load generator shares the cores with the server: give it the fast loop too
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    except ImportError:
        pass
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        proc, url = start_server(db)
        try:
            stats, elapsed, cpu = asyncio.run(
                run(url, clients, seconds, warmup, proc.pid, rate, ramp)
            )
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        with sqlite3.connect(db) as conn:
            stored = conn.execute("SELECT COUNT(*) FROM events WHERE kind = 'move'").fetchone()[0]
    lat = sorted(stats.latencies)
    accepted = len(lat)
    return {
        "clients": clients,
        "offered": rate,
        "moves/s": accepted / elapsed,
        "p50 ms": 1000 * statistics.median(lat) if lat else float("nan"),
        "p99 ms": 1000 * lat[int(0.99 * (len(lat) - 1))] if lat else float("nan"),
        "rejected": stats.rejected,
        "games": stats.games,
        "durable": 1.0 if stored >= accepted else 0.0,
        "server cpu ms/move": 1000 * cpu / accepted if accepted else float("nan"),
        "load": os.getloadavg()[0],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds")
    parser.add_argument(
        "--warmup", type=float, default=15.0, help="seconds before the measurement starts"
    )
    parser.add_argument(
        "--ramp", type=float, default=10.0, help="clients arrive spread over these seconds"
    )
    parser.add_argument(
        "--rate", type=float, default=1000.0, help="moves/s offered in total (0: flat out)"
    )
    args = parser.parse_args([] if argv is None else argv)
    r = measure(args.clients, args.seconds, args.warmup, args.rate, args.ramp)
    offered = f"{r['offered']:,.0f} moves/s offered" if r["offered"] else "flat out"
    print(
        f"   server, {r['clients']:.0f} clients, {offered}: "
        f"{r['moves/s']:,.0f} accepted moves/s, "
        f"p50 {r['p50 ms']:.1f} ms, p99 {r['p99 ms']:.1f} ms, "
        f"{r['rejected']:.0f} rejected, {r['games']:.0f} games, "
        f"every acknowledged move stored: {'yes' if r['durable'] else 'NO'}; "
        f"server CPU {r['server cpu ms/move']:.2f} ms per move "
        f"(machine load average {r['load']:.1f})"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
