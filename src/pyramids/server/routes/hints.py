"""The solver's hint for the seat to move (games with a solver: :mod:`pyramids.server.hints`).

A hint holds a core for up to 3 s, so the whole server computes at most
:data:`limits.HINTS_AT_ONCE` at a time (:class:`HintSlots`), besides each
address's own rate limit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from starlette.requests import HTTPConnection

from pyramids.server.dependencies import Limits, LiveRoom, client_address
from pyramids.server.hints import hint_available, hint_for
from pyramids.server.limits import HINTS_AT_ONCE
from pyramids.server.openapi import errors
from pyramids.server.protocol import ProtocolError

router = APIRouter()


class HintSlots:
    """The hints being computed now, over the whole server, and how many may be."""

    def __init__(self, limit: int = HINTS_AT_ONCE) -> None:
        self.limit = limit
        self.running = 0

    def check(self) -> None:
        """Refuse (``rate-limited``) while every slot is taken."""
        if self.running >= self.limit:
            raise ProtocolError(
                "rate-limited",
                "the solver is busy with other hints: try again in {seconds} s",
                {"retry_after": 3},
                seconds=3,
            )

    @contextmanager
    def taken(self) -> Iterator[None]:
        """Hold a slot for the ``with`` block (checked just before, with no await between)."""
        self.running += 1
        try:
            yield
        finally:
            self.running -= 1


def hint_slots(connection: HTTPConnection) -> HintSlots:
    """The server's hint slots (made by ``create_app``)."""
    slots: HintSlots = connection.app.state.hints
    return slots


@router.get(
    "/api/rooms/{room_id}/hint",
    summary="A suggested move (games with a solver)",
    responses=errors(400, 403, 404, 409, 429),
)
async def hint(
    request: Request,
    room: LiveRoom,
    limits: Limits,
    slots: Annotated[HintSlots, Depends(hint_slots)],
    token: str | None = None,
) -> dict[str, Any]:
    seat = room.seat_for_token(token)
    if seat is None:
        raise ProtocolError("spectator", "spectators get no hints")
    if not hint_available(room.game.id):
        raise ProtocolError("no-hint", "there is no hint for this game")
    if room.state.is_over or room.state.current_player != seat:
        raise ProtocolError("not-your-turn", "a hint is for the seat to move")
    slots.check()
    limits.check("hints", client_address(request), seat_key=(room.id, seat))
    state = room.state.copy()
    with slots.taken():
        try:
            found = await asyncio.to_thread(hint_for, state, room.version)
        except (ValueError, TypeError) as e:
            raise ProtocolError(
                "no-hint", "the solver found no hint: {error}", error=str(e)
            ) from None
    if found is None:
        raise ProtocolError("no-hint", "the solver found no hint for this position")
    return {"version": room.version, **found}
