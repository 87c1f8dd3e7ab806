"""A pre-imported server launcher for the crash test: forks a fresh server per request.

Importing FastAPI, SQLAlchemy and the games takes one to a few seconds; the
crash test restarts the server twenty times, so it asks this process, which
has imported everything once (and started no thread), to ``fork`` a new
server instead. Each child is a real, separate server process on the
database file, killed with SIGKILL by the test like any other
(:mod:`tests.server.forks`).

Protocol on stdin/stdout, one line each: ``start PORT DB`` -> ``PID``.
"""

from __future__ import annotations

from typing import Any

from pyramids.server.app import create_app
from tests.server.forks import serve_forks


def app(words: list[str]) -> Any:
    """The server of one fork: ``DB``, a SQLite file."""
    (db,) = words
    return create_app(f"sqlite:///{db}", bot_delay=0)


if __name__ == "__main__":
    serve_forks(1, app)
