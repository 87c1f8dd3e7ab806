"""A pre-imported launcher of cluster instances for the SIGKILL test: one fork per start.

As :mod:`tests.server.zygote`, but each instance gets the cluster's database
URL and broker: importing FastAPI, SQLAlchemy, psycopg, redis and the games
takes seconds, and the test restarts instances a dozen times. The zygote has
opened no connection and started no thread, so a fork is a clean process.

Protocol on stdin/stdout, one line each:
``start PORT DATABASE_URL BROKER_URL BOT_DELAY BOT_LEASE`` -> ``PID``.
"""

from __future__ import annotations

import os
import signal
import sys

import uvicorn

from pyramids.server.app import create_app
from pyramids.server.limits import RateLimits


def main() -> None:
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # killed children are reaped by the kernel
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] != "start" or len(words) != 6:
            print("error", flush=True)
            continue
        port, database_url, broker_url = int(words[1]), words[2], words[3]
        bot_delay, bot_lease = float(words[4]), float(words[5])
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            sys.stdin.close()
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            if os.environ.get("PYRAMIDS_ZYGOTE_LOG") is None:
                os.dup2(devnull, 2)
            app = create_app(
                database_url,
                bot_delay=bot_delay,
                rate_limits=RateLimits.off(),
                broker_url=broker_url,
                bot_lease=bot_lease,
            )
            uvicorn.run(
                app, host="127.0.0.1", port=port, log_level="warning", ws_per_message_deflate=False
            )
            os._exit(0)
        print(pid, flush=True)


if __name__ == "__main__":
    main()
