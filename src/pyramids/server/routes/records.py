"""A finished game: its replay, position by position, and its record.

Why only once it is over: the replay shows what a seat saw at each ply, and
the record the seed (the reveal) that fixes every hidden card; while the game
runs, both would tell the players what they may not know yet.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from pyramids.engine.errors import SeatError
from pyramids.engine.state import check_seat
from pyramids.server.dependencies import FreshRoom, Manager
from pyramids.server.openapi import errors
from pyramids.server.protocol import ProtocolError
from pyramids.server.rooms import Room

router = APIRouter()


def _need_over(room: Room) -> None:
    if not room.over:
        raise ProtocolError("not-finished", "replays and records are shown once the game is over")


@router.get(
    "/api/rooms/{room_id}/replay",
    summary="A finished game, position by position",
    responses=errors(400, 404, 409),
)
async def replay(
    room_id: str, manager: Manager, seat: int | None = None, ply: int | None = None
) -> Any:
    # the room is looked up here, not as a dependency: the query is checked first
    room = await manager.get(room_id, fresh=True)
    _need_over(room)
    if seat is not None:
        try:
            check_seat(seat, room.players)
        except SeatError as e:
            raise ProtocolError.from_engine("bad-request", e) from None
    states = await asyncio.to_thread(room.replay_states)
    if ply is None:
        ply = len(states) - 1
    if not 0 <= ply < len(states):
        raise ProtocolError("bad-request", "ply must be from 0 to {last}", last=len(states) - 1)
    return {
        "room": room.id,
        "game": room.game.id,
        "title": room.game.title,
        "seat": seat,
        "seats": [s.to_dict() for s in room.public_seats()],
        "moves": list(room.moves),
        "ply": ply,
        "view": states[ply].view(seat),
        "seed": room.seed,
        "practice": room.practice,
        "commitment": room.commitment,
        "reveal": room.reveal(),
    }


@router.get(
    "/api/rooms/{room_id}/record",
    summary="The game record (finished games only), with the deal's commitment and reveal",
    responses=errors(400, 404, 409),
)
async def record(room: FreshRoom) -> dict[str, Any]:
    _need_over(room)
    return await asyncio.to_thread(room.record)
