"""A throwaway PostgreSQL cluster for the server tests: initdb, start, databases, stop, delete.

Why a real server and not a mock: the point is to prove that the storage layer's
SQL (types, primary keys, transactions) works on PostgreSQL itself. The cluster
lives in a fresh directory under the system temp dir, listens only on
127.0.0.1 at a free port (its unix socket also stays in that directory), uses
trust authentication, and is stopped and deleted when the test session ends.

PostgreSQL refuses to run as root, so as root the server binaries run as the
``postgres`` system user (Debian's package creates it) through ``runuser``.

Locally the tests skip, with the reason, when the binaries or psycopg are
missing. In CI ``make`` installs psycopg (the ``postgres`` extra), ``.ci/run``
installs the server and sets ``PYRAMIDS_REQUIRE_POSTGRES=1`` so that a missing
piece fails instead of silently skipping.
"""

from __future__ import annotations

import contextlib
import glob
import importlib.util
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest

from pyramids.server.launch import free_port


def _unavailable(reason: str) -> NoReturn:
    """Skip (a developer's machine) or fail (CI, where the pieces must be installed)."""
    if os.environ.get("PYRAMIDS_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"PostgreSQL tests required in CI but {reason}", pytrace=False)
    pytest.skip(reason)


def find_bindir() -> Path | None:
    """The newest ``/usr/lib/postgresql/N/bin`` (Debian's layout), else ``initdb`` on PATH."""
    found = sorted(
        (Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")),
        key=lambda d: int(d.parent.name) if d.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1]
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class Cluster:
    """One PostgreSQL cluster in its own temporary directory."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="pyramids-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        # root may not run postgres: hand the directory to the postgres user and run as it
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
            self.prefix = ["runuser", "-u", "postgres", "--"]

    def url(self, dbname: str) -> str:
        """The SQLAlchemy URL of database ``dbname`` (TCP on loopback, no password)."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{dbname}"

    def new_database(self, dbname: str) -> str:
        """Create an empty database and return its URL: each test starts from nothing.

        Through psycopg rather than the ``createdb`` tool: no process to start.
        """
        import psycopg
        from psycopg import sql

        dsn = f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres"
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(dbname)))
        return self.url(dbname)

    def _run(self, tool: str, *args: str) -> None:
        cmd = [*self.prefix, str(self.bindir / tool), *args]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            raise RuntimeError(
                f"{tool} failed ({done.returncode}): {done.stderr.strip()}\n{log[-2000:]}"
            )

    def start(self) -> None:
        """initdb (no fsync of the fresh files: they are thrown away), then start the server."""
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )
        # fsync=off: the shutdown checkpoint would otherwise sync every file of every test
        # database (seconds); surviving a power cut is PostgreSQL's job, not tested here
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-o", options, "start")

    def stop(self) -> None:
        """Fast shutdown (waits until the server is gone), then delete the directory.

        The server's pid file exists exactly while it runs (also after a start
        that failed half-way), so that is what decides whether to stop it.
        """
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-w", "-m", "fast", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


@contextlib.contextmanager
def running_cluster() -> Iterator[Cluster]:
    """A started cluster, or skip/fail with the reason it cannot be had."""
    if importlib.util.find_spec("psycopg") is None:
        _unavailable("psycopg is not installed (pip install 'pyramids[postgres]')")
    bindir = find_bindir()
    if bindir is None:
        _unavailable("no PostgreSQL server binaries (Debian: apt-get install postgresql)")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            _unavailable("running as root and there is no 'postgres' user to run the server")
    cluster = Cluster(bindir)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
