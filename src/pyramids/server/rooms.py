"""Rooms: the server's live games, behind one front, :class:`RoomManager`.

The routes talk to :class:`RoomManager` only; it holds one part per concern
and passes each request to its part:

==========================  ================================================
:mod:`.room`                one room: cached game, log, connections, messages
:mod:`.cache`               the rooms in memory: loaded once, idle ones let go
:mod:`.creation`            new rooms and rematches (the seed and commitment)
:mod:`.commits`             moves and undos: check, commit, apply, broadcast
:mod:`.chat`                chat lines, local and across a cluster
:mod:`.bot_play`            the bots' task per room (and their lease in a cluster)
:mod:`.sync`                a cluster's broker news and catch-ups from the database
:mod:`.upkeep`              a cluster's audit and sweep loops
==========================  ================================================

The database is the truth; each part keeps only what it can rebuild from it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from pyramids.server.bot_play import BotPlay
from pyramids.server.cache import RoomCache
from pyramids.server.chat import CHAT_MAX_LENGTH, Chat, chat_history, chat_message
from pyramids.server.clocks import ClockSweep
from pyramids.server.commits import Commits
from pyramids.server.creation import Creation, rematch_id
from pyramids.server.inputs import NewRoom
from pyramids.server.presence import Presence
from pyramids.server.room import (
    HISTORY,
    OUTBOX_LIMIT,
    Change,
    Connection,
    Past,
    Room,
    dumps,
    hash_token,
    rebuild,
)
from pyramids.server.storage import Store
from pyramids.server.sync import ClusterSync
from pyramids.server.upkeep import Upkeep

if TYPE_CHECKING:
    from pyramids.cluster.broker import Broker

__all__ = [
    "CHAT_MAX_LENGTH",
    "HISTORY",
    "OUTBOX_LIMIT",
    "Change",
    "Connection",
    "Past",
    "Room",
    "RoomManager",
    "chat_history",
    "chat_message",
    "dumps",
    "hash_token",
    "rebuild",
    "rematch_id",
]

log = logging.getLogger("pyramids.server")


class RoomManager:
    """Every room of the server: loading, creating, moves, undo, chat, bots.

    With a ``broker`` (:class:`pyramids.cluster.broker.Broker`) this is one
    instance of a cluster sharing the database with others: every committed
    event is published for them, theirs advance the rooms cached here, a lost
    race at a version answers ``stale-version``, bots move under a lease, and
    the cache catches up from the database whenever it may be behind (see
    ``docs/deploy.md``). Without one, nothing of that runs: a single server
    behaves exactly as it always has.
    """

    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.4,
        executor: Executor | None = None,
        broker: Broker | None = None,
        audit_seconds: float = 2.0,
        sweep_seconds: float = 0.5,
        clock_seconds: float = 0.5,
    ):
        self.store = store
        self.broker = broker
        self.executor = executor or ThreadPoolExecutor(max_workers=4, thread_name_prefix="bot")
        # the parts, each given what it calls of the others (bots are started late-bound:
        # the cache, the commits and the sync start them, and the bots commit through them)
        self.cache = RoomCache(store, on_load=self.kick_bots)
        self.chats = Chat(store, broker)
        self.sync = ClusterSync(store, self.cache, self.chats, self.kick_bots, self.resume_all)
        #: who has each seat's game open (online, away, offline), across the cluster
        self.presence = Presence(broker)
        self.sync.on_presence = self.presence.remote_news
        self.commits = Commits(store, broker, self.sync.catch_up_locked, self.kick_bots)
        self.bots = BotPlay(
            self.cache,
            self.commits.submit_bot_move,
            self.sync.catch_up_locked,
            self.executor,
            broker,
            bot_delay,
        )
        self.creation = Creation(store, self.cache, broker, self.kick_bots)
        self.upkeep = (
            Upkeep(store, broker, self.cache, self.sync, audit_seconds, sweep_seconds)
            if broker is not None
            else None
        )
        self._audit_seconds = audit_seconds
        #: ends the turns whose clock ran out, found in the database (every instance looks)
        self.clocks = ClockSweep(store.clocks_due, self.expire, clock_seconds)

    # -- knobs and counters (read by the tests and the operators) ---------------------

    @property
    def rooms(self) -> dict[str, Room]:
        """The rooms in memory, by id."""
        return self.cache.rooms

    @property
    def bot_delay(self) -> float:
        """Seconds a bot waits before it moves (so people can follow)."""
        return self.bots.bot_delay

    @property
    def audit_seconds(self) -> float:
        """How often a cluster instance compares its cached rooms' versions with the database."""
        return self.upkeep.audit_seconds if self.upkeep is not None else self._audit_seconds

    @audit_seconds.setter
    def audit_seconds(self, seconds: float) -> None:
        self._audit_seconds = seconds
        if self.upkeep is not None:
            self.upkeep.audit_seconds = seconds

    @property
    def bot_moves(self) -> int:
        """Bot moves this instance computed (a bot's move is computed by one instance)."""
        return self.bots.moves

    @property
    def bot_fallbacks(self) -> int:
        """Random moves played because an agent raised (each logged as an error)."""
        return self.bots.fallbacks

    @property
    def repaired(self) -> int:
        """Events this instance learnt from the database rather than from the broker."""
        return self.sync.repaired

    @property
    def heard(self) -> int:
        """Events this instance learnt from the broker."""
        return self.sync.heard

    # -- loading ------------------------------------------------------------------------

    async def get(self, room_id: str, fresh: bool = False) -> Room:
        """The room ``room_id`` (loaded from the database on first use).

        ``fresh``: in a cluster, a cached room first catches up with the
        database (a client arriving from another instance may hold a newer
        version than the broker has brought here yet).
        """
        cached = self.cache.cached(room_id)
        room = await self.cache.get(room_id)
        if cached is not None and fresh and self.broker is not None:
            await self.refresh(room)
        return room

    def maybe_evict(self, room: Room) -> None:
        """Drop an idle room from memory (no connection, no bot at work, no move in progress).

        The database is the truth, so the next visitor simply rebuilds it; this
        keeps a long-running server's memory bounded by the games being played.
        """
        self.cache.evict_if_idle(room)

    async def resume_all(self) -> int:
        """Load every unfinished game with a bot seat, so that its bots carry on.

        In a cluster the games are only put in the broker's set of bots due
        (those not there yet): the sweeps of all instances share them out, and
        an instance loads a game only once it holds its bot's lease.
        """
        ids = await asyncio.to_thread(self.store.rooms_with_bots_to_resume)
        if self.broker is not None:
            await self.broker.mark_due(ids, only_new=True)
            return len(ids)
        for room_id in ids:
            try:
                await self.get(room_id)
            except Exception:
                log.exception("cannot resume game %s", room_id)
        return len(ids)

    # -- creating -----------------------------------------------------------------------

    async def create(self, spec: NewRoom) -> dict[str, Any]:
        """Create a room from a lobby request (:meth:`.creation.Creation.create`)."""
        return await self.creation.create(spec)

    async def rematch(self, room: Room, seat: int | None) -> dict[str, Any]:
        """The same seats at a new deal (:meth:`.creation.Creation.rematch`)."""
        return await self.creation.rematch(room, seat)

    # -- events -------------------------------------------------------------------------

    async def submit_move(
        self,
        room: Room,
        seat: int | None,
        text: str,
        version: int,
        origin: Connection | None = None,
        reply_to: Any = None,
    ) -> int:
        """Check, commit, apply and broadcast one move (:meth:`.commits.Commits.submit_move`)."""
        return await self.commits.submit_move(room, seat, text, version, origin, reply_to)

    async def undo(
        self,
        room: Room,
        seat: int | None,
        version: int,
        origin: Connection | None = None,
        reply_to: Any = None,
    ) -> int:
        """Take back the last move or step (:meth:`.commits.Commits.undo`)."""
        return await self.commits.undo(room, seat, version, origin, reply_to)

    async def chat(self, room: Room, conn: Connection, text: str) -> None:
        """Store and send a seated player's chat line (:meth:`.chat.Chat.chat`)."""
        await self.chats.chat(room, conn, text)

    async def expire(self, room_id: str) -> None:
        """End the turn of ``room_id`` if its clock ran out (the clock sweep's call)."""
        room = await self.get(room_id)
        if await self.commits.expire(room):
            self.clocks.expired += 1
        self.maybe_evict(room)

    def start_clocks(self) -> None:
        """Start the clock sweep (a single server and every instance of a cluster)."""
        self.clocks.start()

    def kick_bots(self, room: Room) -> None:
        """Start the room's bot task if a bot is to move and none is running."""
        self.bots.kick(room)

    # -- a cluster instance -------------------------------------------------------------

    def start_cluster(self) -> None:
        """Listen to the broker and start the audit and the sweep (an instance of a cluster)."""
        assert self.broker is not None and self.upkeep is not None
        self.broker.start(self.sync.on_message, self.sync.on_resync)
        self.upkeep.start()
        self.presence.start()

    async def refresh(self, room: Room) -> None:
        """Catch a cached room up with the database (in a cluster; else nothing to do)."""
        if self.broker is None:
            return
        await self.sync.refresh(room)

    async def close(self) -> None:
        """Stop bots and connections (the store is closed by the app)."""
        self.bots.closing = True
        await self.clocks.close()
        await self.presence.close()
        await self.sync.close()
        await self.cache.close()
        tasks = [r.bot_task for r in self.rooms.values() if r.bot_task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):  # cancelled or failed: stopped either way
                await t
        for room in self.rooms.values():
            for conn in list(room.conns):
                conn.close()
        if isinstance(self.executor, ThreadPoolExecutor):
            self.executor.shutdown(wait=False, cancel_futures=True)
