"""Two instances on one PostgreSQL and one Redis: they play one game and never disagree.

The instances run in this process (:class:`tests.cluster.conftest.Instance`),
so a test can read their counters; everything between them goes through the
real database and the real broker, as between machines.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

import pyramids
from pyramids.engine.state import State
from tests.cluster.clients import Watcher
from tests.cluster.conftest import Stack
from tests.server.client import HTTP, create, state

pytestmark = pytest.mark.timeout(120)


def _mirror(room: dict[str, Any], game: str, seed: int) -> State[Any]:
    names = [s["name"] for s in room["seats"]]
    return pyramids.new_game(game, players=len(names), seed=seed, names=names)


def _pick(mirror: State[Any], rng: random.Random) -> str:
    moves = mirror.legal_moves()
    return mirror.move_to_str(moves[rng.randrange(len(moves))])


def test_two_seats_on_two_instances_play_a_whole_game(stack: Stack) -> None:
    """Seat 0 plays through instance A, seat 1 through B; spectators on both see it all."""
    a, b = stack.instances
    seed = 4242
    room = create(a.url, game="pyramido", seed=seed, seats=[{"kind": "human"}] * 2)
    tokens = [s["token"] for s in room["seats"]]
    mirror = _mirror(room, "pyramido", seed)
    rng = random.Random(1)

    async def play() -> None:
        seats = [
            Watcher(a.ws_url, room["room"], tokens[0]),
            Watcher(b.ws_url, room["room"], tokens[1]),
        ]
        watchers = [*seats, Watcher(a.ws_url, room["room"]), Watcher(b.ws_url, room["room"])]
        for w in watchers:
            await w.connect()
        for w in watchers:
            await w.wait_version(0)
        while not mirror.is_over:
            p = mirror.current_player
            assert p is not None
            version = mirror.ply
            text = _pick(mirror, rng)
            await seats[p].send({"type": "move", "move": text, "version": version, "id": version})
            mirror.play(mirror.parse_move(text))
            for w in watchers:
                await w.wait_version(version + 1)
            for seat, w in enumerate(seats):
                last = w.last
                assert last is not None and last["view"] == mirror.view(seat)
        for w in watchers:
            await w.close()
            assert not w.problems, w.problems
            assert w.events == mirror.ply and w.snapshots == 1
            assert not [m for m in w.messages if m["type"] == "error"]

    asyncio.run(play())
    for instance in stack.instances:
        summary = HTTP.get(f"{instance.url}/api/rooms/{room['room']}").json()
        assert summary["over"] and summary["version"] == mirror.ply


def test_concurrent_moves_at_one_version_on_two_instances_have_one_winner(stack: Stack) -> None:
    """200 times: the same seat moves at once through A and through B, at one version.

    Exactly one move is stored; the other is answered stale-version with the
    state that won, whichever instance it reached and whichever way it lost
    (the key in the database, or a cache that had already heard).
    """
    a, b = stack.instances
    rng = random.Random(7)
    tries = 0
    stale = {"A": 0, "B": 0}

    async def race() -> None:
        nonlocal tries
        async with httpx.AsyncClient(timeout=10) as client:
            while tries < 200:
                seed = rng.randrange(10**6)
                room = create(a.url, game="piramides", seed=seed)
                token = room["seats"][0]["token"]
                mirror = _mirror(room, "piramides", seed)
                version = 0
                while not mirror.is_over and tries < 200:
                    moves = mirror.legal_moves()
                    texts = [mirror.move_to_str(m) for m in moves]
                    first, second = rng.choice(texts), rng.choice(texts)
                    answers = await asyncio.gather(
                        *(
                            client.post(
                                f"{inst.url}/api/rooms/{room['room']}/moves",
                                json={"token": token, "move": text, "version": version},
                            )
                            for inst, text in ((a, first), (b, second))
                        )
                    )
                    tries += 1
                    codes = sorted(r.status_code for r in answers)
                    assert codes == [200, 409], [r.text for r in answers]
                    won = next(r for r in answers if r.status_code == 200).json()
                    lost_index = next(i for i, r in enumerate(answers) if r.status_code == 409)
                    lost = answers[lost_index].json()
                    assert lost["error"]["code"] == "stale-version", lost
                    stale["AB"[lost_index]] += 1
                    winner_text = (first, second)[1 - lost_index]
                    mirror.play(mirror.parse_move(winner_text))
                    version += 1
                    assert won["version"] == version
                    assert lost["snapshot"]["version"] == version
                    assert lost["snapshot"]["view"] == mirror.view(0) == won["view"]
                for inst in (a, b):
                    snap = state(inst.url, room["room"], token)
                    assert snap["version"] == version and snap["view"] == mirror.view(0)

    asyncio.run(race())
    assert tries == 200
    assert stale["A"] and stale["B"], stale  # both instances lost some races


def test_bots_move_exactly_once_though_both_instances_follow_the_game(stack: Stack) -> None:
    """A bot game watched on both instances: every bot move is computed once, in all."""
    a, b = stack.instances
    before = sum(i.manager.bot_moves for i in stack.instances)
    fallbacks = sum(i.manager.bot_fallbacks for i in stack.instances)
    room = create(
        a.url,
        game="pyramido",
        seats=[{"agent": "random"}, {"agent": "greedy"}],
    )

    async def watch() -> int:
        watchers = [Watcher(a.ws_url, room["room"]), Watcher(b.ws_url, room["room"])]
        for w in watchers:
            await w.connect()
        summary: dict[str, Any] = {}
        for _ in range(600):
            summary = HTTP.get(f"{b.url}/api/rooms/{room['room']}").json()
            if summary["over"]:
                break
            await asyncio.sleep(0.05)
        assert summary["over"], summary
        for w in watchers:
            await w.wait_version(summary["version"])
            await w.close()
            assert not w.problems, w.problems
        version: int = summary["version"]
        return version

    plies = asyncio.run(watch())
    computed = sum(i.manager.bot_moves for i in stack.instances) - before
    assert computed == plies, (computed, plies)
    assert sum(i.manager.bot_fallbacks for i in stack.instances) == fallbacks


def test_a_cache_that_missed_events_catches_up_from_the_database(stack: Stack) -> None:
    """B stops hearing the broker; its clients still get every event, none twice.

    First through the audit (B compares its cached versions with the database
    now and then), then through a client that arrives at B having seen more
    at A: B catches up before it answers, so that client never goes back.
    """
    a, b = stack.instances
    seed = 99
    room = create(a.url, game="piramides", seed=seed)
    token = room["seats"][0]["token"]
    mirror = _mirror(room, "piramides", seed)
    rng = random.Random(3)
    broker = b.manager.broker
    assert broker is not None
    hearing = broker.on_message

    def move_at_a() -> None:
        text = _pick(mirror, rng)
        r = HTTP.post(
            f"{a.url}/api/rooms/{room['room']}/moves",
            json={"token": token, "move": text, "version": mirror.ply},
        )
        assert r.status_code == 200, r.text
        mirror.play(mirror.parse_move(text))

    async def run() -> None:
        watcher = Watcher(b.ws_url, room["room"])
        await watcher.connect()
        await watcher.wait_version(0)
        broker.on_message = lambda msg: None  # B keeps its broker connection, hears nothing
        try:
            repaired = b.manager.repaired
            for _ in range(3):
                move_at_a()
            await watcher.wait_version(mirror.ply, timeout=10)
            assert b.manager.repaired - repaired == 3  # all three from the database
            for _ in range(3):
                move_at_a()
            late = Watcher(b.ws_url, room["room"], token)
            late.version = mirror.ply
            await late.connect()
            first = await late.wait_for(lambda m: m["type"] in ("synced", "event", "snapshot"))
            assert first == {"type": "synced", "version": mirror.ply}, first
            await watcher.wait_version(mirror.ply, timeout=10)
            assert not watcher.problems and watcher.events == mirror.ply
            assert watcher.last is not None and watcher.last["view"] == mirror.view(None)
            await late.close()
            await watcher.close()
        finally:
            broker.on_message = hearing

    asyncio.run(run())
    assert state(b.url, room["room"], token)["version"] == mirror.ply


def test_a_redis_restart_mid_game_leaves_no_gap_and_bots_carry_on(stack: Stack) -> None:
    """Redis stops for a while and starts again, empty, while two games go on.

    One game has a seat on each instance: moves go on during the outage (the
    database is the truth), and the other instance's clients hear of them from
    the database. The other game has a bot: it waits while there is no broker
    to hold its lease in, and plays again once Redis is back.
    """
    a, b = stack.instances
    seed = 31337
    room = create(a.url, game="pyramido", seed=seed, seats=[{"kind": "human"}] * 2)
    tokens = [s["token"] for s in room["seats"]]
    mirror = _mirror(room, "pyramido", seed)
    bot_room = create(b.url, game="pyramido", seed=seed + 1, seats=[{}, {"agent": "random"}])
    bot_token = bot_room["seats"][0]["token"]
    rng = random.Random(11)

    async def run() -> None:
        seats = [
            Watcher(a.ws_url, room["room"], tokens[0]),
            Watcher(b.ws_url, room["room"], tokens[1]),
        ]
        watchers = [*seats, Watcher(a.ws_url, room["room"]), Watcher(b.ws_url, room["room"])]
        human = Watcher(b.ws_url, bot_room["room"], bot_token)
        for w in [*watchers, human]:
            await w.connect()
            await w.wait_version(0)

        async def play(count: int) -> None:
            for _ in range(count):
                if mirror.is_over:
                    return
                p = mirror.current_player
                assert p is not None
                version = mirror.ply
                text = _pick(mirror, rng)
                await seats[p].send({"type": "move", "move": text, "version": version})
                mirror.play(mirror.parse_move(text))
                for w in watchers:
                    await w.wait_version(version + 1)

        async def human_turn() -> int:
            """The human's moves until the turn passes to the bot; the version then."""
            while True:
                last = human.last
                assert last is not None
                if not last["legal"]:
                    version: int = last["version"]
                    return version
                await human.send(
                    {"type": "move", "move": last["legal"][0], "version": last["version"]}
                )
                await human.wait_version(last["version"] + 1)

        await play(6)
        after = await human_turn()
        await human.wait_version(after + 1)  # the bot answered
        stack.redis.stop()
        try:
            await play(6)
            after = await human_turn()
            await asyncio.sleep(1.0)
            assert human.version == after, "a bot moved without a lease"
        finally:
            stack.redis.start()
        await human.wait_version(after + 1, timeout=20)  # the bot plays again
        await play(200)
        assert mirror.is_over
        for w in [*watchers, human]:
            await w.close()
            assert not w.problems, w.problems
        for w in watchers:
            assert w.events == mirror.ply

    asyncio.run(run())
    for instance in stack.instances:
        snap = state(instance.url, room["room"], tokens[0])
        assert snap["version"] == mirror.ply and snap["view"] == mirror.view(0)


def test_chat_reaches_the_other_instance(stack: Stack) -> None:
    a, b = stack.instances
    room = create(a.url, game="pyramideto", seats=[{"kind": "human"}] * 2)
    tokens = [s["token"] for s in room["seats"]]

    async def run() -> None:
        one, two = (
            Watcher(a.ws_url, room["room"], tokens[0]),
            Watcher(b.ws_url, room["room"], tokens[1]),
        )
        await one.connect()
        await two.connect()
        await one.wait_version(0)
        await two.wait_version(0)
        await one.send({"type": "chat", "text": "hola"})
        await two.send({"type": "chat", "text": "moi"})
        for w in (one, two):
            for text in ("hola", "moi"):
                await w.wait_for(lambda m, t=text: m["type"] == "chat" and m["text"] == t)
        seqs = {m["seq"] for m in one.messages if m["type"] == "chat"}
        assert seqs == {1, 2}
        await one.close()
        await two.close()

    asyncio.run(run())
