"""Durable storage of rooms: a game is its deal, variant, seats and an append-only event log.

Why an event log and not a saved state: the state is rebuilt from the deal (a
seed, or the room's secret) and the moves (chance is reproduced by the same
stream), so the log is the whole truth and
a crash can lose at most what was never acknowledged.

Writes go through one :class:`Writer` thread that commits *groups* of events in
one transaction (group commit): a move is acknowledged only after the
transaction holding it has committed, yet many concurrent games share one
fsync. SQLite is used in WAL mode with ``synchronous=FULL`` so a committed
move survives a process kill and a power cut; PostgreSQL works through the
same SQLAlchemy Core tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

from pyramids.engine.rng import KeyedRng, Rng

metadata = MetaData()

#: chat lines a room keeps at hand (older ones stay in the database)
CHAT_KEPT = 100

_log = logging.getLogger("pyramids.server")

rooms_table = Table(
    "rooms",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("variant", Text, nullable=False),
    # 64-bit: the API accepts seeds below 2**63 and PostgreSQL's INTEGER holds only 32 bits
    Column("seed", BigInteger, nullable=False),
    Column("players", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("over", Boolean, nullable=False, default=False),
    Column("public_seed", Boolean, nullable=False, default=False),
    # schema 2: whether spectators may read the players' chat
    Column("spectator_chat", Boolean, nullable=False, default=False),
    # schema 3: the room's random secret (hex) behind its deal commitment (rooms of
    # older schemas have none, and no commitment), and whether it is a practice room
    Column("secret", String(64)),
    Column("practice", Boolean, nullable=False, default=False),
    # schema 4: the generator that deals the room: "splitmix64" from `seed`, or
    # "hmac-sha256-ctr" from `secret` (`seed` is then 0 and means nothing)
    Column("generator", String(32), nullable=False, default=Rng.generator),
)

seats_table = Table(
    "seats",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(80), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("agent", String(64)),
    Column("level", String(32)),
    Column("token_hash", String(64)),
)

meta_table = Table(
    "meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

#: the PostgreSQL advisory lock key that serialises schema checks ("pyramids" in ASCII, as
#: a number): any constant will do, as long as nothing else on the database uses it
SCHEMA_LOCK = 0x707972616D696473

#: bumped whenever the tables change; an older database is migrated (:data:`MIGRATIONS`),
#: one of an unknown schema is refused at start
SCHEMA_VERSION = "5"

chat_table = Table(
    "chat",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

#: schema -> the statements that bring it to the next schema (new tables come from
#: ``create_all``; new columns of existing tables need an ALTER)
MIGRATIONS: dict[str, tuple[str, list[str]]] = {
    "1": ("2", ["ALTER TABLE rooms ADD COLUMN spectator_chat BOOLEAN NOT NULL DEFAULT FALSE"]),
    "2": (
        "3",
        [
            "ALTER TABLE rooms ADD COLUMN secret VARCHAR(64)",
            "ALTER TABLE rooms ADD COLUMN practice BOOLEAN NOT NULL DEFAULT FALSE",
        ],
    ),
    "3": (
        "4",
        [f"ALTER TABLE rooms ADD COLUMN generator VARCHAR(32) NOT NULL DEFAULT '{Rng.generator}'"],
    ),
    # schema 5: the clocks table (rooms made before it have none: untimed)
    "4": ("5", []),
}

#: schema 5: a room's clock (:mod:`pyramids.server.clocks`), rewritten with each event in
#: the same transaction; ``deadline`` (indexed) is what the clock sweep looks for
clocks_table = Table(
    "clocks",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("control", Text, nullable=False),
    Column("remaining", Text, nullable=False),
    Column("turn_seat", Integer),
    Column("turn_start", Float, nullable=False),
    Column("steps", Integer, nullable=False, default=0),
    Column("deadline", Float, index=True),
)

events_table = Table(
    "events",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("seat", Integer),
    Column("data", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)


@dataclass(frozen=True)
class SeatRow:
    """One seat of a room as stored."""

    seat: int
    name: str
    kind: str  # "human" or "bot"
    agent: str | None
    level: str | None
    token_hash: str | None


@dataclass(frozen=True)
class ClockRow:
    """A room's clock as stored (see :class:`pyramids.server.clocks.Clock`)."""

    control: dict[str, Any]
    remaining: list[float]
    turn_seat: int | None
    turn_start: float
    steps: int
    deadline: float | None


