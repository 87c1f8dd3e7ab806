"""The cluster options of the commands: clear one-line refusals, before anything starts."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pyramids.cli.main import app
from pyramids.server.launch import free_port


def test_serve_stops_with_one_line_when_the_broker_is_not_there(tmp_path: Path) -> None:
    pytest.importorskip("redis")
    port = free_port()  # nothing listens there
    result = CliRunner().invoke(
        app,
        [
            "serve",
            "--database-url",
            f"sqlite:///{tmp_path / 'g.db'}",
            "--broker",
            f"redis://:hunter2@127.0.0.1:{port}/0",
        ],
    )
    assert result.exit_code == 2
    line = result.output.strip()
    assert line.startswith(f"Error: cannot use the broker redis://:***@127.0.0.1:{port}/0: ")
    assert "hunter2" not in line and "\n" not in line


def test_serve_refuses_a_lease_of_no_time(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'g.db'}"
    result = CliRunner().invoke(app, ["serve", "--database-url", db, "--bot-lease", "0"])
    assert result.exit_code == 2
    assert "--bot-lease must be a positive number of seconds" in result.output


def test_a_broker_url_must_be_a_redis_url() -> None:
    pytest.importorskip("redis")
    from pyramids.cluster.broker import Broker, BrokerError, check_broker

    with pytest.raises(BrokerError, match="redis://HOST:PORT/DB"):
        check_broker("postgresql://nowhere/db")
    with pytest.raises(ValueError, match="positive"):
        Broker("redis://127.0.0.1:1/0", lease_seconds=0)


def test_solve_takes_ray_for_ranges_only() -> None:
    result = CliRunner().invoke(app, ["solve", "pyramid", "--deal", "3", "--ray", "auto"])
    assert result.exit_code != 0
    assert "--ray solves ranges of deals" in result.output
