"""SIGKILL one instance of three under load; its clients go on elsewhere and lose nothing.

Three ``pyramids serve --broker`` processes share a PostgreSQL and a Redis.
People play two-seat games over REST, each seat through its own instance,
and games against a bot; bots also play each other; a watcher follows every
game over a WebSocket. Again and again one instance is killed at a random
moment and started again. Clients of the dead instance carry on through
another one, a move that was in flight is looked up in the database (stored
or not, never half), watchers reconnect with the version they hold.

At the end: every acknowledged move is in the database at its version, each
two-seat game is exactly the clients' own copy, every bot game went on to its
end (its bots taken over by the living instances), and no watcher ever saw a
gap, an event twice, or a version go back.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import create_engine, select

import pyramids
from pyramids.engine.state import State
from pyramids.server import fair
from pyramids.server.launch import serve_command, wait_until_serving
from pyramids.server.storage import events_table, rooms_table
from tests.cluster.clients import Watcher
from tests.cluster.conftest import new_database
from tests.cluster.services import RedisServer, distinct_ports
from tests.server.forks import Zygote, sigkill
from tests.server.postgres import Cluster

KILLS = 10
INSTANCES = 3
BOT_DELAY = 0.02
BOT_LEASE = 1.0

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


class Fleet:
    """Three instances on fixed ports: first started as the real command, then forked."""

    def __init__(self, database_url: str, broker_url: str) -> None:
        self.database_url = database_url
        self.broker_url = broker_url
        self.ports = distinct_ports(INSTANCES)
        self.pids: list[int | None] = [None] * INSTANCES
        self.procs: list[subprocess.Popen[bytes]] = []
        self.zygote = Zygote(Path(__file__).with_name("zygote.py"))

    def url(self, k: int) -> str:
        return f"http://127.0.0.1:{self.ports[k]}"

    def start_all(self) -> None:
        """The first start of each instance is ``python -m pyramids serve`` itself."""
        for k, port in enumerate(self.ports):
            options = ("--rate-limit", "off", "--broker", self.broker_url)
            options += ("--bot-lease", f"{BOT_LEASE:g}")
            proc = subprocess.Popen(
                serve_command(port, self.database_url, BOT_DELAY, options),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            self.procs.append(proc)
            self.pids[k] = proc.pid
        for k in range(INSTANCES):
            if not wait_until_serving(self.url(k), timeout=60):
                proc = self.procs[k]
                proc.kill()
                _, err = proc.communicate(timeout=10)
                raise AssertionError(f"instance {k} did not start: {err.decode()[-2000:]}")
        for proc in self.procs:  # nothing more is read from them: let their errors go
            assert proc.stderr is not None
            proc.stderr.close()

    def restart(self, k: int) -> None:
        """A forked instance on the same port (the address comes back, as a restarted pod's)."""
        self.pids[k] = self.zygote.start(
            self.ports[k], self.database_url, self.broker_url, BOT_DELAY, BOT_LEASE
        )

    def kill(self, k: int) -> None:
        pid = self.pids[k]
        assert pid is not None
        sigkill(pid, self.procs)
        self.pids[k] = None

    def close(self) -> None:
        for pid in self.pids:
            if pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGTERM)
        for proc in self.procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
        deadline = time.monotonic() + 10
        for pid in self.pids:
            while pid is not None and time.monotonic() < deadline:
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.05)
            if pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        self.zygote.close()


@dataclass
class Game:
    """A game as its clients know it."""

    room: str
    tokens: list[str | None]
    #: the clients' own copy (two-seat games of people), else None
    mirror: State[Any] | None
    #: seats the test plays (the others are bots)
    humans: list[int]
    #: acknowledged moves of the people: version -> (seat, move)
    acked: dict[int, tuple[int, str]] = field(default_factory=dict)
    version: int = 0
    over: bool = False
    watcher: Watcher | None = None


