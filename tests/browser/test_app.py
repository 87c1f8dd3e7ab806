"""The app around the boards: lobby, side panel, dialogs, chat, rematch, replay, phone."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import CHROMIUM, NO_CHROMIUM, PHONE, drive_room, shot, small_targets
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
        "async (p) => (await import(new URL('boards/piramides.js', document.querySelector('script[type=module]').src).href)).moveLabel(p)",
        flagged[0],
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


def test_replay_checks_a_deal_dealt_from_the_rooms_secret(page: Any, web: LiveServer) -> None:
    rid, token = finish_piramides(web)  # no seed chosen: the room is dealt from its secret
    page.goto(f"{web.url}/#/room/{rid}?token={token}")
    page.wait_for_selector("dialog#summary[open]")
    page.goto(f"{web.url}/#/replay/{rid}")
    page.wait_for_selector("#fairness[data-status]")
    assert page.get_attribute("#fairness", "data-status") == "fair"
    assert "revealed secret" in page.inner_text("#fairness")
    assert page.query_selector(".replay h2 small") is None  # no deal number to show


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


def test_a_review_waits_for_room_in_the_servers_queue(page: Any, web: LiveServer) -> None:
    """A page whose review the server refuses for now (its queue is full: 429) says why
    and asks again, and shows the review once there is room, instead of an error."""
    rid, _ = finish_piramides(web, seed=46)
    reviews = web.app.state.reviews
    bound = reviews.per_address
    reviews.per_address = 0  # every new review from this address is refused for now
    try:
        page.goto(f"{web.url}/#/replay/{rid}")
        page.wait_for_selector("#review .review-progress:has-text('busy with other reviews')")
        assert page.locator("#review .error").count() == 0
    finally:
        reviews.per_address = bound
    page.wait_for_selector("#review .review-graph", timeout=60_000)


def test_a_spectator_reading_the_chat_gets_no_field_to_write_in(
    browser: Any, web: LiveServer
) -> None:
    """Where the creator lets spectators read the chat, they read it, with nothing to type
    in: the server would refuse every line they sent."""
    room = create(web.url, game="pyramideto", seats=[{"kind": "human"}] * 2, spectator_chat=True)
    rid = room["room"]
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(2)]
    ana, watcher = (c.new_page() for c in contexts)
    try:
        ana.goto(f"{web.url}/#/room/{rid}?token={room['seats'][0]['token']}")
        ana.fill("#chat-input", "hello watchers")
        ana.keyboard.press("Enter")
        watcher.goto(f"{web.url}/#/room/{rid}")
        watcher.wait_for_selector("#chat-log li:has-text('hello watchers')")
        assert watcher.locator("#chat-input:visible, #chat-send:visible").count() == 0
        assert watcher.locator(".chat-send:visible").count() == 0
    finally:
        for c in contexts:
            c.close()


def test_what_happened_is_told_again_after_a_reload_and_a_language_switch(
    page: Any, web: LiveServer
) -> None:
    room = create(
        web.url,
        game="pyramideto",
        seed=7,
        seats=[{"kind": "human", "name": "Ana"}, {"kind": "bot", "agent": "greedy"}],
    )
    page.goto(f"{web.url}/#/room/{room['room']}?token={room['seats'][0]['token']}")
    page.wait_for_selector("#turn:text('Your move')")
    if not page.locator("details.moves[open]").count():
        page.click("details.moves summary")
    page.click("button.move[data-move] >> nth=0")
    page.wait_for_function("() => +document.querySelector('#conn').dataset.version >= 2")
    page.wait_for_selector("#news li")
    told = page.eval_on_selector_all("#news li", "ns => ns.map(n => n.innerText)")
    assert any("You" in line for line in told) and any("greedy" in line for line in told), told
    page.reload()
    page.wait_for_selector("#conn")
    page.wait_for_selector("#news li")
    again = page.eval_on_selector_all("#news li", "ns => ns.map(n => n.innerText)")
    assert again == told, "the same lines, rebuilt from the room's events"
    page.select_option("#lang", "cs")
    page.wait_for_function("() => document.documentElement.lang === 'cs'")
    page.wait_for_selector("#news li")
    czech = page.eval_on_selector_all("#news li", "ns => ns.map(n => n.innerText)")
    assert len(czech) == len(told) and czech != told
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")


def test_a_solitaire_has_no_invite_links_nor_places(page: Any, web: LiveServer) -> None:
    page.goto(f"{web.url}/#/")
    page.click("[data-game='piramides']")
    page.click("#create")
    page.wait_for_selector("#conn")
    assert page.locator("details.invite").count() == 0
    rid, token = finish_piramides(web, seed=21)
    page.goto(f"{web.url}/#/room/{rid}?token={token}")
    page.wait_for_selector("dialog#summary[open]")
    heads = page.eval_on_selector_all("dialog#summary th", "ns => ns.map(n => n.innerText)")
    assert "Place" not in heads and "Player" in heads
    assert "#1" not in page.inner_text("dialog#summary")
    page.click("#summary-close")
    assert page.locator(".players .rank").count() == 0


def test_pyramidetos_players_list_says_what_its_numbers_count(page: Any, web: LiveServer) -> None:
    room = create(web.url, game="pyramideto", seats=[{"kind": "human"}] * 2)
    page.goto(f"{web.url}/#/room/{room['room']}?token={room['seats'][0]['token']}")
    page.wait_for_selector("#conn")
    scores = page.eval_on_selector_all(".players .score", "ns => ns.map(n => n.innerText)")
    assert scores == ["0 goals displayed"] * 2


def test_the_lobby_shows_a_picture_of_each_game(page: Any, web: LiveServer) -> None:
    page.goto(f"{web.url}/#/")
    page.wait_for_selector(".game-choice")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.game-choice img.game-picture')]"
        ".filter(i => i.complete && i.naturalWidth > 0).length === 4"
    )
    assert page.locator(".game-choice").count() == 4
    shot(page, "lobby-pictures")


def test_rules_pages_count_seats_from_1_and_show_the_pirámides_layout(
    browser: Any, web: LiveServer
) -> None:
    from pyramids import get_game

    with_first = [
        g
        for g in ("pyramido", "pyramideto", "pyramido-treasure")
        if any(o.name == "first_player" for o in get_game(g).options)
    ]
    assert with_first
    page = phone_page(browser)
    try:
        for game in with_first:
            page.goto(f"{web.url}/#/rules/{game}")
            page.wait_for_selector("section.panel table")
            rows = page.eval_on_selector_all(
                "section.panel table tbody tr", "rs => rs.map(r => r.innerText)"
            )
            first = [r for r in rows if "first" in r.lower()]
            assert first and "Seat 1" in first[0] and "\t0\t" not in first[0], rows
        page.goto(f"{web.url}/#/rules/piramides")
        page.wait_for_function(
            "() => { const i = document.querySelector(\"article.rules img[src$='piramides/layout.svg']\");"
            " return i && i.complete && i.naturalWidth > 0; }"
        )
        width = page.eval_on_selector(
            "article.rules img[src$='piramides/layout.svg']", "i => i.getBoundingClientRect().right"
        )
        assert width <= PHONE["width"]
        assert not small_targets(page, "summary", drawn=False)
        shot(page, "rules-piramides-phone")
    finally:
        page.context.close()


def test_summary_toggles_are_big_enough_to_tap_on_a_phone(browser: Any, web: LiveServer) -> None:
    room = create(web.url, game="pyramideto", seats=[{"kind": "human"}] * 2)
    page = phone_page(browser)
    try:
        page.goto(f"{web.url}/#/room/{room['room']}?token={room['seats'][0]['token']}")
        page.wait_for_selector("#conn")
        assert page.locator("summary:visible").count() >= 2  # fair deal, legal moves, links
        assert not small_targets(page, "summary", drawn=False)
    finally:
        page.context.close()


def test_end_of_game_tables_on_a_phone_say_they_scroll(browser: Any, web: LiveServer) -> None:
    """Pyramido's floors and the treasure hunt's cards at the end of a 3-player game: the
    dialog fits the phone; a table wider than it says so, and keeps its first column."""
    for game, seed in (("pyramido", 2), ("pyramido-treasure", 2)):
        room, _ = drive_room(web, game, 3, seed)
        page = phone_page(browser)
        try:
            page.goto(f"{web.url}{room['seats'][0]['link']}")
            page.wait_for_selector("dialog#summary[open]")
            page.wait_for_timeout(200)
            found = page.evaluate(
                """() => {
                    const d = document.querySelector('dialog#summary');
                    return {height: d.getBoundingClientRect().height, inner: innerHeight,
                        tables: [...d.querySelectorAll('.scroll-wrap')].map(w => {
                            const box = w.querySelector('.table-scroll');
                            const hint = w.querySelector('.scroll-hint');
                            return {wide: box.scrollWidth > box.clientWidth + 1,
                                    hint: hint.getBoundingClientRect().height > 0,
                                    marked: w.classList.contains('scrolls')};
                        })};
                }"""
            )
            assert found["height"] <= found["inner"]
            for table in found["tables"]:
                assert table["wide"] == table["marked"] == table["hint"], (game, found)
            if game == "pyramido":
                assert any(t["wide"] for t in found["tables"]), found
                box = page.locator("dialog#summary .scrolls .table-scroll")
                box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
                page.wait_for_function(
                    "() => document.querySelector('dialog#summary .scrolls.at-end') !== null"
                )
                assert page.locator("dialog#summary .scrolls .scroll-hint:visible").count() == 0
                first = page.eval_on_selector(
                    "dialog#summary .scrolls tbody tr td",
                    "td => td.getBoundingClientRect().left - td.closest('.table-scroll').getBoundingClientRect().left",
                )
                assert abs(first) < 2, "the player's column stays in sight"
            else:
                # the cards are grouped by treasure: the dialog stays within the phone's height
                assert found["height"] < 0.9 * found["inner"], found
            shot(page, f"end-{game}-phone")
        finally:
            page.context.close()
