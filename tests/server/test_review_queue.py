"""Reviews under load: bounded per address and over the server, shared, and ended with the server.

The bounds are checked in a small app of the review routes (as in
``tests/review/test_server.py``) whose one worker thread is kept busy, so
that the reviews asked for stay waiting; then against a real ``pyramids
serve`` process on loopback, in the shape of the flood (one address asking
for the reviews of many finished games), and that SIGTERM leaves no worker
process and no resource tracker behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from pyramids.server.launch import free_port, serve_command, wait_until_serving
from tests.review.test_server import finished_room, make_app, wait_done

#: a finished game needs a few seconds of bots; a review of one, a few more
pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def busy() -> Iterator[tuple[ThreadPoolExecutor, threading.Event]]:
    """A one-thread pool held by a task until the event is set (reviews wait behind it)."""
    gate = threading.Event()
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(gate.wait, 120)
        yield pool, gate
        gate.set()


def _rooms(client: TestClient, holder: dict[str, Any], count: int) -> list[str]:
    return [finished_room(client, holder) for _ in range(count)]


def test_one_address_may_queue_two_reviews_and_asking_again_is_free(
    tmp_path: Path, busy: tuple[ThreadPoolExecutor, threading.Event]
) -> None:
    pool, gate = busy
    app, holder = make_app(tmp_path / "games.db", pool)
    with TestClient(app) as client:
        first, second, third = _rooms(client, holder, 3)
        for room in (first, second):
            assert client.post(f"/api/rooms/{room}/review").json()["status"] == "running"
        # asking again for a review already waiting is no new review: never refused
        for _ in range(5):
            assert client.post(f"/api/rooms/{first}/review").json()["status"] == "running"
        refused = client.post(f"/api/rooms/{third}/review")
        assert refused.status_code == 429
        error = refused.json()["error"]
        assert error["code"] == "rate-limited" and error["params"]["count"] == 2
        assert "from your address" in error["reason"]
        # nothing was started for the refused one
        assert client.get(f"/api/rooms/{third}/review").json() == {"status": "none"}
        assert len(holder["reviews"]._jobs) == 2
        # once the two are done the address may ask again
        gate.set()
        wait_done(client, first)
        wait_done(client, second)
        assert client.post(f"/api/rooms/{third}/review").json()["status"] == "running"
        wait_done(client, third)


def test_the_server_bounds_the_reviews_of_every_address_together(
    tmp_path: Path, busy: tuple[ThreadPoolExecutor, threading.Event]
) -> None:
    pool, gate = busy
    app, holder = make_app(tmp_path / "games.db", pool)
    with TestClient(app) as client:
        reviews = holder["reviews"]
        reviews.queue_limit = 2
        rooms = _rooms(client, holder, 3)
        # two addresses fill the queue; a third address is refused, as is the first
        assert client.portal.call(reviews.start, rooms[0], "192.0.2.1")["status"] == "running"
        assert client.portal.call(reviews.start, rooms[1], "192.0.2.2")["status"] == "running"
        refused = client.post(f"/api/rooms/{rooms[2]}/review")
        assert refused.status_code == 429
        assert refused.json()["error"]["reason"].startswith("the server is busy with other reviews")
        # a review already asked for is shared with every other asker, at no cost to them
        for room in rooms[:2]:
            assert client.post(f"/api/rooms/{room}/review").json()["status"] == "running"
        assert len(reviews._jobs) == 2
        gate.set()
        done = [wait_done(client, room)["review"] for room in rooms[:2]]
        assert all(d["game"] == "pyramideto" for d in done)


# -- a real server --------------------------------------------------------------------


def _children(pid: int) -> set[int]:
    """Every descendant process of ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _finished_rooms(client: httpx.Client, count: int) -> list[str]:
    spec = {
        "game": "pyramideto",
        "seats": [{"agent": "random"}, {"agent": "random"}],
        "variant": {"turn_limit": 16},
    }
    rooms = [client.post("/api/rooms", json=spec).json()["room"] for _ in range(count)]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if all(client.get(f"/api/rooms/{r}").json()["over"] for r in rooms):
            return rooms
        time.sleep(0.1)
    raise AssertionError("the bots did not finish")


@pytest.mark.slow
def test_a_real_server_bounds_reviews_and_sigterm_leaves_no_process(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        serve_command(port, f"sqlite:///{tmp_path / 'games.db'}"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    left: set[int] = set()
    try:
        url = f"http://127.0.0.1:{port}"
        assert wait_until_serving(url, timeout=60)
        with httpx.Client(base_url=url, timeout=30) as client:
            rooms = _finished_rooms(client, 4)
            answers = [client.post(f"/api/rooms/{r}/review") for r in rooms]
            assert [a.status_code for a in answers] == [200, 200, 429, 429]
            refused = client.post(
                f"/api/rooms/{rooms[2]}/review", headers={"Accept-Language": "es"}
            )
            assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
            error = refused.json()["error"]
            assert error["code"] == "rate-limited"
            assert (
                "reviews" not in error["reason"]
                and str(error["params"]["count"]) in error["reason"]
            )
            # the review runs in worker processes: wait until one is computing
            deadline = time.monotonic() + 60
            while not _children(proc.pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert client.get(f"/api/rooms/{rooms[0]}/review").json()["status"] == "running"
        left = _children(proc.pid)
        assert left, "no worker process was started"
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10
        while any(_alive(p) for p in left) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [p for p in left if _alive(p)], "processes outlived the server"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in left:  # only the server's own children, should the test fail
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
