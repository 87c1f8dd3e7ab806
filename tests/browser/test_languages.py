"""Every language in real Chromium: the lobby, a board and a rules page show no English left."""

from __future__ import annotations

import re
from typing import Any

import pytest

from pyramids.i18n import LANGUAGES
from tests.browser.conftest import CHROMIUM, NO_CHROMIUM, PHONE, shot
from tests.server.client import create
from tests.server.conftest import LiveServer

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.timeout(180)

#: text that is the same in every language: names of games and languages, the brand,
#: notation, numbers
SAME_EVERYWHERE = re.compile(
    r"^(Pyramids|Pirámides|Pyramido|Pyramideto|English|Português|Español|Suomi|Čeština"
    r"|[\d\s.,:#/·–()%+−-]*|[A-Za-z]?\d+|[A-G]\d|Golf|TriPeaks|Player \d|.{0,2})$"
)


def visible_lines(page: Any) -> set[str]:
    text: str = page.evaluate("document.body.innerText")
    return {line.strip() for line in text.splitlines() if line.strip()}


def english_left(page: Any, english: set[str], kept: set[str]) -> set[str]:
    """English lines still shown; ``kept`` are the words a translator chose to keep
    (Portuguese says "Lobby" too)."""

    def left(line: str) -> bool:
        rest = re.sub(r"^(Ana|Bo) ", "", line)  # the seats' names, the same in any language
        return (
            not SAME_EVERYWHERE.match(rest)
            and re.search(r"[a-z]{3}", rest) is not None
            and rest not in kept
        )

    return {line for line in visible_lines(page) & english if left(line)}


def kept_by_translators(web: LiveServer, lang: str) -> set[str]:
    from tests.server.client import HTTP

    messages = HTTP.get(f"{web.url}/api/i18n/{lang}").json()["messages"]
    return {k for k, v in messages.items() if v == k}


def open_in(browser: Any, lang: str) -> Any:
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale=lang)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


@pytest.fixture(scope="module")
def room(web: LiveServer) -> dict[str, Any]:
    """A Pyramideto game against a bot, to look at a board with hands and goals."""
    return create(
        web.url,
        game="pyramideto",
        seats=[{"kind": "human", "name": "Ana"}, {"kind": "bot", "agent": "greedy", "name": "Bo"}],
        seed=5,
    )


def pages(page: Any, web: LiveServer, room: dict[str, Any]) -> dict[str, set[str]]:
    """Visit the three pages and return the visible lines of each."""
    out = {}
    page.goto(f"{web.url}/#/")
    page.wait_for_selector(".game-choice")
    out["lobby"] = visible_lines(page)
    token = room["seats"][0]["token"]
    page.goto(f"{web.url}/#/room/{room['room']}?token={token}")
    page.wait_for_selector("#board svg, #board .generic")
    page.wait_for_selector("#conn")
    out["board"] = visible_lines(page)
    page.goto(f"{web.url}/#/rules/piramides")
    page.wait_for_selector("article.rules h1")
    out["rules"] = visible_lines(page)
    return out


def test_each_language_replaces_every_english_string(
    browser: Any, web: LiveServer, room: dict[str, Any]
) -> None:
    english_page = open_in(browser, "en")
    english = pages(english_page, web, room)
    english_page.context.close()
    for lang in LANGUAGES[1:]:
        page = open_in(browser, lang)
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(f"{web.url}/#/")
        page.wait_for_selector(".game-choice")
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.input_value("#lang") == lang
        kept = kept_by_translators(web, lang)
        left = english_left(page, english["lobby"], kept)
        assert not left, f"{lang} lobby still shows English: {sorted(left)}"
        shot(page, f"lang-{lang}-lobby")
        token = room["seats"][0]["token"]
        page.goto(f"{web.url}/#/room/{room['room']}?token={token}")
        page.wait_for_selector("#conn")
        left = english_left(page, english["board"], kept)
        assert not left, f"{lang} board still shows English: {sorted(left)}"
        shot(page, f"lang-{lang}-board")
        page.goto(f"{web.url}/#/rules/piramides")
        page.wait_for_selector("article.rules h1")
        assert page.get_attribute("article.rules", "lang") == lang
        left = english_left(page, english["rules"], kept)
        assert not left, f"{lang} rules page still shows English: {sorted(left)}"
        shot(page, f"lang-{lang}-rules")
        assert not errors, errors
        page.context.close()


def test_the_language_menu_switches_and_is_remembered(page: Any, web: LiveServer) -> None:
    page.goto(f"{web.url}/#/")
    page.wait_for_selector(".game-choice")
    english = page.inner_text("h1")
    page.select_option("#lang", "cs")
    page.wait_for_function("() => document.documentElement.lang === 'cs'")
    page.wait_for_function(f"() => document.querySelector('h1')?.innerText !== {english!r}")
    page.reload()
    page.wait_for_selector(".game-choice")
    assert page.evaluate("document.documentElement.lang") == "cs"
    assert page.inner_text("h1") != english


#: the bounding boxes of the texts matching a selector that overlap another's, or leave
#: their drawing: what a label too long for its slot does
_OVERLAPS = """(sel) => {
    const boxes = [...document.querySelectorAll(sel)].map((n) => ({
        text: n.textContent, r: n.getBoundingClientRect(),
        svg: n.ownerSVGElement.getBoundingClientRect()}));
    const bad = [];
    boxes.forEach((a, i) => {
        if (a.r.left < a.svg.left - 0.5 || a.r.right > a.svg.right + 0.5) bad.push(a.text);
        for (const b of boxes.slice(i + 1)) {
            const apart = a.r.right <= b.r.left + 0.5 || b.r.right <= a.r.left + 0.5
                || a.r.bottom <= b.r.top + 0.5 || b.r.bottom <= a.r.top + 0.5;
            if (!apart) bad.push(`${a.text} / ${b.text}`);
        }
    });
    return {bad, count: boxes.length};
}"""


def test_labels_fit_their_slots_in_every_language(browser: Any, web: LiveServer) -> None:
    """The names under Pirámides' piles and Pyramido's stacks are as long as the language
    makes them (Czech "hromádka 1 · 22"): none may run into its neighbour, on a phone."""
    solo = create(web.url, game="piramides", seed=3, seats=[{"kind": "human"}])
    duel = create(
        web.url,
        game="pyramido",
        seed=3,
        seats=[{"kind": "human"}, {"kind": "bot", "agent": "greedy"}],
    )
    for lang in LANGUAGES:
        context = browser.new_context(viewport=PHONE, is_mobile=True, locale=lang)
        page = context.new_page()
        page.set_default_timeout(15_000)
        try:
            for room, selector in (
                (solo, "svg.piramides text.pile-name, svg.piramides text.pile-count"),
                (duel, "svg.market text.small-label:not(.slot-label)"),
            ):
                token = room["seats"][0]["token"]
                page.goto(f"{web.url}/#/room/{room['room']}?token={token}")
                page.wait_for_selector("#conn")
                page.wait_for_selector(selector.split(",")[0])
                found = page.evaluate(_OVERLAPS, selector)
                assert found["count"] >= 3, (lang, found)
                assert not found["bad"], (
                    f"{lang}: labels overlap or leave the drawing: {found['bad']}"
                )
            shot(page, f"lang-{lang}-pyramido-market")
        finally:
            context.close()
