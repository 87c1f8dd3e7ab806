"""A finished game's review: started once, computed in the background, then stored.

The work and the storage are :class:`pyramids.server.reviews.Reviews`'s; these
routes only ask it (``docs/review.md``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from pyramids.server.dependencies import ServerReviews, client_address
from pyramids.server.openapi import errors

router = APIRouter()


@router.get(
    "/api/rooms/{room_id}/review",
    summary="A finished game's review: its status, and the review once computed",
    responses=errors(400, 404, 409),
)
async def review_status(room_id: str, found: ServerReviews) -> dict[str, Any]:
    return await found.status(room_id)


@router.post(
    "/api/rooms/{room_id}/review",
    summary="Start the review of a finished game (computed once, in the background)",
    responses=errors(400, 404, 409, 429),
)
async def review_start(request: Request, room_id: str, found: ServerReviews) -> dict[str, Any]:
    return await found.start(room_id, client_address(request))