class Run:
    """The clients: drivers of the people's seats, watchers, and the kills between."""

    def __init__(self, fleet: Fleet, database_url: str) -> None:
        self.fleet = fleet
        self.rng = random.Random(20261201)
        self.games: list[Game] = []
        #: the people stop playing; then the watchers stop watching
        self.stop_playing = False
        self.stop = False
        self.engine = create_engine(database_url)
        self.moves = 0
        #: moves whose answer was lost with an instance: found stored, or not
        self.in_flight = {"stored": 0, "lost": 0}

    def stored(self, room: str) -> list[tuple[int, int | None, str]]:
        """The room's events in the database: (version, seat, move)."""
        query = (
            select(events_table.c.version, events_table.c.seat, events_table.c.data)
            .where(events_table.c.room_id == room)
            .order_by(events_table.c.version)
        )
        with self.engine.connect() as conn:
            return [(r.version, r.seat, r.data) for r in conn.execute(query)]

    async def call(
        self, client: httpx.AsyncClient, prefer: int, method: str, path: str, **kw: Any
    ) -> httpx.Response:
        """A request to instance ``prefer``, or the next ones while it is down."""
        for attempt in range(60):
            k = (prefer + attempt) % INSTANCES
            try:
                return await client.request(method, f"{self.fleet.url(k)}{path}", **kw)
            except httpx.HTTPError:
                await asyncio.sleep(0.02)
        raise AssertionError(f"no instance answered {path}")

    async def create(self, client: httpx.AsyncClient, kind: str) -> Game:
        seed = self.rng.randrange(10**6)
        if kind == "people":
            spec: dict[str, Any] = {
                "game": "pyramideto",
                "seed": seed,
                "practice": True,
                "seats": [{"kind": "human"}] * 2,
            }
        elif kind == "against-bot":
            spec = {"game": "pyramido", "seats": [{"kind": "human"}, {"agent": "random"}]}
        else:
            spec = {"game": "pyramideto", "seats": [{"agent": "random"}, {"agent": "greedy"}]}
        r = await self.call(client, self.rng.randrange(INSTANCES), "POST", "/api/rooms", json=spec)
        assert r.status_code == 201, r.text
        room = r.json()
        tokens = [s["token"] for s in room["seats"]]
        humans = [i for i, t in enumerate(tokens) if t]
        mirror = None
        if kind == "people":
            names = [s["name"] for s in room["seats"]]
            mirror = pyramids.new_game("pyramideto", players=2, seed=seed, names=names)
        game = Game(room["room"], tokens, mirror, humans)
        game.watcher = Watcher("", room["room"])
        self.games.append(game)
        return game

    async def resolve(self, game: Game, seat: int, text: str) -> bool:
        """After a failed request: was the move stored? (the database knows; never half).

        The short wait lets PostgreSQL finish a commit the dead instance had
        already sent: its bytes were on their way when the process died.
        """
        await asyncio.sleep(0.2)
        events = await asyncio.to_thread(self.stored, game.room)
        after = [e for e in events if e[0] == game.version + 1]
        stored = bool(after and after[0][1] == seat and after[0][2] == text)
        self.in_flight["stored" if stored else "lost"] += 1
        return stored

    async def drive(self, game: Game) -> None:
        """Play the people's seats of ``game`` until it ends or the run stops."""
        async with httpx.AsyncClient(timeout=5) as client:
            while not self.stop_playing and not game.over:
                if game.mirror is not None:
                    await self._people_move(client, game)
                else:
                    await self._against_bot_move(client, game)
                await asyncio.sleep(0.01)

    async def _post_move(
        self, client: httpx.AsyncClient, game: Game, seat: int, text: str
    ) -> dict[str, Any] | None:
        """POST a move through the seat's instance; the answer, or None if it was lost."""
        home = _home(game, seat)
        path = f"/api/rooms/{game.room}/moves"
        body = {"token": game.tokens[seat], "move": text, "version": game.version}
        for attempt in range(INSTANCES * 20):
            url = self.fleet.url((home + attempt) % INSTANCES)
            try:
                r = await client.post(f"{url}{path}", json=body)
                break
            except httpx.ConnectError:  # nothing listens there (yet): never sent, try another
                await asyncio.sleep(0.01)
            except httpx.HTTPError:  # sent, and the answer lost with the instance
                if await self.resolve(game, seat, text):
                    return {"version": game.version + 1}
                return None
        else:
            raise AssertionError("no instance took the move")
        assert r.status_code == 200, r.text
        answer: dict[str, Any] = r.json()
        return answer

    async def _people_move(self, client: httpx.AsyncClient, game: Game) -> None:
        mirror = game.mirror
        assert mirror is not None
        seat = mirror.current_player
        assert seat is not None
        moves = mirror.legal_moves()
        text = mirror.move_to_str(moves[self.rng.randrange(len(moves))])
        answer = await self._post_move(client, game, seat, text)
        if answer is None:
            return
        mirror.play(mirror.parse_move(text))
        game.version += 1
        assert answer["version"] == game.version
        game.acked[game.version] = (seat, text)
        self.moves += 1
        game.over = mirror.is_over

    async def _against_bot_move(self, client: httpx.AsyncClient, game: Game) -> None:
        seat = game.humans[0]
        home = _home(game, seat)
        summary = (await self.call(client, home, "GET", f"/api/rooms/{game.room}")).json()
        game.over = summary["over"]
        if game.over or summary["current_player"] != seat:
            await asyncio.sleep(0.03)  # the bot's turn: it moves on some living instance
            return
        params = {"token": game.tokens[seat]}
        r = await self.call(client, home, "GET", f"/api/rooms/{game.room}/state", params=params)
        assert r.status_code == 200, r.text
        snap = r.json()
        if not snap["legal"]:
            return
        game.version = snap["version"]
        text = self.rng.choice(snap["legal"])
        answer = await self._post_move(client, game, seat, text)
        if answer is None:
            return
        game.version += 1
        game.acked[game.version] = (seat, text)
        self.moves += 1

    async def watch(self, game: Game) -> None:
        """Follow ``game`` over a WebSocket; on a dead instance, reconnect to another."""
        w = game.watcher
        assert w is not None
        k = self.rng.randrange(INSTANCES)
        while not self.stop:
            url = self.fleet.url(k).replace("http", "ws", 1)
            try:
                await w.connect(url)
            except (OSError, websockets.WebSocketException):
                k = (k + 1) % INSTANCES
                await asyncio.sleep(0.05)
                continue
            assert w._task is not None
            while not self.stop and not w._task.done():
                await asyncio.sleep(0.05)
            k = (k + 1) % INSTANCES
        await w.close()


