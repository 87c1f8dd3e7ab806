"""The Redis broker of a cluster of ``pyramids serve`` instances sharing one database.

What Redis is used for, and what it is not:

* **Fan-out.** Each instance publishes every event it has *committed* on one
  channel (``pyramids:events``); every instance listens and advances the rooms
  it caches. Redis pub/sub delivers at most once and forgets what it could not
  deliver, so the messages are only a fast path: the database is the order and
  the truth. A listener that was away (a broker restart, a dropped connection)
  is told so by its next subscription (:meth:`Broker.start` calls
  ``on_resync``), and the room manager then catches every cached room up from
  the database; a gap in a room's versions is repaired the same way.
* **Bot leases.** A bot's move must be computed by one instance at a time. An
  instance holds the room's lease (``pyramids:bot:ROOM``, a key with a time to
  live, renewed while it thinks) and only the holder computes. Safety does not
  rest on the lease: two instances that both believed they held it would still
  get only one move in, as the database's unique (room, version) refuses the
  second. The lease is what keeps the others from wasting a core on it.
* **Bots due.** A sorted set (``pyramids:bots-due``) of rooms whose bot is to
  move, each with the time by which its holder promised to renew. A holder
  that dies stops renewing; once the time has passed, another instance's sweep
  takes the lease and the room, so a bot game on a dead instance resumes
  elsewhere within about one lease period.

Times in the due set are Redis's own clock (``TIME`` inside the scripts), so
instances on machines whose clocks disagree still agree on what is due.

Every call that can fail for want of the broker fails soft: a publish is
kept and retried in order (events are idempotent by version), a lease that
cannot be had is simply not held. While Redis is away, moves still commit,
and clients on other instances still learn of them from the database (the
room manager's audit); bots wait for the broker to come back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger("pyramids.cluster")

#: errors that mean "the broker is not there right now"
BROKER_DOWN = (RedisError, OSError, asyncio.TimeoutError)

#: publications kept while the broker is away (older ones are dropped: the listeners
#: catch up from the database when they reconnect anyway)
OUTBOX_LIMIT = 20_000

#: seconds of silence on the subscription after which it is probed with a PING
PROBE_AFTER = 5.0

# KEYS: lease, due set; ARGV: instance, ttl ms, room. Takes (or renews) the lease if
# free or ours and promises the room's next renewal by now + ttl; answers that time in
# ms, or 0 when another instance holds the lease.
_CLAIM = """
local holder = redis.call('get', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local due = now + tonumber(ARGV[2])
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('zadd', KEYS[2], due, ARGV[3])
return due
"""

# KEYS: lease, due set; ARGV: instance, room, mode, score. Drops the lease if ours;
# mode 'done': the room needs no bot any more, forgotten unless someone promised a
# later renewal than ARGV[4] (a new bot turn registered meanwhile); mode 'due': due now,
# for another instance to take over.
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end
if ARGV[3] == 'done' then
  local s = redis.call('zscore', KEYS[2], ARGV[2])
  if s and tonumber(s) <= tonumber(ARGV[4]) then redis.call('zrem', KEYS[2], ARGV[2]) end
else
  local t = redis.call('time')
  redis.call('zadd', KEYS[2], tonumber(t[1]) * 1000, ARGV[2])
end
return 1
"""

# KEYS: due set; ARGV: delay ms, 'nx' or 'xx-or-new', rooms... Marks rooms due after
# the delay (nx: only rooms not listed yet).
_MARK = """
local t = redis.call('time')
local at = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
for i = 3, #ARGV do
  if ARGV[2] == 'nx' then redis.call('zadd', KEYS[1], 'NX', at, ARGV[i])
  else redis.call('zadd', KEYS[1], at, ARGV[i]) end
end
return at
"""

# KEYS: due set; ARGV: limit. The rooms due by now, with their scores.
_DUE = """
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('zrangebyscore', KEYS[1], '-inf', now, 'WITHSCORES', 'LIMIT', 0, ARGV[1])
"""


class BrokerError(RuntimeError):
    """The broker cannot be reached or used (raised at start only; later calls fail soft)."""


def instance_name() -> str:
    """A name for this process, unique in the cluster: host, pid and a random tail.

    It is the value of the leases this instance holds, so a restarted process on
    the same host and pid never mistakes an old lease for its own.
    """
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def check_broker(url: str, timeout: float = 3.0) -> None:
    """Connect to ``url`` and PING it, or raise :class:`BrokerError` with the reason.

    Used by ``pyramids serve`` before it listens, as it checks the database.
    """

    async def ping() -> None:
        client = _client(url, timeout)
        try:
            await client.ping()
        finally:
            await client.aclose()

    try:
        asyncio.run(ping())
    except (*BROKER_DOWN, ValueError) as e:
        raise BrokerError(" ".join(str(e).split()) or type(e).__name__) from None


def _client(url: str, timeout: float) -> aioredis.Redis:
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"a broker URL looks like redis://HOST:PORT/DB, not {url!r}")
    client: aioredis.Redis = aioredis.Redis.from_url(
        url, socket_timeout=timeout, socket_connect_timeout=timeout, socket_keepalive=True
    )
    return client


