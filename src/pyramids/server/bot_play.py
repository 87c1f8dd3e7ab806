"""Bots at play: one task per room moves its bot seats, through the same commits as people.

A room's bot task runs while a bot is to move. Its moves are computed in a
thread pool (an MCTS bot thinks for a while) from a copy of the state, then
submitted at the version they were computed for: if anything happened
meanwhile the move is stale and the bot thinks again. In a cluster a bot
moves only while this instance holds the room's lease in the broker (see
``docs/deploy.md``).

Two failures must not stall the people at the table:

* an agent that raises: a uniformly random legal move is played instead, and
  the fallback is logged as an error and counted (:attr:`BotPlay.fallbacks`);
* a move the database did not store (a lost connection, a refused write):
  the bot tries again after a pause that doubles up to
  :data:`STORAGE_RETRY_MAX` seconds (:attr:`BotPlay.storage_retries`), until
  the write goes through or the server stops.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

from pyramids.engine.rng import Rng
from pyramids.server import fair
from pyramids.server.cache import RoomCache
from pyramids.server.protocol import ProtocolError
from pyramids.server.room import Connection, Room

if TYPE_CHECKING:
    from pyramids.cluster.broker import Broker

log = logging.getLogger("pyramids.server")

#: the first pause before a bot tries again a move the database did not store (seconds)
STORAGE_RETRY_FIRST = 0.05
#: the longest pause between two tries
STORAGE_RETRY_MAX = 5.0

Submit = Callable[[Room, int | None, str, int, Connection | None, Any], Awaitable[int]]


class BotPlay:
    """Runs the bots of every room of this process.

    ``submit`` is the commit path of a move (:meth:`.commits.Commits.submit_move`);
    ``catch_up_locked`` brings a room up to the database before its bots play
    under a fresh lease (a cluster's previous holder may have just moved).
    """

    def __init__(
        self,
        cache: RoomCache,
        submit: Submit,
        catch_up_locked: Callable[[Room], Awaitable[None]],
        executor: Executor,
        broker: Broker | None,
        bot_delay: float,
    ) -> None:
        self.cache = cache
        self.submit = submit
        self.catch_up_locked = catch_up_locked
        self.executor = executor
        self.broker = broker
        self.bot_delay = bot_delay
        self.closing = False
        #: bot moves this instance computed (a bot's move is computed by one instance)
        self.moves = 0
        #: moves played at random because an agent raised (each one logged as an error)
        self.fallbacks = 0
        #: tries again of a bot's move that the database did not store
        self.storage_retries = 0

    def kick(self, room: Room) -> None:
        """Start the room's bot task if a bot is to move and none is running."""
        if self.closing or room.bot_to_move() is None:
            return
        if room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.get_running_loop().create_task(self._run(room))
            if self.broker is not None:  # a room kept only for its bots leaves memory after
                room.bot_task.add_done_callback(lambda _: self.cache.evict_if_idle(room))

    async def _run(self, room: Room) -> None:
        if self.broker is None:
            await self._play(room)
        else:
            await self._run_leased(room, self.broker)

    async def _run_leased(self, room: Room, broker: Broker) -> None:
        """The bots of a room in a cluster: played only while this instance holds the lease.

        Another instance holding it is thinking already: this one follows its
        moves through the broker and looks again now and then (its sweep also
        finds the room if that instance dies). Holding it, the cache first
        catches up (the previous holder may have moved just before it let go),
        and a keeper renews the lease while the bots play; should it be lost,
        the bots stop. Letting go: when no bot is to move, the room leaves the
        broker's set of bots due; at shutdown it is due at once, for another
        instance to take over.
        """
        score: list[int] = []
        wait = 0.05
        try:
            while not self.closing and room.bot_to_move() is not None:
                got = await broker.claim(room.id)
                if not got:  # held elsewhere (0), or no broker to ask (None)
                    await asyncio.sleep(wait)
                    wait = min(2 * wait, broker.lease_seconds / 4)
                    if not self.cache.holds(room):
                        return  # evicted meanwhile: the room is no concern of this instance
                    continue
                score[:] = [got]
                async with room.lock:
                    await self.catch_up_locked(room)
                play = asyncio.ensure_future(self._play(room))
                keeper = asyncio.ensure_future(self._keep_lease(room, broker, play, score))
                try:
                    await asyncio.wait({play})
                finally:
                    keeper.cancel()
                    if not play.done():  # this task itself was cancelled (shutdown)
                        play.cancel()
                if not play.cancelled() and play.exception() is not None:
                    log.error("bots of game %s stopped", room.id, exc_info=play.exception())
                    return
        finally:
            if score:
                await broker.release(room.id, score[0], done=room.bot_to_move() is None)

    async def _keep_lease(
        self, room: Room, broker: Broker, play: asyncio.Future[None], score: list[int]
    ) -> None:
        """Renew the lease while ``play`` runs; stop it once the lease may be someone else's.

        That is at once if another instance holds it, or when the broker has
        not confirmed it for a whole lease period (it may have expired).
        """
        renewed = time.monotonic()
        while not play.done():
            await asyncio.sleep(broker.lease_seconds / 3)
            got = await broker.claim(room.id)
            if got:
                score[:] = [got]
                renewed = time.monotonic()
            elif got == 0 or time.monotonic() - renewed >= broker.lease_seconds:
                log.warning("bots of game %s paused: their lease could not be renewed", room.id)
                play.cancel()
                return

    async def _play(self, room: Room) -> None:
        loop = asyncio.get_running_loop()
        pause = STORAGE_RETRY_FIRST
        while not self.closing:
            seat = room.bot_to_move()
            if seat is None:
                return
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            version = room.version
            state = room.state
            if room.bot_to_move() != seat:
                continue
            rng = Rng(fair.bot_seed(room.seed, room.secret, version))
            try:
                agent = room.agent(seat)
                self.moves += 1
                move = await loop.run_in_executor(self.executor, agent.choose, state.copy(), rng)
                text = state.move_to_str(move)
            except Exception:
                # A broken agent must not stall the game for the people at the table:
                # play a uniformly random legal move instead, and say so as an error.
                self.fallbacks += 1
                log.exception(
                    "bot of seat %s in game %s failed; playing a random move instead",
                    seat,
                    room.id,
                )
                moves = state.legal_moves()
                text = state.move_to_str(moves[rng.below(len(moves))])
            try:
                await self.submit(room, seat, text, version, None, None)
            except ProtocolError as e:
                if e.code in ("stale-version", "not-your-turn", "game-over"):
                    continue
                if e.code == "storage":
                    # the database did not store it (nothing changed): try again, later
                    self.storage_retries += 1
                    log.warning(
                        "bot of seat %s in game %s could not store its move (%s); "
                        "trying again in %.2f s",
                        seat,
                        room.id,
                        e.reason,
                        pause,
                    )
                    await asyncio.sleep(pause)
                    pause = min(2 * pause, STORAGE_RETRY_MAX)
                    continue
                log.error("bot of seat %s in game %s failed: %s", seat, room.id, e.reason)
                return
            pause = STORAGE_RETRY_FIRST
