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

from tests.server.client import create
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


# -- helpers the board and app tests share ------------------------------------------

#: a phone's viewport in CSS px (an iPhone 12-15)
PHONE = {"width": 390, "height": 844}
#: the smallest tap target, in CSS px, on each side (WCAG 2.5.5, Apple's guidelines)
TAP = 44
#: a room's seats for a human (Ana, seat 0) against the greedy bot
WITH_A_BOT = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "agent": "greedy"}]


def version(page: Any) -> int:
    """The room version the page has applied (the app writes it on ``#conn``)."""
    return int(page.get_attribute("#conn", "data-version"))


def wait_version_above(page: Any, v: int) -> int:
    """Wait until the page has applied an event after version ``v``; the new version."""
    page.wait_for_function(f"() => +document.querySelector('#conn')?.dataset.version > {v}")
    return version(page)


def my_turn(page: Any) -> None:
    page.wait_for_selector("#turn:text('Your move')")


def open_seat(page: Any, web: LiveServer, room: dict[str, Any], ready: str, seat: int = 0) -> None:
    """Open a seat's link; wait for the board (``ready``, a selector) and its own style sheet.

    Why wait for the sheet: the app links ``boards/<game>.css`` by convention
    when it draws the board, and every size a test measures depends on it.
    """
    page.goto(f"{web.url}{room['seats'][seat]['link']}")
    page.wait_for_selector(ready)
    page.wait_for_function(
        "() => [...document.styleSheets]"
        f".some(s => (s.href || '').endsWith('/boards/{room['game']}.css'))"
    )


def open_room(page: Any, web: LiveServer, game: str, ready: str, seed: int) -> dict[str, Any]:
    """A room of ``game`` for Ana and the greedy bot, opened at Ana's seat on her move."""
    room = create(web.url, game=game, seed=seed, seats=WITH_A_BOT)
    open_seat(page, web, room, ready)
    my_turn(page)
    return room


def ensure_keys(page: Any) -> None:
    """Keyboard control of the board: the app's BoardKeys, or one made here if it has none.

    The tests import the app's modules relative to the page's own ``app.js`` (``new
    URL('focus.js', <the module script's src>)``), never from a fixed ``/static/`` path: the
    page loads them from its versioned ``/static/v-HASH/`` address, and a module imported
    from another address is another instance (its own catalog, never loaded).
    """
    page.evaluate(
        """async () => {
            const b = document.getElementById('board');
            if (b.querySelector('[data-act][tabindex="0"]')) return;
            const { BoardKeys } = await import(new URL('focus.js', document.querySelector('script[type=module]').src).href);
            b._testKeys ||= new BoardKeys(b, {});
            b._testKeys.refresh();
        }"""
    )


def small_targets(
    page: Any, selector: str = "#board [data-act]", *, drawn: bool = True
) -> list[str]:
    """Elements matching ``selector`` whose box is under :data:`TAP` px on a side, described.

    A checkbox is tapped through its label, so the label's box counts.
    ``drawn=False`` passes over elements with no box at all (a closed menu's
    items, a hidden form): a page selector catches those. On a board every
    ``[data-act]`` is drawn, and one without a box is reported too.
    """
    found: list[str] = page.eval_on_selector_all(
        selector,
        """(nodes, [tap, drawn]) => nodes.map(n => {
            const r = (n.type === "checkbox" && n.closest("label") || n).getBoundingClientRect();
            if (!drawn && (r.width === 0 || r.height === 0)) return null;
            if (r.width >= tap && r.height >= tap) return null;
            const name = n.dataset.act ?? `${n.tagName.toLowerCase()}#${n.id}.${n.className} `
                + n.textContent.trim().slice(0, 30);
            return `${name} ${r.width.toFixed(1)}x${r.height.toFixed(1)}`;
        }).filter(Boolean)""",
        [TAP, drawn],
    )
    return found


def axe_problems(page: Any, root: str = "#board") -> list[str]:
    """Serious or critical axe-core findings inside ``root`` (axe-playwright-python's copy)."""
    import axe_playwright_python

    # evaluated, not added as a script tag: the page's CSP forbids inline scripts
    source = Path(axe_playwright_python.__file__).with_name("axe.min.js")
    page.evaluate(source.read_text(encoding="utf-8"))
    found: list[str] = page.evaluate(
        f"""async () => {{
            const r = await axe.run(document.querySelector('{root}'), {{resultTypes: ['violations']}});
            return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
                .map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '));
        }}"""
    )
    return found


def drive_room(
    web: LiveServer, game: str, players: int, seed: int, stop: Any = lambda state: False
) -> tuple[dict[str, Any], Any]:
    """A practice room of ``players`` human seats, played over REST by the greedy agent
    (a local copy of the deal chooses) until ``stop(state)`` or the end: (room, state)."""
    from pyramids import new_game
    from pyramids.ai.registry import make_agent
    from pyramids.engine.rng import Rng
    from tests.server.client import move

    room = create(web.url, game=game, seed=seed, seats=[{"kind": "human"}] * players)
    state = new_game(game, players=players, seed=seed)
    agent = make_agent("greedy", game)
    rng = Rng(seed)
    version = 0
    while not state.is_over and not stop(state):
        choice = agent.choose(state, rng)
        seat = state.current_player
        r = move(
            web.url, room["room"], room["seats"][seat]["token"], state.move_to_str(choice), version
        )
        assert r.status_code == 200, r.text
        version = r.json()["version"]
        state.play(choice)
    return room, state


def phone_context(browser: Any, **extra: Any) -> Any:
    """A new page in a phone-sized, touch context (close its context when done)."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, **extra)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page
