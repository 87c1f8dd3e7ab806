"""The app behind the connection guard, served in-process by uvicorn with one HTTP parser.

Shared by the guard's rule tests (``test_slow_clients.py``) and the head-limit tests
(``test_hardening_transport.py``): each runs every rule on both parsers uvicorn has.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from pathlib import Path

import uvicorn

from pyramids.server.app import create_app
from pyramids.server.guard import Guard, guarded_protocol
from pyramids.server.launch import free_port
from pyramids.server.limits import RateLimits


class Served:
    """The app behind ``guard`` (HTTP parser ``http``), uvicorn in a thread."""

    def __init__(self, tmp: Path, guard: Guard, http: type) -> None:
        self.port = free_port()
        self.guard = guard
        app = create_app(f"sqlite:///{tmp}/g.db", bot_delay=0, rate_limits=RateLimits.off())
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            http=guarded_protocol(guard, http),
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline
            time.sleep(0.02)

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=5)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def parsers() -> list[type]:
    """uvicorn's HTTP parsers here: h11 always, httptools with the ``fast`` extra."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    out: list[type] = [H11Protocol]
    with contextlib.suppress(ImportError):
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        out.append(HttpToolsProtocol)
    return out
