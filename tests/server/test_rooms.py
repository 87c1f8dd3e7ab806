"""Rooms on a real server over loopback: replays after an undo, undo accounting across a
restart, idle rooms leaving memory, bots that survive a refused write and fallbacks that show.

Each test runs its own server (uvicorn in a thread, SQLite in ``tmp_path``), so it can
restart it on the same file or reach into its database.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
import time
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Any

import pytest

import pyramids
from pyramids.ai.base import Agent
from pyramids.ai.registry import AGENTS
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.server.errors import limit_error_logs
from tests.server.client import HTTP, Session, create, move, state, wait_over
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.timeout(120)

#: a Pirámides deal whose game can end by two different last moves (found by random play)
SEED = 8


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def server(db: Path) -> Iterator[LiveServer]:
    live = LiveServer(db).start()
    yield live
    live.stop()


def _until(check: Callable[[], bool], timeout: float = 20, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def _solitaire_to_a_fork() -> tuple[list[str], str]:
    """Random moves that end the deal of :data:`SEED`, and another last move that also ends it."""
    rng = random.Random(SEED)
    game = pyramids.new_game("piramides", players=1, seed=SEED)
    moves: list[str] = []
    while not game.is_over:
        legal = game.legal_moves()
        chosen = legal[rng.randrange(len(legal))]
        moves.append(game.move_to_str(chosen))
        game.play(chosen)
    before = pyramids.new_game("piramides", players=1, seed=SEED)
    for text in moves[:-1]:
        before.play(before.parse_move(text))
    for m in before.legal_moves():
        after = before.copy()
        after.play(m)
        if after.is_over and before.move_to_str(m) != moves[-1]:
            return moves, before.move_to_str(m)
    raise AssertionError("the deal no longer forks at its last move")


def _play(base: str, room: str, token: str, texts: list[str], version: int) -> int:
    for text in texts:
        r = move(base, room, token, text, version)
        assert r.status_code == 200, r.text
        version += 1
    return version


def test_replay_and_undos_after_an_undo_and_another_last_move(db: Path) -> None:
    """A finished solitaire is replayed, its last move taken back and another one played.

    The replay must show the new ending (its cache is keyed by the moves, not
    by their count, which is the same), and the record counts the undo, also
    after a restart rebuilt the room from its log.
    """
    moves, other = _solitaire_to_a_fork()
    mirror = pyramids.new_game("piramides", players=1, seed=SEED)
    for text in [*moves[:-1], other]:
        mirror.play(mirror.parse_move(text))
    live = LiveServer(db).start()
    try:
        room = create(live.url, game="piramides", seed=SEED)
        rid, token = room["room"], room["seats"][0]["token"]
        base = f"{live.url}/api/rooms/{rid}"
        version = _play(live.url, rid, token, moves, 0)
        first = HTTP.get(f"{base}/replay").json()
        assert first["moves"] == moves
        assert HTTP.get(f"{base}/record").json().get("undos", 0) == 0
        r = HTTP.post(f"{base}/undo", json={"token": token, "version": version})
        assert r.status_code == 200, r.text
        _play(live.url, rid, token, [other], version + 1)
        replay = HTTP.get(f"{base}/replay").json()
        assert replay["moves"] == [*moves[:-1], other]
        assert replay["view"] == mirror.view(None) != first["view"]
        assert HTTP.get(f"{base}/record").json()["undos"] == 1
    finally:
        live.stop()
    again = LiveServer(db).start()
    try:
        record = HTTP.get(f"{again.url}/api/rooms/{rid}/record").json()
        assert record["undos"] == 1
        assert record["moves"] == [*moves[:-1], other]
    finally:
        again.stop()


def test_rooms_read_only_over_rest_leave_memory(server: LiveServer) -> None:
    """Rooms read or played over REST leave memory once idle; one with a WebSocket stays."""
    manager = server.manager
    manager.cache.idle_seconds = 0.3
    rest = create(server.url, game="piramides")
    watched = create(server.url, game="piramides")
    for _ in range(3):
        state(server.url, rest["room"], rest["seats"][0]["token"])
    assert rest["room"] in manager.rooms

    async def watch() -> None:
        async with Session(server.ws_url, watched["room"], None) as s:
            await s.until(lambda m: m["type"] == "snapshot")
            _until(lambda: rest["room"] not in manager.rooms, what="the idle room to leave")
            assert watched["room"] in manager.rooms  # it has a connection
            # a room that left memory is rebuilt by its next visitor, as it was
            text = state(server.url, rest["room"], rest["seats"][0]["token"])["legal"][0]
            r = move(server.url, rest["room"], rest["seats"][0]["token"], text, 0)
            assert r.status_code == 200, r.text

    asyncio.run(watch())
    assert rest["room"] in manager.rooms  # just used
    _until(lambda: not manager.rooms, what="every room to leave once nobody uses it")
    assert state(server.url, rest["room"])["version"] == 1


def test_a_bot_plays_on_after_the_database_refused_its_move(
    server: LiveServer, db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """SQLite refuses the bot's moves (a trigger) until the trigger is dropped: the bot,
    which tried again meanwhile, then moves, and the human can play."""
    manager = server.manager
    refuse = (
        "CREATE TRIGGER refuse_the_bot BEFORE INSERT ON events WHEN NEW.seat = 1 "
        "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
    )
    with sqlite3.connect(db, timeout=10) as conn:
        conn.execute(refuse)
    room = create(server.url, game="pyramideto", seats=[{}, {"agent": "random"}])
    rid, token = room["room"], room["seats"][0]["token"]
    snap = state(server.url, rid, token)
    if snap["legal"]:  # the human opens; the bot's answer is refused
        assert move(server.url, rid, token, snap["legal"][0], 0).status_code == 200
    refused_at = state(server.url, rid)["version"]
    _until(lambda: manager.bots.storage_retries >= 2, what="the bot to try again")
    assert state(server.url, rid)["version"] == refused_at  # nothing was stored meanwhile
    assert "could not store its move" in caplog.text
    with sqlite3.connect(db, timeout=10) as conn:
        conn.execute("DROP TRIGGER refuse_the_bot")
    _until(
        lambda: bool(state(server.url, rid, token)["legal"]),
        what="the bot's moves after the refusal, and the human's turn",
    )
    snap = state(server.url, rid, token)
    assert snap["version"] > refused_at
    r = move(server.url, rid, token, snap["legal"][0], snap["version"])  # not not-your-turn
    assert r.status_code == 200, r.text


class RaisingAgent(Agent):
    """An agent whose every decision fails."""

    name = "raising"

    def choose(self, state: State[Any], rng: Rng) -> Hashable:
        raise RuntimeError("this agent always fails")


def test_a_raising_bot_falls_back_to_random_moves_counted_and_logged_as_errors(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(AGENTS, "raising", "tests.server.test_rooms:RaisingAgent")
    # every fallback is logged; the server's limit on error logs (tested on its own in
    # test_hardening_logs.py) is lifted here so that each one can be counted
    monkeypatch.setattr(limit_error_logs(), "count", 1_000_000)
    before = server.manager.bot_fallbacks
    room = create(server.url, game="piramides", seats=[{"agent": "raising"}], seed=4)
    final = wait_over(server.url, room["room"])
    assert final["version"] > 0
    assert server.manager.bot_fallbacks - before == final["version"]
    errors = [
        r for r in caplog.records if r.levelno >= logging.ERROR and "random move" in r.getMessage()
    ]
    assert len(errors) == final["version"]
