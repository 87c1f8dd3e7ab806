"""``deploy/cluster.sh``: the ready cluster starts on loopback, serves a game, and stops.

The script is run as a user would (on free ports, in a data directory of its
own): PostgreSQL, Redis, three instances and HAProxy. Through HAProxy the
test checks that requests reach all three instances, plays a bot game over a
WebSocket, kills one instance and sees HAProxy send new work to the others;
``start`` again starts the dead instance, whose log keeps what it wrote
before (appended, not truncated); then ``stop`` must leave none of the
processes it started.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.cluster.clients import Watcher
from tests.cluster.services import quiet_ports, unavailable

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

SCRIPT = Path(__file__).resolve().parents[2] / "deploy" / "cluster.sh"


@pytest.fixture(scope="module")
def deployed() -> Iterator[tuple[str, Path, dict[str, str]]]:
    for tool in ("redis-server", "haproxy"):
        if shutil.which(tool) is None:
            unavailable(f"no {tool} (Debian: apt-get install {tool})")
    if not any(Path("/usr/lib/postgresql").glob("*/bin/initdb")) and not shutil.which("initdb"):
        unavailable("no PostgreSQL server (Debian: apt-get install postgresql)")
    data = Path(tempfile.mkdtemp(prefix="pyramids-deploy-"))
    data.chmod(0o755)  # the postgres user (as root: PostgreSQL's) must reach data/pg
    first, _, _, front, stats, pg, redis = quiet_ports(7, consecutive=3)
    env = {
        **os.environ,
        "PYRAMIDS_CLUSTER_DIR": str(data),
        "PYRAMIDS_PORT": str(front),
        "PYRAMIDS_STATS_PORT": str(stats),
        "PYRAMIDS_PG_PORT": str(pg),
        "PYRAMIDS_REDIS_PORT": str(redis),
        "PYRAMIDS_FIRST_PORT": str(first),
        "PYRAMIDS_SERVE_OPTIONS": "--bot-delay 0 --rate-limit off --bot-lease 1",
    }
    try:
        done = subprocess.run(
            ["bash", str(SCRIPT), "start"], env=env, capture_output=True, text=True, timeout=120
        )
        logs = "".join(
            f"\n--- {log.name}\n{log.read_text(errors='replace')[-1500:]}"
            for log in sorted(data.glob("instance-*.log"))
        )
        assert done.returncode == 0, done.stdout + done.stderr + logs
        yield f"http://127.0.0.1:{front}", data, env
    finally:
        subprocess.run(["bash", str(SCRIPT), "purge"], env=env, capture_output=True, timeout=60)
        shutil.rmtree(data, ignore_errors=True)


def test_the_cluster_serves_through_haproxy_and_survives_an_instance(
    deployed: tuple[str, Path, dict[str, str]],
) -> None:
    url, data, env = deployed
    with httpx.Client(timeout=10) as client:
        seen = {client.get(f"{url}/healthz").json()["instance"] for _ in range(12)}
        assert len(seen) == 3, seen  # leastconn spreads new connections over the three
        room = client.post(
            f"{url}/api/rooms", json={"game": "pyramido", "seats": [{"agent": "random"}] * 2}
        ).json()

        async def watch() -> None:
            w = Watcher(url.replace("http", "ws", 1), room["room"])
            await w.connect()
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                summary = client.get(f"{url}/api/rooms/{room['room']}").json()
                if summary["over"]:
                    break
                await asyncio.sleep(0.1)
            assert summary["over"], summary
            await w.wait_version(summary["version"])
            await w.close()
            first = next(m for m in w.messages if m["type"] == "snapshot")
            assert not w.problems and first["version"] + w.events == summary["version"]

        asyncio.run(watch())
        victim = int((data / "instance-2.pid").read_text())
        os.kill(victim, signal.SIGKILL)
        # at once, before the health checks mark it down (~2 s): a request HAProxy cannot
        # send there goes to another instance (retries, redispatch)
        lost = 0
        for _ in range(6):
            try:
                r = client.post(f"{url}/api/rooms", json={"game": "piramides"})
            except httpx.TransportError:
                # sent to the dead instance on a kept-alive connection just as it died: HAProxy
                # never sends a request twice, so the client asks again, as clients must
                lost += 1
                r = client.post(f"{url}/api/rooms", json={"game": "piramides"})
            assert r.status_code == 201, r.text
            assert client.get(f"{url}/api/rooms/{r.json()['room']}").status_code == 200
        assert lost <= 1
    # start again: the dead instance is started again, its log appended to, not truncated
    log = data / "instance-2.log"
    before = log.read_bytes()
    assert before.count(b"cluster.sh starts instance 2") == 1
    again = subprocess.run(
        ["bash", str(SCRIPT), "start"], env=env, capture_output=True, text=True, timeout=120
    )
    assert again.returncode == 0, again.stdout + again.stderr
    after = log.read_bytes()
    assert after.startswith(before) and after.count(b"cluster.sh starts instance 2") == 2
    assert int((data / "instance-2.pid").read_text()) != victim
    with httpx.Client(timeout=10) as client:
        port = int(env["PYRAMIDS_FIRST_PORT"]) + 1
        assert client.get(f"http://127.0.0.1:{port}/healthz").status_code == 200
    pids = [int(p.read_text()) for p in data.glob("*.pid")]
    stopped = subprocess.run(
        ["bash", str(SCRIPT), "stop"], env=env, capture_output=True, text=True, timeout=60
    )
    assert stopped.returncode == 0, stopped.stderr
    for pid in pids:  # gone (or a zombie, dead and waiting for init to reap it)
        assert _state(pid) in (None, "Z"), (pid, _state(pid))
    assert not (data / "pg" / "data" / "postmaster.pid").exists()


def _state(pid: int) -> str | None:
    """A process's state letter (``R``, ``S``, ``Z``...), or None if there is none."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None
