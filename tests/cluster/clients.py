"""Clients for the cluster tests: a WebSocket watcher that checks the order of what it gets."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import websockets


class Watcher:
    """A WebSocket connection that records every message and checks its versions.

    A snapshot may set any version (it replaces what the client had); an event
    must carry exactly the next version. Anything else (a gap, the same event
    twice, going back) is recorded in ``problems``. ``reconnect`` moves the
    watcher to another instance with ``since`` = the last version it holds, as
    a client whose instance died does.
    """

    def __init__(self, ws_base: str, room: str, token: str | None = None) -> None:
        self.room = room
        self.token = token
        self.version: int | None = None
        self.messages: list[dict[str, Any]] = []
        self.problems: list[str] = []
        self.events = 0
        self.snapshots = 0
        self._ws: Any = None
        self._task: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()
        self.ws_base = ws_base

    def _url(self, ws_base: str) -> str:
        query = []
        if self.token:
            query.append(f"token={self.token}")
        if self.version is not None:
            query.append(f"since={self.version}")
        return f"{ws_base}/ws/rooms/{self.room}?{'&'.join(query)}"

    async def connect(self, ws_base: str | None = None) -> None:
        """Open (or reopen, elsewhere) the connection and start reading."""
        await self.close()
        if ws_base is not None:
            self.ws_base = ws_base
        self._ws = await websockets.connect(self._url(self.ws_base), max_size=None)
        self._task = asyncio.create_task(self._read(self._ws))

    async def _read(self, ws: Any) -> None:
        with contextlib.suppress(websockets.ConnectionClosed, OSError):
            async for raw in ws:
                msg = json.loads(raw)
                self.messages.append(msg)
                self._take(msg)
                self._changed.set()

    def _take(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "snapshot":
            self.snapshots += 1
            if self.version is not None and msg["version"] < self.version:
                self.problems.append(f"snapshot went back from {self.version} to {msg['version']}")
            self.version = msg["version"]
        elif kind == "event":
            self.events += 1
            if self.version is None or msg["version"] != self.version + 1:
                self.problems.append(f"event {msg['version']} after version {self.version}")
            self.version = msg["version"]
        elif kind == "error" and "snapshot" in msg:
            snap = msg["snapshot"]
            if self.version is not None and snap["version"] < self.version:
                self.problems.append(f"error snapshot went back to {snap['version']}")
            self.version = max(self.version or 0, snap["version"])

    @property
    def last(self) -> dict[str, Any] | None:
        """The last snapshot or event (what the client shows now)."""
        for msg in reversed(self.messages):
            if msg.get("type") in ("snapshot", "event"):
                return msg
        return None

    async def send(self, obj: dict[str, Any]) -> None:
        await self._ws.send(json.dumps(obj))

    async def wait_version(self, version: int, timeout: float = 15.0) -> None:
        """Wait until the watcher holds ``version`` (or more)."""
        deadline = time.monotonic() + timeout
        while self.version is None or self.version < version:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    f"watcher of {self.room} stuck at {self.version}, waiting for {version}"
                )
            self._changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(left, 0.5))

    async def wait_for(self, pred: Any, timeout: float = 15.0) -> dict[str, Any]:
        """Wait for a message (received from now on, or already) satisfying ``pred``."""
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for msg in self.messages[seen:]:
                if pred(msg):
                    return msg
            seen = len(self.messages)
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such message in {self.room}")
            self._changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(left, 0.5))

    async def close(self) -> None:
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._task is not None:
            with contextlib.suppress(BaseException):
                await self._task
        self._ws = None
        self._task = None
