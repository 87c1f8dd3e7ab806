"""Fuzzing a real ``pyramids serve`` on loopback, bounded to a few seconds each.

* **schemathesis** (the dev extra) reads ``/openapi.json`` and sends what the schema
  allows and what it does not; every answer must conform to the schema (status,
  content type, headers, body) and none may be a 5xx.
* **Hypothesis** sends hostile bodies, query strings and WebSocket frames to rooms
  that exist, and checks after each one: no 5xx, every error in the documented
  format, the WebSocket still open and answering, and the room exactly as it was
  whenever the input was refused.

The server runs with ``--rate-limit off``: the fuzzers send far faster than
people, and the limits have their own tests (``test_security.py``).
"""

from __future__ import annotations

import contextlib
import importlib.util
import itertools
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramids.server.launch import free_port, serve_command, wait_until_serving
from pyramids.server.protocol import ERROR_STATUS

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]

HTTP = httpx.Client(timeout=10)


class Server:
    """``python -m pyramids serve`` in a subprocess, with a few rooms to aim at."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        command = serve_command(
            self.port, f"sqlite:///{tmp}/fuzz.db", options=("--rate-limit", "off")
        )
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        assert wait_until_serving(self.url, timeout=60), "the server did not start"
        self.rooms = [
            HTTP.post(f"{self.url}/api/rooms", json=spec).json()
            for spec in (
                {"game": "piramides", "seed": 11},
                {"game": "pyramideto", "players": 2},
                {"game": "pyramido-treasure", "players": 2},
            )
        ]

    def stop(self) -> str:
        self.proc.terminate()
        _, err = self.proc.communicate(timeout=20)
        return err.decode(errors="replace")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("fuzz"))
    yield s
    log = s.stop()
    assert "Traceback" not in log, log[-3000:]


def _truth(server: Server, room: dict[str, Any]) -> tuple[int, Any]:
    """The room's version and every seat's view (what must not change on a refusal)."""
    views = []
    for seat in room["seats"]:
        r = HTTP.get(
            f"{server.url}/api/rooms/{room['room']}/state", params={"token": seat["token"]}
        )
        views.append(r.json()["view"])
    return r.json()["version"], views


def _documented_error(r: httpx.Response) -> None:
    assert r.status_code < 500, (r.status_code, r.text[:500])
    if r.status_code >= 400:
        err = r.json()["error"]
        assert err["code"] in ERROR_STATUS and ERROR_STATUS[err["code"]] == r.status_code, err
        assert isinstance(err["reason"], str) and isinstance(err["params"], dict)


# -- schemathesis -------------------------------------------------------------------------


@pytest.mark.skipif(
    importlib.util.find_spec("schemathesis") is None,
    reason="schemathesis is in the dev extra: pip install -e '.[dev]'",
)
def test_schemathesis_finds_no_conformance_failure_and_no_server_error(server: Server) -> None:
    """Every check but ``positive_data_acceptance``, which expects any schema-valid body
    to succeed: a room's variant options depend on its game (listed by GET /api/games,
    not expressible per game in one schema), so a valid-looking variant may be refused."""
    cli = shutil.which("schemathesis", path=str(Path(sys.executable).parent))
    command = (
        [cli]
        if cli
        else [sys.executable, "-c", "from schemathesis.cli import schemathesis; schemathesis()"]
    )
    result = subprocess.run(
        [
            *command,
            "run",
            f"{server.url}/openapi.json",
            "--checks",
            "all",
            "--exclude-checks",
            "positive_data_acceptance",
            "--max-examples",
            "25",
            "--seed",
            "17",
            "--generation-database",
            "none",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=100,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]


# -- Hypothesis against rooms that exist --------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
TEXTS = st.text(max_size=30) | st.sampled_from(
    ["draw", "joker", "A1", "G7", "", "\u0000", "é" * 70]
)
VERSIONS = st.integers() | st.sampled_from([-1, 2**53, 2**64]) | JSON


@st.composite
def move_bodies(draw: Any, tokens: list[str]) -> Any:
    """A move body, usually almost right: one field wrong, missing, or of another type."""
    body: dict[str, Any] = {
        "token": draw(st.sampled_from([*tokens, "x" * 24, None, ""]) | JSON),
        "move": draw(TEXTS | JSON),
        "version": draw(VERSIONS),
    }
    for key in draw(st.lists(st.sampled_from(["token", "move", "version"]), max_size=2)):
        body.pop(key, None)
    extra = draw(st.dictionaries(st.text(max_size=6), JSON, max_size=2))
    return draw(st.just(body | extra) | JSON)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_rest_fuzzing_finds_no_server_error_and_refusals_change_nothing(
    server: Server, data: st.DataObject
) -> None:
    room = data.draw(st.sampled_from(server.rooms))
    rid = room["room"]
    tokens = [s["token"] for s in room["seats"]]
    before = _truth(server, room)
    which = data.draw(
        st.sampled_from(["moves", "undo", "rematch", "state", "hint", "replay", "raw"])
    )
    if which in ("moves", "undo", "rematch"):
        body = json.dumps(data.draw(move_bodies(tokens)))  # NaN and Infinity too: not JSON
        r = HTTP.post(f"{server.url}/api/rooms/{rid}/{which}", content=body)
    elif which == "raw":
        raw = data.draw(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
        r = HTTP.post(f"{server.url}/api/rooms/{rid}/moves", content=raw)
    else:
        params = data.draw(
            st.dictionaries(
                st.sampled_from(["token", "seat", "ply", "lang", "since"]),
                st.text(max_size=12) | st.integers().map(str),
                max_size=3,
            )
        )
        r = HTTP.get(f"{server.url}/api/rooms/{rid}/{which}", params=params)
    _documented_error(r)
    if r.status_code >= 400 or which in ("state", "hint", "replay"):
        assert _truth(server, room) == before


FRAMES = (
    JSON.map(json.dumps)
    | st.text(max_size=60)
    | st.binary(max_size=60)
    | st.builds(
        lambda kind, fields: json.dumps({"type": kind, **fields}),
        st.sampled_from(["move", "undo", "sync", "chat", "ping", "dance"]) | JSON,
        st.dictionaries(
            st.sampled_from(["move", "version", "text", "id"]), TEXTS | VERSIONS, max_size=3
        ),
    )
)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_websocket_fuzzing_always_answers_and_never_closes(
    server: Server, data: st.DataObject, sockets: dict[str, Any]
) -> None:
    room = data.draw(st.sampled_from(server.rooms))
    seat = data.draw(st.sampled_from([None, *range(len(room["seats"]))]))
    ws = sockets[f"{room['room']}/{seat}"]
    _answers(ws)  # what other examples sent this socket (their moves' events): not ours
    before = _truth(server, room)
    frame = data.draw(FRAMES)
    ws.send(frame)
    replies = _answers(ws)
    assert replies, f"no answer to {frame!r}"
    errors = [m for m in replies if m["type"] == "error"]
    for m in errors:
        assert m["error"]["code"] in ERROR_STATUS, m
        assert isinstance(m["error"]["reason"], str)
    if errors and not any(m["type"] == "event" for m in replies):
        assert _truth(server, room) == before


#: the test's own pings: each id is used once, and no frame can carry it (FRAMES draws
#: no text longer than 30 characters that the server echoes). Why: a frame that is itself
#: a ping with the probe's id would end the wait at its own pong, and the probe's pong,
#: left unread, would pass for the answer to a later example's frame.
PROBES = (f"fuzz-probe-{n:040d}" for n in itertools.count())


def _answers(ws: Any) -> list[dict[str, Any]]:
    """Every message the socket receives before the pong to a fresh probe ping."""
    probe = next(PROBES)
    ws.send(json.dumps({"type": "ping", "id": probe}))
    got = []
    while True:
        msg = json.loads(ws.recv(timeout=10))  # a closed socket raises here: a failure
        if msg["type"] == "pong" and msg.get("reply_to") == probe:
            return got
        got.append(msg)


@pytest.fixture(scope="module")
def sockets(server: Server) -> Iterator[dict[str, Any]]:
    """One WebSocket per room and seat (and spectator), open for the whole fuzzing run."""
    from websockets.sync.client import connect

    out: dict[str, Any] = {}
    with contextlib.ExitStack() as stack:
        for room in server.rooms:
            for seat in [None, *range(len(room["seats"]))]:
                query = "" if seat is None else f"?token={room['seats'][seat]['token']}"
                uri = f"{server.ws_url}/ws/rooms/{room['room']}{query}"
                ws = stack.enter_context(connect(uri, max_size=None))
                ws.recv(timeout=10)  # the snapshot
                out[f"{room['room']}/{seat}"] = ws
        yield out
