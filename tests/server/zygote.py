"""A pre-imported server launcher for the crash test: forks a fresh server per request.

Importing FastAPI, SQLAlchemy and the games takes one to a few seconds; the
crash test restarts the server twenty times, so it asks this process, which
has imported everything once (and started no thread), to ``fork`` a new
server instead. Each child is a real, separate server process on the
database file, killed with SIGKILL by the test like any other.

Protocol on stdin/stdout, one line each: ``start PORT DB`` -> ``PID``.
"""

from __future__ import annotations

import os
import signal
import sys

import uvicorn

from pyramids.server.app import create_app


def main() -> None:
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # killed children are reaped by the kernel
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] != "start" or len(words) != 3:
            print("error", flush=True)
            continue
        port, db = int(words[1]), words[2]
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            sys.stdin.close()
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            uvicorn.run(
                create_app(f"sqlite:///{db}", bot_delay=0),
                host="127.0.0.1",
                port=port,
                log_level="warning",
                ws_per_message_deflate=False,
            )
            os._exit(0)
        print(pid, flush=True)


if __name__ == "__main__":
    main()