OnMessage = Callable[[dict[str, Any]], None]
OnResync = Callable[[bool], None]


class Broker:
    """One instance's connection to the cluster's Redis (see the module docstring).

    ``lease_seconds`` is how long a bot lease lives without renewal: how long a
    dead instance's bots wait before another instance takes them over.
    """

    def __init__(
        self,
        url: str,
        *,
        lease_seconds: float = 5.0,
        prefix: str = "pyramids:",
        instance: str | None = None,
    ) -> None:
        if lease_seconds <= 0:
            raise ValueError("the bot lease must last a positive number of seconds")
        self.url = url
        self.lease_seconds = lease_seconds
        self.prefix = prefix
        self.instance = instance or instance_name()
        self.channel = f"{prefix}events"
        self.due_key = f"{prefix}bots-due"
        self.client = _client(url, timeout=2.0)
        self._claim = self.client.register_script(_CLAIM)
        self._release = self.client.register_script(_RELEASE)
        self._mark = self.client.register_script(_MARK)
        self._due = self.client.register_script(_DUE)
        self._outbox: deque[bytes] = deque(maxlen=OUTBOX_LIMIT)
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        #: whether the subscription is up now (shown by ``/healthz``)
        self.connected = False
        #: subscriptions made so far (1 after the first; more after reconnections)
        self.subscriptions = 0
        #: messages published and received, for the benchmark and tests
        self.published = 0
        self.received = 0
        self._last_warning = 0.0
        #: where other instances' messages go (set by :meth:`start`)
        self.on_message: OnMessage = lambda _msg: None

    def lease_key(self, room: str) -> str:
        """The Redis key of a room's bot lease."""
        return f"{self.prefix}bot:{room}"

    # -- life ---------------------------------------------------------------------

    async def connect(self) -> None:
        """Check that the broker answers; :class:`BrokerError` if it does not."""
        try:
            await self.client.ping()
        except BROKER_DOWN as e:
            raise BrokerError(" ".join(str(e).split()) or type(e).__name__) from None

    def start(self, on_message: OnMessage, on_resync: OnResync) -> None:
        """Start listening and publishing.

        ``on_message(msg)`` gets every message of other instances;
        ``on_resync(first)`` is called each time the subscription is (re)made,
        ``first`` telling whether it is the first one: after any but the first,
        messages may have been lost, and the caller repairs from the database.
        """
        loop = asyncio.get_running_loop()
        self.on_message = on_message
        self._tasks.append(loop.create_task(self._listen(on_resync)))
        self._tasks.append(loop.create_task(self._publish_loop()))

    async def close(self) -> None:
        """Send what is still queued (briefly), stop the tasks, close the connections."""
        self._closing = True
        self._wake.set()
        if self._tasks:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._tasks[1]), timeout=1.0)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(*BROKER_DOWN):
            await self.client.aclose()

    def _warn(self, what: str, err: BaseException) -> None:
        """Log a broker failure, at most once a second (an outage is one story, not a flood)."""
        now = time.monotonic()
        if now - self._last_warning >= 1.0:
            self._last_warning = now
            log.warning("broker %s failed: %s", what, " ".join(str(err).split()) or repr(err))

    # -- fan-out --------------------------------------------------------------------

    def publish(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for every other instance; sent in order, soon, by one task."""
        message["i"] = self.instance
        self._outbox.append(orjson.dumps(message))
        self._wake.set()

    async def _publish_loop(self) -> None:
        backoff = 0.05
        while True:
            if not self._outbox:
                if self._closing:
                    return
                self._wake.clear()
                await self._wake.wait()
                continue
            batch = [self._outbox[i] for i in range(min(len(self._outbox), 256))]
            try:
                pipe = self.client.pipeline(transaction=False)
                for data in batch:
                    pipe.publish(self.channel, data)
                await pipe.execute()
            except BROKER_DOWN as e:
                self._warn("publish", e)
                if self._closing:
                    return
                await asyncio.sleep(backoff)
                backoff = min(2 * backoff, 1.0)
                continue
            backoff = 0.05
            self.published += len(batch)
            for _ in batch:
                self._outbox.popleft()

    async def _listen(self, on_resync: OnResync) -> None:
        backoff = 0.05
        while not self._closing:
            pubsub = self.client.pubsub()
            try:
                await pubsub.subscribe(self.channel)
                heard = time.monotonic()
                probing = False
                while not self._closing:
                    msg = await pubsub.get_message(timeout=1.0)
                    now = time.monotonic()
                    if msg is None:
                        if now - heard > 2 * PROBE_AFTER:
                            raise ConnectionError("the broker stopped answering")
                        if now - heard > PROBE_AFTER and not probing:
                            await pubsub.ping()
                            probing = True
                        continue
                    heard, probing = now, False
                    kind = msg.get("type")
                    if kind == "subscribe":
                        self.connected = True
                        self.subscriptions += 1
                        backoff = 0.05
                        on_resync(self.subscriptions == 1)
                    elif kind == "message":
                        self.received += 1
                        try:
                            data = orjson.loads(msg["data"])
                        except orjson.JSONDecodeError:
                            continue
                        if isinstance(data, dict) and data.get("i") != self.instance:
                            self.on_message(data)
            except BROKER_DOWN as e:
                self._warn("subscription", e)
            finally:
                self.connected = False
                with contextlib.suppress(*BROKER_DOWN):
                    await pubsub.aclose()
            if not self._closing:
                await asyncio.sleep(backoff)
                backoff = min(2 * backoff, 1.0)

    # -- leases and the due set --------------------------------------------------------

    async def claim(self, room: str) -> int | None:
        """Take or renew ``room``'s bot lease; the promised renewal time (Redis ms).

        0: another instance holds it. None: the broker did not answer, so
        nothing is known (a lease held stays held until it expires).
        """
        ttl = max(1, round(self.lease_seconds * 1000))
        try:
            due = await self._claim(
                keys=[self.lease_key(room), self.due_key], args=[self.instance, ttl, room]
            )
        except BROKER_DOWN as e:
            self._warn("lease", e)
            return None
        return int(due)

    async def release(self, room: str, score: int | None, done: bool) -> None:
        """Give ``room``'s lease back.

        ``done``: no bot is to move any more, so the room leaves the due set
        (unless a newer bot turn was registered after ``score``); otherwise the
        room is due at once, for another instance to take over (a shutdown).
        """
        try:
            await self._release(
                keys=[self.lease_key(room), self.due_key],
                args=[self.instance, room, "done" if done else "due", score or 0],
            )
        except BROKER_DOWN as e:
            self._warn("lease release", e)

    async def mark_due(self, rooms: list[str], delay: float = 0.0, only_new: bool = False) -> None:
        """Put ``rooms`` in the due set, due after ``delay`` seconds (``only_new``: if absent).

        Called before a move that hands the turn to a bot is committed: if the
        committing instance dies before its bot takes the lease, the room is
        still found by another instance's sweep.
        """
        if not rooms:
            return
        try:
            for start in range(0, len(rooms), 500):
                await self._mark(
                    keys=[self.due_key],
                    args=[
                        round(delay * 1000),
                        "nx" if only_new else "set",
                        *rooms[start : start + 500],
                    ],
                )
        except BROKER_DOWN as e:
            self._warn("bot registration", e)

    async def due(self, limit: int = 20) -> list[tuple[str, int]]:
        """Rooms whose bot is due (their holder, if any, missed its renewal), with scores."""
        try:
            flat = await self._due(keys=[self.due_key], args=[limit])
        except BROKER_DOWN as e:
            self._warn("bot sweep", e)
            return []
        out: list[tuple[str, int]] = []
        for k in range(0, len(flat) - 1, 2):
            name = flat[k]
            room = name.decode() if isinstance(name, bytes) else str(name)
            out.append((room, int(float(flat[k + 1]))))
        return out
