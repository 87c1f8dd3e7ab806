"""The review of a finished game on the server: computed once, in the background, then stored.

The routes (:mod:`pyramids.server.routes.reviews`) answer with :class:`Reviews`:
``POST /api/rooms/{room}/review`` starts the review of a finished game (every
seat, the ``normal`` budget, seed 0) unless it is stored or running, and
``GET`` answers its status: ``{"status": "none"}`` (never asked),
``{"status": "running", "done": k, "total": n}``, ``{"status": "done",
"review": {...}}`` (:meth:`pyramids.review.Review.to_dict`) or
``{"status": "failed", "error": {...}}``.

Why once, and stored: a review of a typical game costs up to a minute of one
core, and a finished game never changes, so the first request pays for it and
every later visitor (after a restart too) reads the stored JSON. Why anyone may
ask: the game is over, its record is public by then, and each seat's review
uses only what that seat knew during the game.

Why worker processes, and niced: a review is CPU work for seconds to tens of
seconds; in the server's own process it would hold the interpreter lock
against every game being played. The workers (:data:`WORKERS`, at most one a
core) run at a lower priority (:data:`WORKER_NICE`), so a core that a game
needs goes to the game, and an idle one to the review. One review is computed
at a time, its decisions shared among the workers; the others wait in line.

Why bounded, and shared: one address could otherwise queue minutes of review
work a minute. A review already stored, running or waiting is the one every
asker gets (it is never computed twice, and asking for it costs the asker
nothing); a new one is refused with ``rate-limited`` (429, ``Retry-After``)
when its address already has :data:`QUEUE_PER_ADDRESS` reviews waiting or
running, or the server :data:`QUEUE_LIMIT` (``docs/security.md``).

Why the workers are ended, not left: on shutdown (SIGTERM, Ctrl-C) the
running review is cancelled and its worker processes terminated, so neither
they nor the multiprocessing resource tracker (which lives while any of them
holds its pipe) outlive the server; the review starts again when asked.

Storage: one row per room in a table of its own (``reviews``), defined here
on the store's ``metadata`` so that ``create_all`` makes it in a new database,
and created on first use in an existing one. An added table needs no schema
migration: older versions of the server ignore it.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import logging
import os
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import TYPE_CHECKING, Any

from sqlalchemy import Column, Connection, Float, String, Table, Text, insert, select

from pyramids.server.limits import address_key
from pyramids.server.protocol import ProtocolError
from pyramids.server.rooms import RoomManager
from pyramids.server.storage import Store, metadata

if TYPE_CHECKING:
    from pyramids.review.model import Budget, Decision

log = logging.getLogger("pyramids.server")

#: the budget and seed of every stored review (a stored review is computed once)
REVIEW_BUDGET = "normal"
REVIEW_SEED = 0

#: reviews waiting or running at once: over the whole server, and per client address
QUEUE_LIMIT = 8
QUEUE_PER_ADDRESS = 2
#: the seconds a refused client is asked to wait (about one review of a typical game)
RETRY_AFTER = 20
#: worker processes (at most one a core, at least one) and their priority (``nice``)
WORKERS = max(1, min(2, os.cpu_count() or 1))
WORKER_NICE = 10

reviews_table = Table(
    "reviews",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("budget", String(32), nullable=False),
    Column("data", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)


@dataclass
class Job:
    """A review being computed: its progress, then its result or its error."""

    total: int = 0
    done: int = 0
    #: who asked first (its address key): the job counts against that address's bound
    address: str = "?"
    task: asyncio.Task[None] | None = None
    error: str | None = None
    result: dict[str, Any] | None = field(default=None, repr=False)

    def status(self) -> dict[str, Any]:
        """What the status routes answer while the job runs or once it failed."""
        if self.error is not None:
            return {"status": "failed", "error": {"code": "internal", "reason": self.error}}
        return {"status": "running", "done": self.done, "total": self.total}

    @property
    def active(self) -> bool:
        """Waiting or running (not finished, not failed)."""
        return self.error is None and self.result is None


def _nice_worker() -> None:
    """A worker's start: lower its priority, so the games' process comes first."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)


