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


#: a review as the server sends it, made up: two seats, one flagged move each
MADE_UP = {
    "game": "pyramideto",
    "players": ["Ana", "Bo"],
    "seats": [0, 1],
    "plies": 40,
    "value_kind": "result",
    "decisions": [
        {
            "ply": ply,
            "seat": ply % 2,
            "move": f"m{ply}",
            "best": f"b{ply}",
            "grade": "mistake" if ply in (7, 22) else "good",
            "value": 0.5 + (ply % 5) / 20,
            "played": 0.2 if ply in (7, 22) else 0.5 + (ply % 5) / 20,
            "loss": 0.3 if ply in (7, 22) else 0.0,
        }
        for ply in range(40)
    ],
    "summary": [],
    "possible": [],
}


def test_the_graph_numbers_the_moves_and_puts_every_point_on_its_line(
    page: Any, web: LiveServer
) -> None:
    page.goto(f"{web.url}/")
    page.wait_for_selector(".game-choice")
    found = page.evaluate(
        """async (data) => {
            const { reviewPanel } = await import("/static/review.js");
            const box = document.createElement("div");
            box.append(reviewPanel(data, {}));
            document.querySelector("main").replaceChildren(box);
            const g = box.querySelector(".review-graph");
            const lines = Object.fromEntries([...g.querySelectorAll("polyline.review-line")]
                .map((l) => [l.dataset.seat, l.getAttribute("points").split(" ")]));
            const points = [...g.querySelectorAll("circle.review-point")].map((c) => ({
                ply: +c.dataset.ply, at: `${c.getAttribute("cx")},${c.getAttribute("cy")}`,
                flagged: c.classList.contains("mistake")}));
            const ticks = [...g.querySelectorAll(".review-tick-label")].map((t) => ({
                text: t.textContent, x: +t.getAttribute("x")}));
            return {lines, points, ticks};
        }""",
        MADE_UP,
    )
    by_ply = {d["ply"]: d for d in MADE_UP["decisions"]}
    assert sum(p["flagged"] for p in found["points"]) == 2
    for p in found["points"]:
        seat = str(by_ply[p["ply"]]["seat"])
        assert p["at"] in found["lines"][seat], f"move {p['ply'] + 1} is off its line"
    texts = [t["text"] for t in found["ticks"]]
    assert texts == ["1", "10", "20", "30", "40"], texts
    xs = [t["x"] for t in found["ticks"]]
    assert xs == sorted(xs)
    # a tick stands where that move's point is: move 10 (ply 9) at the tick "10"
    ten = next(t for t in found["ticks"] if t["text"] == "10")
    point = next(p for p in found["points"] if p["ply"] == 9)
    assert abs(float(point["at"].split(",")[0]) - ten["x"]) < 0.2
    shot(page, "review-graph")


def test_a_flagged_move_is_shown_under_its_own_number(page: Any, web: LiveServer) -> None:
    """Clicking a flagged move shows the position where it was played, and the caption names
    that move (move 53 of 148), not the move before it."""
    from tests.browser.test_app import finish_piramides
    from tests.server.client import HTTP

    rid, _ = finish_piramides(web, seed=45)
    page.goto(f"{web.url}/#/replay/{rid}")
    page.wait_for_selector("#review .review-mistakes li button", timeout=60_000)
    review = HTTP.get(f"{web.url}/api/rooms/{rid}/review").json()["review"]
    flagged = [d for d in review["decisions"] if d["grade"] != "good" and d["best"] != d["move"]]
    assert flagged, "this deal's play has flagged moves"
    for k in (0, len(flagged) - 1):
        d = flagged[k]
        page.click(f"#review .review-mistakes li >> nth={k} >> button")
        page.wait_for_function(
            f"() => document.querySelector('#replay-pos').innerText.includes('move {d['ply'] + 1} ')"
        )
        caption = page.inner_text("#replay-pos")
        words = page.evaluate(
            "async (ms) => { const b = await import(new URL('boards/piramides.js', document.querySelector('script[type=module]').src).href);"
            " return ms.map(b.moveLabel); }",
            [d["move"], d["best"]],
        )
        assert all(w in caption for w in words), (words, caption)
        assert page.input_value("input[type=range]") == str(d["ply"])
