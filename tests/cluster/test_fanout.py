"""The broker's fan-out: a move committed on one instance reaches the others through Redis.

Why a module of its own: the other cluster tests would pass without the
broker's messages, as each instance's audit (every 0.5 s there) reads what it
missed from the database. Here both instances' audits are off, so an event
can reach another instance's clients only through the broker, and the test
counts that it did (``RoomManager.heard``) and that nothing was repaired from
the database (``RoomManager.repaired``).
"""

from __future__ import annotations

import asyncio
import random

import pytest

import pyramids
from tests.cluster.clients import Watcher
from tests.cluster.conftest import Stack
from tests.server.client import create, move

pytestmark = pytest.mark.timeout(60)

MOVES = 6


def test_a_committed_move_reaches_the_other_instance_through_the_broker(stack: Stack) -> None:
    a, b = stack.instances
    for instance in stack.instances:
        assert instance.manager.upkeep is not None
        instance.manager.upkeep.auditing = False
    seed = 2024
    room = create(a.url, game="piramides", seed=seed)
    token = room["seats"][0]["token"]
    mirror = pyramids.new_game("piramides", seed=seed, names=[room["seats"][0]["name"]])
    rng = random.Random(5)

    async def run() -> None:
        watcher = Watcher(b.ws_url, room["room"])
        await watcher.connect()
        await watcher.wait_version(0)
        heard, repaired = b.manager.heard, b.manager.repaired
        for _ in range(MOVES):
            legal = mirror.legal_moves()
            text = mirror.move_to_str(legal[rng.randrange(len(legal))])
            r = move(a.url, room["room"], token, text, mirror.ply)
            assert r.status_code == 200, r.text
            mirror.play(mirror.parse_move(text))
            await watcher.wait_version(mirror.ply, timeout=5)
        await watcher.close()
        assert not watcher.problems, watcher.problems
        assert watcher.events == MOVES
        assert watcher.last is not None and watcher.last["view"] == mirror.view(None)
        assert b.manager.heard - heard == MOVES
        assert b.manager.repaired == repaired  # nothing came from the database

    asyncio.run(run())
