"""The FastAPI application: REST for the lobby, one WebSocket per game connection, the web app.

Routes (details, messages and error codes in ``docs/server.md``):

* ``GET /api/games`` - the games, their options and the bots that play them;
* ``POST /api/rooms`` - create a game; answers each human seat's secret link;
* ``GET /api/rooms/{room}`` - public summary; ``GET .../state`` - a seat's snapshot;
* ``POST /api/rooms/{room}/moves`` and ``.../undo`` - the same as the WebSocket messages;
* ``GET /api/rooms/{room}/replay`` and ``.../record`` - once the game is over;
* ``WS /ws/rooms/{room}?token=...&since=N`` - live events for a seat or a spectator.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as FastAPIPath
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from pyramids import __version__
from pyramids.engine.errors import UnknownGame
from pyramids.engine.registry import all_games, game_ids, get_game
from pyramids.i18n import LANGUAGES, Translator, check_language, negotiate, translator
from pyramids.i18n.build import option_label
from pyramids.i18n.web import catalog_json
from pyramids.server import openapi
from pyramids.server.asgi import BodyLimit, SecurityHeaders, docs_policy
from pyramids.server.bots import bot_choices
from pyramids.server.guard import ConnectionLimits
from pyramids.server.heap import freeze_long_lived_heap
from pyramids.server.hints import hint_available, hint_for
from pyramids.server.inputs import (
    ChatMessage,
    MoveMessage,
    MoveRequest,
    NewRoom,
    PingMessage,
    RematchRequest,
    SyncMessage,
    UndoMessage,
    UndoRequest,
    parse_client_message,
)
from pyramids.server.limits import HINTS_AT_ONCE, RateLimits, address_key
from pyramids.server.openapi import errors
from pyramids.server.protocol import (
    MAX_BODY,
    ProtocolError,
    error_message,
    parse_json,
    shown,
)
from pyramids.server.review_routes import add_review_routes
from pyramids.server.rooms import Connection, Room, RoomManager, chat_history, dumps
from pyramids.server.rules_pages import rules_page
from pyramids.server.storage import Store

log = logging.getLogger("pyramids.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"

DEFAULT_DATABASE_URL = "sqlite:///pyramids.db"


def _error_response(err: ProtocolError, tr: Translator | None, **extra: Any) -> JSONResponse:
    headers = {}
    if err.code == "rate-limited":
        headers["Retry-After"] = str(err.extra.get("retry_after", 1))
    return JSONResponse(
        {"error": err.to_dict(tr), **extra}, status_code=err.status, headers=headers
    )


def language_of(lang: str | None, accept_language: str | None) -> str:
    """The language of a request: ``?lang=`` if it names one of ours, else the header's."""
    if lang:
        with contextlib.suppress(ValueError):
            return check_language(lang)
    return negotiate(accept_language)


def _translator(request: Request | WebSocket) -> Translator:
    return translator(
        language_of(request.query_params.get("lang"), request.headers.get("accept-language"))
    )


def _scope_language(scope: Any) -> str:
    """The language of a raw ASGI request (for middleware that answers before the app)."""
    return _translator(Request(scope)).lang


async def _read_json(request: Request) -> Any:
    """The request's JSON body, within the bounds of :func:`protocol.parse_json`.

    Its size was bounded before (:class:`asgi.BodyLimit`: 413 past ``MAX_BODY``).
    """
    body = await request.body()
    return parse_json(body or b"{}")


def _client_address(connection: Request | WebSocket) -> str | None:
    return connection.client.host if connection.client else None


def _game_info(game_id: str, tr: Translator) -> dict[str, Any]:
    g = get_game(game_id)
    return {
        "id": g.id,
        "title": tr.lookup(f"game:{g.id}", g.title),
        "summary": tr.lookup(f"game-summary:{g.id}", g.summary) if g.summary else "",
        "min_players": g.min_players,
        "max_players": g.max_players,
        "options": [
            {
                "name": o.name,
                "label": tr.lookup(f"option:{g.id}:{o.name}", option_label(o.name)),
                "default": o.default,
                "kind": o.kind.__name__,
                "doc": tr.lookup(f"option-doc:{g.id}:{o.name}", o.doc),
                "minimum": o.minimum,
                "maximum": o.maximum,
                "choices": list(o.choices),
                "also": list(o.also),
            }
            for o in g.options
        ],
        "bots": bot_choices(g.id),
        "board": board_module(g.id),
        "board_css": (WEB_DIR / "boards" / f"{g.id}.css").is_file(),
        # seats with secrets: a shared screen is covered between their turns
        "secrets": g.secret_seats,
        "undo": g.max_players == 1,
        "hint": hint_available(g.id),
    }


