"""The FastAPI application: REST for the lobby, one WebSocket per game connection, the web app.

Routes (details, messages and error codes in ``docs/server.md``), one module
each under :mod:`pyramids.server.routes`:

* ``GET /api/games`` - the games, their options and the bots that play them (``games``);
* ``POST /api/rooms`` - create a game; answers each human seat's secret link (``rooms``);
* ``GET /api/rooms/{room}`` - public summary; ``GET .../state`` - a seat's snapshot (``rooms``);
* ``POST /api/rooms/{room}/moves`` and ``.../undo`` - the same as the WebSocket messages;
* ``GET /api/rooms/{room}/hint`` - the solver's suggestion (``hints``);
* ``GET /api/rooms/{room}/replay`` and ``.../record`` - once the game is over (``records``);
* ``GET``/``POST /api/rooms/{room}/review`` - a finished game's review (``reviews``);
* ``WS /ws/rooms/{room}?token=...&since=N`` - live events for a seat or a spectator
  (``websocket``); the web app's page and the API docs (``pages``).

This module only assembles them: the server's objects on ``app.state``
(:mod:`pyramids.server.dependencies`), its start-up and shutdown, the
middleware, the one error format (:mod:`pyramids.server.errors`) and the
OpenAPI description.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

from fastapi import FastAPI

from pyramids import __version__
from pyramids.server import openapi
from pyramids.server.asgi import BodyLimit, SecurityHeaders
from pyramids.server.dependencies import scope_language
from pyramids.server.errors import add_error_handlers, limit_error_logs
from pyramids.server.guard import ConnectionLimits
from pyramids.server.heap import freeze_long_lived_heap
from pyramids.server.limits import RateLimits
from pyramids.server.protocol import MAX_BODY
from pyramids.server.reviews import Reviews
from pyramids.server.rooms import RoomManager
from pyramids.server.routes import games, hints, pages, records, reviews, rooms, websocket
from pyramids.server.routes.hints import HintSlots
from pyramids.server.routes.pages import WEB_DIR
from pyramids.server.routes.websocket import SocketCounts
from pyramids.server.sockets import QueuedBytes
from pyramids.server.static import IMMUTABLE, REVALIDATE, static_files, versioned_prefix
from pyramids.server.storage import Store

log = logging.getLogger("pyramids.server")

DEFAULT_DATABASE_URL = "sqlite:///pyramids.db"

#: every route of the server, in the order they are matched
ROUTERS = (
    games.router,
    rooms.router,
    hints.router,
    records.router,
    reviews.router,
    websocket.router,
    pages.router,
)


def create_app(
    database_url: str = DEFAULT_DATABASE_URL,
    bot_delay: float = 0.4,
    freeze_heap: bool = False,
    rate_limits: RateLimits | None = None,
    connection_limits: ConnectionLimits | None = None,
    broker_url: str | None = None,
    bot_lease: float = 5.0,
) -> FastAPI:
    """The server application on ``database_url``; bots wait ``bot_delay`` s before moving.

    Why the delay: a person playing against bots should see each bot move land;
    tests and benchmarks set it to 0. ``freeze_heap`` tunes the garbage
    collector of the whole process once started (:mod:`pyramids.server.heap`):
    ``pyramids serve`` sets it; an application embedded in another process
    (tests) leaves that process's collector alone. ``rate_limits`` defaults to
    :data:`limits.DEFAULTS`; of ``connection_limits`` the app applies the
    WebSockets per address (the rest is the transport's, :mod:`.guard`).

    ``broker_url`` (``redis://HOST:PORT/DB``) makes this one instance of a
    cluster sharing ``database_url`` with others (``docs/deploy.md``); a bot
    whose instance died is taken over after ``bot_lease`` seconds. Without it
    the server is on its own, as ever, and Redis is never imported.
    """

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = Store(database_url)
        broker = None
        if broker_url is not None:
            from pyramids.cluster.broker import Broker

            broker = Broker(broker_url, lease_seconds=bot_lease)
            try:
                await broker.connect()
            except Exception:
                await asyncio.to_thread(store.close)
                raise
        manager = RoomManager(store, bot_delay=bot_delay, broker=broker)
        _app.state.manager = manager
        _app.state.reviews = Reviews(manager)
        if broker is not None:
            manager.start_cluster()
        manager.start_clocks()
        if freeze_heap:  # before any game is loaded: only what lives as long as the process
            frozen = freeze_long_lived_heap()
            log.debug("%d long-lived objects left out of garbage collection", frozen)
        resumed = await manager.resume_all()
        if resumed:
            log.info("resumed %d unfinished games", resumed)
        try:
            yield
        finally:
            await _app.state.reviews.close()
            await manager.close()
            if broker is not None:
                await broker.close()
            await asyncio.to_thread(store.close)

    app = FastAPI(
        generate_unique_id_function=lambda route: route.name,
        title="Pyramids game server",
        version=__version__,
        description="Lobby, games and live play for the four Pyramids games. "
        "See docs/server.md for the WebSocket protocol and docs/security.md for the limits. "
        'Every error is answered as `{"error": {"code", "reason", "params"}}`.',
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    # outermost first: the headers go on every answer, the 413 included
    app.add_middleware(BodyLimit, limit=MAX_BODY, lang_of=scope_language)
    app.add_middleware(SecurityHeaders)
    app.state.limits = rate_limits if rate_limits is not None else RateLimits()
    app.state.websockets = SocketCounts(
        (connection_limits or ConnectionLimits()).websockets_per_address
    )
    app.state.hints = HintSlots()
    app.state.queued = QueuedBytes()
    add_error_handlers(app)
    limit_error_logs()
    app.openapi = partial(_openapi_schema, app)  # type: ignore[method-assign]
    for router in ROUTERS:
        app.include_router(router)
    # the versioned address first: the plain mount would take it for a folder name
    app.mount(versioned_prefix(WEB_DIR), static_files(WEB_DIR, IMMUTABLE), name="versioned")
    app.mount("/static", static_files(WEB_DIR, REVALIDATE), name="static")
    return app


def _openapi_schema(app: FastAPI) -> dict[str, Any]:
    """FastAPI's description of ``app``, made once, tidied (:func:`openapi.tidy_openapi`)."""
    if app.openapi_schema is None:
        from fastapi.openapi.utils import get_openapi

        schema = get_openapi(
            title=app.title,
            version=app.version,
            description=app.description,
            routes=app.routes,
        )
        app.openapi_schema = openapi.tidy_openapi(schema)
    return app.openapi_schema
