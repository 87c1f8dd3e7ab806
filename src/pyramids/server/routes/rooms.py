"""Rooms over REST: creating one, its summary and a seat's snapshot, moves, undo, rematch.

A move or an undo sent here is the same event as over the WebSocket
(:meth:`pyramids.server.rooms.RoomManager.submit_move` and ``undo``): the
answer is the seat's snapshot after it, and a refusal carries the snapshot
too, so a client that was behind sees where the game is.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from pyramids.engine.registry import game_ids
from pyramids.server import openapi
from pyramids.server.dependencies import (
    FreshRoom,
    Lang,
    Limits,
    LiveRoom,
    Manager,
    client_address,
    typed_body,
)
from pyramids.server.errors import error_response
from pyramids.server.inputs import MoveRequest, NewRoom, RematchRequest, UndoRequest
from pyramids.server.openapi import errors
from pyramids.server.protocol import ProtocolError
from pyramids.server.rooms import Room

router = APIRouter()


def _count_room(request: Request, limits: Limits) -> None:
    """A new room counts against its address's limit before its body is read (so a
    refused request counts as well, and one refused with 429 costs no parse)."""
    limits.check("rooms", client_address(request))


@router.post(
    "/api/rooms",
    summary="Create a game: seats, bots, variant options; answers links",
    status_code=201,
    responses=errors(400, 404, 413, 429, 503),
    openapi_extra=openapi.body(openapi.create_schema(game_ids()), "the new room"),
    dependencies=[Depends(_count_room)],
)
async def create_room(
    spec: Annotated[NewRoom, typed_body(NewRoom)], manager: Manager
) -> JSONResponse:
    return JSONResponse(await manager.create(spec), status_code=201)


@router.get("/api/rooms/{room_id}", summary="Public summary of a game", responses=errors(400, 404))
async def room_summary(room: FreshRoom) -> dict[str, Any]:
    return room.summary()


@router.get(
    "/api/rooms/{room_id}/state",
    summary="A seat's snapshot (spectator without token)",
    responses=errors(400, 403, 404),
)
async def room_state(room: FreshRoom, token: str | None = None) -> dict[str, Any]:
    return room.snapshot(room.seat_for_token(token))


class SeatEvents:
    """Events a seat sends over REST: each answered with its snapshot after it, or with
    the refusal and the snapshot; its moves count against its limits."""

    def __init__(self, request: Request, limits: Limits, tr: Lang) -> None:
        self.address = client_address(request)
        self.limits = limits
        self.tr = tr

    async def answer(
        self, room: Room, token: str | None, act: Callable[[int | None], Awaitable[int]]
    ) -> JSONResponse:
        """``act`` for the seat of ``token`` (``None``: a spectator, whom it refuses)."""
        seat = room.seat_for_token(token)
        try:
            if seat is not None:
                self.limits.check("moves", self.address, seat_key=(room.id, seat))
            version = await act(seat)
        except ProtocolError as e:
            return error_response(e, self.tr, snapshot=room.snapshot(seat))
        return JSONResponse({"version": version, **room.snapshot(seat)})


Events = Annotated[SeatEvents, Depends()]


@router.post(
    "/api/rooms/{room_id}/moves",
    summary="Play a move: {token, move, version}",
    responses=errors(400, 403, 404, 409, 413, 422, 429, 503),
    openapi_extra=openapi.body(openapi.MOVE_SCHEMA, "the move"),
)
async def post_move(
    room: LiveRoom,
    body: Annotated[MoveRequest, typed_body(MoveRequest)],
    manager: Manager,
    events: Events,
) -> JSONResponse:
    def play(seat: int | None) -> Awaitable[int]:
        return manager.submit_move(room, seat, body.move, body.version)

    return await events.answer(room, body.token, play)


@router.post(
    "/api/rooms/{room_id}/undo",
    summary="Take back the last move (solitaire only)",
    responses=errors(400, 403, 404, 409, 413, 429, 503),
    openapi_extra=openapi.body(openapi.UNDO_SCHEMA, "the undo"),
)
async def post_undo(
    room: LiveRoom,
    body: Annotated[UndoRequest, typed_body(UndoRequest)],
    manager: Manager,
    events: Events,
) -> JSONResponse:
    def undo(seat: int | None) -> Awaitable[int]:
        return manager.undo(room, seat, body.version)

    return await events.answer(room, body.token, undo)


@router.post(
    "/api/rooms/{room_id}/rematch",
    summary="A finished game again: same seats and links, new deal ({token})",
    status_code=201,
    responses=errors(400, 403, 404, 409, 413, 503),
    openapi_extra=openapi.body(openapi.TOKEN_SCHEMA, "the seat asking"),
)
async def post_rematch(
    room: LiveRoom, body: Annotated[RematchRequest, typed_body(RematchRequest)], manager: Manager
) -> JSONResponse:
    seat = room.seat_for_token(body.token)
    return JSONResponse(await manager.rematch(room, seat), status_code=201)
