"""The server on PostgreSQL: schema, whole games, one winner per version, restarts, bad URLs,
a bot whose write was refused.

Everything else in tests/server runs on SQLite; these tests repeat the parts
where the database matters on a real, throwaway PostgreSQL server (see
:mod:`tests.server.postgres`), each test in its own fresh database.
"""

from __future__ import annotations

import asyncio
import itertools
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Future

import httpx
import pytest
import sqlalchemy
from sqlalchemy import inspect, text
from typer.testing import CliRunner

import pyramids
from pyramids.cli.main import app as cli
from pyramids.server.launch import free_port
from pyramids.server.storage import (
    SCHEMA_VERSION,
    Append,
    EventRow,
    RoomRow,
    SeatRow,
    StorageError,
    Store,
)
from tests.server.client import HTTP, create, move, state, wait_over
from tests.server.conftest import LiveServer
from tests.server.postgres import Cluster, running_cluster

pytestmark = pytest.mark.timeout(120)

#: above 2**31: PostgreSQL's 32-bit INTEGER would refuse it, the API accepts it
BIG_SEED = 2**40 + 17

_names = itertools.count(1)


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    with running_cluster() as c:
        yield c


@pytest.fixture
def pg_url(cluster: Cluster) -> str:
    """A new, empty database on the session's cluster."""
    return cluster.new_database(f"pyramids_{next(_names)}")


def _room(room_id: str, seed: int = 7) -> RoomRow:
    seat = SeatRow(0, "Ana", "human", None, None, "h")
    return RoomRow(room_id, "piramides", {"rounds": 1}, seed, 1, 0.0, 0, False, seats=[seat])


def test_a_new_database_gets_the_schema_and_rooms_round_trip(pg_url: str) -> None:
    store = Store(pg_url)
    try:
        with store.engine.connect() as conn:
            insp = inspect(conn)
            assert set(insp.get_table_names()) == {
                "rooms",
                "seats",
                "events",
                "meta",
                "chat",
                "reviews",
                "clocks",
            }
            seed_type = {c["name"]: c["type"] for c in insp.get_columns("rooms")}["seed"]
            assert seed_type.python_type is int and "BIGINT" in str(seed_type)
            assert insp.get_pk_constraint("events")["constrained_columns"] == [
                "room_id",
                "version",
            ]
        store.create_room(_room("r1", seed=BIG_SEED)).result(timeout=10)
        for v in range(1, 6):
            event = EventRow(v, "move", 0, f"m{v}")
            store.append(Append("r1", event, True if v == 5 else None)).result(timeout=10)
        row = store.load_room("r1")
        assert row is not None
        assert row.seed == BIG_SEED and row.variant == {"rounds": 1} and row.over
        assert [e.data for e in row.events] == [f"m{v}" for v in range(1, 6)]
        assert row.version == 5 and row.seats[0].name == "Ana"
    finally:
        store.close()
    Store(pg_url).close()  # reopening a database of our own schema is fine
    store = Store(pg_url)
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE meta SET value = '99' WHERE key = 'schema'"))
    store.close()
    with pytest.raises(
        StorageError, match=f"schema 99; this version reads schema {SCHEMA_VERSION}"
    ):
        Store(pg_url)


def test_two_stores_racing_at_one_version_store_exactly_one_event(pg_url: str) -> None:
    """Two servers on one database: the (room, version) key lets exactly one move in."""
    first, second = Store(pg_url), Store(pg_url)
    try:
        first.create_room(_room("race")).result(timeout=10)
        for v in range(1, 9):
            futures: list[Future[None]] = [
                store.append(Append("race", EventRow(v, "move", 0, f"{name}{v}"), None))
                for store, name in ((first, "a"), (second, "b"))
            ]
            errors = [f.exception(timeout=10) for f in futures]
            assert sum(e is None for e in errors) == 1, errors
            (refused,) = [e for e in errors if e is not None]
            assert isinstance(refused, StorageError) and "INSERT" not in str(refused)
            cause = refused.__cause__
            assert type(getattr(cause, "orig", None)).__name__ == "UniqueViolation", cause
        row = second.load_room("race")
        assert row is not None and [e.version for e in row.events] == list(range(1, 9))
    finally:
        first.close()
        second.close()


