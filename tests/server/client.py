"""Small clients for the server tests: REST calls and WebSocket sessions on loopback."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import websockets

from pyramids.engine.registry import get_game

#: one client for every test: an httpx client per request costs ~0.15 s (TLS set-up),
#: and loopback needs no certificate checks
HTTP = httpx.Client(timeout=30, verify=False)


def create(base: str, **spec: Any) -> dict[str, Any]:
    """POST /api/rooms and return the created room (with seat tokens).

    Tests deal known seeds to compare the server with a local copy of the game:
    a room for several seats with a chosen seed is a practice room (the server
    refuses the seed otherwise), unless the spec says ``practice`` itself.
    """
    seats = spec.get("seats")
    if isinstance(seats, list):
        count = len(seats)
    else:
        count = spec.get("players") or get_game(spec["game"]).min_players
    if "seed" in spec and "practice" not in spec and count > 1:
        spec["practice"] = True
    r = HTTP.post(f"{base}/api/rooms", json=spec)
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def state(base: str, room: str, token: str | None = None) -> dict[str, Any]:
    """A seat's snapshot over REST."""
    params = {"token": token} if token else {}
    r = HTTP.get(f"{base}/api/rooms/{room}/state", params=params)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def move(base: str, room: str, token: str | None, text: str, version: int) -> httpx.Response:
    """POST a move; the caller checks the status."""
    return HTTP.post(
        f"{base}/api/rooms/{room}/moves",
        json={"token": token, "move": text, "version": version},
        timeout=10,
    )


def wait_over(base: str, room: str, timeout: float = 60) -> dict[str, Any]:
    """Poll the room's summary until its game is over."""
    deadline = time.monotonic() + timeout
    while True:
        s: dict[str, Any] = HTTP.get(f"{base}/api/rooms/{room}").json()
        if s["over"]:
            return s
        assert time.monotonic() < deadline, f"game {room} did not finish: {s}"
        time.sleep(0.05)


class Session:
    """An async WebSocket connection to a room that collects every message it receives."""

    def __init__(self, ws_base: str, room: str, token: str | None, since: int | None = None):
        q = []
        if token:
            q.append(f"token={token}")
        if since is not None:
            q.append(f"since={since}")
        self.url = f"{ws_base}/ws/rooms/{room}?{'&'.join(q)}"
        self.received: list[dict[str, Any]] = []
        self.ws: Any = None

    async def __aenter__(self) -> Session:
        self.ws = await websockets.connect(self.url, max_size=None)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.ws.close()

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.received.append(msg)
        return msg

    async def send(self, obj: Any) -> None:
        await self.ws.send(obj if isinstance(obj, str) else json.dumps(obj))

    async def until(self, pred: Any, timeout: float = 10) -> dict[str, Any]:
        """Receive until a message satisfies ``pred``; return it."""
        deadline = time.monotonic() + timeout
        while True:
            msg = await self.recv(max(0.01, deadline - time.monotonic()))
            if pred(msg):
                return msg


async def play_first_legal_moves(
    s: Session, game_id: str, seed: int, count: int, **variant: Any
) -> dict[str, Any]:
    """Play the first legal move ``count`` times over ``s`` (a seat-0 session, its snapshot
    not yet read), checking each acknowledgement against an engine mirror of the deal:
    versions in order, ``reply_to`` echoed, the event as played, the view the mirror's.
    Returns the last event.
    """
    from pyramids.engine.registry import new_game

    snap = await s.recv()
    assert snap["type"] == "snapshot" and snap["version"] == 0
    assert snap["deal"] == seed
    expected = new_game(game_id, seed=seed, **variant)
    for k in range(1, count + 1):
        text = snap["legal"][0]
        await s.send({"type": "move", "move": text, "version": k - 1, "id": k})
        snap = await s.until(lambda m: m["type"] == "event")
        assert snap["version"] == k and snap["reply_to"] == k
        assert snap["event"] == {"kind": "move", "seat": 0, "move": text}
        expected.play(expected.parse_move(text))
        assert snap["view"] == expected.view(0)
    return snap
