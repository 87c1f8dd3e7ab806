"""One error format for every answer: ``{"error": {"code", "reason", "params", ...}}``.

The server's own refusals are :class:`protocol.ProtocolError`; the handlers
here also turn the framework's errors (no such path, a wrong method, a query
parameter of the wrong type) and bugs into that object, with the reason in
the request's language (``docs/server.md``, *Error codes*).
"""

from __future__ import annotations

import logging
import math
import time
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.routing import Match, Mount

from pyramids.i18n import Translator
from pyramids.server.dependencies import translator_of
from pyramids.server.protocol import ProtocolError, shown

log = logging.getLogger("pyramids.server")


def error_response(err: ProtocolError, tr: Translator | None, **extra: Any) -> JSONResponse:
    """The answer for ``err``: its status, the error object (and ``extra``, a snapshot say)."""
    headers = {}
    if err.code == "rate-limited":
        headers["Retry-After"] = str(err.extra.get("retry_after", 1))
    return JSONResponse(
        {"error": err.to_dict(tr), **extra}, status_code=err.status, headers=headers
    )


async def protocol_error(request: Request, exc: ProtocolError) -> Response:
    """A refusal of the server's own."""
    return error_response(exc, translator_of(request))


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
    response = error_response(err, translator_of(request))
    for name, value in (exc.headers or {}).items():
        response.headers[name] = value
    if exc.status_code == 405:
        # Starlette names the methods of the first route with this path only; a path
        # served by several routes (GET and POST of a review) allows all of theirs
        response.headers["Allow"] = ", ".join(_allowed_methods(request))
    return response


async def validation_error(request: Request, exc: RequestValidationError) -> Response:
    """A query parameter of the wrong type (``?seat=x``): 400, naming the parameter."""
    problems = exc.errors()
    first = problems[0] if problems else {}
    name = shown(str(first.get("loc", ("?",))[-1]))
    if str(first.get("type", "")).startswith("int"):
        err = ProtocolError("bad-request", "the parameter {name} must be a whole number", name=name)
    else:
        err = ProtocolError("bad-request", "the parameter {name} is not valid", name=name)
    return error_response(err, translator_of(request))


async def internal_error(request: Request, exc: Exception) -> Response:
    """A bug: logged with its traceback; the client gets the error object, nothing more."""
    log.error("error answering %s %s", request.method, request.url.path, exc_info=exc)
    err = ProtocolError("internal", "the server failed to answer; the error was logged")
    return error_response(err, translator_of(request))


async def client_gone(request: Request, exc: ClientDisconnect) -> Response:
    """The client went away in the middle of its request: expected, not a bug.

    Logged at debug level without a traceback (a 95-byte request cut short
    once wrote 8.8 KB of error log); the answer goes nowhere.
    """
    log.debug("client left during %s %s", request.method, request.url.path)
    return Response(status_code=400)


class LogLimit(logging.Filter):
    """Let at most ``count`` warnings and errors through per ``seconds``; count the rest.

    Why: each error logs a traceback, and a client able to cause one per request
    could fill the disk. The first record let through after a quiet spell says
    how many were left out.
    """

    def __init__(self, count: int = 20, seconds: float = 60.0) -> None:
        super().__init__()
        self.count = count
        self.seconds = seconds
        self._window_start = -math.inf
        self._in_window = 0
        #: records left out since the last one let through
        self.suppressed = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        now = time.monotonic()
        if now - self._window_start >= self.seconds:
            self._window_start, self._in_window = now, 0
        if self._in_window >= self.count:
            self.suppressed += 1
            return False
        self._in_window += 1
        if self.suppressed:
            record.msg = f"{record.msg} ({self.suppressed} more warnings and errors left out)"
            self.suppressed = 0
        return True


#: the loggers whose warnings and errors are limited (the server's and uvicorn's)
LIMITED_LOGGERS = ("pyramids.server", "uvicorn.error")


def limit_error_logs(limit: LogLimit | None = None) -> LogLimit:
    """Put one :class:`LogLimit` on the server's loggers (once per process)."""
    for name in LIMITED_LOGGERS:
        found = next((f for f in logging.getLogger(name).filters if isinstance(f, LogLimit)), None)
        if found is not None:
            return found
    limit = limit or LogLimit()
    for name in LIMITED_LOGGERS:
        logging.getLogger(name).addFilter(limit)
    return limit


def add_error_handlers(app: FastAPI) -> None:
    """Answer every error of ``app`` in the one format."""
    app.exception_handler(ClientDisconnect)(client_gone)
    app.exception_handler(ProtocolError)(protocol_error)
    app.exception_handler(StarletteHTTPException)(http_error)
    app.exception_handler(RequestValidationError)(validation_error)
    app.exception_handler(Exception)(internal_error)


#: the methods a 405 may name
_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route of the app serves at this request's path.

    Found by asking the app's routes whether each method would match: the
    routes of an included router are not a flat list one could read. A mount
    (the static files) takes any method, and is left out as before.
    """
    scope = {
        "type": "http",
        "path": request.scope["path"],
        "root_path": request.scope.get("root_path", ""),
    }
    routes = [r for r in request.app.router.routes if not isinstance(r, Mount)]
    return sorted(
        method
        for method in _METHODS
        if any(r.matches({**scope, "method": method})[0] == Match.FULL for r in routes)
    )
