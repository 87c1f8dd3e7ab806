"""What a WebSocket may cost the server: bytes waiting to be sent, and messages it floods.

A room queues each message for each of its connections, and a client that
never reads leaves them queued. Counted in messages, 64 spectator sockets of
one address that ask for snapshots and never read held hundreds of megabytes.
Here what waits is counted in bytes (the encoded message), per connection and
per address (:class:`QueuedBytes`); a connection that would pass either bound
is dropped at once and its queue freed (the client resyncs when it comes back),
and a message that takes longer than :data:`SEND_TIMEOUT` seconds to be written
drops it too.

A client that keeps sending while its rate limit refuses it (:class:`Flood`)
is answered once, then its messages are dropped unread, and past a bound it
is closed: a refused message costs a counter, never a parse.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass
from typing import Any

from pyramids.i18n import Translator
from pyramids.server.rooms import Connection, dumps

#: bytes of encoded messages one WebSocket may have waiting to be sent
QUEUED_PER_CONNECTION = 1024 * 1024
#: the same over every WebSocket of one client address (IPv6: its /64)
QUEUED_PER_ADDRESS = 8 * 1024 * 1024
#: seconds one message may take to be written before its connection is dropped
SEND_TIMEOUT = 20.0
#: refused messages a client may send (past its rate limit) before it is closed
REFUSED_BEFORE_CLOSE = 60


class QueuedBytes:
    """Bytes waiting on the WebSockets of each address (one book per server)."""

    def __init__(
        self, per_connection: int = QUEUED_PER_CONNECTION, per_address: int = QUEUED_PER_ADDRESS
    ) -> None:
        self.per_connection = per_connection
        self.per_address = per_address
        self._by_address: dict[str, int] = {}
        #: connections dropped for letting their queue fill (for logs and tests)
        self.dropped = 0

    def take(self, key: str, size: int) -> bool:
        """Count ``size`` more bytes of ``key``; ``False`` (not counted) past its bound."""
        held = self._by_address.get(key, 0)
        if held + size > self.per_address:
            return False
        self._by_address[key] = held + size
        return True

    def give(self, key: str, size: int) -> None:
        """``size`` bytes of ``key`` were sent or dropped."""
        left = self._by_address.get(key, 0) - size
        if left > 0:
            self._by_address[key] = left
        else:
            self._by_address.pop(key, None)

    def held(self, key: str) -> int:
        """Bytes ``key``'s sockets have waiting now."""
        return self._by_address.get(key, 0)


class SocketConnection(Connection):
    """A room's connection over a WebSocket: messages encoded when queued, bytes bounded.

    Why encoded at once: the bound is in bytes, and a message is encoded
    once either way (the sender wrote ``dumps`` of each dict before).
    """

    def __init__(
        self,
        seat: int | None,
        tr: Translator | None,
        address: str | None,
        queued: QueuedBytes,
        key: str,
    ) -> None:
        super().__init__(seat, tr, address)
        self.queued = queued
        self.key = key
        self.pending: deque[str] = deque()
        self.pending_bytes = 0
        #: dropped for not reading (its queue passed a bound, or a write timed out)
        self.dropped = False
        #: the WebSocket close code it is closed with (1008: dropped; 4429: flooding)
        self.close_code = 1000
        #: the task waiting for the client's next message, while it waits
        self.receiving: asyncio.Task[Any] | None = None
        self._ready = asyncio.Event()

    def send(self, msg: dict[str, Any]) -> None:
        """Queue ``msg`` encoded; a client that lets too much wait is dropped (it resyncs)."""
        if self.closed:
            return
        text = dumps(msg)
        size = len(text)
        if self.pending_bytes + size > self.queued.per_connection or not self.queued.take(
            self.key, size
        ):
            self.drop()
            return
        self.pending.append(text)
        self.pending_bytes += size
        self._ready.set()

    def drop(self) -> None:
        """Give up on a client that does not read: free its queue and close."""
        if not self.closed:
            self.dropped = True
            self.close_code = 1008
            self.queued.dropped += 1
        self.close()

    def close(self) -> None:
        """Stop sending; what was waiting is freed at once."""
        self.closed = True
        self.queued.give(self.key, self.pending_bytes)
        self.pending.clear()
        self.pending_bytes = 0
        self._ready.set()

    async def next_text(self) -> str | None:
        """The next message to write, once there is one; ``None`` once closed."""
        while not self.pending:
            if self.closed:
                return None
            self._ready.clear()
            await self._ready.wait()
        if self.closed:
            return None
        return self.pending[0]

    def sent(self) -> None:
        """The message :meth:`next_text` gave was written: it no longer counts."""
        if self.pending:
            size = len(self.pending.popleft())
            self.pending_bytes -= size
            self.queued.give(self.key, size)


@dataclass
class Flood:
    """One connection's refusals by its rate limit: when to answer one, when to close.

    ``strikes`` grows by one per refused message and shrinks by one per
    accepted one, so a client a little over its rate is only slowed down,
    while one that ignores the refusals reaches :data:`REFUSED_BEFORE_CLOSE`.
    """

    strikes: int = 0
    #: whether the refusal now running was answered already
    answered: bool = False

    def accepted(self) -> None:
        """A message was within the limits."""
        self.strikes = max(0, self.strikes - 1)
        self.answered = False

    def refuse(self) -> bool:
        """One more refused; ``True`` when it should be answered (once per run)."""
        self.strikes += 1
        first = not self.answered
        self.answered = True
        return first

    @property
    def over(self) -> bool:
        """Whether the client ignored the refusals long enough to be closed."""
        return self.strikes > REFUSED_BEFORE_CLOSE
