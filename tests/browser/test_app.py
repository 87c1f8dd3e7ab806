"""The app around the boards: lobby, side panel, dialogs, chat, rematch, replay, phone."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import CHROMIUM, NO_CHROMIUM, PHONE, shot, small_targets
from tests.server.client import HTTP, create, move
from tests.server.conftest import LiveServer

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.timeout(120)


def phone_page(browser: Any) -> Any:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def overflow(page: Any) -> int:
    width: int = page.evaluate("document.documentElement.scrollWidth")
    return width


def finish_piramides(web: LiveServer, **extra: Any) -> tuple[str, str]:
    """A one-round Pirámides game played to its end over REST: (room, token)."""
    room = create(
        web.url, game="piramides", seats=[{"kind": "human"}], variant={"rounds": 1}, **extra
    )
    rid, token = room["room"], room["seats"][0]["token"]
    for _ in range(200):
        snap = HTTP.get(f"{web.url}/api/rooms/{rid}/state", params={"token": token}).json()
        if snap["view"]["is_over"]:
            break
        assert move(web.url, rid, token, snap["legal"][-1], snap["version"]).status_code == 200
    return rid, token


def test_lobby_describes_bots_and_picks_sensible_opponents(page: Any, web: LiveServer) -> None:
    page.goto(f"{web.url}/#/")
    page.click("[data-game='piramides']")
    options = page.eval_on_selector_all("select[data-seat] option", "os => os.map(o => o.value)")
    assert options == ["you"], "a solitaire offers no bot or friend seats"
    page.click("[data-game='pyramido-treasure']")
    assert page.input_value("select[data-seat='1']") == "bot:child"
    assert "Forgets" in page.inner_text(".seat-row:nth-child(2) .seat-about")
    page.select_option("select[data-seat='1']", "bot:mcts:hard")
    assert "strongest" in page.inner_text(".seat-row:nth-child(2) .seat-about")
    page.click("[data-game='pyramideto']")
    assert page.input_value("select[data-seat='1']").startswith("bot:greedy")


def test_choosing_a_game_on_a_phone_brings_its_form_into_view(
    browser: Any, web: LiveServer
) -> None:
    page = phone_page(browser)
    page.goto(f"{web.url}/#/")
    page.wait_for_selector(".game-choice")
    page.click("[data-game='pyramido']")
    page.wait_for_function(
        "() => { const r = document.querySelector('#create-form').getBoundingClientRect();"
        " return r.top >= -1 && r.top < innerHeight / 2; }"
    )
    assert overflow(page) <= PHONE["width"]
    assert not small_targets(page, "button, select, input, a[href]", drawn=False)
    shot(page, "lobby-phone")
    page.context.close()


def test_spectator_link_is_offered_and_your_games_say_whose_turn(
    page: Any, web: LiveServer
) -> None:
    page.goto(f"{web.url}/#/")
    page.click("[data-game='pyramideto']")
    page.select_option("select[data-seat='1']", "open")
    page.click("#create")
    page.wait_for_selector("#spectator-link")
    assert "/#/room/" in page.input_value("#spectator-link")
    assert "token=" not in page.input_value("#spectator-link")
    page.goto(f"{web.url}/#/")
    page.wait_for_selector(".my-games li .game-status:not(:text('…'))")
    item = page.locator(".my-games li").first
    status = item.locator(".game-status").inner_text()
    assert "your turn" in status
    # the title, the status and the actions are separate, never run together
    assert item.locator(".game-link").inner_text() == "Pyramideto"


def test_out_of_turn_click_says_why_and_finished_games_cannot_be_undone(
    page: Any, web: LiveServer
) -> None:
    rid, token = finish_piramides(web, seed=99)
    page.goto(f"{web.url}/#/room/{rid}?token={token}")
    page.wait_for_selector("dialog#summary[open]")
    page.click("#summary-close")
    assert page.locator("#undo").is_disabled()
    # the seat that is not to move is told whose turn it is
    room = create(web.url, game="pyramideto", seats=[{"kind": "human"}, {"kind": "human"}])
    page.goto(f"{web.url}/#/room/{room['room']}?token={room['seats'][1]['token']}")
    page.wait_for_selector("#conn")
    page.click("#board")
    page.wait_for_selector("#toast.show:has-text('Not your turn')")
    # a spectator (of a room this browser has no seat of) is told that only players move
    other = create(web.url, game="pyramideto", seats=[{"kind": "human"}, {"kind": "human"}])
    page.goto(f"{web.url}/#/room/{other['room']}")
    page.wait_for_selector("#conn")
    page.click("#board")
    page.wait_for_selector("#toast.show:has-text('watching')")


def test_summary_dialog_fits_a_phone(browser: Any, web: LiveServer) -> None:
    rid, token = finish_piramides(web, seed=5)
    page = phone_page(browser)
    page.goto(f"{web.url}/#/room/{rid}?token={token}")
    page.wait_for_selector("dialog#summary[open]")
    box = page.eval_on_selector("dialog#summary", "d => d.getBoundingClientRect().right")
    assert box <= PHONE["width"]
    assert overflow(page) <= PHONE["width"]
    assert not small_targets(page, "dialog#summary button, dialog#summary a.button", drawn=False)
    shot(page, "summary-phone")
    page.context.close()


def test_new_deal_asks_before_abandoning_a_running_game(page: Any, web: LiveServer) -> None:
    room = create(web.url, game="piramides", seats=[{"kind": "human"}], seed=12)
    rid, token = room["room"], room["seats"][0]["token"]
    assert move(web.url, rid, token, "draw", 0).status_code == 200
    page.goto(f"{web.url}/#/room/{rid}?token={token}")
    page.wait_for_selector("#conn[data-version='1']")
    page.click("#new-deal")
    page.wait_for_selector("dialog#ask[open]")
    page.click("#ask-no")
    assert rid in page.url
    page.click("#new-deal")
    page.click("#ask-yes")
    page.wait_for_function(f"() => !location.hash.includes({rid!r})")


def test_hot_seat_cover_hides_everything_and_names_nobody_as_you(
    page: Any, web: LiveServer
) -> None:
    page.goto(f"{web.url}/#/")
    page.click("[data-game='pyramideto']")
    page.select_option("select[data-seat='1']", "you")
    page.click("#create")
    page.wait_for_selector("#conn")
    # seat 1 moves first on this screen: play its move, then the cover is up for seat 2
    if page.locator("#reveal").count():
        page.click("#reveal")
    before = int(page.get_attribute("#conn", "data-version"))
    if not page.locator("details.moves[open]").count():
        page.click("details.moves summary")
    page.click("button.move[data-move] >> nth=0")
    page.wait_for_selector("#reveal")
    page.wait_for_function(f"() => +document.querySelector('#conn').dataset.version > {before}")
    background = page.eval_on_selector(".cover", "c => getComputedStyle(c).backgroundColor")
    assert background in ("rgb(46, 38, 24)",), "the cover must be opaque"
    assert page.locator(".players .me").count() == 0
    assert "(you)" not in page.inner_text(".players")
    assert page.locator("#board svg").count() == 0
    page.click("#reveal")
    assert page.locator(".players .me").count() == 1


def test_chat_between_seats_stays_away_from_spectators(browser: Any, web: LiveServer) -> None:
    room = create(web.url, game="pyramideto", seats=[{"kind": "human"}, {"kind": "human"}])
    rid = room["room"]
    pages = []
    for who in (0, 1, None):
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        p = context.new_page()
        p.set_default_timeout(15_000)
        link = f"?token={room['seats'][who]['token']}" if who is not None else ""
        p.goto(f"{web.url}/#/room/{rid}{link}")
        p.wait_for_selector("#conn")
        pages.append(p)
    ana, ben, watcher = pages
    ana.fill("#chat-input", "<b>hello</b> Ben")
    ana.keyboard.press("Enter")
    ben.wait_for_selector("#chat-log li:has-text('hello')")
    assert ben.inner_text("#chat-log li").endswith("<b>hello</b> Ben"), "shown as text, not HTML"
    assert ben.locator("#chat-log b").count() == 0
    assert ana.input_value("#chat-input") == ""
    ben.wait_for_timeout(300)
    assert watcher.locator("#chat-log li").count() == 0
    assert watcher.locator("#chat-input").count() == 0
    # it is stored with the room: a reload still shows it
    ben.reload()
    ben.wait_for_selector("#chat-log li:has-text('hello')")
    for p in pages:
        p.context.close()


def test_rematch_takes_everyone_to_the_new_deal(page: Any, web: LiveServer) -> None:
    rid, token = finish_piramides(web, seed=21)
    page.goto(f"{web.url}/#/room/{rid}?token={token}")
    page.wait_for_selector("dialog#summary[open]")
    assert page.locator("#summary-rematch").count() == 0, "a solitaire offers a new deal instead"
    r = HTTP.post(f"{web.url}/api/rooms/{rid}/rematch", json={"token": token})
    assert r.status_code == 201


def test_replay_controls_are_drawn_icons_with_names(page: Any, web: LiveServer) -> None:
    rid, _ = finish_piramides(web, seed=33)
    page.goto(f"{web.url}/#/replay/{rid}")
    page.wait_for_selector("#replay-pos")
    for button in ("#first", "#prev", "#next", "#last"):
        assert page.locator(f"{button} svg.icon").count() == 1
        assert page.get_attribute(button, "aria-label")
    page.click("#first")
    page.wait_for_selector("#replay-pos:has-text('start')")
    page.keyboard.press("End")
    page.wait_for_selector("#replay-pos:not(:has-text('start'))")


def test_rules_pages_on_a_phone(browser: Any, web: LiveServer) -> None:
    page = phone_page(browser)
    for game in ("piramides", "pyramideto", "pyramido", "pyramido-treasure"):
        page.goto(f"{web.url}/#/rules/{game}")
        page.wait_for_selector("article.rules h1")
        assert overflow(page) <= PHONE["width"], game
        text = page.inner_text("article.rules")
        for word in ("RULINGS", "seeds/", "docs/"):
            assert word not in text
        shot(page, f"rules-{game}-phone")
    broken = page.eval_on_selector_all(
        "article.rules img", "is => is.filter(i => !i.complete || i.naturalWidth === 0).length"
    )
    assert broken == 0
    page.context.close()


def test_a_rules_page_lists_its_sections_and_jumps_to_them(browser: Any, web: LiveServer) -> None:
    page = phone_page(browser)
    page.goto(f"{web.url}/#/rules/pyramido")
    page.wait_for_selector("nav.rules-toc li a")
    links = page.locator("nav.rules-toc li a")
    headings = page.locator("article.rules h2")
    assert links.count() >= 3
    texts = links.all_inner_texts()
    assert texts[: headings.count()] == headings.all_inner_texts()
    assert len(set(texts)) == len(texts)  # the options panel only once
    third = links.nth(2)
    target = third.get_attribute("data-section")
    third.click()
    page.wait_for_function(f"() => document.activeElement.id === {target!r}")
    assert page.evaluate("() => location.hash") == "#/rules/pyramido"  # still the same page
    top = page.evaluate(f"() => document.getElementById({target!r}).getBoundingClientRect().top")
    assert page.evaluate("() => window.scrollY") > 0 and abs(top) < 10
    page.context.close()


def test_turn_shows_in_the_tab_title(page: Any, web: LiveServer) -> None:
    room = create(web.url, game="piramides", seats=[{"kind": "human"}], seed=3)
    page.goto(f"{web.url}/#/room/{room['room']}?token={room['seats'][0]['token']}")
    page.wait_for_selector("#conn")
    page.wait_for_function("() => document.title.startsWith('●')")


def test_a_hint_names_a_place_that_is_labelled_and_highlighted(page: Any, web: LiveServer) -> None:
    room = create(web.url, game="piramides", seats=[{"kind": "human"}], seed=4242)
    page.goto(f"{web.url}/#/room/{room['room']}?token={room['seats'][0]['token']}")
    page.wait_for_selector("#hint")
    page.click("#hint")
    page.wait_for_selector("#news li:has-text('Hint')", timeout=30_000)
    flagged = page.eval_on_selector_all(
        ".flagged[data-place]", "ns => ns.map(n => n.dataset.place)"
    )
    assert len(flagged) == 1, flagged
    hint = page.inner_text("#news li")
    # the hint names the place by the word the board prints for it (a card's position, or
    # the pile's name for the notation's "draw" and "joker")
    shown = page.evaluate(
        "async (p) => (await import('/static/boards/piramides.js')).moveLabel(p)", flagged[0]
    )
    assert shown in hint
    # the place is labelled where a player can read it, not only in the markup
    label = page.eval_on_selector(
        f"[data-place='{flagged[0]}']",
        "n => n.parentNode.textContent + ' ' + (n.getAttribute('aria-label') || '')",
    )
    assert shown in label


def test_replay_checks_the_deal_against_the_commitment(page: Any, web: LiveServer) -> None:
    rid, token = finish_piramides(web, seed=44)
    page.goto(f"{web.url}/#/room/{rid}?token={token}")  # the browser sees the commitment
    page.wait_for_selector("dialog#summary[open]")
    page.goto(f"{web.url}/#/replay/{rid}")
    page.wait_for_selector("#fairness[data-status]")
    assert page.get_attribute("#fairness", "data-status") == "fair"


def test_a_practice_room_says_so_to_every_player(page: Any, web: LiveServer) -> None:
    room = create(
        web.url,
        game="pyramideto",
        seats=[{"kind": "human"}, {"kind": "human"}],
        seed=77,
        practice=True,
    )
    page.goto(f"{web.url}/#/room/{room['room']}?token={room['seats'][1]['token']}")
    page.wait_for_selector("#practice")
    assert "chose the deal" in page.inner_text("#practice")


def test_lobby_creates_a_practice_room_with_a_chosen_deal(page: Any, web: LiveServer) -> None:
    page.goto(f"{web.url}/#/")
    page.click("[data-game='pyramideto']")
    page.click(".table-options summary")
    page.check("#practice-room")
    page.check("#spectator-chat")
    page.fill("#deal", "321")
    page.click("#create")
    # the lobby's own checkbox is #practice-room: wait for the room's banner
    page.wait_for_function("() => location.hash.startsWith('#/room/')")
    page.wait_for_selector("p#practice")
    rid = page.evaluate("() => location.hash.split('/')[2].split('?')[0]")
    summary = HTTP.get(f"{web.url}/api/rooms/{rid}").json()
    assert summary["practice"] is True


def test_replay_shows_the_review_with_its_graph(page: Any, web: LiveServer) -> None:
    rid, _ = finish_piramides(web, seed=45)
    page.goto(f"{web.url}/#/replay/{rid}")
    page.wait_for_selector("#review .review-graph", timeout=60_000)
    points = page.locator("#review circle.review-point")
    assert points.count() > 0
    page.keyboard.press("End")
    page.wait_for_selector("#replay-pos:not(:has-text('start'))")
    last = page.inner_text("#replay-pos")
    points.first.click()  # the first decision is the position before the first move
    page.wait_for_function(f"() => document.querySelector('#replay-pos').innerText !== {last!r}")
