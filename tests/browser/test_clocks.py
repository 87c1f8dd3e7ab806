"""Clocks and the lost-connection banner in a real browser, against a real server.

No time is mocked: a 4-second clock really runs down on the page and really
runs out on the server; the server really stops, and a new one really
comes back on the same port and database.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import PHONE, shot
from tests.server.client import HTTP, create, move, state
from tests.server.conftest import LiveServer

HUMANS2 = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bea"}]


def _seconds(page: Any, seat: int) -> float:
    return float(page.get_attribute(f"#clocks .clock[data-seat='{seat}'] .time", "data-seconds"))


def test_the_clock_counts_down_and_runs_out(page: Any, web: LiveServer) -> None:
    room = create(web.url, game="pyramideto", seats=HUMANS2, clock={"kind": "realtime", "base": 4})
    first = room["current_player"]
    page.goto(f"{web.url}{room['seats'][first]['link']}")
    page.wait_for_selector(f"#clocks .clock.running[data-seat='{first}']")
    before = _seconds(page, first)
    page.wait_for_timeout(1200)
    assert _seconds(page, first) < before - 0.8  # counted down on the page
    assert _seconds(page, 1 - first) == 4.0  # the other clock stands
    shot(page, "clock-running")
    # the server's sweep ends the turn; the page is told and shows who ran out
    page.wait_for_selector(f"#clocks .clock.out[data-seat='{first}']", timeout=15_000)
    assert "out of time" in page.inner_text(f"#clocks .clock[data-seat='{first}']")
    page.wait_for_selector(".rank")  # the game is over, with the places
    shot(page, "clock-ran-out")


def test_the_clock_on_a_phone(browser: Any, web: LiveServer) -> None:
    room = create(web.url, game="pyramido", seats=HUMANS2, clock={"kind": "turn", "days": 2})
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{web.url}{room['seats'][0]['link']}")
        page.wait_for_selector("#clocks .clock.running")
        # two days, less the moments since the room was made
        assert re.search(r"\b[12] d \d+ h\b", page.inner_text("#clocks"))
        shot(page, "clock-phone")
    finally:
        context.close()


def test_a_lost_connection_disables_the_board_until_resynced(page: Any, tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    first = LiveServer(db).start()
    room = create(first.url, game="pyramideto", seats=HUMANS2)
    page.goto(f"{first.url}{room['seats'][0]['link']}")
    page.wait_for_selector("#board")
    assert page.is_hidden("#conn-banner")
    first.stop()
    page.wait_for_selector("#conn-banner", state="visible")
    assert page.eval_on_selector("#board", "b => b.inert")
    shot(page, "connection-lost")
    second = LiveServer(db)
    second.port = first.port
    second.url = first.url
    second.server.config.port = first.port
    second.start()
    try:
        page.wait_for_selector("#conn-banner", state="hidden", timeout=20_000)
        assert not page.eval_on_selector("#board", "b => b.inert")
    finally:
        second.stop()


def test_the_lobby_makes_a_timed_table(page: Any, web: LiveServer) -> None:
    page.goto(f"{web.url}/#/")
    page.click("[data-game='pyramido']")
    page.click(".table-options summary")
    labels = page.eval_on_selector_all("#clock option", "os => os.map(o => o.textContent)")
    assert any("5:00 + 5 s" in text for text in labels), labels  # pyramido's quick preset
    page.select_option("#clock", "preset:quick")
    page.click("#create")
    page.wait_for_function("() => location.hash.startsWith('#/room/')")
    page.wait_for_selector("#clocks .clock.running")
    rid = page.evaluate("() => location.hash.split('/')[2].split('?')[0]")
    clock = HTTP.get(f"{web.url}/api/rooms/{rid}").json()["clock"]
    assert (clock["kind"], clock["base"], clock["increment"]) == ("realtime", 300, 5)


def test_invite_links_have_a_copy_button(page: Any, web: LiveServer) -> None:
    """Desktop Chromium has no share sheet: the button copies the link (read back here)."""
    room = create(web.url, game="pyramideto", seats=HUMANS2)
    rid = room["room"]
    link = web.url + room["seats"][1]["link"]
    page.goto(f"{web.url}/#/lobby")
    page.evaluate(
        "([room, token, link, watch]) => localStorage.setItem('pyramids.rooms', JSON.stringify("
        "{[room]: {tokens: {0: token}, links: {1: link}, spectator: watch}}))",
        [rid, room["seats"][0]["token"], link, web.url + room["spectator_link"]],
    )
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=web.url)
    page.goto(f"{web.url}/#/room/{rid}")
    button = page.locator(f".invite .share-link[data-url='{link}']")
    assert button.inner_text() == "Copy link"
    button.click()
    page.wait_for_selector("#toast:text('Link copied')")
    assert page.evaluate("() => navigator.clipboard.readText()") == link


def test_presence_seen_by_the_other_player(browser: Any, web: LiveServer) -> None:
    """Bea's page hides, shows and closes: Ana's page says so, and its news too."""
    room = create(web.url, game="pyramideto", seats=HUMANS2)
    ana_ctx, bea_ctx = browser.new_context(), browser.new_context()
    try:
        ana, bea = ana_ctx.new_page(), bea_ctx.new_page()
        ana.goto(f"{web.url}{room['seats'][0]['link']}")
        ana.wait_for_selector("#presence li[data-seat='1'][data-state='offline']")
        bea.goto(f"{web.url}{room['seats'][1]['link']}")
        ana.wait_for_selector("#presence li[data-seat='1'][data-state='online']")
        assert "Bea came back to the table." in ana.inner_text("#news")
        bea.evaluate(
            "() => { Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
            " document.dispatchEvent(new Event('visibilitychange')); }"
        )
        ana.wait_for_selector("#presence li[data-seat='1'][data-state='away']")
        shot(ana, "presence-away")
        bea.close()
        ana.wait_for_selector("#presence li[data-seat='1'][data-state='offline']")
        assert "Bea left the table." in ana.inner_text("#news")
    finally:
        ana_ctx.close()
        bea_ctx.close()


def test_unread_chat_badge_on_a_phone(browser: Any, web: LiveServer) -> None:
    """On a phone the chat is below the board: a line from Ana shows a badge that leads there."""
    room = create(web.url, game="pyramido", seats=HUMANS2)
    ana_ctx = browser.new_context()
    ben_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
        ana.goto(f"{web.url}{room['seats'][0]['link']}")
        ben.goto(f"{web.url}{room['seats'][1]['link']}")
        ben.wait_for_selector("#board")
        ana.wait_for_selector("#chat-input")
        assert ben.is_hidden("#chat-badge")
        for line in ("hello Ben", "your move?"):
            ana.fill("#chat-input", line)
            ana.keyboard.press("Enter")
        ben.wait_for_selector("#chat-badge:text('2 new chat messages')")
        assert ana.is_hidden("#chat-badge")  # one's own lines are never unread
        shot(ben, "chat-badge-phone")
        ben.click("#chat-badge")
        ben.wait_for_selector("#chat-badge", state="hidden")
        assert ben.locator("#chat-log li:has-text('your move?')").is_visible()
    finally:
        ana_ctx.close()
        ben_ctx.close()


RECORD_NOTES = """
window.__notes = [];
if (window.Notification) {
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) { super(title, options); window.__notes.push([title, options.body]); }
  };
}
"""


def test_a_background_tab_is_notified_of_its_turn(browser: Any, web: LiveServer) -> None:
    """With notifications allowed, a hidden page is told by a real Notification; a shown one is not."""
    room = create(web.url, game="pyramideto", seats=HUMANS2)
    first = room["current_player"]
    me = 1 - first
    context = browser.new_context()
    context.grant_permissions(["notifications"], origin=web.url)
    context.add_init_script(RECORD_NOTES)
    try:
        page = context.new_page()
        page.goto(f"{web.url}{room['seats'][me]['link']}")
        page.wait_for_selector("#turn:not(:text('Your move'))")
        assert page.locator("#notify").count() == 0  # allowed already: nothing to ask
        page.evaluate(
            "() => Object.defineProperty(document, 'hidden', {value: true, configurable: true})"
        )
        snap = state(web.url, room["room"], room["seats"][first]["token"])
        token = room["seats"][first]["token"]
        assert move(web.url, room["room"], token, snap["legal"][0], 0).status_code == 200
        page.wait_for_selector("#turn:text('Your move')")
        page.wait_for_function("() => window.__notes.length === 1")
        assert page.evaluate("() => window.__notes") == [["Your move", "Pyramideto"]]
    finally:
        context.close()


def test_notifications_are_asked_for_by_a_button(page: Any, web: LiveServer) -> None:
    room = create(web.url, game="pyramideto", seats=HUMANS2)
    page.goto(f"{web.url}{room['seats'][0]['link']}")
    page.wait_for_selector("#board")
    permission = page.evaluate("() => Notification.permission")
    if permission != "default":
        pytest.skip(f"this browser starts with notifications {permission}: nothing to ask")
    assert page.evaluate("() => Notification.permission") == "default"  # not asked on load
    page.click("#notify")
    page.wait_for_function("() => Notification.permission !== 'default'")
    page.wait_for_selector("#notify", state="detached")


def test_your_games_put_your_turn_first_with_the_time_left(page: Any, web: LiveServer) -> None:
    clock = {"kind": "turn", "days": 3}
    mine = create(web.url, game="pyramideto", seats=HUMANS2, clock=clock)
    theirs = create(web.url, game="pyramideto", seats=HUMANS2, clock=clock)
    now = int(time.time() * 1000)
    rooms = {
        # the newest first, as the list is ordered: the one where it is not my turn
        theirs["room"]: {
            "game": "pyramideto",
            "tokens": {str(1 - theirs["current_player"]): "x"},
            "links": {},
            "created": now,
        },
        mine["room"]: {
            "game": "pyramideto",
            "tokens": {str(mine["current_player"]): "x"},
            "links": {},
            "created": now - 60_000,
        },
    }
    page.goto(f"{web.url}/#/lobby")
    page.evaluate("(rooms) => localStorage.setItem('pyramids.rooms', JSON.stringify(rooms))", rooms)
    page.goto(f"{web.url}/#/")
    page.wait_for_selector(".my-games li.your-turn")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.my-games .game-status')]"
        ".every(s => s.textContent !== '…')"
    )
    first = page.locator(".my-games li").first
    assert first.get_attribute("data-room") == mine["room"]
    assert re.search(r"your turn .* · [23] d \d+ h left", first.inner_text())
    other = page.locator(f".my-games li[data-room='{theirs['room']}']").inner_text()
    assert re.search(r"to play .* · [23] d \d+ h left", other)
