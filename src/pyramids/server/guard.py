"""Slow clients cannot lock others out: deadlines and caps on half-open HTTP connections.

uvicorn waits for a request's head forever (its keep-alive timeout starts only
after a response), so a client that opens connections and sends one header
byte every few seconds keeps each one, and a few hundred of them use up the
process's file descriptors: then nobody else's connection is even accepted.
:func:`guarded_protocol` wraps uvicorn's HTTP protocol with

* a **header deadline**: a connection whose request head is not complete
  ``header_timeout`` seconds after it opened (or after the first byte of a
  later request on it) gets ``408`` and is closed;
* a **body deadline**: the body must follow within ``body_timeout`` seconds;
* a **head size cap**: a head larger than ``max_header_bytes`` gets ``431``
  (httptools itself sets no limit), counted before the parser reads it, so a
  whole head in one read is refused like one trickled in;
* a **bound on answers waiting to be written**: ``write_buffer`` bytes in the
  server's buffer and ``socket_send_buffer`` in the kernel's; a client that
  leaves them full (it asks and never reads) is *stalled*, and a stalled
  connection is aborted after ``write_timeout`` seconds;
* a **cap on half-open and stalled connections per address**: past
  ``half_open_per_address`` the oldest stalled connection of that address is
  closed, else its oldest half-open one, so a flood from one address can
  never crowd out a new, quick request from it;
* a **cap on all connections** (by default from the process's file limit): past
  it the oldest stalled or half-open connection anywhere is closed, or, if there
  is none, the new connection.

Why at the protocol and not in the ASGI app: the app sees a request only once
its head is complete, which is exactly what a slow client never provides.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import socket
from dataclasses import dataclass
from typing import Any

import orjson

log = logging.getLogger("pyramids.server")


@dataclass(frozen=True)
class ConnectionLimits:
    """Deadlines and caps for connections (defaults documented in ``docs/security.md``)."""

    header_timeout: float = 5.0
    body_timeout: float = 20.0
    max_header_bytes: int = 32 * 1024
    half_open_per_address: int = 16
    #: ``None``: the process's file limit less :data:`RESERVED_FILES`
    max_connections: int | None = None
    websockets_per_address: int = 64
    #: bytes an HTTP connection's answers may wait in the server's buffer before the
    #: server stops writing to it (more waits in the kernel's socket buffer)
    write_buffer: int = 64 * 1024
    #: the kernel's send buffer of each connection (``SO_SNDBUF``; Linux doubles it).
    #: Why set: on loopback the kernel grows it to megabytes, which a client that
    #: never reads has the server fill with answers; ``None`` leaves the kernel's
    socket_send_buffer: int | None = 64 * 1024
    #: seconds a connection whose client does not read may keep the server waiting
    write_timeout: float = 10.0


#: file descriptors kept for everything but client connections (database, logs, pipes)
RESERVED_FILES = 64


def default_max_connections() -> int:
    """Client connections the file limit leaves room for (``ulimit -n`` less a reserve)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft > 1_000_000:
        return 100_000
    return max(16, soft - RESERVED_FILES)