class Reviews:
    """The reviews of one server: stored ones, running jobs, and the worker that computes them.

    ``executor`` computes the decisions (default: :data:`WORKERS` niced worker
    processes, started on first use); tests may pass a thread pool.
    ``queue_limit`` and ``per_address`` bound the reviews waiting or running.
    """

    def __init__(
        self,
        manager: RoomManager,
        executor: Executor | None = None,
        *,
        queue_limit: int = QUEUE_LIMIT,
        per_address: int = QUEUE_PER_ADDRESS,
    ):
        self._manager = manager
        self._executor = executor
        self._pool: ProcessPoolExecutor | None = None
        self._jobs: dict[str, Job] = {}
        self._made: set[int] = set()
        self.queue_limit = queue_limit
        self.per_address = per_address
        #: one review at a time (its decisions shared among the workers)
        self._turn = asyncio.Lock()

    def executor(self) -> Executor:
        """The worker processes (started on first use, kept for the life of the server)."""
        if self._executor is None:
            # spawned, not forked: the server's process runs threads (the writer, the
            # bots) whose locks a forked child could inherit held
            pool = ProcessPoolExecutor(
                max_workers=WORKERS, mp_context=get_context("spawn"), initializer=_nice_worker
            )
            atexit.register(pool.shutdown, wait=False, cancel_futures=True)
            self._executor = self._pool = pool
        return self._executor

    def _store(self) -> Store:
        return self._manager.store

    def _ensure_table(self, store: Store) -> None:
        if id(store) not in self._made:
            reviews_table.create(store.engine, checkfirst=True)
            self._made.add(id(store))

    def _read(self, room_id: str) -> dict[str, Any] | None:
        store = self._store()
        self._ensure_table(store)
        with store.engine.connect() as conn:
            row = conn.execute(
                select(reviews_table.c.data).where(reviews_table.c.room_id == room_id)
            ).first()
        if row is None:
            return None
        data: dict[str, Any] = json.loads(row.data)
        return data

    async def _write(self, room_id: str, data: dict[str, Any]) -> None:
        store = self._store()
        await asyncio.to_thread(self._ensure_table, store)
        text = json.dumps(data, separators=(",", ":"))

        def op(conn: Connection) -> None:
            conn.execute(
                insert(reviews_table).values(
                    room_id=room_id, budget=REVIEW_BUDGET, data=text, created_at=time.time()
                )
            )

        # through the store's one writer thread, as every other write of the server
        await asyncio.wrap_future(store._writer.submit(op))

    async def status(self, room_id: str) -> dict[str, Any]:
        """The review's status (the stored review itself once done)."""
        room = await self._manager.get(room_id)
        _need_over(room.state.is_over)
        job = self._jobs.get(room_id)
        if job is not None:
            if job.result is not None:
                return {"status": "done", "review": job.result}
            return job.status()
        stored = await asyncio.to_thread(self._read, room_id)
        if stored is not None:
            return {"status": "done", "review": stored}
        return {"status": "none"}

    async def start(self, room_id: str, address: str | None = None) -> dict[str, Any]:
        """Start the review unless it is stored, running or waiting; its status.

        ``address`` is the asker's; a new review is refused (``rate-limited``)
        past the bounds of the queue (see the module's text).
        """
        answer = await self.status(room_id)
        if answer["status"] in ("done", "running"):
            return answer
        key = address_key(address)
        self._check_bounds(key)
        room = await self._manager.get(room_id)
        record = await asyncio.to_thread(room.state.record)
        job = self._jobs.get(room_id)
        if job is not None and job.active:  # another asker started it meanwhile
            return job.status()
        self._check_bounds(key)  # and after the awaits: another may have filled the queue
        job = self._jobs[room_id] = Job(address=key)
        job.task = asyncio.create_task(self._run(room_id, record, job))
        return job.status()

    def _check_bounds(self, key: str) -> None:
        """Refuse a new review past the server's or the address's bound."""
        active = [j for j in self._jobs.values() if j.active]
        if len(active) >= self.queue_limit:
            raise ProtocolError(
                "rate-limited",
                "the server is busy with other reviews: try again in {seconds} s",
                {"retry_after": RETRY_AFTER},
                seconds=RETRY_AFTER,
            )
        mine = sum(1 for j in active if j.address == key)
        if mine >= self.per_address:
            raise ProtocolError(
                "rate-limited",
                "too many reviews asked from your address are waiting (at most {count}): "
                "try again in {seconds} s",
                {"retry_after": RETRY_AFTER},
                count=mine,
                seconds=RETRY_AFTER,
            )

    async def _run(self, room_id: str, record: dict[str, Any], job: Job) -> None:
        from pyramids.review.run import plan

        try:
            async with self._turn:
                work = await asyncio.to_thread(plan, record, None, REVIEW_BUDGET, seed=REVIEW_SEED)
                job.total = len(work.plies)
                found = await self._decide_all(work.text, work.plies, work.budget, job)
                review = await asyncio.to_thread(work.finish, found)
                data = review.to_dict()
                await self._write(room_id, data)
                job.result = data
        except Exception as e:  # reported to whoever asks; the next request tries again
            log.exception("review of game %s failed", room_id)
            job.error = type(e).__name__
            return
        self._jobs.pop(room_id, None)  # the stored row answers from now on
        log.info("review of game %s stored (%d decisions)", room_id, len(data["decisions"]))

    async def _decide_all(
        self, text: str, plies: list[int], budget: Budget, job: Job
    ) -> list[Decision]:
        """The decisions of ``plies``, at most one per worker in flight at a time.

        Why not all at once: a cancelled review (the server stopping) then
        leaves no queue of work behind in the pool.
        """
        from pyramids.review.run import decide_in_worker

        loop = asyncio.get_running_loop()
        executor = self.executor()
        # as many in flight as the executor has workers (a thread pool of a test: its own)
        width = max(1, int(getattr(executor, "_max_workers", 1)))
        pending = list(reversed(plies))
        running: set[asyncio.Future[Decision | None]] = set()
        found: list[Decision] = []
        try:
            while pending or running:
                while pending and len(running) < width:
                    k = pending.pop()
                    running.add(
                        loop.run_in_executor(
                            executor, decide_in_worker, text, k, budget, REVIEW_SEED
                        )
                    )
                finished, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for future in finished:
                    d = future.result()
                    if d is not None:
                        found.append(d)
                    job.done += 1
        finally:
            for future in running:
                future.cancel()
        return found

    async def close(self) -> None:
        """Stop: cancel running reviews and end the worker processes.

        The reviews start again when asked. The workers are terminated, not
        waited for: one may be in the middle of a decision for seconds, and
        a worker left running would keep the resource tracker alive too.
        """
        for job in list(self._jobs.values()):
            if job.task is not None and not job.task.done():
                job.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await job.task
        pool, self._pool = self._pool, None
        if pool is not None:
            if self._executor is pool:
                self._executor = None
            # the pool's own processes (no public way to end a busy worker before 3.14)
            for process in list(getattr(pool, "_processes", {}).values()):
                with contextlib.suppress(Exception):
                    process.terminate()
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


def _need_over(over: bool) -> None:
    if not over:
        raise ProtocolError("not-finished", "a game is reviewed once it is over")
