"""The store: group commit, one bad write does not sink its batch, reloading a room."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from pyramids.server.storage import (
    Append,
    EventRow,
    RoomRow,
    SeatRow,
    StorageError,
    Store,
)


def _room(room_id: str, bots: bool = False) -> RoomRow:
    seat = SeatRow(0, "Bot" if bots else "Ana", "bot" if bots else "human", None, None, "h")
    return RoomRow(room_id, "piramides", {"rounds": 1}, 7, 1, 0.0, 0, False, seats=[seat])


def test_events_are_stored_in_order_and_reloaded(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 's.db'}")
    try:
        store.create_room(_room("r1")).result(timeout=10)
        futures = [
            store.append(Append("r1", EventRow(v, "move", 0, f"m{v}"), None)) for v in range(1, 30)
        ]
        for f in futures:
            f.result(timeout=10)
        store.append(Append("r1", EventRow(30, "undo", 0, "1"), True)).result(timeout=10)
        row = store.load_room("r1")
        assert row is not None
        assert [e.version for e in row.events] == list(range(1, 31))
        assert row.events[-1].kind == "undo" and row.version == 30 and row.over
        assert row.variant == {"rounds": 1} and row.seats[0].name == "Ana"
        assert store.load_room("nope") is None
    finally:
        store.close()


def test_a_duplicate_version_fails_alone_and_the_rest_of_its_batch_commits(
    tmp_path: Path,
) -> None:
    store = Store(f"sqlite:///{tmp_path / 's.db'}")
    try:
        store.create_room(_room("r1")).result(timeout=10)
        store.create_room(_room("r2")).result(timeout=10)
        store.append(Append("r1", EventRow(1, "move", 0, "draw"), None)).result(timeout=10)
        # queue a batch behind a slow operation so that all three commit together
        gate = threading.Event()
        blocker = store._writer.submit(lambda conn: gate.wait(5) and None)
        dup = store.append(Append("r1", EventRow(1, "move", 0, "joker"), None))
        ok1 = store.append(Append("r1", EventRow(2, "move", 0, "joker"), None))
        ok2 = store.append(Append("r2", EventRow(1, "move", 0, "draw"), None))
        gate.set()
        blocker.result(timeout=10)
        with pytest.raises(StorageError) as failed:
            dup.result(timeout=10)
        # the driver's message quotes the SQL and its values; none of it reaches a client
        assert "INSERT" not in str(failed.value) and "joker" not in str(failed.value)
        assert "IntegrityError" in str(failed.value)
        ok1.result(timeout=10)
        ok2.result(timeout=10)
        r1 = store.load_room("r1")
        assert r1 is not None and [e.data for e in r1.events] == ["draw", "joker"]
    finally:
        store.close()


def test_a_waiter_that_gave_up_does_not_stop_the_writer(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 's.db'}")
    try:
        store.create_room(_room("r1")).result(timeout=10)
        gate = threading.Event()
        store._writer.submit(lambda conn: gate.wait(5) and None)
        abandoned: Future[None] = store.append(Append("r1", EventRow(1, "move", 0, "draw"), None))
        assert abandoned.cancel()
        gate.set()
        later = store.append(Append("r1", EventRow(2, "move", 0, "draw"), None))
        later.result(timeout=10)
    finally:
        store.close()


def test_only_unfinished_games_with_bots_are_resumed(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 's.db'}")
    try:
        store.create_room(_room("human")).result(timeout=10)
        store.create_room(_room("bot", bots=True)).result(timeout=10)
        store.create_room(_room("done", bots=True)).result(timeout=10)
        store.append(Append("done", EventRow(1, "move", 0, "draw"), True)).result(timeout=10)
        assert store.rooms_with_bots_to_resume() == ["bot"]
    finally:
        store.close()


def test_a_database_of_another_schema_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 's.db'}"
    Store(url).close()
    Store(url).close()  # reopening our own schema is fine
    import sqlite3

    with sqlite3.connect(tmp_path / "s.db") as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(StorageError, match="schema 99"):
        Store(url)


def test_async_appends_of_one_batch_each_learn_their_own_outcome(tmp_path: Path) -> None:
    """The event loop's waiters are settled per batch; a duplicate fails, its batch commits."""
    import asyncio

    store = Store(f"sqlite:///{tmp_path / 's.db'}")

    wakeups: list[object] = []

    async def scenario() -> list[BaseException | None]:
        loop = asyncio.get_running_loop()
        real = loop.call_soon_threadsafe

        def counting(callback: Any, *args: Any, **kwargs: Any) -> Any:
            wakeups.append(callback)
            return real(callback, *args, **kwargs)

        loop.call_soon_threadsafe = counting  # type: ignore[method-assign]
        gate = threading.Event()
        blocker = store._writer.submit(lambda conn: gate.wait(5) and None)
        tasks = [
            asyncio.create_task(
                store.append_async(Append("r1", EventRow(v, "move", 0, f"m{v}"), None))
            )
            for v in (1, 1, 2, 3)  # the second version 1 must fail, alone
        ]
        await asyncio.sleep(0.05)  # every append is queued behind the blocker
        gate.set()
        await asyncio.wrap_future(blocker)
        return await asyncio.gather(*tasks, return_exceptions=True)

    try:
        store.create_room(_room("r1")).result(timeout=10)
        outcomes = asyncio.run(scenario())
        assert outcomes[0] is None and outcomes[2] is None and outcomes[3] is None
        assert isinstance(outcomes[1], StorageError)
        # the four waiters of the batch cost the loop one wake-up, not four
        settles = [w for w in wakeups if getattr(w, "__name__", "") == "_settle_in_loop"]
        assert len(settles) == 1
        row = store.load_room("r1")
        assert row is not None and [e.data for e in row.events] == ["m1", "m2", "m3"]
    finally:
        store.close()


def test_an_async_waiter_that_was_cancelled_does_not_stop_the_writer(tmp_path: Path) -> None:
    import asyncio

    store = Store(f"sqlite:///{tmp_path / 's.db'}")

    async def scenario() -> None:
        gate = threading.Event()
        store._writer.submit(lambda conn: gate.wait(5) and None)
        gone = asyncio.create_task(
            store.append_async(Append("r1", EventRow(1, "move", 0, "draw"), None))
        )
        kept = asyncio.create_task(
            store.append_async(Append("r1", EventRow(2, "move", 0, "draw"), None))
        )
        await asyncio.sleep(0.05)  # both queued: they commit in one batch
        gone.cancel()
        gate.set()
        await asyncio.wait_for(kept, timeout=10)

    try:
        store.create_room(_room("r1")).result(timeout=10)
        asyncio.run(scenario())
        row = store.load_room("r1")
        assert row is not None and [e.version for e in row.events] == [1, 2]
    finally:
        store.close()
