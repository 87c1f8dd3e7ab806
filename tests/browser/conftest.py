"""Headless Chromium (Debian's package) driven by Playwright against a live server.

The Playwright browser download is not available here, so the tests launch
``/usr/bin/chromium``; they are skipped, with the reason, only if it is absent
(``.ci/run`` installs it).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import LiveServer

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: screenshots of every board, for people to look at (not compared)
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "browser"

#: why the browser tests skip when Chromium is absent (test modules check it: a
#: conftest cannot skip a whole directory)
NO_CHROMIUM = "browser tests need Debian's chromium at /usr/bin/chromium (apt-get install chromium)"

if os.environ.get("PYRAMIDS_REQUIRE_BROWSER") and not CHROMIUM.exists():
    # In CI (.ci/run sets this and installs Chromium) a missing browser fails the run:
    # skipping would pass a suite that never opened the web app.
    raise RuntimeError(NO_CHROMIUM)


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("web") / "web.db", bot_delay=0.05).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(15_000)
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def shot(page: Any, name: str) -> None:
    """Save a full-page screenshot under test-output/browser/."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
