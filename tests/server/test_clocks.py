"""Clocks against a real server on loopback, with short controls and real time.

What ``RULINGS.md`` §5 rules is checked as a player sees it: the summary,
the seat's snapshot, the record and the refusal of a late move. Nothing
here mocks time: a 2-second clock really runs out.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

import pyramids
from pyramids.games.pyramido_treasure.treasures import BLANK
from pyramids.server.clocks import TURN_STEP_CAP
from tests.server.client import HTTP, create, move, state, wait_over
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.timeout(120)

HUMANS2 = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bea"}]


def _summary(live: LiveServer, room: str) -> dict[str, Any]:
    body: dict[str, Any] = HTTP.get(f"{live.url}/api/rooms/{room}").json()
    return body


def test_a_clock_is_shown_and_a_move_adds_its_increment(live: LiveServer) -> None:
    room = create(
        live.url,
        game="pyramideto",
        seats=HUMANS2,
        clock={"kind": "realtime", "base": 30, "increment": 7},
    )
    rid = room["room"]
    first = room["current_player"]
    token = room["seats"][first]["token"]
    snap = state(live.url, rid, token)
    clock = snap["clock"]
    assert clock["kind"] == "realtime" and clock["turn"] == first and clock["running"]
    assert 25 < clock["remaining"][first] <= 30
    r = move(live.url, rid, token, snap["legal"][0], snap["version"])
    assert r.status_code == 200, r.text
    after = r.json()["clock"]
    assert after["turn"] == 1 - first
    # 30 s less the moment it took, plus 7 s
    assert 35 < after["remaining"][first] <= 37


def test_two_players_the_one_who_ran_out_loses(live: LiveServer) -> None:
    room = create(
        live.url,
        game="pyramideto",
        seats=HUMANS2,
        clock={"kind": "realtime", "base": 2, "increment": 1},
    )
    rid = room["room"]
    first = room["current_player"]
    token = room["seats"][first]["token"]
    version = state(live.url, rid, token)["version"]
    summary = wait_over(live.url, rid, timeout=20)
    assert summary["left"] == [first]
    assert summary["ranking"][first] == 2 and summary["ranking"][1 - first] == 1
    snap = state(live.url, rid, token)
    assert snap["view"]["is_over"] and snap["legal"] is None
    assert snap["view"]["ranking"] == summary["ranking"]
    late = move(live.url, rid, token, "x", version)
    assert late.status_code == 409
    record = HTTP.get(f"{live.url}/api/rooms/{rid}/record").json()
    assert record["clock"]["left"] == [{"seat": first, "why": "time"}]
    assert record["clock"]["ranking"] == summary["ranking"]
    # the game's own result is what its moves give (``pyramids verify`` checks that)
    assert record["result"]["over"] is False
    assert record["reveal"] is not None


def test_three_players_who_run_out_leave_are_ranked_last_and_bots_play_on(
    live: LiveServer,
) -> None:
    seats = [*HUMANS2, {"kind": "bot", "agent": "random"}]
    room = create(live.url, game="pyramideto", seats=seats, clock={"kind": "realtime", "base": 2})
    rid = room["room"]
    tokens = [s["token"] for s in room["seats"]]
    summary = wait_over(live.url, rid, timeout=60)
    # both people sat still: each ran out in turn, the first to leave ranked lowest
    first, second = summary["left"]
    assert {first, second} == {0, 1}
    assert summary["ranking"][first] == 3
    assert summary["ranking"][second] == 2
    assert summary["ranking"][2] == 1
    assert [s["kind"] for s in summary["seats"]] == ["bot", "bot", "bot"]
    # the game went on to its own end, played by the bots
    snap = state(live.url, rid, tokens[first])
    assert snap["view"]["is_over"] and len(snap["view"]["ranking"]) == 3
    record = HTTP.get(f"{live.url}/api/rooms/{rid}/record").json()
    assert record["result"]["over"] is True
    assert [x["seat"] for x in record["clock"]["left"]] == [first, second]


def test_a_seat_that_left_cannot_move_any_more(live: LiveServer) -> None:
    live.manager.bots.bot_delay = 0.0
    seats = [*HUMANS2, {"kind": "human", "name": "Cai"}]
    room = create(live.url, game="pyramideto", seats=seats, clock={"kind": "realtime", "base": 2})
    rid = room["room"]
    first = room["current_player"]
    token = room["seats"][first]["token"]
    deadline = time.monotonic() + 20
    while _summary(live, rid)["left"] != [first]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    snap = state(live.url, rid, token)
    r = move(live.url, rid, token, "x", snap["version"])
    assert r.status_code == 409 and r.json()["error"]["code"] == "left", r.text


def test_untimed_tables_and_solitaire_have_no_running_clock(live: LiveServer) -> None:
    room = create(live.url, game="pyramideto", seats=HUMANS2)
    snap = state(live.url, room["room"], room["seats"][0]["token"])
    assert snap["clock"]["kind"] == "untimed" and not snap["clock"]["running"]
    solo = create(live.url, game="piramides")
    assert "clock" not in state(live.url, solo["room"], solo["seats"][0]["token"])
    r = HTTP.post(
        f"{live.url}/api/rooms",
        json={"game": "piramides", "clock": {"kind": "realtime", "base": 60}},
    )
    assert r.status_code == 400 and "no clock" in r.json()["error"]["reason"]


@pytest.mark.parametrize(
    "clock",
    [
        {"kind": "turn", "days": 4},
        {"kind": "realtime", "base": 0},
        {"kind": "realtime", "base": "60"},
        {"kind": "realtime", "base": 60, "increment": True},
        {"kind": "realtime", "preset": "blitz"},
        {"kind": "sand"},
        {"kind": "turn", "days": 1, "base": 5},
        "fast",
    ],
)
def test_bad_clocks_are_refused(live: LiveServer, clock: Any) -> None:
    r = HTTP.post(
        f"{live.url}/api/rooms", json={"game": "pyramideto", "seats": HUMANS2, "clock": clock}
    )
    assert r.status_code == 400, r.text
    assert r.json()["error"]["code"] == "bad-request"


def test_turn_based_and_preset_controls(live: LiveServer) -> None:
    room = create(live.url, game="pyramido", seats=HUMANS2, clock={"kind": "turn", "days": 2})
    clock = state(live.url, room["room"])["clock"]
    assert clock["kind"] == "turn" and clock["days"] == 2
    assert 2 * 86400 - 60 < max(clock["remaining"]) <= 2 * 86400
    room = create(
        live.url, game="pyramido", seats=HUMANS2, clock={"kind": "realtime", "preset": "quick"}
    )
    clock = state(live.url, room["room"])["clock"]
    assert (clock["base"], clock["increment"]) == (300, 5)


def test_a_clock_runs_out_while_the_server_is_down(tmp_path: Path) -> None:
    """The deadline is in the database: the next server's sweep ends the turn."""
    db = tmp_path / "games.db"
    first = LiveServer(db).start()
    try:
        room = create(
            first.url, game="pyramideto", seats=HUMANS2, clock={"kind": "realtime", "base": 2}
        )
    finally:
        first.stop()
    time.sleep(2.5)
    second = LiveServer(db).start()
    try:
        summary = wait_over(second.url, room["room"], timeout=20)
        loser = room["current_player"]
        assert summary["left"] == [loser] and summary["ranking"][loser] == 2
        assert second.manager.clocks.expired == 1
    finally:
        second.stop()


