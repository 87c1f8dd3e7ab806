"""What is not the game API: the web app's page, the API's documentation, the health check.

The web app's files themselves are served from ``/static/`` (mounted by
:func:`pyramids.server.app.create_app`, after every route; their versioned
addresses and cache lifetimes: :mod:`pyramids.server.static`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, Response

from pyramids.server.asgi import docs_policy
from pyramids.server.dependencies import Manager
from pyramids.server.static import REVALIDATE, versioned_page, versioned_prefix

#: the browser app (package data): ``index.html``, its modules and styles, ``boards/``
WEB_DIR = Path(__file__).resolve().parent.parent.parent / "web"

router = APIRouter(include_in_schema=False)


@router.get("/healthz")
async def healthz(manager: Manager) -> dict[str, Any]:
    """For a load balancer's health checks: this instance answers; its broker's state."""
    broker = manager.broker
    if broker is None:
        return {"status": "ok", "instance": None, "broker": None}
    return {"status": "ok", "instance": broker.instance, "broker": broker.connected}


@router.get("/docs")
async def swagger_docs(request: Request) -> HTMLResponse:
    page = get_swagger_ui_html(openapi_url="/openapi.json", title=request.app.title)
    return _with_policy(page)


@router.get("/redoc")
async def redoc_docs(request: Request) -> HTMLResponse:
    page = get_redoc_html(openapi_url="/openapi.json", title=request.app.title)
    return _with_policy(page)


def _with_policy(page: HTMLResponse) -> HTMLResponse:
    """A documentation page with a policy that allows its own inline scripts by hash."""
    html = bytes(page.body).decode()
    return HTMLResponse(html, headers={"Content-Security-Policy": docs_policy(html)})


@router.get("/")
async def index() -> Response:
    """The page, its files at their versioned addresses (:mod:`pyramids.server.static`)."""
    page = versioned_page(WEB_DIR / "index.html", versioned_prefix(WEB_DIR))
    return Response(page, media_type="text/html", headers={"Cache-Control": REVALIDATE})


@router.get("/favicon.ico")
async def favicon() -> Response:
    return FileResponse(WEB_DIR / "favicon.svg", media_type="image/svg+xml")
