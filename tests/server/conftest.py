"""A live server on loopback for the API tests (uvicorn in a thread, SQLite in tmp_path)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from pyramids.server.app import create_app
from pyramids.server.guard import Guard, guarded_protocol
from pyramids.server.launch import free_port
from pyramids.server.limits import RateLimits
from pyramids.server.rooms import RoomManager


class LiveServer:
    """uvicorn serving :func:`create_app` in a background thread.

    ``db`` is a SQLite file, or a database URL as a string (the PostgreSQL tests).
    Rate limits are off unless ``rate_limits`` is given: the tests drive games
    faster than people play, all from one address. ``guard`` puts the
    connection guard of ``pyramids serve`` in front (:mod:`pyramids.server.guard`).
    ``ws`` and ``http`` pick uvicorn's implementations ("auto": the fastest
    installed, as ``pyramids serve`` does).
    """

    def __init__(
        self,
        db: Path | str,
        bot_delay: float = 0.0,
        rate_limits: RateLimits | None = None,
        guard: Guard | None = None,
        ws: str = "auto",
        http: str = "auto",
    ) -> None:
        url = db if isinstance(db, str) else f"sqlite:///{db}"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        app = create_app(url, bot_delay=bot_delay, rate_limits=rate_limits or RateLimits.off())
        self.app = app
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws_ping_interval=None,
            ws=ws,
            http=guarded_protocol(guard) if guard is not None else http,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    @property
    def manager(self) -> RoomManager:
        """The server's room manager (its counters and knobs; read from the test thread)."""
        manager: RoomManager = self.app.state.manager
        return manager


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("srv") / "games.db").start()
    yield server
    server.stop()
