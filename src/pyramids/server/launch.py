"""Starting ``pyramids serve`` as a separate process, for tools that drive a real server.

Why here and not in the tests: the crash test and the load benchmark both
start the real command on a free loopback port and wait until it answers, and
a benchmark should not import test helpers.
"""

from __future__ import annotations

import socket
import sys
import time
from collections.abc import Sequence

import httpx


def free_port() -> int:
    """A loopback TCP port that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve_command(
    port: int, database_url: str, bot_delay: float = 0.0, options: Sequence[str] = ()
) -> list[str]:
    """The argument list of ``python -m pyramids serve`` on ``port`` and ``database_url``.

    ``options`` are more of the command's options, e.g. ``("--rate-limit", "off")``
    for a load test, whose clients all share one address.
    """
    return [
        sys.executable,
        "-m",
        "pyramids",
        "serve",
        "--port",
        str(port),
        "--database-url",
        database_url,
        "--bot-delay",
        f"{bot_delay:g}",
        *options,
    ]


def wait_until_serving(url: str, timeout: float = 30.0, poll: float = 0.02) -> bool:
    """Poll ``url``'s game list until it answers 200; ``False`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    with httpx.Client(timeout=1, verify=False) as client:
        while True:
            try:
                if client.get(f"{url}/api/games").status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            if time.monotonic() >= deadline:
                return False
            time.sleep(poll)
