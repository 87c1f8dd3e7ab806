"""The server's review of a finished room: started once, computed in the background, stored.

The review routes are included in a small app of their own here (the same
:class:`RoomManager` and :class:`Store` as the server), with a thread pool in
place of the worker process, so that the test does not spawn an interpreter.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

from pyramids.server import reviews
from pyramids.server.inputs import NewRoom
from pyramids.server.protocol import ProtocolError
from pyramids.server.rooms import RoomManager
from pyramids.server.routes import reviews as review_routes
from pyramids.server.storage import Store


def make_app(db: Path, executor: ThreadPoolExecutor | None) -> tuple[FastAPI, dict[str, Any]]:
    """The review routes on ``db``; ``executor`` computes the decisions (None: the worker)."""
    holder: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(f"sqlite:///{db}")
        app.state.manager = holder["manager"] = RoomManager(store, bot_delay=0.0)
        app.state.reviews = holder["reviews"] = reviews.Reviews(app.state.manager, executor)
        yield
        await holder["reviews"].close()
        await holder["manager"].close()
        store.close()

    app = FastAPI(lifespan=lifespan)

    @app.exception_handler(ProtocolError)
    async def refused(_request: Request, exc: ProtocolError) -> JSONResponse:
        return JSONResponse({"error": exc.to_dict(None)}, status_code=exc.status)

    @app.post("/rooms")
    async def create(request: Request) -> dict[str, Any]:
        out: dict[str, Any] = await holder["manager"].create(NewRoom.parse(await request.json()))
        return out

    app.include_router(review_routes.router)
    return app, holder


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(max_workers=1) as p:
        yield p


def finished_room(client: TestClient, holder: dict[str, Any]) -> str:
    spec = {"game": "pyramideto", "seats": [{"agent": "random"}, {"agent": "random"}]}
    spec["variant"] = {"turn_limit": 16}
    room: str = client.post("/rooms", json=spec).json()["room"]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        state = client.portal.call(holder["manager"].get, room).state  # type: ignore[union-attr]
        if state.is_over:
            return room
        time.sleep(0.05)
    raise AssertionError("the bots did not finish")


def wait_done(client: TestClient, room: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        answer: dict[str, Any] = client.get(f"/api/rooms/{room}/review").json()
        if answer["status"] == "done":
            return answer
        assert answer["status"] == "running", answer
        time.sleep(0.05)
    raise AssertionError("the review did not finish")


def test_a_finished_room_is_reviewed_once_in_the_background_and_stored(
    tmp_path: Path, pool: ThreadPoolExecutor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reviews, "REVIEW_BUDGET", "quick")
    db = tmp_path / "games.db"
    app, holder = make_app(db, pool)
    with TestClient(app) as client:
        room = finished_room(client, holder)
        assert client.get(f"/api/rooms/{room}/review").json() == {"status": "none"}
        started = client.post(f"/api/rooms/{room}/review").json()
        assert started["status"] == "running" and started["done"] == 0
        again = client.post(f"/api/rooms/{room}/review").json()  # no second review
        assert again["status"] in ("running", "done")
        done = wait_done(client, room)["review"]
        assert done["game"] == "pyramideto" and done["seats"] == [0, 1]
        assert len(done["decisions"]) == 16 and len(done["summary"]) == 2
    # after a restart the stored review answers at once, without computing it again
    app, holder = make_app(db, pool)
    with TestClient(app) as client:
        answer = client.post(f"/api/rooms/{room}/review").json()
        assert answer["status"] == "done" and answer["review"] == done
        assert not holder["reviews"]._jobs  # nothing was started


def test_an_unfinished_room_is_not_reviewed(tmp_path: Path, pool: ThreadPoolExecutor) -> None:
    app, _ = make_app(tmp_path / "games.db", pool)
    with TestClient(app) as client:
        spec = {"game": "pyramideto", "players": 2}
        room = client.post("/rooms", json=spec).json()["room"]
        answer = client.post(f"/api/rooms/{room}/review")
        assert answer.status_code == 409
        assert answer.json()["error"]["code"] == "not-finished"
        assert client.get("/api/rooms/nosuchroom/review").status_code == 404


def test_the_worker_process_computes_the_same_review(
    tmp_path: Path, pool: ThreadPoolExecutor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's own executor (a spawned process) gives what the thread pool gives."""
    monkeypatch.setattr(reviews, "REVIEW_BUDGET", "30")
    results = []
    for executor in (pool, None):
        app, holder = make_app(tmp_path / "games.db", executor)
        with TestClient(app) as client:
            room = finished_room(client, holder)
            client.post(f"/api/rooms/{room}/review")
            results.append(wait_done(client, room)["review"]["decisions"])
    assert len(results[0]) == len(results[1]) == 16
