"""The server's refusals of who plays: the engine's or agents' code reaches the client as ``rule``.

A client (the web app, a script) words a refusal itself from ``rule`` and
``params`` or shows ``reason``, already in its language; either way it needs
the error's code, not a sentence to parse. The library's side is
tests/test_errors.py.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from pyramids.engine.errors import PlayersError
from pyramids.i18n import translator
from pyramids.server.inputs import NAME_MAX_LENGTH
from tests.server.client import HTTP, create, wait_over
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.timeout(120)


def refused(response: httpx.Response, rule: str) -> dict[str, Any]:
    """The error object of a 400 whose rule is ``rule``."""
    assert response.status_code == 400, response.text
    err: dict[str, Any] = response.json()["error"]
    assert err["code"] == "bad-request" and err["rule"] == rule, err
    return err


def test_a_bad_player_count_is_refused_with_its_rule(live: LiveServer) -> None:
    rooms = f"{live.url}/api/rooms"
    err = refused(HTTP.post(rooms, json={"game": "pyramido", "players": 9}), "player-count")
    assert err["params"] == {"game_id": "pyramido", "minimum": 2, "maximum": 4, "players": 9}
    assert err["reason"] == "pyramido is played by 2 to 4 players, not 9"
    seats = [{"kind": "human"}] * 2
    err = refused(HTTP.post(rooms, json={"game": "piramides", "seats": seats}), "player-count")
    assert err["params"]["players"] == 2
    with pytest.raises(PlayersError) as engine:
        from pyramids import new_game

        new_game("pyramido", players=9)
    spanish = HTTP.post(
        rooms, json={"game": "pyramido", "players": 9}, headers={"Accept-Language": "es"}
    )
    assert refused(spanish, "player-count")["reason"] == translator("es").error(engine.value)


def test_a_bad_seat_name_is_refused_with_its_rule(live: LiveServer) -> None:
    rooms = f"{live.url}/api/rooms"
    for name in ("", "x" * (NAME_MAX_LENGTH + 1), "bell\x07"):
        spec = {"game": "pyramideto", "seats": [{"kind": "human", "name": name}] * 2}
        err = refused(HTTP.post(rooms, json=spec), "player-names")
        assert err["params"]["seat"] == 0


def test_a_bad_bot_is_refused_with_its_rule(live: LiveServer) -> None:
    rooms = f"{live.url}/api/rooms"
    for bot, rule, reason in [
        ({"agent": "nobody"}, "unknown-agent", "unknown agent 'nobody'; known agents: "),
        ({"agent": "child"}, "unknown-agent", "agent 'child' does not play pyramideto; "),
        ({"agent": "mcts", "level": "brutal"}, "agent-level", "level must be one of easy, "),
        ({"agent": "random", "level": "hard"}, "agent-level", "agent 'random' has no levels"),
    ]:
        seats = [{"kind": "human"}, {"kind": "bot", **bot}]
        err = refused(HTTP.post(rooms, json={"game": "pyramideto", "seats": seats}), rule)
        assert err["params"]["seat"] == 1 and err["reason"].startswith(f"seat 1: {reason}")


def test_a_seat_the_game_does_not_have_is_refused_with_its_rule(live: LiveServer) -> None:
    bots = [{"kind": "bot", "agent": "greedy"}] * 2
    room = create(live.url, game="pyramideto", seats=bots, seed=5)["room"]
    wait_over(live.url, room)
    replay = f"{live.url}/api/rooms/{room}/replay"
    assert HTTP.get(replay, params={"seat": 1}).status_code == 200
    for seat in (2, -1):
        err = refused(HTTP.get(replay, params={"seat": seat}), "no-such-seat")
        assert err["params"] == {"number": seat, "count": 2}
        assert err["reason"] == f"no seat {seat} in a 2-player game"
