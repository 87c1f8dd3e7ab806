"""Strict input against a real server (``docs/security.md``, *Input*): JSON types are
not coerced, and names are normalized and checked by the one rule of names."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest
import websockets
from hypothesis import given
from hypothesis import strategies as st

from pyramids.engine.errors import PlayersError
from pyramids.engine.player_names import (
    BIDI_CONTROLS,
    NAME_MAX_LENGTH,
    check_name,
    normalize_name,
)
from tests.server.client import HTTP, create
from tests.server.conftest import LiveServer


def _refused(live: LiveServer, body: dict[str, Any], rule: str) -> dict[str, Any]:
    r = HTTP.post(f"{live.url}/api/rooms", json=body)
    assert r.status_code == 400, r.text
    err: dict[str, Any] = r.json()["error"]
    assert err["code"] == "bad-request" and err["rule"] == rule, err
    return err


@pytest.mark.parametrize(
    ("option", "value", "rule"),
    [
        ("rounds", "3", "variant-not-int"),
        ("jokers_per_round", 1.0, "variant-not-int"),
        ("jokers_per_round", True, "variant-not-int"),
        ("face_down", "yes", "variant-not-bool"),
        ("face_down", 1, "variant-not-bool"),
        ("layout", 3, "variant-not-text"),
    ],
)
def test_variant_values_are_not_coerced(
    live: LiveServer, option: str, value: Any, rule: str
) -> None:
    err = _refused(live, {"game": "piramides", "variant": {option: value}}, rule)
    assert option in err["reason"]


def test_variant_values_of_the_right_type_are_taken(live: LiveServer) -> None:
    room = create(live.url, game="piramides", variant={"rounds": 3, "face_down": True})
    assert room["room"]
    assert create(live.url, game="pyramido", variant={"first_player": "random"})["room"]


def _names(live: LiveServer, *names: str) -> list[str]:
    room = create(live.url, game="pyramido", seats=[{"name": n} for n in names])
    summary = HTTP.get(f"{live.url}/api/rooms/{room['room']}").json()
    return [s["name"] for s in summary["seats"]]


def test_names_are_normalized(live: LiveServer) -> None:
    assert _names(live, "Ana\u200b", "\u202eBo\u202c") == ["Ana", "Bo"]
    assert _names(live, "\uff21\uff4e\uff41", "  Bo \u00a0 Li ") == ["Ana", "Bo Li"]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("\u200b\u200b\u200b", "visible"),
        ("\u3164", "visible"),
        ("Bot 2 (mcts hard)", "bot"),
        ("bot", "bot"),
        ("BOTS united", "bot"),
        ("x" * (NAME_MAX_LENGTH + 1), "characters"),
        ("bell\x07", "control"),
    ],
)
def test_bad_names_are_refused_with_the_rule(live: LiveServer, name: str, words: str) -> None:
    err = _refused(live, {"game": "pyramido", "seats": [{"name": name}, {}]}, "player-names")
    assert words in err["reason"] and err["params"]["seat"] == 0


def test_a_bot_may_be_named_like_a_bot_and_botond_is_a_person(live: LiveServer) -> None:
    seats = [{"name": "Bot 2 (mcts hard)", "agent": "random"}, {"name": "Botond"}]
    room = create(live.url, game="pyramido", seats=seats)
    assert room["room"]


def test_the_refusals_are_translated(live: LiveServer) -> None:
    body = {"game": "pyramido", "seats": [{"name": "Bot 1"}, {}]}
    r = HTTP.post(f"{live.url}/api/rooms?lang=es", json=body)
    english = "a person's name cannot look like a bot's"
    assert r.status_code == 400 and english not in r.json()["error"]["reason"]


def test_chat_loses_its_direction_controls(live: LiveServer) -> None:
    room = create(live.url, game="pyramido", players=2)
    token = room["seats"][0]["token"]

    async def run() -> dict[str, Any]:
        uri = f"{live.ws_url}/ws/rooms/{room['room']}?token={token}"
        async with websockets.connect(uri) as ws:
            await ws.recv()
            await ws.send(orjson.dumps({"type": "chat", "text": "gg \u202eesrever"}).decode())
            while True:
                msg: dict[str, Any] = orjson.loads(await asyncio.wait_for(ws.recv(), 10))
                if msg["type"] == "chat":
                    return msg

    msg = asyncio.run(run())
    assert "\u202e" not in orjson.dumps(msg).decode("utf-8")
    assert "gg esrever" in orjson.dumps(msg).decode("utf-8")


# -- the rule itself --------------------------------------------------------------------


@given(st.text(max_size=60))
def test_the_rule_is_idempotent_and_leaves_nothing_invisible(text: str) -> None:
    try:
        name = check_name(text, person=False)
    except PlayersError:
        return
    assert check_name(name, person=False) == name == normalize_name(name)
    assert 0 < len(name) <= NAME_MAX_LENGTH
    assert not set(name) & BIDI_CONTROLS and "\u200b" not in name
    assert name == name.strip() and "  " not in name
