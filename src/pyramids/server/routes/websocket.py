"""``WS /ws/rooms/{room}?token=...&since=N``: live events for a seat or a spectator.

On connecting, a client gets what it lacks (the events after ``since``, or a
snapshot) and then every event of the room from its seat's view. Each message
it sends is counted against the rate limits, then read into a typed message
(:func:`inputs.parse_client_message`) and answered; a refusal is an ``error``
message and never closes the socket (``docs/server.md``, *WebSocket
protocol*). What a socket may cost is bounded in :mod:`pyramids.server.sockets`:
one that keeps flooding, or does not read what it is sent, is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Depends, WebSocket, WebSocketDisconnect
from starlette.requests import HTTPConnection

from pyramids.i18n import Translator
from pyramids.server.dependencies import Lang, Limits, Manager, client_address
from pyramids.server.inputs import (
    ChatMessage,
    MoveMessage,
    PingMessage,
    PresenceMessage,
    SyncMessage,
    UndoMessage,
    parse_client_message,
)
from pyramids.server.limits import RateLimits, address_key
from pyramids.server.protocol import ProtocolError, error_message
from pyramids.server.rooms import Connection, Room, RoomManager, chat_history, dumps
from pyramids.server.sockets import SEND_TIMEOUT, Flood, QueuedBytes, SocketConnection

router = APIRouter()

#: seconds an address may not open WebSockets after one of them was closed for flooding
BARRED_SECONDS = 10.0
#: addresses remembered as barred before the expired ones are forgotten
MAX_BARRED = 10_000

#: refusals that leave the client behind the game: the error carries a fresh snapshot
_RESYNCING = frozenset({"stale-version", "not-your-turn", "game-over", "illegal-move"})


class SocketCounts:
    """Open WebSockets per client address (at most ``limit`` each), and the addresses
    barred for a while after one of their sockets was closed for flooding."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}
        self._barred: dict[str, float] = {}

    def bar(self, key: str, seconds: float = BARRED_SECONDS) -> None:
        """Refuse new sockets of ``key`` for ``seconds`` (it flooded; it would reconnect)."""
        if len(self._barred) >= MAX_BARRED:  # a flood of addresses: forget the expired
            now = time.monotonic()
            self._barred = {k: t for k, t in self._barred.items() if t > now}
        self._barred[key] = time.monotonic() + seconds

    def barred(self, key: str) -> bool:
        """Whether ``key`` may not open a socket now."""
        until = self._barred.get(key)
        if until is None:
            return False
        if until <= time.monotonic():
            del self._barred[key]
            return False
        return True

    def open(self, key: str) -> bool:
        """Count one more socket of ``key``; ``False`` (not counted) if it has ``limit``."""
        if self._open.get(key, 0) >= self.limit:
            return False
        self._open[key] = self._open.get(key, 0) + 1
        return True

    def close(self, key: str) -> None:
        """One socket of ``key`` closed."""
        self._open[key] -= 1
        if not self._open[key]:
            del self._open[key]


def socket_counts(connection: HTTPConnection) -> SocketCounts:
    """The server's open WebSockets per address (made by ``create_app``)."""
    counts: SocketCounts = connection.app.state.websockets
    return counts


@router.websocket("/ws/rooms/{room_id}")
async def ws_room(
    websocket: WebSocket,
    room_id: str,
    manager: Manager,
    limits: Limits,
    counts: Annotated[SocketCounts, Depends(socket_counts)],
    tr: Lang,
) -> None:
    address = client_address(websocket)
    key = address_key(address)
    if counts.barred(key):  # refused before the handshake completes: HTTP 403
        await websocket.close(code=4429)
        return
    await websocket.accept()
    if not counts.open(key):
        err = ProtocolError(
            "rate-limited",
            "too many open connections from your address (at most {limit})",
            {"retry_after": 10},
            limit=counts.limit,
        )
        await websocket.send_text(dumps(error_message(err, tr=tr)))
        await websocket.close(code=4429)
        return
    try:
        flooded = await _serve_socket(websocket, manager, limits, room_id, tr, address)
    finally:
        counts.close(key)
    if flooded:
        counts.bar(key)


