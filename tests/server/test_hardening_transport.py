"""Hostile transports against a real server: heads too large in one read, clients that
never read their answers (``docs/security.md``, *Slow clients*).

Each attack is sent in its own shape, bounded in sockets and seconds: a 64 KiB
request head in one ``send`` (and in two), and a few hundred sockets that
pipeline ``GET /openapi.json`` on a tiny receive buffer and never read.
"""

from __future__ import annotations

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

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(params=parsers(), ids=lambda c: c.__name__)
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Served]:
    s = Served(tmp_path, Guard(ConnectionLimits()), request.param)
    yield s
    s.stop()


def _read_all(sock: socket.socket) -> bytes:
    chunks = []
    with contextlib.suppress(OSError):
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def _head(size: int) -> bytes:
    """A complete ``GET`` head of ``size`` bytes (one long header)."""
    start = b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: "
    return start + b"a" * (size - len(start) - 4) + b"\r\n\r\n"


def test_a_64_kib_head_in_one_send_is_refused(served: Served) -> None:
    with served.connect() as s:
        s.sendall(_head(64 * 1024))
        answer = _read_all(s)
    assert b" 200 " not in answer
    assert answer == b"" or b" 431 " in answer or b" 400 " in answer, answer[:80]


def test_a_64_kib_head_in_two_sends_is_refused(served: Served) -> None:
    head = _head(64 * 1024)
    with served.connect() as s:
        s.sendall(head[:20_000])
        time.sleep(0.05)
        with contextlib.suppress(OSError):  # the server may have closed already
            s.sendall(head[20_000:])
        answer = _read_all(s)
    assert b" 200 " not in answer
    assert answer == b"" or b" 431 " in answer or b" 400 " in answer, answer[:80]


def test_pipelined_heads_are_each_counted(served: Served) -> None:
    """A small request, then a large head, in one send: the second is refused (the
    connection closes; the first's answer may or may not have been written by then)."""
    small = b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n"
    with served.connect() as s:
        s.sendall(small + _head(40 * 1024))
        answer = _read_all(s)
    assert answer.count(b" 200 OK") < 2, answer[:200]


def test_a_head_at_the_limit_is_served(served: Served) -> None:
    with served.connect() as s:
        s.sendall(_head(16 * 1024))
        answer = _read_all(s)
    assert answer.startswith(b"HTTP/1.1 200 ")


# -- clients that never read -------------------------------------------------------------

PIPELINED = b"GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 400


def _never_reading(port: int) -> socket.socket | None:
    """A socket with a 2 KiB receive buffer that asks for 400 answers and reads none."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    try:
        s.connect(("127.0.0.1", port))
    except OSError:
        s.close()
        return None
    s.setblocking(False)
    with contextlib.suppress(OSError):  # what fits; the server stops reading the rest
        s.send(PIPELINED)
    return s


def _ended(s: socket.socket) -> bool:
    """Whether the server closed ``s`` (end of stream or reset), reading what it left."""
    s.setblocking(False)
    try:
        while True:
            chunk = s.recv(1 << 20)
            if not chunk:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("prlimit") is None, reason="needs prlimit (util-linux)")
def test_clients_that_never_read_do_not_lock_others_out(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    options = ("--rate-limit", "off")
    command = [
        "prlimit",
        "--nofile=256",
        "--",
        *serve_command(port, f"sqlite:///{tmp_path}/s.db", options=options),
    ]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    flood: list[socket.socket] = []
    try:
        assert wait_until_serving(url, timeout=60), "the server did not start"
        for _ in range(250):  # more than the 192 connections the file limit leaves
            s = _never_reading(port)
            if s is not None:
                flood.append(s)
        time.sleep(8)  # every one of them has filled its buffers by now, even on a busy machine
        served = 0
        with httpx.Client(timeout=20, limits=httpx.Limits(max_keepalive_connections=0)) as c:
            for _ in range(10):
                with contextlib.suppress(httpx.HTTPError):
                    served += c.get(f"{url}/api/games").status_code == 200
                time.sleep(0.2)
        assert served == 10
        # the server let go of them: crowded out past 16 an address, or at the write
        # deadline (10 s); on a busy machine the last few may stall late, hence "all
        # but one address's share" (without the guard none is let go but those
        # refused at the door)
        began = time.monotonic()
        while time.monotonic() < began + 30 and not all(_ended(s) for s in flood):
            time.sleep(0.5)
        assert sum(_ended(s) for s in flood) >= len(flood) - 16
        assert server.poll() is None, "the server died"
    finally:
        for s in flood:
            s.close()
        server.terminate()
        server.wait(timeout=20)
