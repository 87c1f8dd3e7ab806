"""Instances of a cluster in the test process: uvicorn threads on one PostgreSQL and one Redis."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import uvicorn

from pyramids.server.app import create_app
from pyramids.server.launch import free_port
from pyramids.server.limits import RateLimits
from pyramids.server.rooms import RoomManager
from tests.cluster.services import RedisServer, running_redis
from tests.server.postgres import Cluster, running_cluster

_names = itertools.count(1)


class Instance:
    """``create_app`` with a broker, served by uvicorn in a background thread.

    Rate limits are off: the tests play faster than people, all from one address.
    """

    def __init__(
        self, database_url: str, broker_url: str, bot_delay: float = 0.0, bot_lease: float = 5.0
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.app = create_app(
            database_url,
            bot_delay=bot_delay,
            rate_limits=RateLimits.off(),
            broker_url=broker_url,
            bot_lease=bot_lease,
        )
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_level="warning", ws_ping_interval=None
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def manager(self) -> RoomManager:
        """The instance's room manager (its counters and knobs; read from the test thread)."""
        manager: RoomManager = self.app.state.manager
        return manager

    def start(self) -> Instance:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("instance did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


@dataclass
class Stack:
    """A database, a broker and the instances serving them."""

    pg: Cluster
    redis: RedisServer
    database_url: str
    instances: list[Instance]


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    with running_cluster() as c:
        yield c


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    with running_redis() as r:
        yield r


def new_database(pg: Cluster) -> str:
    """A fresh database on the session's PostgreSQL cluster."""
    return pg.new_database(f"cluster_{next(_names)}")


@pytest.fixture(scope="module")
def stack(pg_cluster: Cluster, redis_server: RedisServer) -> Iterator[Stack]:
    """Two instances on a fresh database and the module's Redis."""
    url = new_database(pg_cluster)
    instances = [Instance(url, redis_server.url).start() for _ in range(2)]
    for instance in instances:
        instance.manager.audit_seconds = 0.5  # the tests wait for repairs: keep them quick
    try:
        yield Stack(pg_cluster, redis_server, url, instances)
    finally:
        for instance in instances:
            instance.stop()