@dataclass(frozen=True)
class EventRow:
    """One entry of a room's log: ``kind`` is ``"move"`` (data = notation) or ``"undo"``."""

    version: int
    kind: str
    seat: int | None
    data: str


@dataclass
class RoomRow:
    """A room as stored: everything needed to rebuild its state."""

    id: str
    game: str
    variant: dict[str, Any]
    #: the seed of a seeded room; ``None``: the room is dealt from its :attr:`secret`
    seed: int | None
    players: int
    created_at: float
    version: int
    over: bool
    public_seed: bool = False
    seats: list[SeatRow] = field(default_factory=list)
    events: list[EventRow] = field(default_factory=list)
    spectator_chat: bool = False
    chat: list[ChatRow] = field(default_factory=list)
    #: the secret of the deal's commitment (:mod:`pyramids.server.fair`); None before schema 3
    secret: str | None = None
    #: a practice room: its creator may have chosen the seed (every seat is told)
    practice: bool = False
    #: the room's clock (None: a room made before schema 5, or a solitaire)
    clock: ClockRow | None = None


@dataclass(frozen=True)
class ChatRow:
    """One line of a room's chat: who (a seat), what, when."""

    seq: int
    seat: int
    text: str
    created_at: float


@dataclass(frozen=True)
class Append:
    """A request to append one event; ``over`` is the game's new over flag if it changed.

    ``clock``: the room's clock after the event, stored in the same transaction.
    """

    room_id: str
    event: EventRow
    over: bool | None
    clock: ClockRow | None = None


class StorageError(RuntimeError):
    """The database refused a write (the event was not stored)."""


class ConflictError(StorageError):
    """The write collided with a row already stored: another writer got there first.

    Why a kind of its own: with several server instances on one database, an
    event at a version another instance has just stored is refused by the
    primary key (room, version). That is not a failure of the database but a
    lost race, which the room answers with ``stale-version`` and the state
    that won.
    """


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL mode and full sync on every connection."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        engine = create_engine(url, pool_pre_ping=True)
    return engine


