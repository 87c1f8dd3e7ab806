"""Logs a client cannot amplify (``docs/security.md``, *Logs*): a client that leaves in
the middle of its body is not a server error, and errors are logged at a bounded rate."""

from __future__ import annotations

import logging
import socket
import time

import pytest

from tests.server.conftest import LiveServer


def test_a_client_leaving_mid_body_is_not_logged_as_an_error(
    live: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    for _ in range(20):  # the attack's shape: 95 bytes of a request, then gone
        with socket.create_connection(("127.0.0.1", live.port)) as s:
            s.sendall(
                b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b'Content-Length: 1000\r\n\r\n{"game": '
            )
    time.sleep(1)  # the server notices each one
    noisy = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert noisy == [], [r.getMessage() for r in noisy]
    assert any("client left" in r.getMessage() for r in caplog.records)


def test_warnings_and_errors_are_limited_per_window() -> None:
    from pyramids.server.errors import LogLimit

    logger = logging.getLogger("pyramids.test-log-limit")
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger.addHandler(Keep())
    limit = LogLimit(count=5, seconds=0.5)
    logger.addFilter(limit)
    for i in range(100):
        logger.error("boom %d", i)
    logger.info("quiet")  # below warnings: never limited
    assert len(records) == 6 and records[-1].getMessage() == "quiet"
    assert limit.suppressed == 95
    time.sleep(0.6)
    logger.error("again")
    assert "95 more" in records[-1].getMessage()
