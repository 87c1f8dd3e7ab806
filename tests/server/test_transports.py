"""The server on each of uvicorn's implementations: the light install's and the ``fast`` extra's.

``make play`` installs plain uvicorn with wsproto (WebSockets) and h11 (HTTP), because
uvicorn's ``[standard]`` extras (websockets, httptools, uvloop) cost about 3 s of
the first start's install; ``pip install 'pyramids[fast]'`` brings them back for a
club's server, and uvicorn's ``auto`` then prefers them. The suite's other live
servers run ``auto`` with the test tools installed (websockets, httptools), so this
module is where the players' own configuration is played.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.client import HTTP, Session, create, play_first_legal_moves, state, wait_over
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.timeout(120)

TRANSPORTS = {
    # (ws, http): the protocol classes uvicorn must then load
    "light": (("wsproto", "h11"), ("WSProtocol", "H11Protocol")),
    "fast": (("websockets", "httptools"), ("WebSocketProtocol", "HttpToolsProtocol")),
}


@pytest.fixture(scope="module", params=sorted(TRANSPORTS))
def served(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    (ws, http), _ = TRANSPORTS[request.param]
    db: Path = tmp_path_factory.mktemp(f"srv-{request.param}") / "games.db"
    server = LiveServer(db, ws=ws, http=http).start()
    server.transport = request.param  # type: ignore[attr-defined]
    yield server
    server.stop()


def test_uvicorn_serves_with_the_implementations_asked_for(served: LiveServer) -> None:
    _, (ws_class, http_class) = TRANSPORTS[served.transport]  # type: ignore[attr-defined]
    config = served.server.config
    assert config.ws_protocol_class is not None
    assert config.ws_protocol_class.__name__ == ws_class
    assert config.http_protocol_class.__name__ == http_class


def test_moves_over_the_websocket_are_acknowledged_and_bad_ones_change_nothing(
    served: LiveServer,
) -> None:
    room = create(served.url, game="piramides", seed=11)
    token = room["seats"][0]["token"]

    async def run() -> None:
        async with Session(served.ws_url, room["room"], token) as s:
            await play_first_legal_moves(s, "piramides", 11, 3)
            await s.send("{not json")
            reply = await s.until(lambda m: m["type"] == "error")
            assert reply["error"]["code"] == "bad-json"
            await s.send({"type": "move", "move": "Z9", "version": 3, "id": 9})
            reply = await s.until(lambda m: m.get("reply_to") == 9)
            assert reply["type"] == "error" and reply["error"]["code"] == "illegal-move"

    asyncio.run(run())
    assert state(served.url, room["room"], token)["version"] == 3


def test_a_spectator_watches_a_bot_game_to_its_end(served: LiveServer) -> None:
    room = create(
        served.url,
        game="pyramideto",
        seats=[{"kind": "bot", "agent": "greedy"}, {"kind": "bot", "agent": "greedy"}],
    )

    async def run() -> None:
        async with Session(served.ws_url, room["room"], None) as spectator:
            first = await spectator.recv()
            assert first["type"] == "snapshot" and first["seat"] is None
            summary = await asyncio.to_thread(wait_over, served.url, room["room"])
            last = await spectator.until(lambda m: m.get("version") == summary["version"])
            assert last["type"] in {"snapshot", "event"}

    asyncio.run(run())
    assert HTTP.get(f"{served.url}/api/rooms/{room['room']}/record").status_code == 200
