"""Presence against a real server: each seat is online, away or offline, as the others see it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.server.client import Session, create
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.timeout(60)

HUMANS3 = [{"kind": "human", "name": n} for n in ("Ana", "Bea", "Cai")]


def _presence(seats: list[str]) -> Any:
    return lambda m: m["type"] == "presence" and m["seats"] == seats


def test_a_client_that_never_asks_is_never_told(live: LiveServer) -> None:
    """The protocol is unchanged for clients that do not ask for presence."""
    room = create(live.url, game="pyramideto", seats=HUMANS3)
    tokens = [s["token"] for s in room["seats"]]

    async def run() -> None:
        async with Session(live.ws_url, room["room"], tokens[0]) as ana:
            await ana.until(lambda m: m["type"] == "snapshot")
            async with Session(live.ws_url, room["room"], tokens[1]) as bea:
                await bea.send({"type": "presence", "state": "away"})
                await bea.until(lambda m: m["type"] == "presence")
            await ana.send({"type": "ping"})
            await ana.until(lambda m: m["type"] == "pong")
            assert [m["type"] for m in ana.received] == ["snapshot", "pong"]

    asyncio.run(run())


def test_seats_go_online_away_and_offline(live: LiveServer) -> None:
    room = create(live.url, game="pyramideto", seats=HUMANS3)
    tokens = [s["token"] for s in room["seats"]]

    async def run() -> None:
        async with Session(live.ws_url, room["room"], tokens[0]) as ana:
            await ana.send({"type": "presence", "state": "online"})  # and tell me
            await ana.until(_presence(["online", "offline", "offline"]))
            async with Session(live.ws_url, room["room"], tokens[1]) as bea:
                # the newcomer is told everyone's state once it asks; the others see it arrive
                await bea.send({"type": "presence", "state": "online"})
                await bea.until(_presence(["online", "online", "offline"]))
                await ana.until(_presence(["online", "online", "offline"]))
                await bea.send({"type": "presence", "state": "away"})
                await ana.until(_presence(["online", "away", "offline"]))
                async with Session(live.ws_url, room["room"], None) as watcher:
                    # a spectator is told, and counts for no seat
                    await watcher.send({"type": "presence", "state": "online"})
                    await watcher.until(_presence(["online", "away", "offline"]))
                await bea.send({"type": "presence", "state": "online"})
                await ana.until(_presence(["online", "online", "offline"]))
                await bea.send({"type": "presence", "state": "asleep"})
                err = await bea.until(lambda m: m["type"] == "error")
                assert err["error"]["code"] == "bad-message"
            await ana.until(_presence(["online", "offline", "offline"]))

    asyncio.run(run())


def test_a_seat_open_twice_stays_online_while_one_page_shows(live: LiveServer) -> None:
    room = create(live.url, game="pyramideto", seats=HUMANS3)
    tokens = [s["token"] for s in room["seats"]]

    async def run() -> None:
        ws, rid = live.ws_url, room["room"]
        async with Session(ws, rid, tokens[0]) as ana, Session(ws, rid, tokens[1]) as phone:
            await ana.send({"type": "presence", "state": "online"})
            await ana.until(_presence(["online", "online", "offline"]))
            seen = len(ana.received)
            async with Session(ws, rid, tokens[1]) as laptop:
                await laptop.send({"type": "presence", "state": "away"})
                await laptop.send({"type": "ping"})
                await laptop.until(lambda m: m["type"] == "pong")
                await ana.send({"type": "ping"})  # everything sent before is in by its pong
                await ana.until(lambda m: m["type"] == "pong")
                assert not any(
                    m["type"] == "presence" and m["seats"][1] != "online"
                    for m in ana.received[seen:]
                )
                await phone.send({"type": "presence", "state": "away"})
                await ana.until(_presence(["online", "away", "offline"]))

    asyncio.run(run())
