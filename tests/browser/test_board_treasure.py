"""The treasure-hunt board in headless Chromium: spot names, keyboard, turned box, events, phone."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.conftest import (
    CHROMIUM,
    NO_CHROMIUM,
    axe_problems,
    open_room,
    shot,
    small_targets,
    version,
    wait_version_above,
)
from tests.server.conftest import LiveServer

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.timeout(180)

CSS = "/static/boards/pyramido-treasure.css"
BOARD = ".treasure-board svg.treasure"


def test_spots_are_named_and_a_pyramid_slides_by_keyboard(page: Any, web: LiveServer) -> None:
    open_room(page, web, "pyramido-treasure", BOARD, seed=3)
    legal = page.eval_on_selector_all("button.move[data-move]", "bs => bs.map(b => b.dataset.move)")
    slides = [m for m in legal if "=" in m or len(m) == 2]
    assert slides
    places = set(
        page.eval_on_selector_all("#board [data-place]", "ns => ns.map(n => n.dataset.place)")
    )
    assert set(slides) <= places
    coords = page.eval_on_selector_all(".treasure-board .coord", "ns => ns.map(n => n.textContent)")
    assert coords == list("abcdefgh") + [str(r) for r in range(1, 7)]
    # the twelve fields' key, every treasure named once
    assert page.locator(".key-entry").count() == 12
    assert page.locator(".field-badge").count() == 12
    assert "undefined" not in page.inner_text("#board")
    shot(page, "treasure-desktop")
    assert not axe_problems(page), axe_problems(page)

    before = version(page)
    page.focus("#board [data-act][tabindex='0']")
    start = page.evaluate("document.activeElement.dataset.act")
    assert start in slides
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    target = page.evaluate("document.activeElement.dataset.act")
    assert target in slides
    page.keyboard.press("Enter")
    wait_version_above(page, before)
    # the pyramid that slid is marked, where the empty spot was
    page.wait_for_selector(f".slot.last[data-place='{target.split('=')[0]}'], .slot.last")
    assert "undefined" not in page.inner_text("#board")


def test_phone_sized_box(browser: Any, web: LiveServer) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        open_room(page, web, "pyramido-treasure", BOARD, seed=4)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert not small_targets(page)
        spot = page.evaluate(
            "(() => { const r = document.querySelector('.slot .spot-hit').getBoundingClientRect();"
            " return [r.width, r.height]; })()"
        )
        assert min(spot) >= 44, f"a spot is {spot} px on a phone"
        token = page.evaluate(
            "(() => { const r = document.querySelector('.empty-spot').getBoundingClientRect();"
            " return Math.min(r.width, r.height); })()"
        )
        assert token >= 40
        shot(page, "treasure-phone")
        before = version(page)
        page.click(".slot.legal >> nth=0")
        wait_version_above(page, before)
        page.wait_for_selector(".slot.last")
    finally:
        context.close()
    assert not errors


def play_views() -> dict[str, Any]:
    """(prev view, view, legal moves) of seat 0 at the first turned box and each event phase."""
    from pyramids import new_game
    from pyramids.ai.registry import make_agent
    from pyramids.engine.rng import Rng

    agent = make_agent("greedy", "pyramido-treasure")
    found: dict[str, Any] = {}
    for seed in range(8):
        state = new_game("pyramido-treasure", players=3, seed=seed)
        rng = Rng(seed)
        while not state.is_over:
            prev = state.view(0)
            state.play(agent.choose(state, rng))
            view = state.view(0)
            legal = [state.move_to_str(m) for m in state.legal_moves()]
            keys = [view["phase"]]
            if view["rotation"] % 2 and view["phase"] == "search":
                keys.append("turned")
            if view["rotation"] != prev["rotation"]:
                keys.append("turning")
            if (
                sum(view["decks_left"]) < sum(prev["decks_left"])
                and view["search"]
                and not view["search"].get("treasure")
            ):
                keys.append("event-drawn")
            for k in keys:
                found.setdefault(k, {"prev": prev, "view": view, "legal": legal})
    return found


RENDER = """async ([data, seat]) => {
    const board = await import(new URL('boards/pyramido-treasure.js', document.querySelector('script[type=module]').src).href);
    let root = document.getElementById('tr-test');
    if (!root) { root = document.createElement('div'); root.id = 'tr-test'; root.className = 'board';
                 document.querySelector('main').prepend(root); }
    root.replaceChildren();
    const played = [];
    const ctx = {view: data.view, prev: data.prev, legal: data.legal, seat,
                 seats: data.view.names.map(n => ({name: n})), interactive: seat === data.view.current_player,
                 move: (t) => played.push(t), ui: {}, redraw: () => { root.replaceChildren(); board.render(root, ctx); }};
    window.__played = played;
    board.render(root, ctx);
    return {text: root.innerText, status: board.status(data.view), explain: board.explain(data.view, data.prev)};
}"""


def test_turned_box_events_and_news(page: Any, web: LiveServer) -> None:
    found = play_views()
    page.goto(f"{web.url}/")
    page.wait_for_selector(".game-choice")
    page.add_style_tag(url=CSS)

    # a quarter-turned box: 6 columns by 8 rows, named as seen, the moves carry the box names
    turned = found["turned"]
    seat = turned["view"]["current_player"]
    out = page.evaluate(RENDER, [turned, seat])
    coords = page.eval_on_selector_all("#tr-test .coord", "ns => ns.map(n => n.textContent)")
    assert coords == list("abcdef") + [str(r) for r in range(1, 9)]
    slides = [m for m in turned["legal"] if "=" in m]
    assert slides
    for m in slides:
        seen = m.split("=")[0]
        assert page.locator(f"#tr-test .slot[data-place='{seen}'] [data-place='{m}']").count() == 1
    page.click(f"#tr-test .slot[data-place='{slides[0].split('=')[0]}']")
    assert page.evaluate("window.__played") == [slides[0]]
    assert "undefined" not in out["text"] + out["status"]
    shot(page, "treasure-turned")

    turning = found["turning"]
    out = page.evaluate(RENDER, [turning, None])
    assert any("box turns" in line for line in out["explain"]), out["explain"]

    # every event: one line when drawn, one line while its choice is open; no "undefined"
    drawn = found["event-drawn"]
    out = page.evaluate(RENDER, [drawn, None])
    assert any(":" in line for line in out["explain"]), out["explain"]
    for phase in ("gift", "gift-give", "danger-name", "danger", "mirage", "poker-name", "poker"):
        if phase not in found:
            continue
        data = found[phase]
        seat = data["view"]["current_player"]
        out = page.evaluate(RENDER, [data, seat])
        text = out["text"] + out["status"] + " ".join(out["explain"])
        assert "undefined" not in text and "null" not in text, (phase, text)
        assert "Seeking" not in out["text"]
        assert page.locator("#tr-test .event-card").count() == 1, phase
        names = [n["text"] for n in data["view"]["news"]]
        for line in names[-2:]:
            assert line in out["text"]
        assert "sacred-dog" not in out["text"].replace("data-place", "")
        assert not small_targets(page, "#tr-test")
        if phase == "danger-name":
            shot(page, "treasure-danger")
            assert not axe_problems(page, "#tr-test"), axe_problems(page, "#tr-test")
            picks = page.eval_on_selector_all(
                "#tr-test .key-entry[data-act]", "ns => ns.map(n => n.dataset.place)"
            )
            page.click(f"#tr-test .key-entry[data-place='{picks[0]}']")
            page.click(f"#tr-test .key-entry[data-place='{picks[1]}']")
            played = page.evaluate("window.__played")
            assert (
                played
                and played[0] in data["legal"]
                and set(played[0].split()[1:]) == set(picks[:2])
            )
        if phase == "poker-name":
            page.click("#tr-test button.opponent >> nth=0")
            page.click("#tr-test .key-entry[data-act] >> nth=0")
            played = page.evaluate("window.__played")
            assert played and played[0] in data["legal"]
    json.dumps(found["search"]["view"])  # views stay plain JSON


def test_the_turned_box_fits_a_768_screen_under_the_turn_bar(browser: Any, web: LiveServer) -> None:
    """Turned a quarter, the box has 8 rows: at 1366 x 768 all of them show, none under the
    sticky turn bar, without scrolling (the box unturned likewise)."""
    from tests.browser.conftest import drive_room, open_seat

    room, state = drive_room(
        web,
        "pyramido-treasure",
        2,
        1,
        lambda s: (
            s.view(0)["rotation"] % 2 == 1
            and s.view(0)["phase"] == "search"
            and s.current_player == 0
        ),
    )
    assert state.view(0)["rotation"] % 2 == 1
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        open_seat(page, web, room, "svg.treasure")
        # the box turning as the last event is retold: measured once it stands still
        page.wait_for_function(
            "() => document.getAnimations().filter(a => a.effect?.getTiming().iterations"
            " !== Infinity).every(a => a.playState !== 'running')"
        )
        found = page.evaluate(
            """() => {
                const bar = document.querySelector('.turn-bar').getBoundingClientRect();
                const box = document.querySelector('svg.treasure').getBoundingClientRect();
                const rows = [...document.querySelectorAll('svg.treasure text.coord')]
                    .filter((t) => /^\\d$/.test(t.textContent)).map((t) => t.textContent);
                return {bar: bar.bottom, top: box.top, bottom: box.bottom, height: innerHeight,
                        tall: document.querySelector('svg.treasure').classList.contains('tall'), rows};
            }"""
        )
        assert found["tall"] and len(found["rows"]) == 8, found
        assert found["top"] >= found["bar"] and found["bottom"] <= found["height"], found
        shot(page, "treasure-turned-1366")
    finally:
        context.close()
