"""Presence: whether each seat's player has the game open (online), hidden (away) or not (offline).

A seat is online while one of its connections says so, away while its
connections are all on hidden pages, offline without any. A client that has
sent a ``presence`` message (``{"type": "presence", "state": "online"}``, as
the web app does on connecting) is sent ``{"type": "presence", "seats": [...]}``
at once and whenever that changes; a client that never does is never sent
one, so the protocol is unchanged for it.

Across a cluster each instance publishes its own connections' presence per
room on the broker (``{"t": "presence", "r": room, "p": [...]}``) when it
changes and again every :data:`REFRESH` seconds; an instance's word older
than :data:`STALE` seconds is forgotten, so the seats of an instance that died
go offline by themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING, Any

from pyramids.server.room import Connection, Room

if TYPE_CHECKING:
    from pyramids.cluster.broker import Broker

ONLINE = "online"
AWAY = "away"
OFFLINE = "offline"
_RANK = {OFFLINE: 0, AWAY: 1, ONLINE: 2}
#: how often an instance repeats its word on the rooms it serves (seconds)
REFRESH = 5.0
#: how long another instance's word holds without being repeated (seconds)
STALE = 3 * REFRESH


def _best(a: str, b: str) -> str:
    return a if _RANK[a] >= _RANK[b] else b


class Presence:
    """The presence of every seat of the rooms this instance serves (and what others say)."""

    def __init__(self, broker: Broker | None) -> None:
        self.broker = broker
        #: room id -> this instance's seated connections and their state
        self.local: dict[str, dict[Connection, str]] = {}
        #: room id -> instance -> (its seats' states, when it said so: monotonic seconds)
        self.remote: dict[str, dict[str, tuple[list[str], float]]] = {}
        #: room id -> the states last sent to the room's clients
        self.shown: dict[str, list[str]] = {}
        #: the rooms by id (for the refresh loop)
        self.rooms: dict[str, Room] = {}
        self.task: asyncio.Task[None] | None = None

    def local_states(self, room: Room) -> list[str]:
        """The seats' states by this instance's connections only."""
        states = [OFFLINE] * room.players
        for conn, state in self.local.get(room.id, {}).items():
            if conn.seat is not None:
                states[conn.seat] = _best(states[conn.seat], state)
        return states

    def states(self, room: Room) -> list[str]:
        """The seats' states, this instance's and the others' still fresh words together."""
        states = self.local_states(room)
        now = time.monotonic()
        for said, at in self.remote.get(room.id, {}).values():
            if now - at < STALE:
                states = [_best(a, b) for a, b in zip(states, said, strict=True)]
        return states

    def message(self, room: Room) -> dict[str, Any]:
        """The message that tells a client the seats' presence."""
        return {"type": "presence", "seats": self.states(room)}

    def join(self, room: Room, conn: Connection) -> None:
        """A connection opened: its seat is online."""
        self.rooms[room.id] = room
        if conn.seat is not None:
            self.local.setdefault(room.id, {})[conn] = ONLINE
            self._changed(room, publish=True)

    def set(self, room: Room, conn: Connection, state: str) -> None:
        """A client's page was hidden (``away``) or shown (``online``); it is told every seat's."""
        conns = self.local.get(room.id)
        if conn.seat is not None and conns is not None and conn in conns:
            conns[conn] = state
            self._changed(room, publish=True)
        if not conn.wants_presence:
            conn.wants_presence = True
            conn.send(self.message(room))

    def leave(self, room: Room, conn: Connection) -> None:
        """A connection closed."""
        conns = self.local.get(room.id)
        if conns is not None and conns.pop(conn, None) is not None:
            self._changed(room, publish=True)
            if not conns:
                del self.local[room.id]
        if room.id not in self.local and not room.conns:
            self.rooms.pop(room.id, None)
            self.shown.pop(room.id, None)

    def remote_news(self, room: Room, msg: dict[str, Any]) -> None:
        """Another instance's word on a room cached here."""
        instance, said = msg.get("i"), msg.get("p")
        if not isinstance(instance, str) or not isinstance(said, list):
            return
        if len(said) != room.players or any(s not in _RANK for s in said):
            return
        self.remote.setdefault(room.id, {})[instance] = ([str(s) for s in said], time.monotonic())
        self._changed(room, publish=False)

    def _changed(self, room: Room, publish: bool) -> None:
        states = self.states(room)
        if not room.conns and room.id not in self.local:
            self.shown.pop(room.id, None)  # nobody here to tell
        elif self.shown.get(room.id) != states:
            self.shown[room.id] = states
            msg = {"type": "presence", "seats": states}
            for conn in list(room.conns):
                if conn.wants_presence:
                    conn.send(msg)
        if publish and self.broker is not None:
            self.broker.publish({"t": "presence", "r": room.id, "p": self.local_states(room)})

    def start(self) -> None:
        """In a cluster: repeat this instance's word, and forget the stale words of others."""
        if self.broker is not None and self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._loop())

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(REFRESH)
            now = time.monotonic()
            for room_id, words in list(self.remote.items()):
                for instance, (_, at) in list(words.items()):
                    if now - at >= STALE:
                        del words[instance]
                if not words:
                    del self.remote[room_id]
            for room in list(self.rooms.values()):
                self._changed(room, publish=room.id in self.local)

    async def close(self) -> None:
        """Stop the loop."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):  # cancelled: stopped
                await self.task
