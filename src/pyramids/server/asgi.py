"""ASGI middleware of the server: the request-body limit and the security headers.

Both are plain ASGI (not Starlette's ``BaseHTTPMiddleware``): they touch a
request's first message and a response's start only, and leave WebSockets alone.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson

from pyramids.i18n import translator
from pyramids.server.protocol import MAX_BODY, ProtocolError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def too_large(size: int | None) -> ProtocolError:
    """The ``too-large`` error for a body of ``size`` bytes (``None``: not known yet)."""
    if size is None:
        return ProtocolError(
            "too-large", "the request body is larger than {limit} bytes", limit=MAX_BODY
        )
    return ProtocolError(
        "too-large",
        "the request body has {size} bytes; at most {limit} are read",
        size=size,
        limit=MAX_BODY,
    )


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, before reading them.

    A declared ``Content-Length`` over the limit is answered at once; a body
    without one (chunked) is counted as it is read, and the read that crosses
    the limit raises :class:`ProtocolError`, which the app's handler answers.
    Why here: a route that reads its body must never hold more than the limit.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY, lang_of: Any = None) -> None:
        self.app = app
        self.limit = limit
        #: ``scope -> language`` (the app's own negotiation), for the 413's reason
        self.lang_of = lang_of

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            err = too_large(declared)
            tr = translator(self.lang_of(scope)) if self.lang_of else None
            body = orjson.dumps({"error": err.to_dict(tr)})
            await send(
                {
                    "type": "http.response.start",
                    "status": err.status,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                        (b"connection", b"close"),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        seen = 0
        limit = self.limit

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise too_large(None)
            return message

        await self.app(scope, counted, send)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


#: the web app's policy: scripts and style sheets from this server only, no plugins,
#: no framing. ``style-src-attr 'unsafe-inline'``: the boards set CSS custom
#: properties and grid sizes in ``style`` attributes (``--frame``, ``--vbw``, ...);
#: see docs/security.md for why that is allowed and what it cannot do.
APP_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; "
    "style-src-attr 'unsafe-inline'; img-src 'self'; font-src 'self'; "
    "connect-src 'self' {ws}; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

#: the API documentation pages load Swagger UI / ReDoc from their CDN
DOCS_CDN = "https://cdn.jsdelivr.net"


def docs_policy(html: str) -> str:
    """The policy of a documentation page: its own inline scripts by hash, its CDN."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(code.encode()).digest()).decode() + "'"
        for code in re.findall(r"<script>(.*?)</script>", html, flags=re.S)
    )
    return (
        f"default-src 'none'; script-src {DOCS_CDN} {hashes}; style-src {DOCS_CDN} "
        f"'unsafe-inline'; img-src 'self' data: https://fastapi.tiangolo.com; "
        f"connect-src 'self'; worker-src blob:; frame-ancestors 'none'; base-uri 'none'"
    )


class SecurityHeaders:
    """Add the security headers to every HTTP response that has not set its own.

    * ``Content-Security-Policy`` (:data:`APP_POLICY`; a route may send its own);
    * ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY``;
    * ``Referrer-Policy: no-referrer``: a page address may hold a seat token;
    * ``Cache-Control: no-store`` for ``/api/`` answers unless the route chose:
      they may carry seat tokens (a new room) or a seat's private view.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = scope.get("path", "").startswith("/api/")
        ws = _websocket_sources(scope)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                wanted = [
                    (b"content-security-policy", APP_POLICY.format(ws=ws).encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"no-referrer"),
                ]
                if api:
                    wanted.append((b"cache-control", b"no-store"))
                headers.extend((k, v) for k, v in wanted if k not in present)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _websocket_sources(scope: Scope) -> str:
    """``ws://HOST wss://HOST`` for this request's host: older browsers' ``'self'`` omits them."""
    for name, value in scope.get("headers", ()):
        if name == b"host":
            host = value.decode("latin-1")
            if re.fullmatch(r"[A-Za-z0-9.\-\[\]:]{1,255}", host):
                return f"ws://{host} wss://{host}"
            break
    return ""