def board_module(game_id: str) -> str | None:
    """The web board of a game, found by convention: ``web/boards/<game id>.js``.

    ``None`` means the page uses its generic board (every legal move as a button).
    """
    return game_id if (WEB_DIR / "boards" / f"{game_id}.js").is_file() else None


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route of the app serves at this request's path."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches(request.scope)
        if match != Match.NONE:
            methods |= set(getattr(route, "methods", None) or ())
    return sorted(methods)


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
    holder: dict[str, Any] = {}
    limits = rate_limits if rate_limits is not None else RateLimits()
    websockets_per_address = (connection_limits or ConnectionLimits()).websockets_per_address
    #: open WebSockets per client address
    sockets: dict[str, int] = {}
    #: hints being computed now (each holds a core for up to 3 s)
    hints_running = [0]

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
        holder["store"] = store
        holder["manager"] = manager
        _app.state.manager = manager  # for tests and tools running the app in-process
        if broker is not None:
            manager.start_cluster()
        if freeze_heap:  # before any game is loaded: only what lives as long as the process
            frozen = freeze_long_lived_heap()
            log.debug("%d long-lived objects left out of garbage collection", frozen)
        resumed = await manager.resume_all()
        if resumed:
            log.info("resumed %d unfinished games", resumed)
        try:
            yield
        finally:
            if "reviews" in holder:
                await holder["reviews"].close()
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
    app.add_middleware(BodyLimit, limit=MAX_BODY, lang_of=_scope_language)
    app.add_middleware(SecurityHeaders)

    def manager() -> RoomManager:
        m: RoomManager = holder["manager"]
        return m

    @app.exception_handler(ProtocolError)
    async def protocol_error(request: Request, exc: ProtocolError) -> JSONResponse:
        return _error_response(exc, _translator(request))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """Starlette's own errors (no such path, wrong method) in the one error format."""
        if exc.status_code == 405:
            err = ProtocolError(
                "method-not-allowed",
                "{method} is not allowed here",
                method=shown(request.method),
            )
        elif exc.status_code == 404:
            err = ProtocolError(
                "not-found", "there is nothing at {path}", path=shown(request.url.path, 80)
            )
        else:
            err = ProtocolError(
                "bad-request", "the request was refused ({status})", status=exc.status_code
            )
        response = _error_response(err, _translator(request))
        for name, value in (exc.headers or {}).items():
            response.headers[name] = value
        if exc.status_code == 405:
            # Starlette names the methods of the first route with this path only; a path
            # served by several routes (GET and POST of a review) allows all of theirs
            response.headers["Allow"] = ", ".join(_allowed_methods(request))
        return response

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        """A query parameter of the wrong type (``?seat=x``): 400, naming the parameter."""
        problems = exc.errors()
        first = problems[0] if problems else {}
        name = shown(str(first.get("loc", ("?",))[-1]))
        if str(first.get("type", "")).startswith("int"):
            err = ProtocolError(
                "bad-request", "the parameter {name} must be a whole number", name=name
            )
        else:
            err = ProtocolError("bad-request", "the parameter {name} is not valid", name=name)
        return _error_response(err, _translator(request))

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        """A bug: logged with its traceback; the client gets the error object, nothing more."""
        log.error("error answering %s %s", request.method, request.url.path, exc_info=exc)
        err = ProtocolError("internal", "the server failed to answer; the error was logged")
        return _error_response(err, _translator(request))

    def openapi_schema() -> dict[str, Any]:
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

    app.openapi = openapi_schema  # type: ignore[method-assign]

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, Any]:
        """For a load balancer's health checks: this instance answers; its broker's state."""
        broker = manager().broker
        if broker is None:
            return {"status": "ok", "instance": None, "broker": None}
        return {"status": "ok", "instance": broker.instance, "broker": broker.connected}

    @app.get("/docs", include_in_schema=False)
    async def swagger_docs() -> HTMLResponse:
        page = get_swagger_ui_html(openapi_url="/openapi.json", title=app.title)
        html = bytes(page.body).decode()
        return HTMLResponse(html, headers={"Content-Security-Policy": docs_policy(html)})

    @app.get("/redoc", include_in_schema=False)
    async def redoc_docs() -> HTMLResponse:
        page = get_redoc_html(openapi_url="/openapi.json", title=app.title)
        html = bytes(page.body).decode()
        return HTMLResponse(html, headers={"Content-Security-Policy": docs_policy(html)})

    # -- REST -------------------------------------------------------------------------

    @app.get(
        "/api/games",
        summary="The games, their options and the bots that can fill a seat",
        responses=errors(400),
    )
    async def list_games(request: Request) -> list[dict[str, Any]]:
        tr = _translator(request)
        return [_game_info(g.id, tr) for g in all_games()]

    @app.get(
        "/api/games/{game_id}/rules",
        summary="The players' rules page of a game, as HTML, in the request's language",
        responses=errors(400, 404),
    )
    async def rules(game_id: str, request: Request) -> dict[str, Any]:
        tr = _translator(request)
        try:
            info = _game_info(game_id, tr)
        except UnknownGame as e:
            raise ProtocolError.from_engine("unknown-game", e) from None
        page = rules_page(game_id, tr.lang)
        return {"game": info, "lang": page.lang if page else None, "html": page and page.html}

    @app.get(
        "/api/i18n/{lang}",
        summary="The web app's messages in a language (JSON catalog)",
        responses=errors(400),
    )
    async def i18n_catalog(
        lang: Annotated[str, FastAPIPath(json_schema_extra={"enum": list(LANGUAGES)})],
    ) -> JSONResponse:
        try:
            code = check_language(lang)
        except ValueError:
            raise ProtocolError(
                "bad-request",
                "unknown language {lang}; choose one of {languages}",
                lang=shown(lang),
                languages=", ".join(LANGUAGES),
            ) from None
        return JSONResponse(catalog_json(code), headers={"Cache-Control": "no-cache"})

    @app.post(
        "/api/rooms",
        summary="Create a game: seats, bots, variant options; answers links",
        status_code=201,
        responses=errors(400, 404, 413, 429, 503),
        openapi_extra=openapi.body(openapi.create_schema(game_ids()), "the new room"),
    )
    async def create_room(request: Request) -> JSONResponse:
        spec = await _read_json(request)
        limits.check("rooms", _client_address(request))
        return JSONResponse(await manager().create(NewRoom.parse(spec)), status_code=201)

    @app.get("/api/rooms/{room_id}", summary="Public summary of a game", responses=errors(400, 404))
    async def room_summary(room_id: str) -> dict[str, Any]:
        return (await manager().get(room_id, fresh=True)).summary()

    @app.get(
        "/api/rooms/{room_id}/state",
        summary="A seat's snapshot (spectator without token)",
        responses=errors(400, 403, 404),
    )
    async def room_state(room_id: str, token: str | None = None) -> dict[str, Any]:
        room = await manager().get(room_id, fresh=True)
        return room.snapshot(room.seat_for_token(token))

    @app.post(
        "/api/rooms/{room_id}/moves",
        summary="Play a move: {token, move, version}",
        responses=errors(400, 403, 404, 409, 413, 422, 429, 503),
        openapi_extra=openapi.body(openapi.MOVE_SCHEMA, "the move"),
    )
    async def post_move(room_id: str, request: Request) -> JSONResponse:
        room = await manager().get(room_id)
        body = await _read_json(request)
        msg = MoveRequest.parse(body)
        seat = room.seat_for_token(msg.token)
        try:
            if seat is not None:
                limits.check("moves", _client_address(request), seat_key=(room.id, seat))
            version = await manager().submit_move(room, seat, msg.move, msg.version)
        except ProtocolError as e:
            return _error_response(e, _translator(request), snapshot=room.snapshot(seat))
        return JSONResponse({"version": version, **room.snapshot(seat)})

    @app.post(
        "/api/rooms/{room_id}/undo",
        summary="Take back the last move (solitaire only)",
        responses=errors(400, 403, 404, 409, 413, 429, 503),
        openapi_extra=openapi.body(openapi.UNDO_SCHEMA, "the undo"),
    )
    async def post_undo(room_id: str, request: Request) -> JSONResponse:
        room = await manager().get(room_id)
        body = await _read_json(request)
        undo = UndoRequest.parse(body)
        seat = room.seat_for_token(undo.token)
        try:
            if seat is not None:
                limits.check("moves", _client_address(request), seat_key=(room.id, seat))
            await manager().undo(room, seat, undo.version)
        except ProtocolError as e:
            return _error_response(e, _translator(request), snapshot=room.snapshot(seat))
        return JSONResponse(room.snapshot(seat))

    @app.post(
        "/api/rooms/{room_id}/rematch",
        summary="A finished game again: same seats and links, new deal ({token})",
        status_code=201,
        responses=errors(400, 403, 404, 409, 413, 503),
        openapi_extra=openapi.body(openapi.TOKEN_SCHEMA, "the seat asking"),
    )
    async def post_rematch(room_id: str, request: Request) -> JSONResponse:
        room = await manager().get(room_id)
        body = await _read_json(request)
        seat = room.seat_for_token(RematchRequest.parse(body).token)
        return JSONResponse(await manager().rematch(room, seat), status_code=201)

    @app.get(
        "/api/rooms/{room_id}/hint",
        summary="A suggested move (games with a solver)",
        responses=errors(400, 403, 404, 409, 429),
    )
    async def hint(room_id: str, request: Request, token: str | None = None) -> dict[str, Any]:
        room = await manager().get(room_id)
        seat = room.seat_for_token(token)
        if seat is None:
            raise ProtocolError("spectator", "spectators get no hints")
        if not hint_available(room.game.id):
            raise ProtocolError("no-hint", "there is no hint for this game")
        if room.state.is_over or room.state.current_player != seat:
            raise ProtocolError("not-your-turn", "a hint is for the seat to move")
        if hints_running[0] >= HINTS_AT_ONCE:
            raise ProtocolError(
                "rate-limited",
                "the solver is busy with other hints: try again in {seconds} s",
                {"retry_after": 3},
                seconds=3,
            )
        limits.check("hints", _client_address(request), seat_key=(room.id, seat))
        state = room.state.copy()
        hints_running[0] += 1
        try:
            found = await asyncio.to_thread(hint_for, state, room.version)
        except (ValueError, TypeError) as e:
            raise ProtocolError(
                "no-hint", "the solver found no hint: {error}", error=str(e)
            ) from None
        finally:
            hints_running[0] -= 1
        if found is None:
            raise ProtocolError("no-hint", "the solver found no hint for this position")
        return {"version": room.version, **found}

    @app.get(
        "/api/rooms/{room_id}/replay",
        summary="A finished game, position by position",
        responses=errors(400, 404, 409),
    )
    async def replay(room_id: str, seat: int | None = None, ply: int | None = None) -> Any:
        room = await manager().get(room_id, fresh=True)
        _need_over(room)
        if seat is not None and not 0 <= seat < room.players:
            raise ProtocolError("bad-request", "there is no seat {seat}", seat=shown(seat))
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

    @app.get(
        "/api/rooms/{room_id}/record",
        summary="The game record (finished games only), with the deal's commitment and reveal",
        responses=errors(400, 404, 409),
    )
    async def record(room_id: str) -> dict[str, Any]:
        room = await manager().get(room_id, fresh=True)
        _need_over(room)
        return await asyncio.to_thread(room.record)

    # -- WebSocket --------------------------------------------------------------------

    @app.websocket("/ws/rooms/{room_id}")
    async def ws_room(websocket: WebSocket, room_id: str) -> None:
        await websocket.accept()
        tr = _translator(websocket)
        address = _client_address(websocket)
        key = address_key(address)
        if sockets.get(key, 0) >= websockets_per_address:
            err = ProtocolError(
                "rate-limited",
                "too many open connections from your address (at most {limit})",
                {"retry_after": 10},
                limit=websockets_per_address,
            )
            await websocket.send_text(dumps(error_message(err, tr=tr)))
            await websocket.close(code=4429)
            return
        sockets[key] = sockets.get(key, 0) + 1
        try:
            await _serve_socket(websocket, room_id, tr, address)
        finally:
            sockets[key] -= 1
            if not sockets[key]:
                del sockets[key]

    async def _serve_socket(
        websocket: WebSocket, room_id: str, tr: Translator, address: str | None
    ) -> None:
        token = websocket.query_params.get("token")
        since_text = websocket.query_params.get("since")
        try:
            # in a cluster: caught up first, as this client may come from another instance
            room = await manager().get(room_id, fresh=True)
            seat = room.seat_for_token(token)
            since = int(since_text) if since_text not in (None, "") else None
        except ProtocolError as e:
            await websocket.send_text(dumps(error_message(e, tr=tr)))
            await websocket.close(code=4000 + e.status)
            return
        except ValueError:
            err = ProtocolError("bad-request", "'since' must be a version number")
            await websocket.send_text(dumps(error_message(err, tr=tr)))
            await websocket.close(code=4400)
            return
        conn = Connection(seat, tr, address)
        # No await between subscribing and queueing the catch-up: no event can slip between.
        room.conns.add(conn)
        _catch_up(room, conn, since)
        sender = asyncio.create_task(_send_loop(websocket, conn))
        try:
            while not conn.closed:
                raw = await websocket.receive()
                if raw["type"] == "websocket.disconnect":
                    break
                text = raw.get("text")
                if text is None and raw.get("bytes") is not None:
                    text = raw["bytes"].decode("utf-8", errors="replace")
                await _handle(room, conn, text or "")
        except WebSocketDisconnect:
            pass
        finally:
            room.conns.discard(conn)
            conn.close()
            await sender
            manager().maybe_evict(room)

    async def _handle(room: Room, conn: Connection, text: str) -> None:
        """Answer one client message; every refusal is an error message, never a closed socket."""
        reply_to = None
        try:
            msg = parse_client_message(text)
            reply_to = msg.id
            limits.check("messages", conn.address, conn.buckets)
            match msg:
                case PingMessage():
                    conn.send({"type": "pong", "version": room.version, "reply_to": reply_to})
                case SyncMessage(version=version):
                    if version > room.version:  # more than this cache has (a cluster)
                        await manager().refresh(room)
                    _catch_up(room, conn, version)
                case MoveMessage(move=move, version=version):
                    if conn.seat is not None:
                        limits.check("moves", conn.address, conn.buckets)
                    await manager().submit_move(room, conn.seat, move, version, conn, reply_to)
                case UndoMessage(version=version):
                    if conn.seat is not None:
                        limits.check("moves", conn.address, conn.buckets)
                    await manager().undo(room, conn.seat, version, conn, reply_to)
                case ChatMessage(text=line):
                    if conn.seat is not None:
                        limits.check("chat", conn.address, conn.buckets)
                    await manager().chat(room, conn, line)
        except ProtocolError as e:
            extra: dict[str, Any] = {}
            if e.code in ("stale-version", "not-your-turn", "game-over", "illegal-move"):
                extra["snapshot"] = room.snapshot(conn.seat)
            conn.send(error_message(e, reply_to, conn.tr, **extra))

    # -- the web app ------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return FileResponse(WEB_DIR / "favicon.svg", media_type="image/svg+xml")

    holder["reviews"] = add_review_routes(app, manager)
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app


def _need_over(room: Room) -> None:
    if not room.state.is_over:
        raise ProtocolError("not-finished", "replays and records are shown once the game is over")


def _catch_up(room: Room, conn: Connection, since: int | None) -> None:
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


async def _send_loop(websocket: WebSocket, conn: Connection) -> None:
    try:
        while True:
            msg = await conn.outbox.get()
            if msg is None:
                break
            await websocket.send_text(dumps(msg))
    except Exception:  # the client went away; the receive loop will notice
        conn.closed = True
    if conn.closed:
        with contextlib.suppress(Exception):  # already closed by the client
            await websocket.close()
