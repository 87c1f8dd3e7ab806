"""Presence across a cluster: a seat connected to one instance is seen online from the other."""

from __future__ import annotations

import asyncio
import subprocess
import time
from typing import Any

import pytest

from pyramids.server.launch import serve_command, wait_until_serving
from pyramids.server.presence import REFRESH, STALE
from tests.cluster.conftest import Stack, new_database
from tests.cluster.services import RedisServer, distinct_ports
from tests.server.client import Session, create
from tests.server.forks import sigkill
from tests.server.postgres import Cluster

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


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_the_seats_of_a_killed_instance_go_offline(
    pg_cluster: Cluster, redis_server: RedisServer
) -> None:
    """Nobody says goodbye for an instance killed with SIGKILL: its word goes stale instead."""
    url = new_database(pg_cluster)
    ports = distinct_ports(2)
    options = ("--rate-limit", "off", "--broker", redis_server.url)
    procs = [
        subprocess.Popen(
            serve_command(port, url, 0.0, options),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    try:
        urls = [f"http://127.0.0.1:{port}" for port in ports]
        for u in urls:
            assert wait_until_serving(u, timeout=60), f"{u} did not start"
        room = create(urls[0], game="pyramideto", seats=HUMANS2)
        rid, tokens = room["room"], [s["token"] for s in room["seats"]]
        ws = [f"ws://127.0.0.1:{port}" for port in ports]

        async def run() -> None:
            async with Session(ws[1], rid, tokens[0]) as ana, Session(ws[0], rid, tokens[1]):
                await ana.send({"type": "presence", "state": "online"})
                await ana.until(_presence(["online", "online"]), timeout=STALE)
                sigkill(procs[0].pid, procs)
                start = time.monotonic()
                await ana.until(_presence(["online", "offline"]), timeout=STALE + 2 * REFRESH)
                assert time.monotonic() - start >= REFRESH  # by staleness, not by a goodbye

        asyncio.run(run())
    finally:
        for proc in procs:
            if proc.poll() is None:
                sigkill(proc.pid, procs)
