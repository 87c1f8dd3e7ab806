"""A pre-imported launcher of cluster instances for the SIGKILL test: one fork per start.

As :mod:`tests.server.zygote`, but each instance gets the cluster's database
URL and broker: importing FastAPI, SQLAlchemy, psycopg, redis and the games
takes seconds, and the test restarts instances a dozen times. The zygote has
opened no connection and started no thread, so a fork is a clean process.

Protocol on stdin/stdout, one line each:
``start PORT DATABASE_URL BROKER_URL BOT_DELAY BOT_LEASE`` -> ``PID``.
"""

from __future__ import annotations

from typing import Any

from pyramids.server.app import create_app
from pyramids.server.limits import RateLimits
from tests.server.forks import serve_forks


def app(words: list[str]) -> Any:
    """One instance: on the shared database and broker, rate limits off (one client address)."""
    database_url, broker_url, bot_delay, bot_lease = words
    return create_app(
        database_url,
        bot_delay=float(bot_delay),
        rate_limits=RateLimits.off(),
        broker_url=broker_url,
        bot_lease=float(bot_lease),
    )


if __name__ == "__main__":
    serve_forks(4, app)
