"""The web app in real headless Chromium: every game created and played by clicking."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import CHROMIUM, NO_CHROMIUM, my_turn, shot, version, wait_version_above
from tests.server.client import create, wait_over
from tests.server.conftest import LiveServer

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.timeout(120)


def start(page: Any, web: LiveServer, game: str) -> None:
    page.goto(f"{web.url}/")
    page.click(f"[data-game='{game}']")


def test_piramides_play_by_click_and_keyboard_reload_undo_and_finish(
    page: Any, web: LiveServer
) -> None:
    start(page, web, "piramides")
    page.fill("#deal", "4242")
    page.click("details summary")
    page.fill("#opt-rounds", "1")
    page.click("#create")
    page.wait_for_selector("svg.piramides")
    assert page.inner_text("#deal-no") == "Deal #4242"
    shot(page, "piramides-start")
    if page.locator("#hint").count():  # the solver is installed: ask it
        page.click("#hint")
        page.wait_for_selector("#toast.show:has-text('Hint:')", timeout=20_000)
    # an illegal attempt shows the rule's reason
    page.click("[data-pos='A1']")
    page.wait_for_selector("#last-error")
    assert "covered" in page.inner_text("#last-error")
    # keyboard: focus the stock and press Enter
    page.focus("[data-pos='draw']")
    page.keyboard.press("Enter")
    v = wait_version_above(page, 0)
    waste = page.get_attribute("[data-pos='waste']", "class")
    # undo takes the draw back (and the version still goes up)
    page.click("#undo")
    assert wait_version_above(page, v) == v + 1
    assert page.get_attribute("[data-pos='draw']", "class") is not None
    del waste
    page.reload()
    page.wait_for_selector("svg.piramides")
    assert version(page) == v + 1
    # reopened from the room's recent events (to retell them), it still names the deal
    assert page.inner_text("#deal-no") == "Deal #4242"
    assert page.locator("#news li").count() > 0
    # play to the end by clicking: a playable card, else the stock, else the joker
    for _ in range(200):
        if page.locator("dialog#summary[open]").count():
            break
        before = version(page)
        legal = page.locator(
            ".card.legal[data-pos^='A'], .card.legal[data-pos^='B'], "
            ".card.legal[data-pos^='C'], .card.legal[data-pos^='D'], "
            ".card.legal[data-pos^='E'], .card.legal[data-pos^='F'], "
            ".card.legal[data-pos^='G']"
        )
        if legal.count():
            legal.first.click()
        elif page.locator("[data-pos='draw'].legal").count():
            page.click("[data-pos='draw']")
        else:
            page.click("[data-pos='joker']")
        wait_version_above(page, before)
    page.wait_for_selector("dialog#summary[open]")
    assert "Round" in page.inner_text("dialog#summary")
    shot(page, "piramides-finished")


def _pyramideto_move(page: Any) -> None:
    """Click a piece, then the table: a move to the table that is legal now.

    Which one depends on what the bot did (moving a lone piece to the table
    changes nothing, and the bot's own group may not move back), so it is read
    from the list of legal moves that the page carries.
    """
    legal = page.eval_on_selector_all("button.move[data-move]", "bs => bs.map(b => b.dataset.move)")
    to_table = [m for m in legal if m.endswith(">table")]
    assert to_table, f"no move to the table among {legal}"
    page.click(f"[data-piece='{to_table[0].split('>')[0]}']")
    page.click("[data-stack='table']")


def _pyramideto_illegal(page: Any) -> None:
    page.click("[data-piece='Sy']")  # the bottom of a nest: moving a whole stack is no move
    page.click("[data-stack='table']")


def _treasure_move(page: Any) -> None:
    if page.locator(".slot.legal").count():
        page.click(".slot.legal >> nth=0")
    else:
        page.click(".treasure-info [data-move] >> nth=0")


def _treasure_illegal(page: Any) -> None:
    page.click(".slot:not(.legal) >> nth=0")


def _pyramido_move(page: Any) -> None:
    for _ in range(4):  # place, gem, card or pass, refill: each is one move
        if page.locator("[data-slot].legal").count():
            page.click("[data-slot].legal >> nth=0")
            page.click(".cell.legal >> nth=0")
            before = version(page)
            page.click(".cell.legal >> nth=0")
        elif page.locator(".cell.legal").count():
            before = version(page)
            page.click(".cell.legal >> nth=0")
        elif page.locator("[data-move='pass']").count():
            before = version(page)
            page.click("[data-move='pass']")
        elif page.locator("[data-stack].legal").count():
            before = version(page)
            page.click("[data-stack].legal >> nth=0")
        else:
            return
        wait_version_above(page, before)
        if "Your move" not in page.inner_text("#turn"):
            return


GAMES = {
    "pyramideto": (_pyramideto_move, _pyramideto_illegal),
    "pyramido-treasure": (_treasure_move, _treasure_illegal),
    # only legal things act on the Pyramido board: there is no illegal click to make
    "pyramido": (_pyramido_move, None),
}


@pytest.mark.parametrize("game", list(GAMES))
def test_multiplayer_game_against_a_bot_by_clicking(page: Any, web: LiveServer, game: str) -> None:
    play, illegal = GAMES[game]
    start(page, web, game)
    page.click("#create")
    page.wait_for_selector("#board svg")
    my_turn(page)
    shot(page, f"{game}-start")
    if illegal is not None:
        illegal(page)
        page.wait_for_selector("#last-error")
        assert len(page.inner_text("#last-error")) > 10
    before = version(page)
    play(page)
    wait_version_above(page, before)
    # the bot answers; reload mid-game and carry on
    my_turn(page)
    page.reload()
    page.wait_for_selector("#board svg")
    my_turn(page)
    before = version(page)
    play(page)
    wait_version_above(page, before)
    shot(page, f"{game}-played")


def test_hot_seat_hides_the_hand_until_the_next_player_confirms(page: Any, web: LiveServer) -> None:
    start(page, web, "pyramideto")
    page.select_option("[data-seat='1']", "you")
    page.fill("input[aria-label='Name for seat 1']", "Ana")
    page.fill("input[aria-label='Name for seat 2']", "Ben")
    page.click("#create")
    page.wait_for_selector(".pt-hand")
    assert "Ana (you)" in page.inner_text(".players .me")
    _pyramideto_move(page)
    page.wait_for_selector("#reveal")
    assert page.locator(".pt-hand").count() == 0
    assert "Ben's turn" in page.inner_text(".cover")
    shot(page, "hot-seat-cover")
    page.click("#reveal")
    page.wait_for_selector(".pt-hand")
    assert "Ben (you)" in page.inner_text(".players .me")


def test_replay_of_a_finished_game_steps_through_every_view(page: Any, web: LiveServer) -> None:
    room = create(
        web.url,
        game="piramides",
        seed=9,
        seats=[{"kind": "bot", "agent": "greedy"}],
        variant={"rounds": 1},
    )
    final = wait_over(web.url, room["room"])
    page.goto(f"{web.url}/#/replay/{room['room']}")
    page.wait_for_selector("svg.piramides")
    total = final["version"]
    assert page.inner_text("#replay-pos").startswith(f"move {total} of {total}")
    page.click("#prev")
    page.wait_for_selector(f"#replay-pos:text('move {total - 1} of {total}')")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"#replay-pos:text('move {total - 2} of {total}')")
    shot(page, "piramides-replay")


def test_phone_sized_screen_and_rules_page(browser: Any, web: LiveServer) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(f"{web.url}/")
        page.click("[data-game='pyramideto']")
        page.click("#create")
        page.wait_for_selector("#board svg")
        width = page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= 392, f"the page scrolls sideways on a phone ({width}px)"
        shot(page, "phone-pyramideto")
        page.goto(f"{web.url}/#/rules/pyramideto")
        page.wait_for_selector("article.rules h1")
        assert re.search("Pyramideto", page.inner_text("article.rules h1"))
    finally:
        context.close()


def test_generic_board_shows_the_view_and_every_legal_move(page: Any, web: LiveServer) -> None:
    """The fallback for a game without a board module: no game is ever a dead end."""
    page.goto(f"{web.url}/")
    page.wait_for_selector(".game-choice")
    clicked = page.evaluate(
        """async () => {
            const board = await import(new URL('boards/generic.js', document.querySelector('script[type=module]').src).href);
            const root = document.createElement('div');
            root.id = 'generic-test';
            document.body.append(root);
            const played = [];
            board.render(root, {
                view: {game: 'x', players: 1, stacks: [['Sr', 'Mr']], deck: 3, hand: null},
                legal: ['Sr>table', 'x card'], seat: 0, seats: [], interactive: true,
                move: (t) => played.push(t),
            });
            root.querySelector('[data-move="x card"]').click();
            return [played, root.innerText];
        }"""
    )
    played, text = clicked
    assert played == ["x card"]
    assert "Stacks" in text and "Deck" in text and "Sr, Mr" in text


def test_a_wrong_seat_link_or_an_early_replay_offers_the_game_to_watch(
    page: Any, web: LiveServer
) -> None:
    """No dead end: a seat link whose token is wrong, or the replay of a game still being
    played, says why and offers to watch the game, not only the lobby."""
    room = create(
        web.url,
        game="pyramideto",
        seats=[{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}],
        seed=3,
    )
    page.goto(f"{web.url}/#/room/{room['room']}?token=WRONG")
    page.wait_for_selector("#watch-game")
    assert "token" in page.inner_text(".error")
    page.click("#watch-game")
    page.wait_for_selector("#conn")
    assert "watching" in page.inner_text("#conn")
    page.goto(f"{web.url}/#/replay/{room['room']}")
    page.wait_for_selector("#watch-game")
    page.click("#watch-game")
    page.wait_for_selector("#conn")
    assert "watching" in page.inner_text("#conn")
    # a token this browser kept that the game refuses: forgotten, and the game watched
    page.evaluate(
        "(room) => localStorage.setItem('pyramids.rooms', JSON.stringify("
        "{[room]: {tokens: {0: 'WRONG'}, links: {}}}))",
        room["room"],
    )
    page.goto(f"{web.url}/#/lobby")
    page.goto(f"{web.url}/#/room/{room['room']}")
    page.wait_for_selector("#watch-game")
    page.click("#watch-game")
    page.wait_for_selector("#conn")
    assert "watching" in page.inner_text("#conn")
    assert "WRONG" not in page.evaluate("localStorage.getItem('pyramids.rooms') || ''")
