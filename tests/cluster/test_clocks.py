"""Clocks on a two-instance cluster: the instance that served a room dies, its clocks still run out.

Two ``pyramids serve`` processes on one PostgreSQL and one Redis. Rooms with
2-second clocks are made on instance 0, which is then killed (SIGKILL)
before any clock runs out: instance 1's sweep finds the deadlines in the
database and ends the turns as ``RULINGS.md`` §5 rules, and its bots play
the seats of the people who left to the end of the game.
"""

from __future__ import annotations

import subprocess

import pytest

from pyramids.server.launch import serve_command, wait_until_serving
from tests.cluster.conftest import new_database
from tests.cluster.services import RedisServer, distinct_ports
from tests.server.client import create, wait_over
from tests.server.forks import sigkill
from tests.server.postgres import Cluster

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

HUMANS2 = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bea"}]


def test_clocks_run_out_after_the_serving_instance_died(
    pg_cluster: Cluster, redis_server: RedisServer
) -> None:
    url = new_database(pg_cluster)
    ports = distinct_ports(2)
    procs = [
        subprocess.Popen(
            serve_command(port, url, 0.0, ("--rate-limit", "off", "--broker", redis_server.url)),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        for u in urls:
            assert wait_until_serving(u, timeout=60), f"{u} did not start"
        clock = {"kind": "realtime", "base": 2}
        duel = create(urls[0], game="pyramideto", seats=HUMANS2, clock=clock)
        three = create(
            urls[0],
            game="pyramideto",
            seats=[*HUMANS2, {"kind": "bot", "agent": "random"}],
            clock=clock,
        )
        sigkill(procs[0].pid, procs)
        summary = wait_over(urls[1], duel["room"], timeout=30)
        loser = duel["current_player"]
        assert summary["left"] == [loser] and summary["ranking"][loser] == 2
        summary = wait_over(urls[1], three["room"], timeout=90)
        first, second = summary["left"]
        assert {first, second} == {0, 1}
        assert (summary["ranking"][first], summary["ranking"][second]) == (3, 2)
        assert summary["ranking"][2] == 1
    finally:
        for proc in procs:
            if proc.poll() is None:
                sigkill(proc.pid, procs)
