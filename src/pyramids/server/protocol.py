"""What the server says to a seat, and the error objects it answers bad input with.

Every message to a seat is built here and only here, from ``view(seat)`` of
the state plus public facts about the room (seat names and kinds). Why one
place: the leak test can check this module's output against ``view`` for
every game and seat, and no handler can attach anything else by accident
(not the seed, not the setup, not the moves of other seats).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from pyramids.engine.state import State

# -- error codes ----------------------------------------------------------------

#: code -> HTTP status used by the REST endpoints (WebSocket errors carry the code only)
ERROR_STATUS: dict[str, int] = {
    "bad-json": 400,
    "bad-message": 400,
    "bad-request": 400,
    "unknown-game": 404,
    "unknown-room": 404,
    "bad-token": 403,
    "spectator": 403,
    "not-your-turn": 409,
    "stale-version": 409,
    "illegal-move": 422,
    "game-over": 409,
    "undo-not-allowed": 409,
    "nothing-to-undo": 409,
    "not-finished": 409,
    "no-hint": 409,
    "storage": 503,
}


class ProtocolError(Exception):
    """A request the server refuses; the game's state is unchanged.

    ``code`` is one of :data:`ERROR_STATUS`; ``reason`` is a sentence for a
    person; ``extra`` adds structured details (the rule of an illegal move).
    """

    def __init__(self, code: str, reason: str, **extra: Any) -> None:
        assert code in ERROR_STATUS, code
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.extra = extra

    @property
    def status(self) -> int:
        """HTTP status for this error."""
        return ERROR_STATUS[self.code]

    def to_dict(self) -> dict[str, Any]:
        """The error object sent to clients: ``{"code", "reason", ...}``."""
        return {"code": self.code, "reason": self.reason, **self.extra}


# -- messages ----------------------------------------------------------------------


@dataclass(frozen=True)
class PublicSeat:
    """What everybody may know about a seat: its name and who plays it."""

    seat: int
    name: str
    kind: str
    agent: str | None
    level: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "seat": self.seat,
            "name": self.name,
            "kind": self.kind,
            "agent": self.agent,
            "level": self.level,
        }


def legal_for(state: State[Any], seat: int | None) -> list[str] | None:
    """The legal moves in notation, for the seat to move only (``None`` for anyone else)."""
    if seat is None or state.is_over or state.current_player != seat:
        return None
    return [state.move_to_str(m) for m in state.legal_moves()]


def seat_payload(state: State[Any], seat: int | None) -> dict[str, Any]:
    """The part of every state-carrying message that depends on the state: view and legal moves."""
    return {"view": state.view(seat), "legal": legal_for(state, seat)}


def snapshot_message(
    room_id: str,
    version: int,
    state: State[Any],
    seat: int | None,
    seats: list[PublicSeat],
    can_undo: bool,
) -> dict[str, Any]:
    """The full picture for one seat: sent on connect, on resync and with stale-move errors."""
    return {
        "type": "snapshot",
        "room": room_id,
        "game": state.game.id,
        "title": state.game.title,
        "version": version,
        "seat": seat,
        "seats": [s.to_dict() for s in seats],
        "can_undo": can_undo,
        **seat_payload(state, seat),
    }


def event_message(
    room_id: str,
    version: int,
    kind: str,
    mover: int | None,
    move_text: str | None,
    payload: dict[str, Any],
    seat: int | None,
    can_undo: bool,
    reply_to: Any = None,
) -> dict[str, Any]:
    """One accepted event as seen by ``seat``; ``payload`` is :func:`seat_payload` for it.

    The notation of the move is sent to the seat that made it only: for other
    seats a move may name something they cannot see (a card drawn), and what
    they may learn from it is already in their new view.
    """
    msg: dict[str, Any] = {
        "type": "event",
        "room": room_id,
        "version": version,
        "event": {
            "kind": kind,
            "seat": mover,
            "move": move_text if seat is not None and seat == mover else None,
        },
        "can_undo": can_undo,
        **payload,
    }
    if reply_to is not None:
        msg["reply_to"] = reply_to
    return msg


def error_message(err: ProtocolError, reply_to: Any = None, **extra: Any) -> dict[str, Any]:
    """An error as a WebSocket message."""
    msg: dict[str, Any] = {"type": "error", "error": err.to_dict(), **extra}
    if reply_to is not None:
        msg["reply_to"] = reply_to
    return msg


#: keys a client message may have, per type
CLIENT_TYPES: dict[str, tuple[str, ...]] = {
    "move": ("move", "version"),
    "undo": ("version",),
    "sync": ("version",),
    "ping": (),
}


def parse_client_message(raw: str) -> dict[str, Any]:
    """Check a client's WebSocket message; :class:`ProtocolError` if malformed."""
    try:
        msg = orjson.loads(raw)
    except (orjson.JSONDecodeError, UnicodeDecodeError) as e:
        raise ProtocolError("bad-json", f"the message is not valid JSON ({e})") from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad-message", "a message must be a JSON object")
    kind = msg.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "bad-message",
            f"unknown message type {kind!r}; expected one of {', '.join(CLIENT_TYPES)}",
        )
    for key in CLIENT_TYPES[kind]:
        if key not in msg:
            raise ProtocolError("bad-message", f"a {kind!r} message needs {key!r}")
    if "version" in msg and (
        not isinstance(msg["version"], int) or isinstance(msg["version"], bool)
    ):
        raise ProtocolError("bad-message", "'version' must be a whole number")
    if kind == "move" and not isinstance(msg["move"], str):
        raise ProtocolError("bad-message", "'move' must be the move's notation as text")
    if not _echoable(msg.get("id")):
        raise ProtocolError(
            "bad-message",
            f"'id' must be a whole number (at most 2**53 either way) or a text of at most "
            f"{MAX_ID_LENGTH} characters: it comes back as 'reply_to'",
        )
    return msg


#: the longest text a client may use as a message ``id``
MAX_ID_LENGTH = 64


def _echoable(ident: Any) -> bool:
    """Whether ``ident`` comes back unchanged as ``reply_to`` in every client's JSON.

    Why: a larger integer is a float to JavaScript (and to our decoder past
    64 bits), and a deep structure could not be encoded back at all, so the
    client would never recognise its answer.
    """
    if ident is None:
        return True
    if isinstance(ident, str):
        return len(ident) <= MAX_ID_LENGTH
    return isinstance(ident, int) and not isinstance(ident, bool) and abs(ident) <= 2**53
