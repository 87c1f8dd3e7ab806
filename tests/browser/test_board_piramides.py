"""The Pirámides board in headless Chromium: places named as the notation names them,
keyboard play, the phone layout, the flying card and the last move, explain() and the
end-of-game breakdown."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import (
    CHROMIUM,
    NO_CHROMIUM,
    PHONE,
    ensure_keys,
    open_seat,
    shot,
    small_targets,
    version,
    wait_version_above,
)
from tests.server.client import create, state, wait_over
from tests.server.conftest import LiveServer

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.timeout(120)

BOARD = "svg.piramides"


def solo(web: LiveServer, seed: int = 4242, **variant: Any) -> dict[str, Any]:
    return create(web.url, game="piramides", seed=seed, seats=[{"kind": "human"}], variant=variant)


def active_act(page: Any) -> str | None:
    found: str | None = page.evaluate("document.activeElement?.dataset?.act ?? null")
    return found


def test_places_are_named_as_the_notation_and_only_legal_things_act(
    page: Any, web: LiveServer
) -> None:
    room = solo(web)
    open_seat(page, web, room, BOARD)
    legal = state(web.url, room["room"], room["seats"][0]["token"])["legal"]
    # row letters beside the rows, every card labelled with its notation name
    coords = page.eval_on_selector_all(
        "svg.piramides text.coord", "ts => ts.map(t => t.textContent)"
    )
    assert coords == list("ABCDEFG")
    places = page.eval_on_selector_all("[data-place]", "ns => ns.map(n => n.dataset.place)")
    rows = "ABCDEFG"
    assert {f"{rows[r]}{c + 1}" for r in range(7) for c in range(r + 1)} <= set(places)
    assert {"draw", "joker", "waste"} <= set(places)
    labels = page.eval_on_selector_all(
        ".card[data-place] text.pos", "ts => ts.map(t => t.textContent)"
    )
    assert "G7" in labels and "A1" in labels
    # every legal move is a place on the board, and exactly the legal ones act
    for m in legal:
        assert page.locator(f"[data-place='{m}']").count() >= 1, m
    acts = page.eval_on_selector_all("[data-act]", "ns => ns.map(n => n.dataset.act)")
    assert sorted(acts) == sorted(legal)
    for a in page.query_selector_all("[data-act]"):
        assert a.get_attribute("aria-label"), "an actionable needs an accessible name"
    # a covered card does not act, but a click still asks the server, which says why
    assert page.locator("[data-place='A1'][data-act]").count() == 0
    page.click("[data-place='A1']")
    page.wait_for_selector("#last-error")
    assert "covered" in page.inner_text("#last-error")
    # ... and says it where it is seen too: on a phone the side panel is below the board
    page.wait_for_selector("#toast.show.error")
    assert "covered" in page.inner_text("#toast")
    shot(page, "piramides-desktop")


def test_a_move_by_keyboard_flies_to_the_waste_and_stays_marked(page: Any, web: LiveServer) -> None:
    room = solo(web, seed=77)
    open_seat(page, web, room, BOARD)
    ensure_keys(page)
    page.focus("#board [data-act][tabindex='0']")
    first = active_act(page)
    assert first is not None
    page.keyboard.press("ArrowRight")
    chosen = active_act(page)
    assert chosen is not None
    before = version(page)
    waste_before = page.get_attribute("[data-place='waste']", "aria-label")
    page.evaluate(
        "() => { window.__flew = 0; const a = Element.prototype.animate;"
        " Element.prototype.animate = function (...x) {"
        " window.__flew++; return a.apply(this, x); }; }"
    )
    page.keyboard.press("Enter")
    wait_version_above(page, before)
    page.wait_for_selector("svg.piramides .last")
    assert page.get_attribute("[data-place='waste']", "aria-label") != waste_before
    if chosen != "draw":  # a card: its old place is marked, the waste card too
        assert "last" in (page.get_attribute(f"rect[data-place='{chosen}']", "class") or "")
    assert "last" in (page.get_attribute("[data-place='waste']", "class") or "")
    # the card flew from its old place to the waste (the Web Animations API ran)
    assert page.evaluate("window.__flew") >= 1
    shot(page, "piramides-after-move")


@pytest.mark.parametrize("layout", ["pyramid", "tripeaks", "golf"])
def test_phone_layouts_fit_and_every_target_is_finger_sized(
    browser: Any, web: LiveServer, layout: str
) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        room = solo(web, seed=5, layout=layout)
        open_seat(page, web, room, BOARD)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page scrolls sideways ({width}px)"
        assert page.locator("[data-act]").count()
        assert not small_targets(page, "[data-act]")
        coords = page.eval_on_selector_all(
            "svg.piramides text.coord", "ts => ts.map(t => t.textContent)"
        )
        if layout == "golf":  # columns lettered, depths numbered
            assert coords == [*"ABCDEFG", "1", "2", "3", "4", "5"]
        elif layout == "tripeaks":
            assert coords == list("ABCD")
        shot(page, f"piramides-phone-{layout}" if layout != "pyramid" else "piramides-phone")
    finally:
        context.close()


def test_explain_tells_plays_draws_and_how_a_round_ends(page: Any, web: LiveServer) -> None:
    room = solo(web, seed=11)
    open_seat(page, web, room, BOARD)
    lines = page.evaluate(
        """async () => {
            const b = await import(new URL('boards/piramides.js', document.querySelector('script[type=module]').src).href);
            const start = {
                ply: 0, round: 1, rounds: 2, is_over: false, layout: 'pyramid', scores: [0],
                stock: 23, jokers_left: 1, waste: '9C', waste_size: 1, next_card_points: 15,
                pyramid: [{pos: 'A1', row: 0, col: 0, card: 'KH', removed: false, free: false},
                          {pos: 'B1', row: 1, col: 0, card: 'TS', removed: false, free: true}],
                round_scores: [
                    {round: 1, cards: 0, stock_cards: 0, jokers: 0, cleared: false, total: 0}],
            };
            const played = structuredClone(start);
            played.ply = 1; played.pyramid[1].removed = true; played.pyramid[1].card = null;
            played.waste = 'TS'; played.waste_size = 2; played.next_card_points = 20;
            const drawn = structuredClone(start);
            drawn.ply = 1; drawn.stock = 22; drawn.waste = '4D'; drawn.waste_size = 2;
            const joker = structuredClone(start);
            joker.ply = 1; joker.jokers_left = 0; joker.waste = 'joker';
            const cleared = structuredClone(played);
            cleared.ply = 2; cleared.round = 2;
            cleared.pyramid.forEach(c => { c.removed = false; });
            cleared.round_scores = [
                {round: 1, cards: 255, stock_cards: 23, jokers: 0, cleared: true, total: 190},
                {round: 2, cards: 0, stock_cards: 0, jokers: 0, cleared: false, total: 0}];
            const stuck = structuredClone(played);
            stuck.ply = 2; stuck.is_over = true; stuck.scores = [80];
            stuck.round_scores = [
                {round: 1, cards: 245, stock_cards: 23, jokers: 1, cleared: false, total: 80}];
            return {
                same: b.explain(start, start), none: b.explain(start, null),
                played: b.explain(played, start), drawn: b.explain(drawn, start),
                joker: b.explain(joker, start),
                cleared: b.explain(cleared, played),
                stuck: b.explain(stuck, played),
            };
        }"""
    )
    assert lines["same"] == [] and lines["none"] == []
    assert lines["played"] == ["10♠ from B1 to the waste: +15"]
    assert lines["drawn"] == ["Turned 4♦ from the stock: −5"]
    assert lines["joker"] == ["Joker played: −50"]
    assert "Round 1 cleared: +50, 190 points in the round" in lines["cleared"]
    assert "A1" in lines["cleared"][0]  # the last card of the round
    assert lines["cleared"][-1] == "Round 2: a new deal"
    assert "Round 1 over: not cleared, 80 points in the round" in lines["stuck"]
    assert lines["stuck"][-1] == "Game over: 80 points"


def bot_played(web: LiveServer, seed: int, **variant: Any) -> dict[str, Any]:
    """A room whose game the greedy bot has played to the end (to watch its summary)."""
    room = create(
        web.url,
        game="piramides",
        seed=seed,
        seats=[{"kind": "bot", "agent": "greedy"}],
        variant=variant,
    )
    wait_over(web.url, room["room"])
    return room


def test_end_of_game_breakdown_fits_a_phone(browser: Any, web: LiveServer) -> None:
    room = bot_played(web, 0, rounds=2)
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(f"{web.url}/#/room/{room['room']}")
        page.wait_for_selector("dialog#summary[open] .piramides-breakdown table")
        text = page.inner_text(".piramides-breakdown")
        assert "Round" in text and "Game total" in text
        rows = page.locator(".piramides-breakdown tbody tr").count()
        assert rows == 2
        box = page.eval_on_selector(".piramides-breakdown", "n => n.getBoundingClientRect().right")
        assert box <= 390
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, "piramides-phone-summary")
    finally:
        context.close()


def test_a_golf_breakdown_shows_only_what_golf_scores(page: Any, web: LiveServer) -> None:
    """Golf scores the cards left, not runs, stock or jokers: no columns of those."""
    room = bot_played(web, 3, layout="golf")
    page.goto(f"{web.url}/#/room/{room['room']}")
    page.wait_for_selector("dialog#summary[open] .piramides-breakdown table")
    heads = page.eval_on_selector_all(
        ".piramides-breakdown thead th", "ns => ns.map(n => n.textContent)"
    )
    assert heads == ["Round", "Cleared", "Total"]
    cells = page.eval_on_selector_all(
        ".piramides-breakdown tbody tr:first-child > *", "ns => ns.map(n => n.textContent)"
    )
    assert len(cells) == 3 and cells[1] in ("yes", "no")
    status = page.inner_text("#status")  # golf has no runs, an ended game no next card
    assert "stock" in status and "next card" not in status
