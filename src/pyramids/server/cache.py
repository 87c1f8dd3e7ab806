"""The rooms this process holds in memory: loading them once, and letting idle ones go.

The database is the truth, so a room can leave memory whenever nobody is
using it, and the next visitor rebuilds it from its log. Two ways out:

* at once, when its last WebSocket closes or its bots stop in a cluster
  (:meth:`RoomCache.evict_if_idle`);
* after :attr:`RoomCache.idle_seconds` untouched, for the rooms nobody holds a
  connection to: those read or played only over REST, finished bot games.
  Without that, every room ever read would stay in memory until a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from pyramids.server.protocol import ProtocolError
from pyramids.server.room import Room
from pyramids.server.storage import Store

log = logging.getLogger("pyramids.server")

#: a room nobody is connected to leaves memory after this many seconds untouched
IDLE_SECONDS = 120.0


class RoomCache:
    """Rooms by id, each loaded once however many ask at the same moment.

    ``on_load`` is told of every room read from the database (its bots start
    there, if one is to move).
    """

    def __init__(
        self,
        store: Store,
        on_load: Callable[[Room], None],
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        self.store = store
        self.on_load = on_load
        self.rooms: dict[str, Room] = {}
        #: rooms being read (a second reader waits for the first)
        self.loading: dict[str, asyncio.Future[Room | None]] = {}
        #: how long a room without connections stays after its last use
        self.idle_seconds = idle_seconds
        #: when each cached room was last asked for (``time.monotonic``)
        self._used: dict[str, float] = {}
        self._sweeper: asyncio.Task[None] | None = None

    def cached(self, room_id: str) -> Room | None:
        """The room if it is in memory (nothing is loaded)."""
        return self.rooms.get(room_id)

    def holds(self, room: Room) -> bool:
        """Whether ``room`` is the object this cache holds for its id (not an evicted copy)."""
        return self.rooms.get(room.id) is room

    def put(self, room: Room) -> None:
        """Keep a room just made (created, not loaded)."""
        self.rooms[room.id] = room
        self._touch(room.id)

    async def get(self, room_id: str) -> Room:
        """The room ``room_id``, read from the database on first use; ``unknown-room`` if none."""
        room = self.rooms.get(room_id)
        if room is not None:
            self._touch(room_id)
            return room
        if not isinstance(room_id, str) or not 0 < len(room_id) <= 32:
            raise ProtocolError("unknown-room", "there is no game {room}", room=repr(room_id))
        pending = self.loading.get(room_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self.loading[room_id] = pending
            try:
                loaded = await asyncio.to_thread(self._load, room_id)
                if loaded is not None:
                    self.put(loaded)
                pending.set_result(loaded)
            except Exception as e:  # a broken row must not leave waiters hanging
                pending.set_exception(e)
                raise
            finally:
                del self.loading[room_id]
            if loaded is not None:
                self.on_load(loaded)
        result = await asyncio.shield(pending)
        if result is None:
            raise ProtocolError("unknown-room", "there is no game {room}", room=repr(room_id))
        return result

    def _load(self, room_id: str) -> Room | None:
        """Read and rebuild a room (in a worker thread: long games take a while to replay)."""
        row = self.store.load_room(room_id)
        return Room(row) if row is not None else None

    def _touch(self, room_id: str) -> None:
        self._used[room_id] = time.monotonic()
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_idle())

    @staticmethod
    def idle(room: Room) -> bool:
        """No connection, no bot at work, no move in progress."""
        busy = room.bot_task is not None and not room.bot_task.done()
        return not room.conns and not busy and not room.lock.locked()

    def evict_if_idle(self, room: Room) -> None:
        """Drop ``room`` from memory now if it is idle (its last connection just closed)."""
        if self.idle(room) and self.holds(room):
            del self.rooms[room.id]
            self._used.pop(room.id, None)

    def evict_untouched(self, now: float | None = None) -> int:
        """Drop the idle rooms nobody asked for in :attr:`idle_seconds`; returns how many."""
        now = time.monotonic() if now is None else now
        gone = 0
        for room_id, room in list(self.rooms.items()):
            if now - self._used.get(room_id, now) >= self.idle_seconds and self.idle(room):
                del self.rooms[room_id]
                self._used.pop(room_id, None)
                gone += 1
        return gone

    async def _sweep_idle(self) -> None:
        """Now and then, let go of untouched rooms; ends when the cache is empty."""
        while self.rooms:
            await asyncio.sleep(max(self.idle_seconds / 4, 0.01))
            try:
                self.evict_untouched()
            except Exception:  # the sweep must not die and let memory grow again
                log.exception("cannot let idle games go")

    async def close(self) -> None:
        """Stop the idle sweep."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(BaseException):
                await self._sweeper
