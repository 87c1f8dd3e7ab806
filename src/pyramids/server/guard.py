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
  (httptools itself sets no limit);
* a **cap on half-open connections per address**: past ``half_open_per_address``
  the *oldest* half-open connection of that address is closed, so a flood from
  one address can never crowd out a new, quick request from it;
* a **cap on all connections** (by default from the process's file limit): past
  it the oldest half-open connection anywhere is closed, or, if there is none,
  the new connection.

Why at the protocol and not in the ASGI app: the app sees a request only once
its head is complete, which is exactly what a slow client never provides.
"""

from __future__ import annotations

import asyncio
import logging
import resource
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
            self._evict(next(iter(mine)))

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
        self._evict(next(iter(self._half_open)))
        return True

    def _evict(self, proto: Any) -> None:
        self.evicted += 1
        proto._guard_close(None)


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
    _head_bytes = 0
    _address = "?"

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
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

    def _start_head(self) -> None:
        if self._phase == "head":
            return
        self._phase = "head"
        self._head_bytes = 0
        self._set_timer(self.guard.limits.header_timeout)
        self.guard.add(self, self._address)

    def _head_done(self) -> None:
        if self._phase != "head":
            return
        self.guard.remove(self, self._address)
        self._phase = "body"
        self._set_timer(self.guard.limits.body_timeout)

    def _message_done(self) -> None:
        if self._phase == "head":
            self.guard.remove(self, self._address)
        self._phase = "idle"
        self._set_timer(None)

    def _forget(self) -> None:
        """No longer ours to watch: closed, or handed to the WebSocket protocol."""
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
        """Close the connection (after ``answer``, if the client may still read one)."""
        self._forget()
        if self.transport.is_closing():
            return
        if answer is not None:
            self.transport.write(answer)
        self.transport.close()

    def _count_head(self, data: bytes) -> None:
        if self._phase in ("head", "idle"):
            self._head_bytes += len(data)

    def _head_too_large(self) -> bool:
        if self._phase == "head" and self._head_bytes > self.guard.limits.max_header_bytes:
            self._guard_close(TOO_LARGE_RESPONSE)
            return True
        return False


class _HttpToolsGuarded(_Guarded):
    """For httptools: its parser's callbacks mark where a request's head and body end."""

    def data_received(self, data: bytes) -> None:
        if self._phase == "gone":
            return
        self._count_head(data)
        super().data_received(data)  # type: ignore[misc]
        self._head_too_large()

    def on_message_begin(self) -> None:
        super().on_message_begin()  # type: ignore[misc]
        self._start_head()

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

    def data_received(self, data: bytes) -> None:
        import h11

        if self._phase == "gone":
            return
        self._count_head(data)
        super().data_received(data)  # type: ignore[misc]
        if self._phase == "gone":  # closed, or upgraded to a WebSocket
            return
        state = self.conn.their_state  # type: ignore[attr-defined]
        if state is h11.IDLE:
            self._start_head()
            self._head_too_large()
        elif state is h11.SEND_BODY:
            self._head_done()
        else:
            self._message_done()

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._forget()
        super().handle_websocket_upgrade(event)  # type: ignore[misc]
