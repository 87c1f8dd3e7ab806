"""Chat: a seated player's lines, stored, numbered per room and sent to who may read them.

On a single server a line takes the next number at once. In a cluster two
instances may take one number at the same moment: the database's key (room,
number) lets one store it; the other reads the lines it missed, shows them,
and numbers its own line again. Lines stored elsewhere arrive through the
broker (:meth:`Chat.remote`).
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from pyramids.server.inputs import has_control_characters
from pyramids.server.protocol import ProtocolError
from pyramids.server.room import Connection, Room
from pyramids.server.storage import ChatRow, ConflictError, StorageError, Store

if TYPE_CHECKING:
    from pyramids.cluster.broker import Broker

#: a chat line is at most this long (how often one may be sent: :mod:`.limits`)
CHAT_MAX_LENGTH = 300


class Chat:
    """The chat of every room of this process."""

    def __init__(self, store: Store, broker: Broker | None) -> None:
        self.store = store
        self.broker = broker

    async def chat(self, room: Room, conn: Connection, text: str) -> None:
        """Store a seated player's chat line and send it to whoever may read the chat.

        Why these limits: a chat is for the table, not a channel for floods or for
        smuggling data to spectators (they read it only where the room allows).
        How often a connection may chat is checked before (:mod:`.limits`).
        """
        if conn.seat is None:
            raise ProtocolError("spectator", "spectators watch: they cannot chat")
        line = " ".join(text.split())
        if not 0 < len(line) <= CHAT_MAX_LENGTH:
            raise ProtocolError(
                "bad-message", "a chat line is 1 to {limit} characters", limit=CHAT_MAX_LENGTH
            )
        if has_control_characters(line):
            raise ProtocolError("bad-message", "a chat line cannot hold control characters")
        if self.broker is not None:
            await self._clustered(room, conn.seat, line, self.broker)
            return
        seq = room.chat[-1].seq + 1 if room.chat else 1
        row = ChatRow(seq, conn.seat, line, time.time())
        room.chat.append(row)  # before the await: two lines cannot take one seq
        try:
            await asyncio.wrap_future(self.store.add_chat(room.id, row))
        except StorageError:
            room.chat.remove(row)
            raise ProtocolError("storage", "the chat line could not be saved") from None
        send_chat(room, row)

    async def _clustered(self, room: Room, seat: int, line: str, broker: Broker) -> None:
        """A chat line in a cluster: numbered one at a time, renumbered if another instance
        took the number first (the lines it stored are then read and shown here)."""
        async with room.chat_lock:
            for _ in range(5):
                seq = room.chat[-1].seq + 1 if room.chat else 1
                row = ChatRow(seq, seat, line, time.time())
                try:
                    await asyncio.wrap_future(self.store.add_chat(room.id, row))
                except ConflictError:
                    await self.catch_up_locked(room)
                    continue
                except StorageError:
                    raise ProtocolError("storage", "the chat line could not be saved") from None
                room.chat.append(row)
                send_chat(room, row)
                broker.publish(
                    {"t": "chat", "r": room.id, "q": seq, "s": seat, "x": line, "a": row.created_at}
                )
                return
        raise ProtocolError("storage", "the chat line could not be saved")

    async def catch_up_locked(self, room: Room) -> None:
        """Show and keep the chat lines stored after the last one this room knows."""
        lines = await asyncio.to_thread(self.store.load_chat, room.id)
        last = room.chat[-1].seq if room.chat else 0
        for row in lines:
            if row.seq > last:
                room.chat.append(row)
                send_chat(room, row)

    async def remote(self, room: Room, msg: dict[str, Any]) -> None:
        """A line another instance stored (in order; a gap is read from the database)."""
        seq, seat, text, at = msg.get("q"), msg.get("s"), msg.get("x"), msg.get("a")
        if not (isinstance(seq, int) and isinstance(seat, int) and isinstance(text, str)):
            return
        if not 0 <= seat < room.players:
            return
        async with room.chat_lock:
            last = room.chat[-1].seq if room.chat else 0
            if seq == last + 1:
                row = ChatRow(seq, seat, text, float(at) if isinstance(at, int | float) else 0.0)
                room.chat.append(row)
                send_chat(room, row)
            elif seq > last + 1:
                await self.catch_up_locked(room)


def chat_message(room: Room, row: ChatRow) -> dict[str, Any]:
    """One chat line as sent to clients (the seat's public name with it)."""
    return {
        "type": "chat",
        "seq": row.seq,
        "seat": row.seat,
        "name": room.seats[row.seat].name,
        "text": row.text,
        "at": row.created_at,
    }


def send_chat(room: Room, row: ChatRow) -> None:
    """Send a chat line to whoever in the room may read the chat."""
    msg = chat_message(room, row)
    for other in list(room.conns):
        if other.seat is not None or room.spectator_chat:
            other.send(msg)


def chat_history(room: Room, seat: int | None) -> dict[str, Any] | None:
    """The recent chat for a (re)connecting client; None if it may not read it or if the
    room has no chat yet (then nothing extra is sent at all)."""
    if (seat is None and not room.spectator_chat) or not room.chat:
        return None
    return {"type": "chat-history", "lines": [chat_message(room, r) for r in room.chat]}
