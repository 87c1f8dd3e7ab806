"""Presence across a cluster: a seat connected to one instance is seen online from the other."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.cluster.conftest import Stack
from tests.server.client import Session, create

pytestmark = pytest.mark.timeout(60)

HUMANS2 = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bea"}]


def _presence(seats: list[str]) -> Any:
    return lambda m: m["type"] == "presence" and m["seats"] == seats


def test_presence_crosses_instances(stack: Stack) -> None:
    a, b = stack.instances
    room = create(a.url, game="pyramideto", seats=HUMANS2)
    rid = room["room"]
    tokens = [s["token"] for s in room["seats"]]

    async def run() -> None:
        async with Session(a.ws_url, rid, tokens[0]) as ana:
            await ana.send({"type": "presence", "state": "online"})
            await ana.until(_presence(["online", "offline"]))
            async with Session(b.ws_url, rid, tokens[1]) as bea:
                await ana.until(_presence(["online", "online"]))
                await bea.send({"type": "presence", "state": "away"})
                await ana.until(_presence(["online", "away"]))
                await bea.send({"type": "presence", "state": "online"})
                await bea.until(_presence(["online", "online"]))  # and Ana, from instance a
            await ana.until(_presence(["online", "offline"]))

    asyncio.run(run())
