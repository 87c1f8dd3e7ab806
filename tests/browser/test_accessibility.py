"""axe-core (bundled by axe-playwright-python) in real Chromium: no serious or critical
violation on the lobby, the four boards and the rules pages, on a desktop and a phone."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import CHROMIUM, NO_CHROMIUM
from tests.server.client import create
from tests.server.conftest import LiveServer

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.timeout(240)

SIZES = {"desktop": (1200, 900), "phone": (390, 844)}

BOARDS = {
    "piramides": [{"kind": "human"}],
    "pyramideto": [{"kind": "human"}, {"kind": "bot", "agent": "greedy"}],
    "pyramido": [{"kind": "human"}, {"kind": "bot", "agent": "greedy"}],
    "pyramido-treasure": [{"kind": "human"}, {"kind": "bot", "agent": "child"}],
}


def serious(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    found = []
    for v in results.response["violations"]:
        if v["impact"] in ("serious", "critical"):
            targets = [n["target"] for n in v["nodes"]][:4]
            found.append(f"{v['id']} ({v['impact']}): {v['help']} at {targets}")
    return found


@pytest.fixture(scope="module")
def rooms(web: LiveServer) -> dict[str, str]:
    out = {}
    for game, seats in BOARDS.items():
        room = create(web.url, game=game, seats=seats, seed=3)
        out[game] = f"/#/room/{room['room']}?token={room['seats'][0]['token']}"
    return out


@pytest.mark.parametrize("size", SIZES)
def test_no_serious_violations_anywhere(
    browser: Any, web: LiveServer, rooms: dict[str, str], size: str
) -> None:
    w, h = SIZES[size]
    context = browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    page.set_default_timeout(15_000)
    problems: dict[str, list[str]] = {}
    page.goto(f"{web.url}/#/")
    page.wait_for_selector(".game-choice")
    problems["lobby"] = serious(page)
    for game, link in rooms.items():
        page.goto(f"{web.url}{link}")
        page.wait_for_selector("#conn")
        page.wait_for_timeout(300)
        problems[game] = serious(page)
        page.goto(f"{web.url}/#/rules/{game}")
        page.wait_for_selector("article.rules h1")
        problems[f"rules/{game}"] = serious(page)
    context.close()
    bad = {k: v for k, v in problems.items() if v}
    assert not bad, "\n".join(f"{k}: {p}" for k, v in bad.items() for p in v)
