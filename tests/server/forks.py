"""Kill-and-restart tests' servers: forked from a pre-imported process, killed and reaped.

The crash test (:mod:`tests.server.test_crash`) and the cluster's SIGKILL test
(:mod:`tests.cluster.test_kill`) restart servers a dozen times or more.
Importing FastAPI, SQLAlchemy and the games takes seconds, so each test runs
a *zygote* (``tests/server/zygote.py``, ``tests/cluster/zygote.py``) that has
imported everything once and started no thread, and asks it to ``fork`` a
fresh server per start: a real, separate process that the test kills with
SIGKILL like any other.

Protocol on the zygote's stdin/stdout, one line each: ``start PORT ARGS...``
-> ``PID`` (``error`` for a line it cannot read).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class Zygote:
    """A running zygote script: :meth:`start` forks one server and returns its pid."""

    def __init__(self, script: Path) -> None:
        # the repository first (for ``tests``), then whatever the test itself imports from
        path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
        self.proc = subprocess.Popen(
            [sys.executable, str(script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": path},
        )

    def start(self, port: int, *args: object) -> int:
        """Fork a server on ``port`` (the zygote reads ``args``); its pid."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(" ".join(["start", str(port), *map(str, args)]) + "\n")
        self.proc.stdin.flush()
        return int(self.proc.stdout.readline())

    def close(self) -> None:
        """End the zygote (its servers are the caller's to stop)."""
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=10)


def sigkill(pid: int, procs: Sequence[subprocess.Popen[bytes]] = ()) -> None:
    """SIGKILL ``pid`` and return once it is gone.

    A process the test started itself (one of ``procs``) is reaped here. A
    zygote's child is reaped by the kernel (the zygote ignores SIGCHLD), or
    stays a zombie for a moment: either way it holds no port or file any more.
    Why wait at all: a restart on the same port or database must not race
    the dying server.
    """
    os.kill(pid, signal.SIGKILL)
    for proc in procs:
        if proc.pid == pid:
            proc.wait(timeout=10)
            return
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return
        except OSError:
            return
        time.sleep(0.01)


def serve_forks(arguments: int, make_app: Callable[[list[str]], Any]) -> None:
    """The zygote's loop: per ``start PORT`` line with ``arguments`` more words, fork a server.

    The child builds its app with ``make_app(words)`` (after the fork, so no
    connection or thread is shared) and serves it with uvicorn on 127.0.0.1;
    its output goes to /dev/null, its errors too unless ``PYRAMIDS_ZYGOTE_LOG``
    is set. The zygote prints each child's pid.
    """
    import uvicorn

    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # killed children are reaped by the kernel
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] != "start" or len(words) != 2 + arguments:
            print("error", flush=True)
            continue
        port = int(words[1])
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            sys.stdin.close()
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            if os.environ.get("PYRAMIDS_ZYGOTE_LOG") is None:
                os.dup2(devnull, 2)
            uvicorn.run(
                make_app(words[2:]),
                host="127.0.0.1",
                port=port,
                log_level="warning",
                ws_per_message_deflate=False,
            )
            os._exit(0)
        print(pid, flush=True)
