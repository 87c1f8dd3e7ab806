"""The server speaks the client's language: errors, game texts, catalogs, rules pages."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets

from pyramids.engine.registry import game_ids
from pyramids.i18n import LANGUAGES, translator
from tests.server.client import HTTP, create, move
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.timeout(60)


def test_rest_errors_carry_code_params_and_a_reason_in_the_language(live: LiveServer) -> None:
    room = create(live.url, game="piramides", seats=[{"kind": "human"}], seed=4242)
    token = room["seats"][0]["token"]
    english = move(live.url, room["room"], token, "A1", 0).json()["error"]
    assert english["code"] == "illegal-move" and english["rule"]
    assert english["params"] and isinstance(english["params"], dict)
    for lang in LANGUAGES[1:]:
        by_query = HTTP.post(
            f"{live.url}/api/rooms/{room['room']}/moves?lang={lang}",
            json={"token": token, "move": "A1", "version": 0},
        ).json()["error"]
        by_header = HTTP.post(
            f"{live.url}/api/rooms/{room['room']}/moves",
            json={"token": token, "move": "A1", "version": 0},
            headers={"Accept-Language": f"{lang};q=0.9, en;q=0.1"},
        ).json()["error"]
        assert by_query == by_header
        assert by_query["code"] == english["code"] and by_query["params"] == english["params"]
        assert by_query["reason"] != english["reason"]


def test_server_errors_of_its_own_are_translated(live: LiveServer) -> None:
    r = HTTP.get(f"{live.url}/api/rooms/nope?lang=cs")
    assert r.status_code == 404
    err = r.json()["error"]
    assert err["code"] == "unknown-room"
    assert err["reason"] == translator("cs").gettext("there is no game {room}", room="'nope'")
    assert err["reason"] != "there is no game 'nope'"


def test_websocket_errors_follow_the_lang_parameter(live: LiveServer) -> None:
    room = create(live.url, game="piramides", seats=[{"kind": "human"}], seed=7)
    token = room["seats"][0]["token"]

    async def go() -> dict[str, object]:
        url = f"{live.ws_url}/ws/rooms/{room['room']}?token={token}&lang=fi"
        async with websockets.connect(url) as ws:
            json.loads(await ws.recv())  # the snapshot
            await ws.send(json.dumps({"type": "move", "move": "A1", "version": 0, "id": 1}))
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] == "error":
                    return msg["error"]  # type: ignore[no-any-return]

    err = asyncio.run(go())
    assert err["code"] == "illegal-move"
    english = move(live.url, room["room"], token, "A1", 0).json()["error"]["reason"]
    assert err["reason"] != english


def test_games_list_is_translated_but_ids_and_options_stay(live: LiveServer) -> None:
    en = HTTP.get(f"{live.url}/api/games").json()
    es = HTTP.get(f"{live.url}/api/games?lang=es").json()
    assert [g["id"] for g in en] == [g["id"] for g in es]
    for a, b in zip(en, es, strict=True):
        assert [o["name"] for o in a["options"]] == [o["name"] for o in b["options"]]
        assert a["summary"] != b["summary"]
        for oa, ob in zip(a["options"], b["options"], strict=True):
            assert oa["doc"] != ob["doc"], (a["id"], oa["name"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_web_catalog_json(live: LiveServer, lang: str) -> None:
    data = HTTP.get(f"{live.url}/api/i18n/{lang}").json()
    assert data["lang"] == lang
    assert set(data["names"]) >= {"treasure", "colour", "goal"}
    assert len(data["names"]["treasure"]) == 12
    if lang != "en":
        assert data["messages"]["Your move"]
        assert data["names"]["treasure"]["sacred-dog"] != "Sacred dog"
        plural = data["messages"]["{n} player"]
        assert isinstance(plural, list) and len(plural) >= 2


def test_unknown_catalog_language_is_a_clear_error(live: LiveServer) -> None:
    r = HTTP.get(f"{live.url}/api/i18n/xx")
    assert r.status_code == 400
    assert "en, pt, fi, cs, es" in r.json()["error"]["reason"]


@pytest.mark.parametrize("game", game_ids())
@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_page_of_every_game_in_every_language(live: LiveServer, game: str, lang: str) -> None:
    data = HTTP.get(f"{live.url}/api/games/{game}/rules?lang={lang}").json()
    assert data["lang"] == lang, f"no {lang} rules page for {game}"
    html = data["html"]
    assert html.startswith("<h1>")
    for word in ("RULINGS", "seeds/", "Ruling", "docs/", f"`{game}`"):
        assert word not in html, f"{game}/{lang}: developer text {word!r} on a player page"
    assert "<script" not in html


def test_rematch_keeps_the_seats_and_links_and_is_the_same_for_everyone(live: LiveServer) -> None:
    room = create(
        live.url,
        game="pyramideto",
        seats=[{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Ben"}],
    )
    tokens = [s["token"] for s in room["seats"]]
    r = HTTP.post(f"{live.url}/api/rooms/{room['room']}/rematch", json={"token": tokens[0]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not-finished"
    bad = HTTP.post(f"{live.url}/api/rooms/{room['room']}/rematch", json={"token": "x" * 24})
    assert bad.status_code == 403


def test_rematch_of_a_finished_game(live: LiveServer) -> None:
    room = create(
        live.url,
        game="piramides",
        seats=[{"kind": "human", "name": "Ana"}],
        variant={"rounds": 1},
        seed=99,
    )
    rid, token = room["room"], room["seats"][0]["token"]
    for _ in range(200):
        snap = HTTP.get(f"{live.url}/api/rooms/{rid}/state", params={"token": token}).json()
        if snap["view"]["is_over"]:
            break
        assert move(live.url, rid, token, snap["legal"][-1], snap["version"]).status_code == 200
    first = HTTP.post(f"{live.url}/api/rooms/{rid}/rematch", json={"token": token})
    assert first.status_code == 201, first.text
    again = HTTP.post(f"{live.url}/api/rooms/{rid}/rematch", json={"token": token})
    assert again.json()["room"] == first.json()["room"] != rid
    new = first.json()["room"]
    # the same token opens the same seat in the rematch, at a new deal
    snap = HTTP.get(f"{live.url}/api/rooms/{new}/state", params={"token": token}).json()
    assert snap["seat"] == 0 and snap["version"] == 0 and not snap["view"]["is_over"]
    assert [s["name"] for s in snap["seats"]] == ["Ana"]