def _home(game: Game, seat: int) -> int:
    """The instance a seat's client talks to while it lives."""
    return (zlib.crc32(game.room.encode()) + seat) % INSTANCES


def test_sigkill_instances_under_load_loses_nothing(
    pg_cluster: Cluster, redis_server: RedisServer
) -> None:
    database_url = new_database(pg_cluster)
    fleet = Fleet(database_url, redis_server.url)
    run = Run(fleet, database_url)
    try:
        fleet.start_all()

        async def main() -> None:
            tasks: list[asyncio.Task[None]] = []
            drivers: list[asyncio.Task[None]] = []
            async with httpx.AsyncClient(timeout=5) as client:

                async def add(kind: str) -> None:
                    game = await run.create(client, kind)
                    tasks.append(asyncio.create_task(run.watch(game)))
                    if game.humans:
                        drivers.append(asyncio.create_task(run.drive(game)))

                for kind in ("people", "people", "people", "against-bot", "against-bot", "bots"):
                    await add(kind)
                for kill in range(KILLS):
                    await asyncio.sleep(run.rng.uniform(0.3, 0.7))
                    k = run.rng.randrange(INSTANCES)
                    await asyncio.to_thread(fleet.kill, k)
                    await asyncio.to_thread(fleet.restart, k)
                    people = [g for g in run.games if g.mirror is not None and not g.over]
                    for _ in range(3 - len(people)):
                        await add("people")
                    if kill % 4 == 3:
                        await add("bots")
                # the bot games play out (their bots on whichever instance leases them)
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    bot_games = [g for g in run.games if not g.humans]
                    paths = [f"/api/rooms/{g.room}" for g in bot_games]
                    answers = [await run.call(client, 0, "GET", path) for path in paths]
                    if all(a.json()["over"] for a in answers):
                        break
                    await asyncio.sleep(0.2)
                run.stop_playing = True
                await asyncio.gather(*drivers)
                # every watcher reaches the stored version, once no bot has a reply left
                settled: list[int] = []
                while True:
                    now = [len(await asyncio.to_thread(run.stored, g.room)) for g in run.games]
                    for game, stored in zip(run.games, now, strict=True):
                        assert game.watcher is not None
                        await game.watcher.wait_version(stored, timeout=15)
                    if now == settled:
                        break
                    settled = now
                    await asyncio.sleep(0.5)
                run.stop = True
                await asyncio.gather(*tasks)

        asyncio.run(main())
    finally:
        fleet.close()
    check(run)


def check(run: Run) -> None:
    watchers = [g.watcher for g in run.games if g.watcher is not None]
    print(  # shown with pytest -s: how much the run did
        f"{run.moves} acknowledged moves of people, {len(run.games)} games "
        f"({sum(not g.humans for g in run.games)} of bots only), "
        f"{sum(len(run.stored(g.room)) for g in run.games)} events stored, "
        f"{sum(w.events for w in watchers)} events and "
        f"{sum(w.snapshots for w in watchers)} snapshots watched; moves in flight at a kill: "
        f"{run.in_flight}"
    )
    assert run.moves > 10 * KILLS, f"the clients hardly played: {run.moves} moves"
    for game in run.games:
        events = run.stored(game.room)
        versions = [v for v, _, _ in events]
        assert versions == list(range(1, len(events) + 1))
        for version, (seat, text) in game.acked.items():
            assert events[version - 1][1:] == (seat, text), (game.room, version)
        if game.mirror is not None:  # exactly the clients' copy: nothing more, nothing less
            assert [e[2] for e in events] == [game.acked[v][1] for v in versions]
        with run.engine.connect() as conn:
            row = conn.execute(select(rooms_table).where(rooms_table.c.id == game.room)).one()
        seats = len(game.tokens)
        seed = row.seed if row.generator == "splitmix64" else None  # else dealt from its secret
        state = fair.deal(row.game, seats, seed, row.secret, ["p"] * seats, {})
        for _, _, text in events:  # every stored move is legal where it stands
            state.play(state.parse_move(text))
        if not game.humans:
            assert state.is_over and row.over, f"bot game {game.room} stopped at {len(events)}"
        w = game.watcher
        assert w is not None
        assert not w.problems, (game.room, w.problems)
        assert w.version == len(events), (game.room, w.version, len(events))
