"""The server over loopback: full bot games, concurrency, resync, undo, errors, restarts."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import httpx
import pytest

import pyramids
from pyramids.ai.base import Agent
from pyramids.ai.registry import AGENTS
from pyramids.engine.registry import game_ids, get_game
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from tests.server.client import (
    HTTP,
    Session,
    create,
    move,
    play_first_legal_moves,
    state,
    wait_over,
)
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.timeout(120)


def _bots(game_id: str) -> list[dict[str, Any]]:
    """Greedy bots: random play of the treasure hunt takes thousands of slides."""
    n = get_game(game_id).min_players
    return [{"kind": "bot", "agent": "greedy"} for _ in range(n)]


@pytest.mark.parametrize("game_id", game_ids())
def test_full_bot_game_of_every_game(live: LiveServer, game_id: str) -> None:
    fallbacks = live.manager.bot_fallbacks
    room = create(live.url, game=game_id, seats=_bots(game_id), seed=11)
    final = wait_over(live.url, room["room"])
    assert live.manager.bot_fallbacks == fallbacks  # every move was the agent's own
    record = HTTP.get(f"{live.url}/api/rooms/{room['room']}/record").json()
    replayed = pyramids.replay(record)
    assert replayed.is_over
    assert replayed.scores() == final["scores"]
    assert final["version"] == len(record["moves"])
    base = f"{live.url}/api/rooms/{room['room']}/replay"
    replay = HTTP.get(base, timeout=30).json()
    assert replay["moves"] == record["moves"] and replay["ply"] == len(record["moves"])
    assert replay["view"] == replayed.view(None)
    assert HTTP.get(f"{base}?seat=0").json()["view"] == replayed.view(0)
    start = HTTP.get(f"{base}?seat=0&ply=0").json()["view"]
    names = [s["name"] for s in room["seats"]]
    assert start == pyramids.new_game(game_id, len(names), seed=11, names=names).view(0)


def test_games_list_offers_every_game_with_bots(live: LiveServer) -> None:
    games = HTTP.get(f"{live.url}/api/games").json()
    assert [g["id"] for g in games] == game_ids()
    for g in games:
        assert any(b["agent"] == "random" for b in g["bots"])
        assert g["undo"] == (g["max_players"] == 1)


def test_openapi_schema_lists_the_routes(live: LiveServer) -> None:
    schema = HTTP.get(f"{live.url}/openapi.json").json()
    assert "/api/rooms" in schema["paths"]
    assert "/api/rooms/{room_id}/moves" in schema["paths"]


def test_human_moves_are_acknowledged_in_order_with_versions(live: LiveServer) -> None:
    room = create(live.url, game="piramides", seed=3)
    token = room["seats"][0]["token"]

    async def run() -> None:
        async with Session(live.ws_url, room["room"], token) as s:
            await play_first_legal_moves(s, "piramides", 3, 5)

    asyncio.run(run())


def test_concurrent_moves_over_websockets_exactly_one_wins(live: LiveServer) -> None:
    room = create(live.url, game="piramides", seed=8)
    token = room["seats"][0]["token"]

    async def run() -> None:
        sessions = [Session(live.ws_url, room["room"], token) for _ in range(4)]
        for s in sessions:
            await s.__aenter__()
            await s.recv()
        legal = state(live.url, room["room"], token)["legal"]
        await asyncio.gather(
            *(
                s.send({"type": "move", "move": legal[i % len(legal)], "version": 0, "id": i})
                for i, s in enumerate(sessions)
            )
        )
        replies = [
            await s.until(lambda m, i=i: m.get("reply_to") == i) for i, s in enumerate(sessions)
        ]
        wins = [r for r in replies if r["type"] == "event"]
        losses = [r for r in replies if r["type"] == "error"]
        assert len(wins) == 1 and len(losses) == 3
        for r in losses:
            assert r["error"]["code"] == "stale-version"
            assert r["snapshot"]["version"] == 1
        for s in sessions:
            await s.__aexit__()

    asyncio.run(run())
    assert state(live.url, room["room"], token)["version"] == 1


def test_concurrent_rest_moves_exactly_one_wins(live: LiveServer) -> None:
    room = create(live.url, game="piramides", seed=9)
    token = room["seats"][0]["token"]
    legal = state(live.url, room["room"], token)["legal"]

    async def run() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=live.url) as c:
            return list(
                await asyncio.gather(
                    *(
                        c.post(
                            f"/api/rooms/{room['room']}/moves",
                            json={"token": token, "move": legal[i % len(legal)], "version": 0},
                        )
                        for i in range(8)
                    )
                )
            )

    codes = sorted(r.status_code for r in asyncio.run(run()))
    assert codes == [200] + [409] * 7


def test_reconnect_receives_exactly_the_missed_events(live: LiveServer) -> None:
    room = create(live.url, game="piramides", seed=21)
    token = room["seats"][0]["token"]
    mirror = pyramids.new_game("piramides", seed=21)
    for v in range(3):
        text = mirror.move_to_str(mirror.legal_moves()[0])
        assert move(live.url, room["room"], token, text, v).status_code == 200
        mirror.play(mirror.parse_move(text))
    views = []
    for v in range(3, 7):
        text = mirror.move_to_str(mirror.legal_moves()[-1])
        assert move(live.url, room["room"], token, text, v).status_code == 200
        mirror.play(mirror.parse_move(text))
        views.append(mirror.view(0))

    async def run() -> None:
        async with Session(live.ws_url, room["room"], token, since=3) as s:
            got = [await s.recv() for _ in range(4)]
            assert [m["type"] for m in got] == ["event"] * 4
            assert [m["version"] for m in got] == [4, 5, 6, 7]
            assert [m["view"] for m in got] == views
        async with Session(live.ws_url, room["room"], token, since=7) as s:
            assert (await s.recv()) == {"type": "synced", "version": 7}
        # a client from the future, or one too far behind, gets a snapshot
        async with Session(live.ws_url, room["room"], token, since=99) as s:
            snap = await s.recv()
            assert snap["type"] == "snapshot" and snap["view"] == mirror.view(0)

    asyncio.run(run())


def test_far_behind_client_gets_a_snapshot(live: LiveServer) -> None:
    room = create(live.url, game="piramides", seed=5)
    token = room["seats"][0]["token"]
    base = f"{live.url}/api/rooms/{room['room']}"
    version = 0
    for _ in range(40):  # draw + undo: 80 events, more than the server keeps in memory
        assert move(live.url, room["room"], token, "draw", version).status_code == 200
        r = HTTP.post(f"{base}/undo", json={"token": token, "version": version + 1})
        assert r.status_code == 200, r.text
        version += 2

    async def run() -> None:
        async with Session(live.ws_url, room["room"], token, since=1) as s:
            snap = await s.recv()
            assert snap["type"] == "snapshot" and snap["version"] == 80
            assert snap["view"] == pyramids.new_game("piramides", seed=5).view(0)

    asyncio.run(run())


def test_spectators_see_the_public_view_and_events(live: LiveServer) -> None:
    room = create(live.url, game="pyramideto", seed=4, seats=[{"kind": "human"}] * 2)
    tokens = [s["token"] for s in room["seats"]]

    async def run() -> None:
        async with Session(live.ws_url, room["room"], None) as spec:
            snap = await spec.recv()
            assert snap["seat"] is None and snap["legal"] is None
            mirror = pyramids.new_game("pyramideto", players=2, seed=4)
            assert snap["view"] == mirror.view(None)
            p = mirror.current_player
            assert p is not None
            text = mirror.move_to_str(mirror.legal_moves()[0])
            assert move(live.url, room["room"], tokens[p], text, 0).status_code == 200
            mirror.play(mirror.parse_move(text))
            ev = await spec.recv()
            assert ev["event"] == {"kind": "move", "seat": p, "move": None}
            assert ev["view"] == mirror.view(None)
            await spec.send({"type": "move", "move": text, "version": 1, "id": "x"})
            err = await spec.recv()
            assert err["error"]["code"] == "spectator"

    asyncio.run(run())


def test_undo_in_solitaire_truncates_the_log_and_bumps_the_version(live: LiveServer) -> None:
    room = create(live.url, game="piramides", seed=2)
    token = room["seats"][0]["token"]
    before = state(live.url, room["room"], token)
    assert before["can_undo"] is False

    async def run() -> None:
        async with Session(live.ws_url, room["room"], token) as s:
            await s.recv()
            await s.send({"type": "undo", "version": 0, "id": 1})
            err = await s.until(lambda m: m.get("reply_to") == 1)
            assert err["error"]["code"] == "nothing-to-undo"
            await s.send({"type": "move", "move": "draw", "version": 0, "id": 2})
            ev = await s.until(lambda m: m.get("reply_to") == 2)
            assert ev["can_undo"] is True
            await s.send({"type": "undo", "version": 1, "id": 3})
            ev = await s.until(lambda m: m.get("reply_to") == 3)
            assert ev["version"] == 2 and ev["event"]["kind"] == "undo"
            assert ev["view"] == before["view"]

    asyncio.run(run())


def test_undo_is_refused_in_multiplayer_games(live: LiveServer) -> None:
    room = create(live.url, game="pyramideto", seats=[{"kind": "human"}] * 2, seed=1)
    token = room["seats"][0]["token"]
    r = HTTP.post(f"{live.url}/api/rooms/{room['room']}/undo", json={"token": token, "version": 0})
    assert r.status_code == 409 and r.json()["error"]["code"] == "undo-not-allowed"


# -- bad input: every error has a code and a reason, and changes nothing -------------------


def _unchanged(live: LiveServer, room: str, token: str, before: dict[str, Any]) -> None:
    after = state(live.url, room, token)
    assert after["version"] == before["version"] and after["view"] == before["view"]


def test_rest_errors_have_codes_and_change_nothing(live: LiveServer) -> None:
    room = create(live.url, game="pyramideto", seats=[{"kind": "human"}] * 2, seed=6)
    rid = room["room"]
    tokens = [s["token"] for s in room["seats"]]
    before = state(live.url, rid, tokens[0])
    to_move = before["view"]["current_player"]
    waiting = 1 - to_move
    legal = state(live.url, rid, tokens[to_move])["legal"]
    cases: list[tuple[httpx.Response, int, str]] = [
        (
            HTTP.post(
                f"{live.url}/api/rooms/{rid}/moves",
                content=b"{not json",
                headers={"content-type": "application/json"},
            ),
            400,
            "bad-json",
        ),
        (HTTP.post(f"{live.url}/api/rooms/{rid}/moves", json=[1, 2]), 400, "bad-message"),
        (
            HTTP.post(f"{live.url}/api/rooms/{rid}/moves", json={"token": tokens[0]}),
            400,
            "bad-message",
        ),
        # an unknown field is refused, not dropped: the move is not played (_unchanged)
        (
            HTTP.post(
                f"{live.url}/api/rooms/{rid}/moves",
                json={"token": tokens[to_move], "move": legal[0], "version": 0, "bogus": 1},
            ),
            400,
            "bad-message",
        ),
        (move(live.url, "nosuchroom", tokens[0], legal[0], 0), 404, "unknown-room"),
        (move(live.url, rid, "wrong-token", legal[0], 0), 403, "bad-token"),
        (move(live.url, rid, tokens[waiting], legal[0], 0), 409, "not-your-turn"),
        (move(live.url, rid, tokens[to_move], "zz>zz", 0), 422, "illegal-move"),
        (move(live.url, rid, tokens[to_move], legal[0], 5), 409, "stale-version"),
        # a version past 64 bits once crashed the refusal that names it back
        (move(live.url, rid, tokens[to_move], legal[0], 2**64), 400, "bad-message"),
        (move(live.url, rid, tokens[to_move], legal[0], -1), 400, "bad-message"),
        (move(live.url, rid, None, legal[0], 0), 403, "spectator"),
        (HTTP.get(f"{live.url}/api/rooms/{rid}/record"), 409, "not-finished"),
        (HTTP.get(f"{live.url}/api/rooms/{rid}/replay"), 409, "not-finished"),
        (HTTP.get(f"{live.url}/api/rooms/nosuchroom"), 404, "unknown-room"),
        (HTTP.post(f"{live.url}/api/rooms", json={"game": "chess"}), 404, "unknown-game"),
        (
            HTTP.post(f"{live.url}/api/rooms", json={"game": "pyramideto", "players": 9}),
            400,
            "bad-request",
        ),
        (
            HTTP.post(
                f"{live.url}/api/rooms",
                json={"game": "piramides", "variant": {"no_such_option": 1}},
            ),
            400,
            "bad-request",
        ),
        (
            HTTP.post(
                f"{live.url}/api/rooms",
                json={"game": "piramides", "seats": [{"kind": "bot", "agent": "nobody"}]},
            ),
            400,
            "bad-request",
        ),
    ]
    for response, status, code in cases:
        assert response.status_code == status, (code, response.text)
        err = response.json()["error"]
        assert err["code"] == code
        assert isinstance(err["reason"], str) and len(err["reason"]) > 10
    _unchanged(live, rid, tokens[0], before)


def test_illegal_move_names_the_rule(live: LiveServer) -> None:
    room = create(live.url, game="piramides", seed=1)
    token = room["seats"][0]["token"]
    r = move(live.url, room["room"], token, "A1", 0)
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["rule"] == "not-free" and "covered" in err["reason"]
    assert r.json()["snapshot"]["version"] == 0


def test_websocket_errors_have_codes_and_change_nothing(live: LiveServer) -> None:
    room = create(live.url, game="pyramideto", seats=[{"kind": "human"}] * 2, seed=6)
    rid = room["room"]
    tokens = [s["token"] for s in room["seats"]]
    before = state(live.url, rid, tokens[0])
    to_move = before["view"]["current_player"]
    legal = state(live.url, rid, tokens[to_move])["legal"]

    async def run() -> None:
        async with Session(live.ws_url, rid, tokens[1 - to_move]) as s:
            await s.recv()
            cases: list[tuple[Any, str]] = [
                ("{oops", "bad-json"),
                ("[1]", "bad-message"),
                ({"type": "dance"}, "bad-message"),
                ({"type": "move", "version": 0}, "bad-message"),
                ({"type": "move", "move": 3, "version": 0}, "bad-message"),
                ({"type": "move", "move": legal[0], "version": "0"}, "bad-message"),
                ({"type": "move", "move": legal[0], "version": 0}, "not-your-turn"),
                ({"type": "move", "move": legal[0], "version": 3}, "stale-version"),
                # a refusal names the client's version back: one past 64 bits could not be
                # encoded and ended the connection (found by the fuzz test)
                ({"type": "move", "move": legal[0], "version": 2**64}, "bad-message"),
                ({"type": "undo", "version": 2**64}, "bad-message"),
                ({"type": "sync", "version": 2**64}, "bad-message"),
                ({"type": "move", "move": legal[0], "version": -1}, "bad-message"),
                ({"type": "move", "move": legal[0], "version": 2**53 + 1}, "bad-message"),
                ({"type": "move", "move": legal[0], "version": 2**53}, "stale-version"),
                # an id must come back unchanged as reply_to in any client's JSON
                ({"type": "ping", "id": 2**60}, "bad-message"),
                ({"type": "ping", "id": "x" * 65}, "bad-message"),
                ({"type": "ping", "id": [[[1]]]}, "bad-message"),
                ({"type": "ping", "id": True}, "bad-message"),
            ]
            for payload, code in cases:
                await s.send(payload)
                msg = await s.recv()
                assert msg["type"] == "error", msg
                assert msg["error"]["code"] == code
                assert msg["error"]["reason"]
            for ident in (2**53, -(2**53), "a-64-character-id".ljust(64, "!"), None):
                await s.send({"type": "ping", "id": ident})
                msg = await s.recv()
                assert msg["type"] == "pong" and msg["reply_to"] == ident
        async with Session(live.ws_url, rid, tokens[to_move]) as s:
            await s.recv()
            await s.send({"type": "move", "move": "nonsense", "version": 0})
            msg = await s.recv()
            assert msg["error"]["code"] == "illegal-move" and msg["error"]["rule"] == "notation"
        for bad_room, bad_token, code in [
            ("nosuch", None, "unknown-room"),
            (rid, "x", "bad-token"),
        ]:
            async with Session(live.ws_url, bad_room, bad_token) as s:
                msg = await s.recv()
                assert msg["type"] == "error" and msg["error"]["code"] == code

    asyncio.run(run())
    _unchanged(live, rid, tokens[0], before)


def test_restart_resumes_games_and_bots(tmp_path: Path) -> None:
    db = tmp_path / "restart.db"
    first = LiveServer(db, bot_delay=0.05).start()
    try:
        human = create(first.url, game="piramides", seed=17)
        token = human["seats"][0]["token"]
        for v, text in enumerate(["draw", "draw", "joker"]):
            assert move(first.url, human["room"], token, text, v).status_code == 200
        seen = state(first.url, human["room"], token)
        bots = create(first.url, game="pyramideto", seats=_bots("pyramideto"), seed=3)
    finally:
        first.stop()
    second = LiveServer(db, bot_delay=0).start()
    try:
        again = state(second.url, human["room"], token)
        assert again["version"] == 3 and again["view"] == seen["view"]
        final = wait_over(second.url, bots["room"])
        record = HTTP.get(f"{second.url}/api/rooms/{bots['room']}/record").json()
        assert pyramids.replay(record).scores() == final["scores"]
    finally:
        second.stop()


def test_web_app_and_rules_are_served(live: LiveServer) -> None:
    page = HTTP.get(f"{live.url}/")
    assert page.status_code == 200 and "app.js" in page.text
    assert HTTP.get(f"{live.url}/static/app.js").status_code == 200
    for game_id in game_ids():
        rules = HTTP.get(f"{live.url}/api/games/{game_id}/rules").json()
        assert rules["game"]["id"] == game_id
    assert json.loads(HTTP.get(f"{live.url}/api/games/nope/rules").text)["error"]["code"] == (
        "unknown-game"
    )


def test_hint_suggests_a_legal_move(live: LiveServer) -> None:
    from pyramids.server.hints import hint_available

    assert hint_available("piramides") and not hint_available("pyramideto")
    room = create(live.url, game="piramides", seed=12)
    token = room["seats"][0]["token"]
    r = HTTP.get(f"{live.url}/api/rooms/{room['room']}/hint", params={"token": token})
    assert r.status_code == 200, r.text
    assert r.json()["move"] in state(live.url, room["room"], token)["legal"]
    spectator = HTTP.get(f"{live.url}/api/rooms/{room['room']}/hint")
    assert spectator.json()["error"]["code"] == "spectator"


class BrokenAgent(Agent):
    """An agent whose every decision fails (to check that a game never stalls on a bot)."""

    name = "broken"

    def choose(self, state: State[Any], rng: Rng) -> Hashable:
        raise RuntimeError("this agent always fails")


def test_a_crashing_bot_falls_back_to_random_moves(
    live: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(AGENTS, "broken", "tests.server.test_api:BrokenAgent")
    room = create(live.url, game="piramides", seats=[{"kind": "bot", "agent": "broken"}], seed=4)
    final = wait_over(live.url, room["room"])
    assert final["version"] > 0