def test_an_untimed_turn_ends_at_the_step_cap(live: LiveServer) -> None:
    """The endless treasure hunt: a seeker who slides only onto blank spots keeps the turn.

    A local copy of the practice deal shows where the blanks are; on an
    untimed table the server still ends that turn after ``TURN_STEP_CAP``
    steps, by the clock ruling (2 players: the slider loses).
    """
    seed = 5
    names = ["Ana", "Bea"]
    room = create(live.url, game="pyramido-treasure", seats=HUMANS2, seed=seed)
    rid = room["room"]
    tokens = [s["token"] for s in room["seats"]]
    mirror: Any = pyramids.new_game("pyramido-treasure", players=2, seed=seed, names=names)
    run, longest, version = 0, 0, 0
    for _ in range(TURN_STEP_CAP * 4):
        if _summary(live, rid)["over"]:
            break
        seat = mirror.current_player
        legal = mirror.legal_moves()
        blank = [m for m in legal if getattr(m, "spot", None) is not None]
        blank = [m for m in blank if mirror._tokens[m.spot] == BLANK]
        chosen = blank[0] if blank else legal[0]
        r = move(live.url, rid, tokens[seat], mirror.move_to_str(chosen), version)
        if r.status_code != 200:
            break
        version = r.json()["version"]
        mirror.play(chosen)
        run = run + 1 if mirror.current_player == seat else 0
        longest = max(longest, run)
    summary = wait_over(live.url, rid, timeout=10)
    assert longest == TURN_STEP_CAP  # the turn ended with its cap-th step
    (loser,) = summary["left"]
    assert summary["ranking"][loser] == 2
    record = HTTP.get(f"{live.url}/api/rooms/{rid}/record").json()
    assert record["clock"]["left"] == [{"seat": loser, "why": "steps"}]
    assert record["clock"]["kind"] == "untimed"


def test_the_bot_of_a_seat_that_left_plays_on_after_a_restart(tmp_path: Path) -> None:
    """A table of people: after a restart, the bot now playing a seat that left carries on."""
    db = tmp_path / "games.db"
    seats = [*HUMANS2, {"kind": "human", "name": "Cai"}]
    first = LiveServer(db, bot_delay=60).start()  # the bot waits: it will not move here
    try:
        room = create(
            first.url, game="pyramideto", seats=seats, clock={"kind": "realtime", "base": 1}
        )
        rid = room["room"]
        deadline = time.monotonic() + 20
        while not _summary(first, rid)["left"]:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        stopped_at = _summary(first, rid)["version"]
    finally:
        first.stop()
    second = LiveServer(db).start()
    try:
        # read from the database, not the server: asking the server would load the game
        deadline = time.monotonic() + 20
        while _stored_version(db, rid) <= stopped_at:
            assert time.monotonic() < deadline, "the bot of the seat that left did not move"
            time.sleep(0.1)
    finally:
        second.stop()


def _stored_version(db: Path, room: str) -> int:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        row = conn.execute("SELECT MAX(version) FROM events WHERE room_id = ?", (room,)).fetchone()
    return int(row[0] or 0)