def _response(status: int, phrase: str, code: str, reason: str) -> bytes:
    body = orjson.dumps({"error": {"code": code, "reason": reason, "params": {}}})
    head = (
        f"HTTP/1.1 {status} {phrase}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


TIMEOUT_RESPONSE = _response(
    408, "Request Timeout", "request-timeout", "the request's head did not arrive in time"
)
TOO_LARGE_RESPONSE = _response(
    431, "Request Header Fields Too Large", "headers-too-large", "the request's head is too large"
)


class Guard:
    """The connection book of one server: who is half-open, since when, from where.

    One per server; every guarded protocol instance reports to it. Half-open
    connections are kept in insertion order (dicts), so "the oldest" is the
    first key.
    """

    def __init__(self, limits: ConnectionLimits | None = None) -> None:
        self.limits = limits or ConnectionLimits()
        self.max_connections = self.limits.max_connections or default_max_connections()
        self._half_open: dict[Any, None] = {}
        self._by_address: dict[str, dict[Any, None]] = {}
        #: connections closed for being slow or crowded out (for logs and tests)
        self.timed_out = 0
        self.evicted = 0

    def half_open_count(self, address: str | None = None) -> int:
        """Half-open connections now, of one address or in all."""
        if address is None:
            return len(self._half_open)
        return len(self._by_address.get(address, ()))

    def add(self, proto: Any, address: str) -> None:
        """``proto`` is waiting for a request head; crowd out the oldest if over a cap."""
        self._half_open[proto] = None
        mine = self._by_address.setdefault(address, {})
        mine[proto] = None
        if len(mine) > self.limits.half_open_per_address:
            self._evict(_victim(mine))

    def remove(self, proto: Any, address: str) -> None:
        """``proto`` is no longer half-open (its head arrived, or it closed)."""
        self._half_open.pop(proto, None)
        mine = self._by_address.get(address)
        if mine is not None:
            mine.pop(proto, None)
            if not mine:
                del self._by_address[address]

    def make_room(self, connections: int) -> bool:
        """With ``connections`` open, close the oldest half-open one if over the cap.

        ``False`` if the server is full of connections that are not half-open:
        then the newcomer is the one to go.
        """
        if connections <= self.max_connections:
            return True
        if not self._half_open:
            return False
        self._evict(_victim(self._half_open))
        return True

    def _evict(self, proto: Any) -> None:
        self.evicted += 1
        proto._guard_close(None)


def _victim(book: dict[Any, None]) -> Any:
    """The connection to close: the oldest that does not read its answers, else the oldest.

    Why those first: a client that has left a full buffer unread for a while
    is further from being served than one whose request head is on its way.
    """
    return next((proto for proto in book if proto._stalled), next(iter(book)))


def guarded_protocol(guard: Guard, base: type[asyncio.Protocol] | None = None) -> type[Any]:
    """uvicorn's HTTP protocol class (httptools, else h11) with ``guard``'s deadlines and caps.

    Pass the result as ``uvicorn.Config(http=...)``.
    """
    if base is None:
        from uvicorn.protocols.http.auto import AutoHTTPProtocol

        base = AutoHTTPProtocol
    from uvicorn.protocols.http.h11_impl import H11Protocol

    mixin = _H11Guarded if issubclass(base, H11Protocol) else _HttpToolsGuarded
    return type(f"Guarded{base.__name__}", (mixin, base), {"guard": guard})


class _Guarded:
    """What both parsers share: phases, timers, the guard's book. Mixed in before the base."""

    guard: Guard
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    server_state: Any

    _phase = "idle"  # "head": waiting for a request head; "body": for its body
    _timer: asyncio.TimerHandle | None = None
    #: bytes of the request head being read, counted before the parser sees them
    _head_bytes = 0
    #: the last bytes of that head (its end, ``\r\n\r\n``, may straddle two reads)
    _head_tail = b""
    _address = "?"
    #: the client does not read: the answer waits in the transport's buffer
    _stalled = False
    _write_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(_Closable(transport))  # type: ignore[misc]
        limits = self.guard.limits
        transport.set_write_buffer_limits(high=limits.write_buffer, low=limits.write_buffer // 4)
        sock = transport.get_extra_info("socket")
        if sock is not None and limits.socket_send_buffer:
            with contextlib.suppress(OSError):  # the kernel's share of the bound
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, limits.socket_send_buffer)
        peer = transport.get_extra_info("peername")
        self._address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if not self.guard.make_room(len(self.server_state.connections)):
            self.guard.evicted += 1
            self._guard_close(None)
            return
        self._start_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._forget()
        super().connection_lost(exc)  # type: ignore[misc]

    def data_received(self, data: bytes) -> None:
        """Count each request head before the parser reads it, however the reads split it.

        Why before: a whole head that arrives in one read is parsed (and
        answered) within the parser's call, so a count taken after it comes
        too late. The data is handed on one head at a time, each checked
        against ``max_header_bytes`` first; what follows a head with a body
        goes to the parser as it is (the parser's own count covers it).
        """
        limit = self.guard.limits.max_header_bytes
        while data and self._phase in ("head", "idle"):
            window = self._head_tail + data
            end = window.find(b"\r\n\r\n")
            if end < 0:
                self._head_bytes += len(data)
                if self._head_bytes > limit:
                    self._guard_close(TOO_LARGE_RESPONSE)
                    return
                self._head_tail = window[-3:]
                self._parse(data)
                return
            used = end + 4 - len(self._head_tail)
            if self._head_bytes + used > limit:
                self._guard_close(TOO_LARGE_RESPONSE)
                return
            self._head_bytes, self._head_tail = 0, b""
            self._parse(data[:used])
            data = data[used:]
        if data and self._phase != "gone":
            self._parse(data)

    def _parse(self, data: bytes) -> None:
        raise NotImplementedError

    def pause_writing(self) -> None:
        """The transport's buffer is full: the client reads slower than it asks.

        From now until it drains, the connection is in the guard's book like
        a half-open one (the per-address and overall caps may close it) and
        has ``write_timeout`` seconds to read.
        """
        super().pause_writing()  # type: ignore[misc]
        if self._phase == "gone" or self._stalled:
            return
        self._stalled = True
        self.guard.add(self, self._address)
        if self._stalled:  # not crowded out at once
            self._write_timer = self.loop.call_later(
                self.guard.limits.write_timeout, self._write_expired
            )

    def resume_writing(self) -> None:
        if self.transport.is_closing():
            # aborted by the guard: the answer waiting to be written stays blocked
            # until ``connection_lost`` marks it disconnected (writing it would fail)
            return
        super().resume_writing()  # type: ignore[misc]
        self._unstall()

    def _unstall(self) -> None:
        if not self._stalled:
            return
        self._stalled = False
        if self._write_timer is not None:
            self._write_timer.cancel()
            self._write_timer = None
        if self._phase != "head":
            self.guard.remove(self, self._address)

    def _write_expired(self) -> None:
        self._write_timer = None
        self.guard.timed_out += 1
        self._guard_close(None)

    def _start_head(self) -> None:
        if self._phase == "head":
            return
        self._phase = "head"
        self._set_timer(self.guard.limits.header_timeout)
        self.guard.add(self, self._address)

    def _head_done(self) -> None:
        if self._phase != "head":
            return
        if not self._stalled:
            self.guard.remove(self, self._address)
        self._phase = "body"
        self._set_timer(self.guard.limits.body_timeout)

    def _message_done(self) -> None:
        if self._phase == "head" and not self._stalled:
            self.guard.remove(self, self._address)
        self._phase = "idle"
        self._set_timer(None)

    def _forget(self) -> None:
        """No longer ours to watch: closed, or handed to the WebSocket protocol."""
        self._unstall()
        self.guard.remove(self, self._address)
        self._phase = "gone"
        self._set_timer(None)

    def _set_timer(self, seconds: float | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None if seconds is None else self.loop.call_later(seconds, self._expired)

    def _expired(self) -> None:
        self._timer = None
        if self._phase in ("head", "body"):
            self.guard.timed_out += 1
            self._guard_close(TIMEOUT_RESPONSE if self._phase == "head" else None)

    def _guard_close(self, answer: bytes | None) -> None:
        """Close the connection (after ``answer``, if the client may still read one).

        A connection whose client does not read is aborted: a plain close
        would wait for its buffer to drain, holding the socket as long as the
        client likes.
        """
        stalled = self._stalled
        self._forget()
        if self.transport.is_closing():
            if stalled:
                self.transport.abort()
            return
        if stalled:
            self.transport.abort()
            return
        if answer is not None:
            self.transport.write(answer)
        self.transport.close()


class _Closable:
    """A transport that ignores writes once it is closing, as asyncio's own does.

    Why: a pipelined connection closed by the guard (or by its client) may
    still have an answer being made; uvicorn marks only the newest request
    disconnected, and uvloop's transport raises on a write after close, which
    became a logged "Exception in ASGI application" per dropped answer.
    """

    __slots__ = ("_transport",)

    def __init__(self, transport: asyncio.Transport) -> None:
        self._transport = transport

    def write(self, data: bytes) -> None:
        if not self._transport.is_closing():
            self._transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class _HeadTooLarge(Exception):
    """Raised in a parser callback: stops httptools reading a head already refused."""


class _HttpToolsGuarded(_Guarded):
    """For httptools: its parser's callbacks mark where a request's head and body end."""

    #: bytes of the head as the parser reports them (a second count: see ``on_header``)
    _parsed_head = 0

    def _parse(self, data: bytes) -> None:
        super(_Guarded, self).data_received(data)  # type: ignore[misc]

    def on_message_begin(self) -> None:
        super().on_message_begin()  # type: ignore[misc]
        self._parsed_head = 0
        self._start_head()

    def on_url(self, url: bytes) -> None:
        self._count_parsed(len(url))
        super().on_url(url)  # type: ignore[misc]

    def on_header(self, name: bytes, value: bytes) -> None:
        """Count the head as parsed too: a head that follows a body in the same read
        (pipelined after a POST) is not seen by the count in ``data_received``."""
        self._count_parsed(len(name) + len(value) + 4)
        super().on_header(name, value)  # type: ignore[misc]

    def _count_parsed(self, size: int) -> None:
        self._parsed_head += size
        if self._parsed_head > self.guard.limits.max_header_bytes:
            self._guard_close(TOO_LARGE_RESPONSE)
            raise _HeadTooLarge

    def on_headers_complete(self) -> None:
        self._head_done()
        super().on_headers_complete()  # type: ignore[misc]

    def on_message_complete(self) -> None:
        super().on_message_complete()  # type: ignore[misc]
        self._message_done()

    def handle_websocket_upgrade(self) -> None:
        self._forget()
        super().handle_websocket_upgrade()  # type: ignore[misc]


class _H11Guarded(_Guarded):
    """For h11: the peer's state after each chunk tells which part of a request is due."""

    def _parse(self, data: bytes) -> None:
        import h11

        super(_Guarded, self).data_received(data)  # type: ignore[misc]
        if self._phase == "gone":  # closed, or upgraded to a WebSocket
            return
        state = self.conn.their_state  # type: ignore[attr-defined]
        if state is h11.IDLE:
            self._start_head()
        elif state is h11.SEND_BODY:
            self._head_done()
        else:
            self._message_done()

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._forget()
        super().handle_websocket_upgrade(event)  # type: ignore[misc]
