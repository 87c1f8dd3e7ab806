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

Why one worker process for all reviews: a review is CPU work for tens of
seconds; in the server's own process it would hold the interpreter lock
against every game being played. One process, fed one decision at a time,
keeps the progress here and leaves the other core to the games. Reviews of
several rooms queue behind each other.

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
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from sqlalchemy import Column, Connection, Float, String, Table, Text, insert, select

from pyramids.server.protocol import ProtocolError
from pyramids.server.rooms import RoomManager
from pyramids.server.storage import Store, metadata

log = logging.getLogger("pyramids.server")

#: the budget and seed of every stored review (a stored review is computed once)
REVIEW_BUDGET = "normal"
REVIEW_SEED = 0

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
    task: asyncio.Task[None] | None = None
    error: str | None = None
    result: dict[str, Any] | None = field(default=None, repr=False)

    def status(self) -> dict[str, Any]:
        """What the status routes answer while the job runs or once it failed."""
        if self.error is not None:
            return {"status": "failed", "error": {"code": "internal", "reason": self.error}}
        return {"status": "running", "done": self.done, "total": self.total}


class Reviews:
    """The reviews of one server: stored ones, running jobs, and the worker that computes them.

    ``executor`` computes the decisions (default: one worker process, started
    on first use); tests may pass a thread pool.
    """

    def __init__(self, manager: RoomManager, executor: Executor | None = None):
        self._manager = manager
        self._executor = executor
        self._jobs: dict[str, Job] = {}
        self._made: set[int] = set()
        #: one review at a time (each holds the worker for up to a minute)
        self._turn = asyncio.Lock()

    def executor(self) -> Executor:
        """The worker process (started on first use, kept for the life of the server)."""
        if self._executor is None:
            # spawned, not forked: the server's process runs threads (the writer, the
            # bots) whose locks a forked child could inherit held
            pool = ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn"))
            atexit.register(pool.shutdown, wait=False, cancel_futures=True)
            self._executor = pool
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

    async def start(self, room_id: str) -> dict[str, Any]:
        """Start the review unless it is stored or running; its status."""
        answer = await self.status(room_id)
        if answer["status"] in ("done", "running"):
            return answer
        room = await self._manager.get(room_id)
        record = await asyncio.to_thread(room.state.record)
        job = self._jobs[room_id] = Job()
        job.task = asyncio.create_task(self._run(room_id, record, job))
        return job.status()

    async def _run(self, room_id: str, record: dict[str, Any], job: Job) -> None:
        from pyramids.review.run import decide_in_worker, plan

        try:
            async with self._turn:
                work = await asyncio.to_thread(plan, record, None, REVIEW_BUDGET, seed=REVIEW_SEED)
                job.total = len(work.plies)
                loop = asyncio.get_running_loop()
                found = []
                for k in work.plies:
                    d = await loop.run_in_executor(
                        self.executor(), decide_in_worker, work.text, k, work.budget, REVIEW_SEED
                    )
                    if d is not None:
                        found.append(d)
                    job.done += 1
                review = await asyncio.to_thread(work.finish, found)
                data = review.to_dict()
                await self._write(room_id, data)
                job.result = data
        except Exception as e:  # reported to whoever asks; the next request tries again
            log.exception("review of game %s failed", room_id)
            job.error = type(e).__name__
            return
        self._jobs.pop(room_id, None)  # the stored row answers from now on
        log.info("review of game %s stored (%d decisions)", room_id, len(found))

    async def close(self) -> None:
        """Cancel running reviews (the server is stopping); they start again when asked."""
        for job in list(self._jobs.values()):
            if job.task is not None and not job.task.done():
                job.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await job.task


def _need_over(over: bool) -> None:
    if not over:
        raise ProtocolError("not-finished", "a game is reviewed once it is over")
