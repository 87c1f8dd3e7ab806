"""Slow clients cannot lock others out: header deadline, half-open caps.

The main test is the attack itself: a real ``pyramids serve`` whose file limit is
lowered to 256 (``prlimit --nofile=256``), 300 connections that each trickle
one byte of a request head every 2 s (reconnecting when closed), and a normal
request every half second that must be answered within 1 s throughout.
Without the guard the tricklers hold every file descriptor and the normal
requests are never even accepted.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from pyramids.server.guard import ConnectionLimits, Guard
from pyramids.server.launch import free_port, serve_command, wait_until_serving
from tests.server.guarded import Served, parsers

pytestmark = pytest.mark.timeout(90)

HEAD = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"z" * 64 + b"\r\n\r\n"


async def _trickle(port: int, stop: float, stats: dict[str, int]) -> None:
    """One slow client: a byte of a request head every 2 s; cut off, it connects again
    at its next tick (a client reconnecting at full speed is a flood, which is the
    business of the rate limits, not of this test)."""
    first = True
    while time.monotonic() < stop:
        if not first:
            await asyncio.sleep(2)
        first = False
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(2)
            continue
        stats["opened"] += 1
        sent = 0
        try:
            while time.monotonic() < stop and sent < len(HEAD) - 1:  # never the last byte
                writer.write(HEAD[sent : sent + 1])
                sent += 1
                await writer.drain()
                try:
                    answer = await asyncio.wait_for(reader.read(4096), timeout=2)
                except TimeoutError:
                    continue
                stats["408" if b" 408 " in answer else "closed"] += 1
                break
        except OSError:
            stats["closed"] += 1
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()


async def _probe(url: str, stop: float, latencies: list[float]) -> None:
    """A normal client: a fresh connection and one request every half second."""
    limits = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(timeout=5, limits=limits) as client:
        while time.monotonic() < stop:
            began = time.monotonic()
            try:
                r = await client.get(f"{url}/api/games")
                ok = r.status_code == 200
            except httpx.HTTPError:
                ok = False
            latencies.append(time.monotonic() - began if ok else float("inf"))
            await asyncio.sleep(0.5)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("prlimit") is None, reason="needs prlimit (util-linux)")
def test_trickling_connections_do_not_stop_a_normal_request(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = ["prlimit", "--nofile=256", "--", *serve_command(port, f"sqlite:///{tmp_path}/s.db")]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_until_serving(url, timeout=60), "the server did not start"
        stats = {"opened": 0, "408": 0, "closed": 0}
        latencies: list[float] = []

        async def attack() -> None:
            stop = time.monotonic() + 9
            tricklers = [_trickle(port, stop, stats) for _ in range(300)]
            await asyncio.gather(*tricklers, _probe(url, stop, latencies))

        asyncio.run(attack())
        assert server.poll() is None, "the server died"
        assert len(latencies) >= 12
        assert max(latencies) < 1.0, sorted(latencies)[-5:]
        # the guard was at work: slow heads were cut off (408) or crowded out
        assert stats["408"] + stats["closed"] >= 300, stats
    finally:
        server.terminate()
        server.wait(timeout=20)


# -- the guard's rules, one by one (in-process, both HTTP parsers) -----------------------


@pytest.fixture(params=parsers(), ids=lambda c: c.__name__)
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Served]:
    limits = ConnectionLimits(
        header_timeout=0.6, body_timeout=0.6, half_open_per_address=3, max_header_bytes=4096
    )
    s = Served(tmp_path, Guard(limits), request.param)
    yield s
    s.stop()


def _read_all(sock: socket.socket) -> bytes:
    chunks = []
    with contextlib.suppress(OSError):
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def test_a_silent_connection_gets_408_at_the_deadline(served: Served) -> None:
    began = time.monotonic()
    with served.connect() as s:
        s.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")  # and never the end of the head
        answer = _read_all(s)
    assert b" 408 " in answer and b'"request-timeout"' in answer
    assert 0.5 < time.monotonic() - began < 3
    assert served.guard.timed_out >= 1


def test_a_slow_body_is_cut_off(served: Served) -> None:
    with served.connect() as s:
        s.sendall(
            b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        began = time.monotonic()
        _read_all(s)
    assert time.monotonic() - began < 3


def test_a_head_too_large_is_431(served: Served) -> None:
    with served.connect() as s:
        s.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 8000)
        answer = _read_all(s)
    assert b" 431 " in answer or b" 400 " in answer  # h11 refuses it itself, with 400


def test_the_oldest_half_open_connection_of_an_address_makes_way(served: Served) -> None:
    slow = [served.connect() for _ in range(3)]
    for s in slow:
        s.sendall(b"G")
    time.sleep(0.1)
    fresh = served.connect()  # the fourth: the first slow one is closed for it
    fresh.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert b"200 OK" in _read_all(fresh)
    slow[0].settimeout(2)
    assert _read_all(slow[0]) == b""
    assert served.guard.evicted >= 1
    for s in slow:
        s.close()


def test_keep_alive_requests_and_websockets_pass_the_guard(served: Served) -> None:
    base = f"http://127.0.0.1:{served.port}"
    with httpx.Client() as client:
        for _ in range(3):  # one connection, three requests, each head quick
            assert client.get(f"{base}/api/games").status_code == 200
        time.sleep(0.8)  # idle between requests is not a slow head
        assert client.get(f"{base}/api/games").status_code == 200
        room = client.post(f"{base}/api/rooms", json={"game": "piramides"}).json()

    async def socket_outlives_the_deadlines() -> None:
        import websockets

        uri = f"ws://127.0.0.1:{served.port}/ws/rooms/{room['room']}"
        async with websockets.connect(uri) as ws:
            await ws.recv()
            await asyncio.sleep(1.5)
            await ws.send('{"type": "ping", "id": 1}')
            assert '"pong"' in await asyncio.wait_for(ws.recv(), 5)

    asyncio.run(socket_outlives_the_deadlines())
    assert served.guard.half_open_count() == 0
