"""Another client's latency while four sockets flood the server with costly messages.

Starts ``pyramids serve`` (default limits) on loopback, opens one room, and
measures a client's REST p99 (``GET /api/rooms/{room}``) and WebSocket ping
p99 for ``--seconds``, first alone (the baseline), then while four spectator
sockets send 64 KiB JSON arrays of small numbers as fast as they can,
reconnecting whenever the server closes them. The measured client stands for
another machine (``X-Forwarded-For``, which the server trusts from loopback),
so the flooders' per-address limits are not its own. Reports both p99s and
their ratio to the baseline, and how often the flooders were cut off.

    python -m benchmarks flood
    python benchmarks/bench_flood.py --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import statistics
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

import httpx
import orjson
import websockets

from pyramids.server.launch import free_port, serve_command, wait_until_serving

#: a 64 KiB JSON array of small numbers
ARRAY = ("[" + "1," * (32 * 1024 - 2) + "1]").encode()
OTHER = {"X-Forwarded-For": "10.0.0.2"}


def p99(samples: list[float]) -> float:
    """The 99th percentile, in milliseconds."""
    return statistics.quantiles(samples, n=100)[98] * 1000 if len(samples) > 1 else 0.0


async def measured_client(url: str, ws_url: str, room: str, seconds: float) -> dict[str, float]:
    """REST reads and WebSocket pings, alternately (ten a second), for ``seconds``;
    their p99s."""
    rest: list[float] = []
    pings: list[float] = []
    async with (
        httpx.AsyncClient(timeout=30, headers=OTHER) as http,
        websockets.connect(f"{ws_url}/ws/rooms/{room}", additional_headers=OTHER) as ws,
    ):
        await ws.recv()
        stop = time.monotonic() + seconds
        i = 0
        while time.monotonic() < stop:
            began = time.monotonic()
            assert (await http.get(f"{url}/api/rooms/{room}")).status_code == 200
            rest.append(time.monotonic() - began)
            began = time.monotonic()
            await ws.send(orjson.dumps({"type": "ping", "id": i}).decode())
            while orjson.loads(await asyncio.wait_for(ws.recv(), 30)).get("reply_to") != i:
                pass
            pings.append(time.monotonic() - began)
            i += 1
            await asyncio.sleep(0.1)  # ten a second: within a client's message limit
    return {"rest": p99(rest), "ping": p99(pings), "samples": float(len(rest))}


async def flooder(ws_url: str, room: str, stop: float, counts: dict[str, int]) -> None:
    """One spectator socket sending costly messages flat out; reconnects when closed."""
    while time.monotonic() < stop:
        try:
            async with websockets.connect(f"{ws_url}/ws/rooms/{room}", max_size=None) as ws:
                counts["connections"] += 1
                drain = asyncio.create_task(_drain(ws))
                with contextlib.suppress(websockets.ConnectionClosed):
                    while time.monotonic() < stop:
                        await ws.send(ARRAY)
                        counts["sent"] += 1
                drain.cancel()
                if ws.close_code == 4429:
                    counts["closed"] += 1
        except (OSError, websockets.WebSocketException):
            await asyncio.sleep(0.05)


async def _drain(ws: websockets.ClientConnection) -> None:
    with contextlib.suppress(websockets.ConnectionClosed):
        async for _ in ws:
            pass


def flood_process(ws_url: str, room: str, seconds: float, out: Connection) -> None:
    """Four flooders in a process of their own (their CPU is not the measured client's)."""

    async def all_four() -> dict[str, int]:
        counts = {"connections": 0, "sent": 0, "closed": 0}
        stop = time.monotonic() + seconds
        await asyncio.gather(*(flooder(ws_url, room, stop, counts) for _ in range(4)))
        return counts

    out.send(asyncio.run(all_four()))


def run(url: str, ws_url: str, room: str, seconds: float) -> dict[str, float]:
    base = asyncio.run(measured_client(url, ws_url, room, seconds))
    mine, theirs = multiprocessing.Pipe()
    flood = multiprocessing.Process(target=flood_process, args=(ws_url, room, seconds + 2, theirs))
    flood.start()
    time.sleep(1)  # the flood is under way
    flooded = asyncio.run(measured_client(url, ws_url, room, seconds))
    counts = mine.recv()
    flood.join()
    return {
        "rest base": base["rest"],
        "ping base": base["ping"],
        "rest flood": flooded["rest"],
        "ping flood": flooded["ping"],
        **{k: float(v) for k, v in counts.items()},
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per phase")
    args = parser.parse_args([] if argv is None else argv)
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        db = Path(tmp) / "flood.db"
        server = subprocess.Popen(
            serve_command(port, f"sqlite:///{db}"),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            url, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
            if not wait_until_serving(url, timeout=60):
                raise SystemExit("the server did not start")
            room = httpx.post(f"{url}/api/rooms", json={"game": "piramides"}).json()["room"]
            r = run(url, ws_url, room, args.seconds)
        finally:
            server.terminate()
            server.wait(timeout=20)
    print(
        f"   flood of 4 sockets (64 KiB arrays): REST p99 {r['rest base']:.1f} -> "
        f"{r['rest flood']:.1f} ms ({r['rest flood'] / r['rest base']:.2f}x), "
        f"ping p99 {r['ping base']:.1f} -> {r['ping flood']:.1f} ms "
        f"({r['ping flood'] / r['ping base']:.2f}x); flooders sent {r['sent']:,.0f} messages "
        f"over {r['connections']:,.0f} connections, {r['closed']:,.0f} closed for flooding"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
