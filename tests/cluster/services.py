"""Throwaway services for the cluster tests: Redis on loopback, and what the tests need of them.

Why real servers: the point is to show that instances sharing a real
PostgreSQL and a real Redis agree, including when Redis restarts. Redis runs
in the foreground as our own child (``--daemonize no``), on 127.0.0.1 at a free
port, without persistence; it is stopped by its pid. PostgreSQL comes from
:mod:`tests.server.postgres`.

Locally the tests skip, with the reason, when ``redis-server`` or the ``redis``
package is missing; ``.ci/run`` installs both and sets ``PYRAMIDS_REQUIRE_REDIS=1``
so that a missing piece fails instead.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest

from pyramids.server.launch import free_port


def unavailable(reason: str, flag: str = "PYRAMIDS_REQUIRE_REDIS") -> NoReturn:
    """Skip (a developer's machine) or fail (CI, where ``flag`` says everything is there)."""
    if os.environ.get(flag) == "1":
        pytest.fail(f"cluster tests required in CI ({flag}=1) but {reason}", pytrace=False)
    pytest.skip(reason)


def distinct_ports(count: int) -> list[int]:
    """``count`` different free loopback ports (each held until all are chosen)."""
    with contextlib.ExitStack() as stack:
        ports = []
        for _ in range(count):
            s = stack.enter_context(socket.socket())
            s.bind(("127.0.0.1", 0))
            ports.append(s.getsockname()[1])
        return ports


def quiet_ports(count: int, consecutive: int = 1, lowest: int = 20000) -> list[int]:
    """Free loopback ports below the kernel's range for outgoing connections.

    Why: a port chosen now and bound seconds later (a service still starting)
    may meanwhile become the source port of some outgoing connection if it is
    in that range; below it, nothing takes it unasked. The first
    ``consecutive`` ports follow each other (instances on FIRST, FIRST+1, ...);
    none is below ``lowest`` (Ray's workers take 10002-19999 on a machine that
    runs the Ray test meanwhile).
    """
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    rng = random.Random()
    for _ in range(200):
        first = rng.randrange(lowest, low - consecutive - count)
        wanted = list(range(first, first + consecutive))
        wanted += rng.sample(range(lowest, low), count - consecutive)
        if len(set(wanted)) != len(wanted):
            continue
        try:
            with contextlib.ExitStack() as stack:
                for port in wanted:
                    sock = stack.enter_context(socket.socket())
                    sock.bind(("127.0.0.1", port))
        except OSError:
            continue
        return wanted
    raise RuntimeError("no free ports")


def wait_for_port(port: int, timeout: float = 10.0) -> bool:
    """Poll until something accepts TCP connections on 127.0.0.1:``port``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            s.settimeout(0.2)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.02)
    return False


class RedisServer:
    """One ``redis-server`` of our own on loopback; can be stopped and started again."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="pyramids-redis-"))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start on the same port as before (a restart keeps the address, loses the data)."""
        assert self.proc is None
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
                "--daemonize",
                "no",
                "--protected-mode",
                "yes",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if not wait_for_port(self.port):
            self.stop()
            raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        """SIGTERM our server and wait for it (its pid is ours: a child process)."""
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
            self.proc = None


@contextlib.contextmanager
def running_redis() -> Iterator[RedisServer]:
    """A started Redis, or skip/fail with the reason it cannot be had."""
    if importlib.util.find_spec("redis") is None:
        unavailable("the redis package is not installed (pip install 'pyramids[redis]')")
    binary = shutil.which("redis-server")
    if binary is None:
        unavailable("no redis-server (Debian: apt-get install redis-server)")
    server = RedisServer(binary)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.dir, ignore_errors=True)
