"""Restart safety: SIGKILL the server while clients play, restart it, lose no acknowledged move.

The server runs as a subprocess (``python -m pyramids serve``) on a SQLite file.
Clients keep a mirror of each game; a move counts as acknowledged when its
HTTP 200 came back. After each restart every game must stand exactly at its
last acknowledged move, or one move further when a move was in flight at the
kill (committed but not yet acknowledged); nothing else is acceptable.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

import pyramids
from pyramids.engine.state import State
from pyramids.server.launch import free_port, serve_command, wait_until_serving
from tests.server.forks import Zygote, sigkill

KILLS = 20
GAMES = 4

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


@dataclass
class Tracked:
    """A game as the clients know it: mirror state, tokens, last acknowledged version."""

    room: str
    tokens: list[str]
    mirror: State[Any]
    acked: int = 0
    pending: str | None = None
    checked: list[int] = field(default_factory=list)


class Launcher:
    """Starts servers on one database: the real ``pyramids serve`` command, or a fork.

    The first and last start run ``python -m pyramids serve`` itself; the
    restarts in between are forked from :mod:`tests.server.zygote`, which has
    imported everything once, so twenty restarts take seconds, not minutes.
    """

    def __init__(self, db: Path) -> None:
        self.db = db
        self._procs: list[subprocess.Popen[bytes]] = []
        self._pids: list[int] = []
        self.zygote = Zygote(Path(__file__).with_name("zygote.py"))

    def start(self, real_command: bool) -> tuple[int, str]:
        """A new server; returns its pid and base URL once it answers."""
        port = free_port()
        if real_command:
            proc = subprocess.Popen(
                serve_command(port, f"sqlite:///{self.db}"),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            pid = proc.pid
            self._procs.append(proc)
        else:
            pid = self.zygote.start(port, self.db)
        self._pids.append(pid)
        url = f"http://127.0.0.1:{port}"
        assert wait_until_serving(url, timeout=30.0), "the server did not start"
        return pid, url

    def kill(self, pid: int) -> None:
        """SIGKILL the server and reap it."""
        sigkill(pid, self._procs)
        self._pids.remove(pid)

    def close(self) -> None:
        """Stop the launcher and the server still running after a failure, if any.

        Only servers not yet killed are in ``_pids``: a dead server's pid may
        already belong to another process.
        """
        for pid in self._pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for proc in self._procs:
            proc.wait(timeout=10)
        self.zygote.close()


def verify(client: httpx.Client, url: str, game: Tracked) -> None:
    """The restarted server holds every acknowledged move of ``game`` (and nothing invented)."""
    snap = client.get(f"{url}/api/rooms/{game.room}/state", params={"token": game.tokens[0]})
    assert snap.status_code == 200, snap.text
    body = snap.json()
    version = body["version"]
    if version == game.acked + 1 and game.pending is not None:
        game.mirror.play(game.mirror.parse_move(game.pending))
        game.acked += 1
    assert version == game.acked, f"server at {version}, clients had {game.acked} acknowledged"
    assert body["view"] == game.mirror.view(0)
    game.pending = None
    game.checked.append(version)


async def drive(url: str, game: Tracked, rng: random.Random) -> None:
    """Play random moves as fast as acknowledgements come back (and the server's rate
    limits allow), until the server dies."""
    async with httpx.AsyncClient(base_url=url, timeout=5, verify=False) as client:
        while not game.mirror.is_over:
            p = game.mirror.current_player
            assert p is not None
            moves = game.mirror.legal_moves()
            text = game.mirror.move_to_str(moves[rng.randrange(len(moves))])
            game.pending = text
            try:
                r = await client.post(
                    f"/api/rooms/{game.room}/moves",
                    json={"token": game.tokens[p], "move": text, "version": game.acked},
                )
            except httpx.HTTPError:
                return
            if r.status_code == 429:  # the server's move limit (docs/security.md): wait, retry
                await asyncio.sleep(float(r.headers["retry-after"]))
                continue
            assert r.status_code == 200, r.text
            game.mirror.play(game.mirror.parse_move(text))
            game.acked += 1
            game.pending = None


def new_game(client: httpx.Client, url: str, rng: random.Random) -> Tracked:
    seed = rng.randrange(10**6)
    if rng.random() < 0.5:
        spec: dict[str, Any] = {"game": "piramides", "seed": seed}
        players = 1
    else:
        # a chosen seed in a room for two: a practice room (the clients mirror the deal)
        spec = {"game": "pyramideto", "seed": seed, "seats": [{"kind": "human"}] * 2}
        spec["practice"] = True
        players = 2
    room = client.post(f"{url}/api/rooms", json=spec).json()
    names = [s["name"] for s in room["seats"]]
    mirror = pyramids.new_game(spec["game"], players=players, seed=seed, names=names)
    return Tracked(room["room"], [s["token"] for s in room["seats"]], mirror)


def test_sigkill_at_random_moments_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    rng = random.Random(20261129)
    games: list[Tracked] = []
    moves_acked = 0
    launcher = Launcher(db)
    try:
        for k in range(KILLS):
            pid, url = launcher.start(real_command=k == 0)
            with httpx.Client(timeout=5, verify=False) as client:
                for game in games:
                    verify(client, url, game)
                live = [g for g in games if not g.mirror.is_over]
                while len(live) < GAMES:
                    game = new_game(client, url, rng)
                    games.append(game)
                    live.append(game)
            before = sum(g.acked for g in games)

            async def play_then_kill(
                url: str = url, live: list[Tracked] = live, pid: int = pid, before: int = before
            ) -> None:
                tasks = [asyncio.create_task(drive(url, g, rng)) for g in live]
                # the kill comes at a random moment once the clients are playing: on a
                # loaded machine their connections may take longer than any fixed delay
                deadline = time.monotonic() + 20
                while sum(g.acked for g in games) - before < 10 and time.monotonic() < deadline:
                    await asyncio.sleep(0.01)
                await asyncio.sleep(rng.uniform(0.0, 0.35))
                launcher.kill(pid)
                await asyncio.gather(*tasks)

            asyncio.run(play_then_kill())
            moves_acked += sum(g.acked for g in games) - before
        pid, url = launcher.start(real_command=True)
        try:
            with httpx.Client(timeout=5, verify=False) as client:
                for game in games:
                    verify(client, url, game)
        finally:
            os.kill(pid, signal.SIGTERM)
            launcher._pids.remove(pid)
            for proc in launcher._procs:
                proc.wait(timeout=10)
    finally:
        launcher.close()
    assert moves_acked > 10 * KILLS, "the clients hardly played between kills"
    assert all(len(g.checked) >= 1 for g in games)