async def _serve_socket(
    websocket: WebSocket,
    manager: RoomManager,
    limits: RateLimits,
    room_id: str,
    tr: Translator,
    address: str | None,
) -> bool:
    """Serve one socket; ``True`` if it was closed for flooding."""
    token = websocket.query_params.get("token")
    since_text = websocket.query_params.get("since")
    try:
        # in a cluster: caught up first, as this client may come from another instance
        room = await manager.get(room_id, fresh=True)
        seat = room.seat_for_token(token)
        since = int(since_text) if since_text not in (None, "") else None
    except ProtocolError as e:
        await websocket.send_text(dumps(error_message(e, tr=tr)))
        await websocket.close(code=4000 + e.status)
        return False
    except ValueError:
        err = ProtocolError("bad-request", "'since' must be a version number")
        await websocket.send_text(dumps(error_message(err, tr=tr)))
        await websocket.close(code=4400)
        return False
    queued: QueuedBytes = websocket.app.state.queued
    conn = SocketConnection(seat, tr, address, queued, address_key(address))
    # No await between subscribing and queueing the catch-up: no event can slip between.
    room.conns.add(conn)
    catch_up(room, conn, since)
    manager.presence.join(room, conn)
    sender = asyncio.create_task(_send_loop(websocket, conn))
    flood = Flood()
    try:
        while not conn.closed:
            conn.receiving = asyncio.current_task()  # the sender may cancel this wait
            raw = await websocket.receive()
            conn.receiving = None
            if raw["type"] == "websocket.disconnect":
                break
            await _handle(manager, limits, room, conn, flood, raw)
            if flood.over:
                conn.close_code = 4429
                conn.close()
    except WebSocketDisconnect:
        pass
    except asyncio.CancelledError:
        if not conn.dropped:  # cancelled from outside (shutdown): not ours to swallow
            raise
    finally:
        conn.receiving = None
        room.conns.discard(conn)
        manager.presence.leave(room, conn)
        conn.close()
        await sender
        manager.maybe_evict(room)
    return flood.over


async def _handle(
    manager: RoomManager,
    limits: RateLimits,
    room: Room,
    conn: Connection,
    flood: Flood,
    raw: Mapping[str, Any],
) -> None:
    """Answer one client message; every refusal is an error message, never a closed socket.

    The message is counted before it is read: one refused by the rate limit
    costs no parse, and only the first of a run of refusals is answered.
    """
    reply_to = None
    try:
        try:
            limits.check("messages", conn.address, conn.buckets)
        except ProtocolError as e:
            if flood.refuse():
                conn.send(error_message(e, None, conn.tr))
            return
        flood.accepted()
        text = raw.get("text")
        if text is None and raw.get("bytes") is not None:
            text = raw["bytes"].decode("utf-8", errors="replace")
        msg = parse_client_message(text or "")
        reply_to = msg.id
        match msg:
            case PingMessage():
                conn.send({"type": "pong", "version": room.version, "reply_to": reply_to})
            case SyncMessage(version=version):
                if version > room.version:  # more than this cache has (a cluster)
                    await manager.refresh(room)
                catch_up(room, conn, version)
            case MoveMessage(move=move, version=version):
                if conn.seat is not None:
                    limits.check("moves", conn.address, conn.buckets)
                await manager.submit_move(room, conn.seat, move, version, conn, reply_to)
            case UndoMessage(version=version):
                if conn.seat is not None:
                    limits.check("moves", conn.address, conn.buckets)
                await manager.undo(room, conn.seat, version, conn, reply_to)
            case PresenceMessage(state=state):
                manager.presence.set(room, conn, state)
            case ChatMessage(text=line):
                if conn.seat is not None:
                    limits.check("chat", conn.address, conn.buckets)
                await manager.chat(room, conn, line)
    except ProtocolError as e:
        extra: dict[str, Any] = {}
        if e.code in _RESYNCING:
            extra["snapshot"] = room.snapshot(conn.seat)
        conn.send(error_message(e, reply_to, conn.tr, **extra))


def catch_up(room: Room, conn: Connection, since: int | None) -> None:
    """Send what a (re)connecting client lacks: the missed events, or a fresh snapshot,
    then the recent chat if there is any (the client replaces what it had)."""
    missed = None if since is None else room.missed(since, conn.seat)
    if missed is None:
        conn.send(room.snapshot(conn.seat))
    else:
        for msg in missed:
            conn.send(msg)
        if not missed:
            conn.send({"type": "synced", "version": room.version})
    history = chat_history(room, conn.seat)
    if history is not None:
        conn.send(history)


async def _send_loop(websocket: WebSocket, conn: SocketConnection) -> None:
    """Write the connection's messages; drop a client that takes too long to read one.

    A dropped client may be sending nothing (so the receiving loop would wait
    for ever): that loop is cancelled, and the socket closed without waiting
    for a client that does not read.
    """
    try:
        while (text := await conn.next_text()) is not None:
            await asyncio.wait_for(websocket.send_text(text), SEND_TIMEOUT)
            conn.sent()
    except TimeoutError:
        conn.drop()
    except Exception:  # the client went away; the receive loop will notice
        conn.close()
    if conn.dropped and conn.receiving is not None:
        conn.receiving.cancel()
    if conn.closed:
        with contextlib.suppress(Exception):  # already closed by the client
            await asyncio.wait_for(websocket.close(code=conn.close_code), 1)
