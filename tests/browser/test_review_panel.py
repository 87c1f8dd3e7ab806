"""The review panel (web/review.js) in Chromium: the graph, its clickable points, the list.

The panel is drawn from a review computed here, on the server's own page (so the
page's Content-Security-Policy applies); the replay page that shows it is wired
by the web app.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.conftest import CHROMIUM, NO_CHROMIUM, shot
from tests.review.positions import pyramideto_immediate_win
from tests.server.conftest import LiveServer

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.timeout(120)


def test_review_panel_draws_the_graph_and_goes_to_a_clicked_position(
    page: Any, web: LiveServer
) -> None:
    from pyramids.review import review

    data = review(pyramideto_immediate_win(), budget=60).to_dict()
    page.goto(f"{web.url}/")
    page.wait_for_selector(".game-choice")  # the lobby drawn first: it would replace the panel
    page.evaluate(
        """async (data) => {
            const { reviewPanel, reviewProgress, betterMoveAt } = await import("/static/review.js");
            const box = document.createElement("div");
            box.id = "review-test";
            window.selected = [];
            box.append(reviewProgress({ done: 3, total: 10 }));
            box.append(reviewPanel(data, { onSelectPly: (ply) => window.selected.push(ply) }));
            window.better = betterMoveAt(data, data.decisions[data.decisions.length - 1].ply);
            document.querySelector("main").replaceChildren(box);
        }""",
        json.loads(json.dumps(data)),
    )
    points = page.locator("#review-test .review-graph circle.review-point")
    assert points.count() == len(data["decisions"])
    assert "accuracy" in page.locator("#review-test .review-summary").inner_text()
    points.nth(2).click()
    page.locator("#review-test .review-point").nth(3).press("Enter")
    assert page.evaluate("window.selected") == [
        data["decisions"][2]["ply"],
        data["decisions"][3]["ply"],
    ]
    flagged = [d for d in data["decisions"] if d["grade"] != "good"]
    items = page.locator("#review-test .review-mistakes li")
    assert items.count() == len(flagged)
    if flagged:
        assert flagged[0]["best"] in items.first.inner_text()
    last = data["decisions"][-1]
    expected = last["best"] if last["grade"] != "good" and last["best"] != last["move"] else None
    assert page.evaluate("window.better") == expected
    shot(page, "review-panel")
