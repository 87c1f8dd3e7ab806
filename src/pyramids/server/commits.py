"""Commits: the one path by which a move or an undo enters a room.

Each room has one :class:`asyncio.Lock`: a move is checked, committed, and
only then applied, acknowledged and broadcast, all under that lock, so two
moves sent at once can never both be accepted. Across the instances of a
cluster the database's key (room, version) does the same, and a committed
event is published on the broker for the other instances' caches.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from functools import partial
from typing import TYPE_CHECKING, Any

from pyramids.server.protocol import ProtocolError
from pyramids.server.room import Change, Connection, Room
from pyramids.server.storage import Append, ConflictError, EventRow, StorageError, Store

if TYPE_CHECKING:
    from pyramids.cluster.broker import Broker


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
    ) -> int:
        """Check, commit, apply and broadcast one move; returns the new version.

        Raises :class:`ProtocolError` (state unchanged) for a spectator, a stale
        version, a finished game, a move out of turn or an illegal move.
        """
        if seat is None:
            raise ProtocolError("spectator", "spectators watch: they cannot move")
        check = partial(room.checked_move, seat, text)
        return await uncancellable(self._accept(room, version, check, origin, reply_to))

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
            self._check_version(room, version)
            change = check()
            new_version = room.version + 1
            if self.broker is not None and room.bot_seat(change.after) is not None:
                # before the commit: should this instance die right after it, the bot
                # is still found by another instance's sweep
                await self.broker.mark_due([room.id], self.broker.lease_seconds)
            await self._commit(room, change.event(new_version), change.after.is_over)
            room.accept(change, new_version, origin, reply_to)
        self.kick_bots(room)
        return new_version

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

    async def _commit(self, room: Room, ev: EventRow, over: bool) -> None:
        """Store ``ev``; once it is committed, tell the cluster (if any).

        A key clash means another instance stored an event at this version
        first: the cache catches up with the database and the move is refused
        as stale, with the state that won (the caller sends it along).
        """
        changed = over if over != room.state.is_over else None
        try:
            await self.store.append_async(Append(room.id, ev, changed))
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