#: a trigger that refuses the first move of seat 1 and no other: the count lives in a
#: sequence, which a rolled-back transaction does not roll back
REFUSE_ONCE = [
    "CREATE SEQUENCE refusals",
    """CREATE FUNCTION refuse_once() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.seat = 1 AND nextval('refusals') = 1 THEN
            RAISE EXCEPTION 'refused once by the test';
        END IF;
        RETURN NEW;
    END $$""",
    "CREATE TRIGGER refuse_once BEFORE INSERT ON events"
    " FOR EACH ROW EXECUTE FUNCTION refuse_once()",
]


def test_a_bot_plays_on_after_postgresql_refused_its_move_once(pg_url: str) -> None:
    """The bot's first write fails; the bot tries again and the human gets the turn back."""
    live = LiveServer(pg_url).start()
    try:
        engine = sqlalchemy.create_engine(pg_url)
        with engine.begin() as conn:
            for statement in REFUSE_ONCE:
                conn.execute(text(statement))
        engine.dispose()
        room = create(live.url, game="pyramideto", seats=[{}, {"agent": "random"}])
        rid, token = room["room"], room["seats"][0]["token"]
        snap = state(live.url, rid, token)
        if snap["legal"]:  # the human opens
            assert move(live.url, rid, token, snap["legal"][0], 0).status_code == 200
        deadline = time.monotonic() + 30
        while not state(live.url, rid, token)["legal"]:
            assert time.monotonic() < deadline, "the bot never moved after the refusal"
            time.sleep(0.05)
        assert live.manager.bots.storage_retries == 1
        snap = state(live.url, rid, token)
        assert move(live.url, rid, token, snap["legal"][0], snap["version"]).status_code == 200
    finally:
        live.stop()


def test_a_bot_game_plays_to_the_end_and_concurrent_moves_have_one_winner(pg_url: str) -> None:
    live = LiveServer(pg_url).start()
    try:
        bots = [{"kind": "bot", "agent": "greedy"}] * 2
        room = create(live.url, game="pyramideto", seats=bots, seed=5)
        final = wait_over(live.url, room["room"])
        assert live.manager.bot_fallbacks == 0  # every move was the agent's own
        record = HTTP.get(f"{live.url}/api/rooms/{room['room']}/record").json()
        assert len(record["moves"]) == final["version"] > 0
        assert pyramids.replay(record).scores() == final["scores"]

        solo = create(live.url, game="piramides", seed=9)
        token = solo["seats"][0]["token"]
        legal = state(live.url, solo["room"], token)["legal"]

        async def race() -> list[httpx.Response]:
            async with httpx.AsyncClient(base_url=live.url) as c:
                posts = [
                    c.post(
                        f"/api/rooms/{solo['room']}/moves",
                        json={"token": token, "move": legal[i % len(legal)], "version": 0},
                    )
                    for i in range(6)
                ]
                return list(await asyncio.gather(*posts))

        replies = asyncio.run(race())
        assert sorted(r.status_code for r in replies) == [200] + [409] * 5
        assert {r.json()["error"]["code"] for r in replies if r.status_code == 409} == {
            "stale-version"
        }
        assert state(live.url, solo["room"], token)["version"] == 1
    finally:
        live.stop()


