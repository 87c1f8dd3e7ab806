"""A cluster instance's two loops: the audit of its cached rooms and the sweep for bots due.

Why loops, with a broker that carries every event: an instance can die
between committing an event and publishing it, a broker can drop a message
without anyone noticing, and an instance can die while its bots hold a
lease. The audit bounds how long a cache can stay behind; the sweep hands the
bots of a dead instance to a living one (see ``docs/deploy.md``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from sqlalchemy.exc import SQLAlchemyError

from pyramids.server.cache import RoomCache
from pyramids.server.protocol import ProtocolError
from pyramids.server.storage import Store
from pyramids.server.sync import ClusterSync

if TYPE_CHECKING:
    from pyramids.cluster.broker import Broker

log = logging.getLogger("pyramids.server")


class Upkeep:
    """The audit and the sweep of one cluster instance (started by :meth:`start`)."""

    def __init__(
        self,
        store: Store,
        broker: Broker,
        cache: RoomCache,
        sync: ClusterSync,
        audit_seconds: float,
        sweep_seconds: float,
    ) -> None:
        self.store = store
        self.broker = broker
        self.cache = cache
        self.sync = sync
        #: how often the cached rooms' versions are compared with the database's
        self.audit_seconds = audit_seconds
        #: whether the audit runs (off: cached rooms learn only through the broker and
        #: the catch-ups a client or a gap asks for; a test of the broker's fan-out)
        self.auditing = True
        #: how often the broker's set of bots due is looked at
        self.sweep_seconds = sweep_seconds

    def start(self) -> None:
        """Start both loops (they end when the instance closes)."""
        self.sync.spawn(self._audit_loop())
        self.sync.spawn(self._sweep_loop())

    async def _audit_loop(self) -> None:
        """Now and then, compare every cached room's version with the database's.

        Why, with the broker: an instance can die between committing an event
        and publishing it, and a broker can drop a message without anyone
        noticing; this bounds how long a cache can stay behind (``audit_seconds``).
        """
        while True:
            await asyncio.sleep(self.audit_seconds)
            rooms = list(self.cache.rooms.values())
            if not rooms or not self.auditing:
                continue
            try:
                stored = await asyncio.to_thread(self.store.latest_versions, [r.id for r in rooms])
            except SQLAlchemyError as e:
                log.warning("cannot audit the cached games: %s", type(e).__name__)
                continue
            for room in rooms:
                if stored.get(room.id, 0) > room.version:
                    self.sync.spawn(self.sync.refresh(room))

    async def _sweep_loop(self) -> None:
        """Take over bots whose instance stopped renewing their lease (it died, say)."""
        while True:
            await asyncio.sleep(self.sweep_seconds)
            for room_id, _ in await self.broker.due():
                try:
                    await self._take_over(room_id)
                except Exception:  # one broken room must not stop the sweep
                    log.exception("cannot take over the bots of game %s", room_id)

    async def _take_over(self, room_id: str) -> None:
        broker = self.broker
        room = self.cache.cached(room_id)
        if room is not None:
            await self.sync.refresh(room)  # starts its bots if one is to move
            if room.bot_to_move() is None:
                got = await broker.claim(room_id)
                if got:  # a stale entry (a bot turn registered, never played)
                    await broker.release(room_id, got, done=True)
            return
        got = await broker.claim(room_id)
        if not got:
            return  # another instance has it
        try:
            room = await self.cache.get(room_id)  # loads it and starts its bots, under our lease
        except ProtocolError:  # no such game
            await broker.release(room_id, got, done=True)
            return
        if room.bot_to_move() is None:
            await broker.release(room_id, got, done=True)
            self.cache.evict_if_idle(room)
