"""Commits: the one path by which a move or an undo enters a room.

Each room has one :class:`asyncio.Lock`: a move is checked, committed, and
only then applied, acknowledged and broadcast, all under that lock, so two
moves sent at once can never both be accepted. Across the instances of a
cluster the database's key (room, version) does the same, and a committed
event is published on the broker for the other instances' caches.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from functools import partial
from typing import TYPE_CHECKING, Any

from pyramids.server.clocks import clock_row
from pyramids.server.protocol import ProtocolError
from pyramids.server.room import Change, Connection, Room
from pyramids.server.storage import Append, ConflictError, StorageError, Store

if TYPE_CHECKING:
    from pyramids.cluster.broker import Broker

log = logging.getLogger("pyramids.server")


class Commits:
    """Checks, stores and applies the events of clients and bots.

    ``catch_up_locked`` brings a room's cache up to the database (under its
    lock); ``kick_bots`` is told after each event (a bot may be to move).
    """

    def __init__(
        self,
        store: Store,
        broker: Broker | None,
        catch_up_locked: Callable[[Room], Awaitable[None]],
        kick_bots: Callable[[Room], None],
    ) -> None:
        self.store = store
        self.broker = broker
        self.catch_up_locked = catch_up_locked
        self.kick_bots = kick_bots

    async def submit_move(
        self,
        room: Room,
        seat: int | None,
        text: str,
        version: int,
        origin: Connection | None = None,
        reply_to: Any = None,
        person: bool = True,
    ) -> int:
        """Check, commit, apply and broadcast one move; returns the new version.

        Raises :class:`ProtocolError` (state unchanged) for a spectator, a stale
        version, a finished game, a move out of turn or an illegal move, or
        (``person``) a move of someone who has left by the clock ruling.
        """
        if seat is None:
            raise ProtocolError("spectator", "spectators watch: they cannot move")
        if person and seat in room.left:  # whatever the version: say why first
            room.checked_move(seat, text, person)
        check = partial(room.checked_move, seat, text, person)
        return await uncancellable(self._accept(room, version, check, origin, reply_to))

    async def submit_bot_move(
        self,
        room: Room,
        seat: int | None,
        text: str,
        version: int,
        origin: Connection | None = None,
        reply_to: Any = None,
    ) -> int:
        """:meth:`submit_move` for a bot (which may play the seat of someone who left)."""
        return await self.submit_move(room, seat, text, version, origin, reply_to, person=False)

    async def undo(
        self,
        room: Room,
        seat: int | None,
        version: int,
        origin: Connection | None = None,
        reply_to: Any = None,
    ) -> int:
        """Take back the last move (an ``undo`` event in the log): any move of a single-player
        game, or a step of the turn the seat is playing (:func:`.room.step_taker`)."""
        if seat is None:
            raise ProtocolError("spectator", "spectators watch: they cannot undo")
        check = partial(room.checked_undo, seat)
        return await uncancellable(self._accept(room, version, check, origin, reply_to))

    async def _accept(
        self,
        room: Room,
        version: int,
        check: Callable[[], Change],
        origin: Connection | None,
        reply_to: Any,
    ) -> int:
        """The one path of a client's or a bot's event: under the room's lock, the version
        and ``check`` first, then the commit, and only then the room changes and every
        client is told. Returns the event's version."""
        async with room.lock:
            if self.broker is not None and version > room.version:
                await self.catch_up_locked(room)  # the client saw more than this cache
            if await self._expire_locked(room):
                check()  # the mover's time ran out: "game-over" or "left" says so
            self._check_version(room, version)
            change = check()
            new_version = await self._apply(room, change, origin, reply_to)
            # the step cap: a turn that has taken its last step ends at once (should that
            # not be stored now, the move stands all the same: the next move ends the turn)
            try:
                await self._expire_locked(room)
            except ProtocolError as e:
                log.warning("the turn of game %s could not be ended: %s", room.id, e.reason)
        self.kick_bots(room)
        return new_version

    async def _apply(
        self, room: Room, change: Change, origin: Connection | None, reply_to: Any
    ) -> int:
        """Commit ``change`` as the next version, then apply it (under the room's lock)."""
        new_version = room.version + 1
        if self.broker is not None and room.bot_seat(change.after) is not None:
            # before the commit: should this instance die right after it, the bot
            # is still found by another instance's sweep
            await self.broker.mark_due([room.id], self.broker.lease_seconds)
        over = change.after.is_over or (change.kind == "timeout" and room.players == 2)
        await self._commit(room, change, new_version, over)
        room.accept(change, new_version, origin, reply_to)
        if change.kind == "timeout" and self.broker is not None and room.bot_to_move():
            await self.broker.mark_due([room.id], self.broker.lease_seconds)
        return new_version

    async def expire(self, room: Room) -> bool:
        """End the room's turn if its clock ran out (or it took too many steps); whether it did.

        The clock sweep's entry (:class:`.clocks.ClockSweep`); a move that
        arrives after the deadline ends the turn the same way first.
        """
        async with room.lock:
            if self.broker is not None:
                await self.catch_up_locked(room)  # another instance may have moved or ended it
            done = await self._expire_locked(room)
        if done:
            self.kick_bots(room)
        return done

    async def _expire_locked(self, room: Room) -> bool:
        change = room.checked_timeout(time.time())
        if change is None:
            return False
        try:
            await self._apply(room, change, None, None)
        except ProtocolError as e:
            if e.code != "stale-version":  # another instance ended it first: caught up
                raise
        return True

    @staticmethod
    def _check_version(room: Room, version: int) -> None:
        if version != room.version:
            raise ProtocolError(
                "stale-version",
                "the game is at version {version}, your move was made at version "
                "{yours}: look at the current position and try again",
                {"version": room.version},
                version=room.version,
                yours=version,
            )

    async def _commit(self, room: Room, change: Change, version: int, over: bool) -> None:
        """Store ``change`` as ``version`` (with the room's clock); then tell the cluster (if any).

        A key clash means another instance stored an event at this version
        first: the cache catches up with the database and the move is refused
        as stale, with the state that won (the caller sends it along).
        """
        ev = change.event(version)
        changed = over if over != room.over else None
        clock = clock_row(change.clock) if change.clock is not None else None
        try:
            await self.store.append_async(Append(room.id, ev, changed, clock))
        except ConflictError:
            await self.catch_up_locked(room)
            raise ProtocolError(
                "stale-version",
                "the game is at version {version}, your move was made at version "
                "{yours}: look at the current position and try again",
                {"version": room.version},
                version=room.version,
                yours=ev.version - 1,
            ) from None
        except StorageError as e:
            raise ProtocolError(
                "storage", "the move could not be saved: {error}", error=str(e)
            ) from None
        if self.broker is not None:
            self.broker.publish(
                {
                    "t": "event",
                    "r": room.id,
                    "v": ev.version,
                    "k": ev.kind,
                    "s": ev.seat,
                    "d": ev.data,
                }
            )


async def uncancellable(coro: Coroutine[Any, Any, int]) -> int:
    """Run a check-commit-apply section to its end even if its caller is cancelled.

    Why: once a move's commit is under way, the room in memory must learn of
    it; a caller cancelled halfway (server shutdown, a dropped request) would
    otherwise leave the cache one move behind the database.
    """
    task = asyncio.ensure_future(coro)
    task.add_done_callback(lambda t: t.cancelled() or t.exception())
    return await asyncio.shield(task)