def test_a_restart_resumes_games_at_the_same_version_with_the_same_moves(pg_url: str) -> None:
    first = LiveServer(pg_url, bot_delay=0.05).start()
    try:
        human = create(first.url, game="piramides", seed=BIG_SEED)
        token = human["seats"][0]["token"]
        played = []
        for v in range(4):
            text_move = state(first.url, human["room"], token)["legal"][0]
            assert move(first.url, human["room"], token, text_move, v).status_code == 200
            played.append(text_move)
        seen = state(first.url, human["room"], token)
        bots = create(
            first.url, game="pyramideto", seats=[{"kind": "bot", "agent": "greedy"}] * 2, seed=3
        )
    finally:
        first.stop()

    store = Store(pg_url)  # what the database holds while no server runs
    try:
        row = store.load_room(human["room"])
        assert row is not None and row.seed == BIG_SEED
        assert [(e.version, e.kind, e.data) for e in row.events] == [
            (v + 1, "move", m) for v, m in enumerate(played)
        ]
    finally:
        store.close()

    second = LiveServer(pg_url, bot_delay=0).start()
    try:
        again = state(second.url, human["room"], token)
        assert again["version"] == 4 and again["view"] == seen["view"]
        expected = pyramids.new_game("piramides", seed=BIG_SEED, names=[human["seats"][0]["name"]])
        for m in played:
            expected.play(expected.parse_move(m))
        assert again["view"] == expected.view(0)
        assert move(second.url, human["room"], token, again["legal"][0], 4).status_code == 200
        final = wait_over(second.url, bots["room"])  # its bots carry on after the restart
        assert second.manager.bot_fallbacks == 0
        record = HTTP.get(f"{second.url}/api/rooms/{bots['room']}/record").json()
        assert pyramids.replay(record).scores() == final["scores"]
    finally:
        second.stop()


def _one_line_error(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("Error: cannot use the database postgresql+psycopg://")
    assert "sqlalche.me" not in lines[0]  # SQLAlchemy's link line is not for the user
    return lines[0]


def test_serve_with_nothing_listening_exits_with_a_one_line_error(cluster: Cluster) -> None:
    """The real command, on a port where no server listens (the cluster is not used)."""
    url = f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/pyramids"
    done = subprocess.run(
        [sys.executable, "-m", "pyramids", "serve", "--database-url", url, "--port", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert "Connection refused" in _one_line_error(done.stderr)


def test_serve_on_a_missing_database_exits_with_a_one_line_error(cluster: Cluster) -> None:
    result = CliRunner().invoke(cli, ["serve", "--database-url", cluster.url("no_such_db")])
    assert result.exit_code == 2
    assert 'database "no_such_db" does not exist' in _one_line_error(result.stderr)


def test_a_schema_2_database_migrates_to_the_commitment_columns(pg_url: str) -> None:
    """The ALTERs of storage.MIGRATIONS run on PostgreSQL too (SQLite: test_fair.py)."""
    Store(pg_url).close()
    store = Store(pg_url)
    with store.engine.begin() as conn:  # back to schema 2: no secret, practice, generator
        conn.execute(text("ALTER TABLE rooms DROP COLUMN generator"))
        conn.execute(text("ALTER TABLE rooms DROP COLUMN secret"))
        conn.execute(text("ALTER TABLE rooms DROP COLUMN practice"))
        conn.execute(text("UPDATE meta SET value = '2' WHERE key = 'schema'"))
        conn.execute(
            text(
                "INSERT INTO rooms (id, game, variant, seed, players, created_at, over, "
                "public_seed, spectator_chat) VALUES "
                "('old', 'piramides', '{\"rounds\": 1}', 5, 1, 0, false, true, false)"
            )
        )
    store.close()
    store = Store(pg_url)
    try:
        row = store.load_room("old")
        assert row is not None and row.secret is None and row.practice is False
        assert row.seed == 5  # dealt by its seed, as before
        room = _room("new")
        room.secret, room.practice = "ab" * 32, True
        store.create_room(room).result(timeout=10)
        again = store.load_room("new")
        assert again is not None and again.secret == "ab" * 32 and again.practice
        keyed = _room("keyed")
        keyed.seed, keyed.secret = None, "cd" * 32
        store.create_room(keyed).result(timeout=10)
        back = store.load_room("keyed")
        assert back is not None and back.seed is None and back.secret == "cd" * 32
    finally:
        store.close()
