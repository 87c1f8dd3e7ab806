"""What a route is given (FastAPI dependencies): the server's objects, the request's
language, the room its path names, and its body as a typed object.

The server's objects live on ``app.state``: :func:`pyramids.server.app.create_app`
puts the rate limits and the connection counters there, its start-up the room
manager and the reviews. Why there and not in closures: a route module is then
a plain :class:`fastapi.APIRouter` that any app can include (a test mounts
only the routes it needs), and a route names what it uses in its signature.

Why bodies through dependencies and not as FastAPI body parameters: FastAPI
would decode the JSON with ``json.loads``, without the bounds of
:func:`protocol.parse_json` (long numbers, depth, lone surrogates), and
answer its own ``422``. Here the body is read once per request
(:func:`json_body`, cached by FastAPI), then validated into its model
(:func:`typed_body`) before the route runs; a refusal is the server's error
object, in the request's language.
"""

from __future__ import annotations

import contextlib
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from pyramids.i18n import Translator, check_language, negotiate, translator
from pyramids.server.inputs import Input
from pyramids.server.limits import RateLimits
from pyramids.server.protocol import parse_json
from pyramids.server.reviews import Reviews
from pyramids.server.rooms import Room, RoomManager

M = TypeVar("M", bound=Input)


def room_manager(connection: HTTPConnection) -> RoomManager:
    """The server's rooms (made at start-up)."""
    manager: RoomManager = connection.app.state.manager
    return manager


def rate_limits(connection: HTTPConnection) -> RateLimits:
    """The server's rate limits (:mod:`pyramids.server.limits`)."""
    limits: RateLimits = connection.app.state.limits
    return limits


def reviews(connection: HTTPConnection) -> Reviews:
    """The server's reviews of finished games (made at start-up)."""
    found: Reviews = connection.app.state.reviews
    return found


def language_of(lang: str | None, accept_language: str | None) -> str:
    """The language of a request: ``?lang=`` if it names one of ours, else the header's."""
    if lang:
        with contextlib.suppress(ValueError):
            return check_language(lang)
    return negotiate(accept_language)


def translator_of(connection: HTTPConnection) -> Translator:
    """The request's (or WebSocket's) language, from ``?lang=`` or ``Accept-Language``."""
    return translator(
        language_of(connection.query_params.get("lang"), connection.headers.get("accept-language"))
    )


def scope_language(scope: Any) -> str:
    """The language of a raw ASGI request (for middleware that answers before the app)."""
    return translator_of(HTTPConnection(scope)).lang


def client_address(connection: HTTPConnection) -> str | None:
    """The client's address (rate limits are per address)."""
    return connection.client.host if connection.client else None


Manager = Annotated[RoomManager, Depends(room_manager)]
Limits = Annotated[RateLimits, Depends(rate_limits)]
ServerReviews = Annotated[Reviews, Depends(reviews)]
Lang = Annotated[Translator, Depends(translator_of)]


async def live_room(room_id: str, manager: Manager) -> Room:
    """The room of the path, as this instance has it (moves check their version anyway)."""
    return await manager.get(room_id)


async def fresh_room(room_id: str, manager: Manager) -> Room:
    """The room of the path, caught up with the database first in a cluster (reads)."""
    return await manager.get(room_id, fresh=True)


LiveRoom = Annotated[Room, Depends(live_room)]
FreshRoom = Annotated[Room, Depends(fresh_room)]


async def json_body(request: Request, limits: Limits) -> Any:
    """The request's JSON body, within the bounds of :func:`protocol.parse_json`.

    Its size was bounded before (:class:`asgi.BodyLimit`: 413 past ``MAX_BODY``).
    It counts as one of its address's messages before it is read: a flood
    refused with 429 costs no parse.
    """
    limits.check("messages", client_address(request))
    return parse_json(await request.body() or b"{}")


JsonBody = Annotated[Any, Depends(json_body)]


def typed_body(model: type[M]) -> Any:
    """The dependency that gives the body as ``model`` (``Annotated[Model, typed_body(Model)]``)."""

    def typed(body: JsonBody) -> M:
        return model.parse(body)

    typed.__name__ = f"{model.__name__}_body"
    return Depends(typed)