class Store:
    """Reads rooms and appends events; all writes are serialised through one writer thread."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._check_schema()
        self._writer = Writer(self.engine)

    def _check_schema(self) -> None:
        """Create the tables in a new database; refuse one written with other tables.

        On PostgreSQL the check holds an advisory lock for its transaction:
        instances of a cluster started at once on an empty database would
        otherwise all try to create the same tables, and all but one fail.
        """
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")
            existing = set(inspect(conn).get_table_names())
            if existing & {"rooms", "seats", "events"} and "meta" not in existing:
                raise StorageError(
                    f"{self.url} holds games of an older, incompatible version: "
                    "start with another --database-url"
                )
            metadata.create_all(conn)
            row = conn.execute(
                select(meta_table.c.value).where(meta_table.c.key == "schema")
            ).first()
            if row is None:
                conn.execute(insert(meta_table).values(key="schema", value=SCHEMA_VERSION))
                return
            schema = row.value
            while schema in MIGRATIONS:
                schema, statements = MIGRATIONS[schema]
                for statement in statements:
                    conn.exec_driver_sql(statement)
                conn.execute(
                    update(meta_table).where(meta_table.c.key == "schema").values(value=schema)
                )
                _log.info("database migrated to schema %s", schema)
            if schema != SCHEMA_VERSION:
                raise StorageError(
                    f"{self.url} uses database schema {row.value}; this version reads "
                    f"schema {SCHEMA_VERSION}: start with another --database-url"
                )

    def close(self) -> None:
        """Stop the writer (after it has committed everything queued) and close the pool."""
        self._writer.stop()
        self.engine.dispose()

    # -- writes (through the writer thread) -----------------------------------

    def create_room(self, room: RoomRow) -> Future[None]:
        """Insert a room and its seats; the future resolves once committed."""

        def op(conn: Connection) -> None:
            conn.execute(
                insert(rooms_table).values(
                    id=room.id,
                    game=room.game,
                    variant=json.dumps(room.variant, sort_keys=True),
                    seed=0 if room.seed is None else room.seed,
                    generator=KeyedRng.generator if room.seed is None else Rng.generator,
                    players=room.players,
                    created_at=room.created_at,
                    over=room.over,
                    public_seed=room.public_seed,
                    spectator_chat=room.spectator_chat,
                    secret=room.secret,
                    practice=room.practice,
                )
            )
            conn.execute(
                insert(seats_table),
                [
                    {
                        "room_id": room.id,
                        "seat": s.seat,
                        "name": s.name,
                        "kind": s.kind,
                        "agent": s.agent,
                        "level": s.level,
                        "token_hash": s.token_hash,
                    }
                    for s in room.seats
                ],
            )
            if room.clock is not None:
                conn.execute(
                    insert(clocks_table).values(room_id=room.id, **_clock_values(room.clock))
                )

        return self._writer.submit(op)

    def add_chat(self, room_id: str, line: ChatRow) -> Future[None]:
        """Store one chat line; the future resolves once committed."""

        def op(conn: Connection) -> None:
            conn.execute(
                insert(chat_table).values(
                    room_id=room_id,
                    seq=line.seq,
                    seat=line.seat,
                    text=line.text,
                    created_at=line.created_at,
                )
            )

        return self._writer.submit(op)

    def append(self, item: Append) -> Future[None]:
        """Append one event; the future resolves once it is committed (then it is durable).

        The primary key (room, version) refuses a second event at the same
        version, so two writers can never both extend a game from one position.
        """
        return self._writer.submit(item)

    async def append_async(self, item: Append) -> None:
        """:meth:`append` for the event loop: returns once the event is committed.

        Why not ``asyncio.wrap_future(append(...))``: that costs a thread-safe
        future, a callback chain and a wake-up of the loop per event; here the
        writer wakes the loop once per committed batch, however many moves it held.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._writer.submit_to(item, (loop, done))
        await done

    # -- reads (any thread) ------------------------------------------------------

    def load_room(self, room_id: str) -> RoomRow | None:
        """The room with its seats and whole event log, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(rooms_table).where(rooms_table.c.id == room_id)).first()
            if row is None:
                return None
            room = RoomRow(
                id=row.id,
                game=row.game,
                variant=json.loads(row.variant),
                seed=row.seed if row.generator == Rng.generator else None,
                players=row.players,
                created_at=row.created_at,
                version=0,
                over=bool(row.over),
                public_seed=bool(row.public_seed),
                spectator_chat=bool(row.spectator_chat),
                secret=row.secret,
                practice=bool(row.practice),
            )
            for s in conn.execute(
                select(seats_table)
                .where(seats_table.c.room_id == room_id)
                .order_by(seats_table.c.seat)
            ):
                room.seats.append(SeatRow(s.seat, s.name, s.kind, s.agent, s.level, s.token_hash))
            for e in conn.execute(
                select(events_table)
                .where(events_table.c.room_id == room_id)
                .order_by(events_table.c.version)
            ):
                room.events.append(EventRow(e.version, e.kind, e.seat, e.data))
            for c in conn.execute(
                select(chat_table)
                .where(chat_table.c.room_id == room_id)
                .order_by(chat_table.c.seq.desc())
                .limit(CHAT_KEPT)
            ):
                room.chat.append(ChatRow(c.seq, c.seat, c.text, c.created_at))
            room.chat.reverse()
            k = conn.execute(select(clocks_table).where(clocks_table.c.room_id == room_id)).first()
            if k is not None:
                room.clock = ClockRow(
                    json.loads(k.control),
                    [float(x) for x in json.loads(k.remaining)],
                    k.turn_seat,
                    k.turn_start,
                    k.steps,
                    k.deadline,
                )
        if room.events:
            room.version = room.events[-1].version
        return room

    def events_after(self, room_id: str, version: int) -> list[EventRow]:
        """The events of ``room_id`` after ``version``, in order (a cache catching up)."""
        query = (
            select(events_table)
            .where(events_table.c.room_id == room_id)
            .where(events_table.c.version > version)
            .order_by(events_table.c.version)
        )
        with self.engine.connect() as conn:
            return [EventRow(e.version, e.kind, e.seat, e.data) for e in conn.execute(query)]

    def latest_versions(self, room_ids: list[str]) -> dict[str, int]:
        """The stored version of each of ``room_ids`` (rooms without events are left out).

        One grouped query per 500 rooms: how an instance of a cluster checks,
        now and then, that the rooms it caches have missed nothing.
        """
        found: dict[str, int] = {}
        with self.engine.connect() as conn:
            for start in range(0, len(room_ids), 500):
                chunk = room_ids[start : start + 500]
                query = (
                    select(events_table.c.room_id, func.max(events_table.c.version))
                    .where(events_table.c.room_id.in_(chunk))
                    .group_by(events_table.c.room_id)
                )
                for room_id, version in conn.execute(query):
                    found[room_id] = int(version)
        return found

    def load_chat(self, room_id: str) -> list[ChatRow]:
        """The last :data:`CHAT_KEPT` chat lines of a room, oldest first."""
        query = (
            select(chat_table)
            .where(chat_table.c.room_id == room_id)
            .order_by(chat_table.c.seq.desc())
            .limit(CHAT_KEPT)
        )
        with self.engine.connect() as conn:
            lines = [ChatRow(c.seq, c.seat, c.text, c.created_at) for c in conn.execute(query)]
        lines.reverse()
        return lines

    def clocks_due(self, now: float, limit: int = 200) -> list[str]:
        """Ids of unfinished games whose turn is due at ``now`` (the clock sweep's question)."""
        query = (
            select(clocks_table.c.room_id)
            .join(rooms_table, rooms_table.c.id == clocks_table.c.room_id)
            .where(clocks_table.c.deadline <= now)
            .where(rooms_table.c.over == False)  # noqa: E712 - SQL comparison
            .order_by(clocks_table.c.deadline)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [r.room_id for r in conn.execute(query)]

    def rooms_with_bots_to_resume(self) -> list[str]:
        """Ids of unfinished games with a bot seat (their bots carry on after a restart).

        A seat whose player left by the clock ruling is a bot's too: its room
        has a ``timeout`` event (the seats table keeps the seat as it was made).
        """
        bots = (
            select(rooms_table.c.id)
            .join(seats_table, seats_table.c.room_id == rooms_table.c.id)
            .where(rooms_table.c.over == False)  # noqa: E712 - SQL comparison
            .where(seats_table.c.kind == "bot")
        )
        left = (
            select(rooms_table.c.id)
            .join(events_table, events_table.c.room_id == rooms_table.c.id)
            .where(rooms_table.c.over == False)  # noqa: E712 - SQL comparison
            .where(events_table.c.kind == "timeout")
        )
        with self.engine.connect() as conn:
            return sorted({r.id for r in conn.execute(bots.union(left))})


def _clock_values(clock: ClockRow) -> dict[str, Any]:
    return {
        "control": json.dumps(clock.control, sort_keys=True),
        "remaining": json.dumps(clock.remaining),
        "turn_seat": clock.turn_seat,
        "turn_start": clock.turn_start,
        "steps": clock.steps,
        "deadline": clock.deadline,
    }


Op = Callable[[Connection], None]
#: who waits for a job: a thread-safe future, or an event loop's future settled in that loop
Waiter = Future[None] | tuple[asyncio.AbstractEventLoop, "asyncio.Future[None]"]
Job = tuple[Op | Append, Waiter]


def _settle_in_loop(results: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    """Runs in the event loop: resolve every waiter of one committed batch."""
    for fut, err in results:
        if fut.done():  # the awaiting task was cancelled (server shutting down)
            continue
        if err is None:
            fut.set_result(None)
        else:
            fut.set_exception(err)


def _settle(results: list[tuple[Waiter, BaseException | None]]) -> None:
    """Tell every waiter of a batch its outcome: one loop wake-up per loop, not per job."""
    by_loop: dict[asyncio.AbstractEventLoop, list[Any]] = {}
    threaded: list[tuple[Future[None], BaseException | None]] = []
    for waiter, err in results:
        if isinstance(waiter, Future):
            threaded.append((waiter, err))
        else:
            by_loop.setdefault(waiter[0], []).append((waiter[1], err))
    for loop, items in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting
            loop.call_soon_threadsafe(_settle_in_loop, items)
    for fut, err in threaded:
        # a waiter that gave up (server shutting down) may be cancelled from another
        # thread at any moment, even between a check and the set: that must not kill
        # the writer thread
        with contextlib.suppress(InvalidStateError):
            if err is None:
                fut.set_result(None)
            else:
                fut.set_exception(err)


def _is_key_clash(exc: Exception) -> bool:
    """Whether a failed write hit a primary key already taken (and not another constraint).

    PostgreSQL says so with SQLSTATE 23505 (unique violation), SQLite with the
    extended error ``SQLITE_CONSTRAINT_PRIMARYKEY`` (or ``_UNIQUE``); any other
    integrity error (a missing column value, say) is a bug, not a lost race.
    """
    if not isinstance(exc, IntegrityError):
        return False
    orig = exc.orig
    if getattr(orig, "sqlstate", None) == "23505":
        return True
    return getattr(orig, "sqlite_errorname", "") in (
        "SQLITE_CONSTRAINT_PRIMARYKEY",
        "SQLITE_CONSTRAINT_UNIQUE",
    )


class Writer:
    """One thread that runs write operations in group-committed transactions.

    Why one thread: SQLite has a single writer anyway, and batching every
    operation that queued up during the previous commit into the next
    transaction (events of many games in one multi-row insert) turns N
    fsyncs into one without delaying anybody.
    """

    MAX_BATCH = 512

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._queue: queue.Queue[Job | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="pyramids-writer", daemon=True)
        self._thread.start()

    def submit(self, op: Op | Append) -> Future[None]:
        """Queue ``op``; the returned future resolves after its transaction commits."""
        fut: Future[None] = Future()
        self.submit_to(op, fut)
        return fut

    def submit_to(self, op: Op | Append, waiter: Waiter) -> None:
        """Queue ``op``; ``waiter`` is settled after its transaction commits."""
        self._queue.put((op, waiter))

    def stop(self) -> None:
        """Finish queued work, then end the thread."""
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < self.MAX_BATCH:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            self._commit(batch)
            if stop:
                return

    @staticmethod
    def _write(conn: Connection, batch: list[Job]) -> None:
        # in (room, version) order: two instances writing overlapping batches to one
        # PostgreSQL then take the key locks in the same order and cannot deadlock
        appends = sorted(
            (op for op, _ in batch if isinstance(op, Append)),
            key=lambda a: (a.room_id, a.event.version),
        )
        for op, _ in batch:
            if not isinstance(op, Append):
                op(conn)
        if appends:
            now = time.time()
            conn.execute(
                insert(events_table),
                [
                    {
                        "room_id": a.room_id,
                        "version": a.event.version,
                        "kind": a.event.kind,
                        "seat": a.event.seat,
                        "data": a.event.data,
                        "created_at": now,
                    }
                    for a in appends
                ],
            )
        over: dict[str, bool] = {}
        for a in appends:
            if a.over is not None:
                over[a.room_id] = a.over
        for room_id, flag in over.items():
            conn.execute(update(rooms_table).where(rooms_table.c.id == room_id).values(over=flag))
        clocks = {a.room_id: a.clock for a in appends if a.clock is not None}
        for room_id, clock in clocks.items():  # the last of each room's events in the batch
            done = conn.execute(
                update(clocks_table)
                .where(clocks_table.c.room_id == room_id)
                .values(**_clock_values(clock))
            )
            if done.rowcount == 0:  # a room made before schema 5 gets its row now
                conn.execute(insert(clocks_table).values(room_id=room_id, **_clock_values(clock)))

    def _commit(self, batch: list[Job]) -> None:
        results: list[tuple[Waiter, BaseException | None]] = []
        self._commit_into(batch, results)
        _settle(results)

    def _commit_into(
        self, batch: list[Job], results: list[tuple[Waiter, BaseException | None]]
    ) -> None:
        try:
            with self.engine.begin() as conn:
                self._write(conn, batch)
        except Exception as exc:
            # One bad operation must not sink the others: retry each on its own.
            if len(batch) > 1:
                for item in batch:
                    self._commit_into([item], results)
                return
            if isinstance(exc, StorageError):
                err = exc
            elif _is_key_clash(exc):
                # a row with this key exists: another writer won the race (no secret
                # in the message; the driver's words stay out of it as below)
                err = ConflictError("another write got there first (IntegrityError)")
                err.__cause__ = exc
            else:
                # The driver's message quotes the SQL and its parameters (a room's seed
                # among them), so it goes to the server log only; clients get the kind.
                _log.error("database write failed: %s", exc)
                err = StorageError(f"the database refused the write ({type(exc).__name__})")
                err.__cause__ = exc  # for the server's own code and tests
            results.append((batch[0][1], err))
            return
        results.extend((waiter, None) for _, waiter in batch)
