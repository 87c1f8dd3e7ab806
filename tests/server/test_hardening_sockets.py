"""Floods and clients that never read, over WebSocket and REST, against a real server
(``docs/security.md``, *Floods* and *Memory per client*).

The attacks' own shapes, bounded in sockets and seconds: a socket that sends
64 KiB JSON arrays as fast as it can while another client plays; REST requests
past their limit with bodies that would be costly to parse; and 64 spectator
sockets that ask for snapshots on a tiny receive buffer and never read.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket
import struct
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import websockets

from pyramids.server.launch import free_port, serve_command, wait_until_serving
from pyramids.server.limits import DEFAULTS, Rate, RateLimits
from pyramids.server.sockets import REFUSED_BEFORE_CLOSE
from tests.server.client import HTTP, create
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.timeout(120)

#: a 64 KiB JSON array of small numbers: tens of milliseconds to build in Python
ARRAY = b"[" + b"1," * (32 * 1024 - 2) + b"1]"


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server with the default limits but for new rooms (a few per minute)."""
    rates = dict(DEFAULTS)
    rates["rooms-per-address"] = Rate(3, 60)
    server = LiveServer(tmp_path_factory.mktemp("flood") / "f.db", rate_limits=RateLimits(rates))
    yield server.start()
    server.stop()


def test_a_flooding_socket_is_refused_unparsed_then_closed_while_others_play(
    limited: LiveServer,
) -> None:
    room = create(limited.url, game="piramides")

    async def run() -> tuple[list[dict[str, Any]], int | None, list[float]]:
        uri = f"{limited.ws_url}/ws/rooms/{room['room']}"
        answers: list[dict[str, Any]] = []
        pongs: list[float] = []
        async with (
            websockets.connect(uri, max_size=None) as flooder,
            websockets.connect(uri) as other,
        ):
            await other.recv()  # its snapshot
            await flooder.recv()

            async def flood() -> None:
                with contextlib.suppress(websockets.ConnectionClosed):
                    for _ in range(600):
                        await flooder.send(ARRAY.decode())

            async def read() -> None:
                with contextlib.suppress(websockets.ConnectionClosed):
                    while True:
                        answers.append(orjson.loads(await flooder.recv()))

            async def ping() -> None:
                for i in range(10):
                    began = time.monotonic()
                    await other.send(orjson.dumps({"type": "ping", "id": i}).decode())
                    reply = orjson.loads(await asyncio.wait_for(other.recv(), 10))
                    assert reply["type"] == "pong" and reply["reply_to"] == i
                    pongs.append(time.monotonic() - began)
                    await asyncio.sleep(0.05)

            reader = asyncio.create_task(read())
            await asyncio.gather(flood(), ping())
            await asyncio.wait_for(reader, 10)
            # the flooder's address may not come straight back (barred for 10 s)
            with pytest.raises(websockets.InvalidStatus) as refused:
                await websockets.connect(uri)
            assert refused.value.response.status_code == 403
            return answers, flooder.close_code, pongs

    answers, code, pongs = asyncio.run(run())
    assert len(pongs) == 10  # the other client was served throughout
    burst = DEFAULTS["messages-per-connection"].count
    codes = [a["error"]["code"] for a in answers]
    # each message within the burst was read and refused as too many values...
    assert codes[:burst] == ["bad-json"] * burst
    assert "values" in answers[0]["error"]["reason"]
    # ...then one answer per run of refusals (the bucket refills a little meanwhile),
    # unparsed, and the socket closed long before its 600 messages were answered
    assert "rate-limited" in codes[burst:]
    assert set(codes[burst:]) <= {"bad-json", "rate-limited"}
    assert code == 4429
    assert len(answers) < burst + REFUSED_BEFORE_CLOSE


def test_rest_requests_past_the_limit_are_refused_before_their_body_is_read(
    limited: LiveServer,
) -> None:
    statuses = []
    for _ in range(5):
        # from an address of its own (the server trusts loopback's forwarding header)
        r = HTTP.post(
            f"{limited.url}/api/rooms", content=ARRAY, headers={"X-Forwarded-For": "10.9.9.9"}
        )
        statuses.append(r.status_code)
    # three refused as bad JSON (counted first), then 429 without a look at the body
    assert statuses == [400, 400, 400, 429, 429]


def test_a_utf16_body_is_refused(live: LiveServer) -> None:
    body = '{"game": "piramides"}'.encode("utf-16")
    r = HTTP.post(f"{live.url}/api/rooms", content=body)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad-json"
    body = '{"game": "piramides"}'.encode("utf-16-le")  # no byte-order mark
    r = HTTP.post(f"{live.url}/api/rooms", content=body)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad-json"


# -- spectators that never read ------------------------------------------------------------


def _raw_websocket(port: int, path: str) -> socket.socket:
    """A WebSocket opened by hand on a 2 KiB receive buffer: it will never read again."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    s.settimeout(5)
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert b" 101 " in head, head
    return s


def _frame(text: str) -> bytes:
    """One masked text frame (a client must mask)."""
    payload = text.encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    assert len(payload) < 126
    return struct.pack("!BB", 0x81, 0x80 | len(payload)) + mask + masked


def _rss(pid: int) -> int:
    """The resident memory of process ``pid``, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_spectators_that_never_read_do_not_pin_memory(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = serve_command(port, f"sqlite:///{tmp_path}/m.db", options=("--rate-limit", "off"))
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sockets: list[socket.socket] = []
    try:
        assert wait_until_serving(url, timeout=60), "the server did not start"
        room = create(url, game="pyramido", players=2)  # the largest snapshot
        httpx.get(f"{url}/api/rooms/{room['room']}/state")
        before = _rss(server.pid)
        sync = _frame('{"type":"sync","version":999999}') * 2000  # a snapshot each
        for _ in range(64):  # the most WebSockets one address may open
            s = _raw_websocket(port, f"/ws/rooms/{room['room']}")
            s.setblocking(False)
            with contextlib.suppress(OSError):
                s.send(sync)
            sockets.append(s)
        peak = before
        for _ in range(20):
            time.sleep(0.5)
            peak = max(peak, _rss(server.pid))
        # dropped: the server closed them (end of stream or reset once read)
        dropped = 0
        for s in sockets:
            s.setblocking(True)
            s.settimeout(0.5)
            try:
                while s.recv(1 << 20):
                    pass
                dropped += 1
            except TimeoutError:
                pass
            except OSError:  # reset
                dropped += 1
        assert peak - before < 100 * 1024 * 1024, (before, peak)
        assert dropped == len(sockets)
        assert httpx.get(f"{url}/api/games").status_code == 200
        assert server.poll() is None
    finally:
        for s in sockets:
            s.close()
        server.terminate()
        server.wait(timeout=20)
