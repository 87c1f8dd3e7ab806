"""Keeping the rooms cached here in step with the database and with the other instances.

In a cluster every committed event is published on the broker; the other
instances advance the rooms they cache by it (:meth:`ClusterSync.on_message`).
When in doubt (a gap in the messages, a broker that was away, a lost race at
a version, a client that has seen more than this instance), a room catches up
from the database, the truth (:meth:`ClusterSync.catch_up_locked`). A single
server uses only the catch-up, after a lost race on its own database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from pyramids.engine.errors import PyramidsError
from pyramids.server.cache import RoomCache
from pyramids.server.chat import Chat
from pyramids.server.protocol import ProtocolError
from pyramids.server.room import Room
from pyramids.server.storage import EventRow, Store

log = logging.getLogger("pyramids.server")


class ClusterSync:
    """Applies other instances' news to the rooms cached here; repairs caches in doubt.

    ``kick_bots`` is told after a room advanced (one of its bots may be to
    move); ``resume_all`` puts every game with a bot to move back in the
    broker's set of bots due (after a broker restart).
    """

    def __init__(
        self,
        store: Store,
        cache: RoomCache,
        chat: Chat,
        kick_bots: Callable[[Room], None],
        resume_all: Callable[[], Coroutine[Any, Any, int]],
    ) -> None:
        self.store = store
        self.cache = cache
        self.chat = chat
        self.kick_bots = kick_bots
        self.resume_all = resume_all
        #: where another instance's word on presence goes (:mod:`.presence`)
        self.on_presence: Callable[[Room, dict[str, Any]], None] | None = None
        self.closing = False
        #: background tasks (listener work, audit, sweep); the loop keeps only weak references
        self.tasks: set[asyncio.Task[Any]] = set()
        #: events this instance learnt from the broker (the fast path)
        self.heard = 0
        #: events this instance learnt from the database rather than from the broker
        self.repaired = 0

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in the background, kept until it ends (failures are logged)."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("cluster work failed", exc_info=task.exception())

    def on_message(self, msg: dict[str, Any]) -> None:
        """Another instance's news: advance the room if it is cached here (else nothing)."""
        room_id = msg.get("r")
        if self.closing or not isinstance(room_id, str):
            return
        room = self.cache.cached(room_id)
        if room is not None:
            self.spawn(self._remote(room, msg))
        elif room_id in self.cache.loading:  # read before this event was committed, perhaps
            self.spawn(self._after_load(room_id, msg))

    def on_resync(self, first: bool) -> None:
        """The subscription is (again) up: whatever was published meanwhile may be lost."""
        for room in list(self.cache.rooms.values()):
            self.spawn(self.refresh(room))
        if not first:  # a restarted broker may have lost its set of bots due
            self.spawn(self.resume_all())

    async def _after_load(self, room_id: str, msg: dict[str, Any]) -> None:
        with contextlib.suppress(ProtocolError):
            await self._remote(await self.cache.get(room_id), msg)

    async def _remote(self, room: Room, msg: dict[str, Any]) -> None:
        kind = msg.get("t")
        if kind == "event":
            version, seat = msg.get("v"), msg.get("s")
            if not isinstance(version, int) or (seat is not None and not isinstance(seat, int)):
                return
            if version <= room.version:
                return  # this instance's own event, or one a catch-up brought already
            async with room.lock:
                if version == room.version + 1:
                    ev = EventRow(version, str(msg.get("k")), seat, str(msg.get("d")))
                    if self._apply(room, ev):
                        self.heard += 1
                    else:
                        await self._reload_locked(room)
                elif version > room.version:  # a gap: the database has what is missing
                    await self.catch_up_locked(room)
            self.kick_bots(room)
        elif kind == "chat":
            await self.chat.remote(room, msg)
        elif kind == "presence" and self.on_presence is not None:
            self.on_presence(room, msg)
        elif kind == "rematch" and isinstance(msg.get("n"), str):
            for conn in list(room.conns):
                conn.send({"type": "rematch", "room": msg["n"]})

    def _apply(self, room: Room, ev: EventRow) -> bool:
        """Advance the cached room by an event committed elsewhere, and tell its clients.

        ``False`` if the event does not fit the cache (it is then rebuilt).
        """
        try:
            change = room.logged(ev)
            if change is not None:
                room.accept(change, ev.version)
                return True
        except PyramidsError as e:
            log.warning("event %s of game %s does not fit the cache: %s", ev.version, room.id, e)
        return False

    async def catch_up_locked(self, room: Room) -> None:
        """Apply, in order, the events stored after the cached version (under the room's lock).

        How every doubt about a cache ends: a gap in the broker's messages, a
        broker that was away, a lost race at a version, a client that has
        seen more than this instance. Each event reaches the clients as usual,
        so none of them sees a gap or an event twice.
        """
        try:
            events = await asyncio.to_thread(self.store.events_after, room.id, room.version)
        except SQLAlchemyError as e:
            log.warning("cannot catch game %s up: %s", room.id, type(e).__name__)
            return
        for ev in events:
            if ev.version != room.version + 1 or not self._apply(room, ev):
                await self._reload_locked(room)
                return
            self.repaired += 1

    async def _reload_locked(self, room: Room) -> None:
        """Rebuild the room from the database and send every client a fresh snapshot."""
        row = await asyncio.to_thread(self.store.load_room, room.id)
        if row is None:
            return
        room.reload(row)
        room.agents.clear()  # they observed another history
        for conn in list(room.conns):
            conn.send(room.snapshot(conn.seat))

    async def refresh(self, room: Room) -> None:
        """Catch a cached room up with the database, then let its bots play if it is their turn."""
        async with room.lock:
            await self.catch_up_locked(room)
        self.kick_bots(room)

    async def close(self) -> None:
        """Stop the background work."""
        self.closing = True
        background = list(self.tasks)
        for t in background:
            t.cancel()
        for t in background:
            with contextlib.suppress(BaseException):
                await t
