"""Every language in real Chromium: the lobby, a board and a rules page show no English left."""

from __future__ import annotations

import re
from typing import Any

import pytest

from pyramids.i18n import LANGUAGES
from tests.browser.conftest import CHROMIUM, NO_CHROMIUM, PHONE, drive_room, shot
from tests.server.client import create
from tests.server.conftest import LiveServer

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.timeout(180)

#: text that is the same in every language: names of games and languages, the brand,
#: notation, numbers
SAME_EVERYWHERE = re.compile(
    r"^(Pyramids|Pirámides|Pyramido|Pyramideto|English|Português \(Brasil\)|Español|Suomi|Čeština"
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


def messages_of(web: LiveServer, lang: str) -> dict[str, Any]:
    from tests.server.client import HTTP

    found: dict[str, Any] = HTTP.get(f"{web.url}/api/i18n/{lang}").json()["messages"]
    return found


def test_the_treasure_hunts_table_news_is_in_the_readers_language(
    browser: Any, web: LiveServer
) -> None:
    """The view gives each news line as a code and parameters; the page words it (Finnish
    "Pelaaja 1 nostaa pinosta 1 aarrekortin: …", not "Pelaaja 1 draws … from deck 1")."""
    room, _ = drive_room(web, "pyramido-treasure", 2, 4, lambda s: len(s.view(0)["news"]) >= 3)
    page = open_in(browser, "fi")
    try:
        token = room["seats"][0]["token"]
        page.goto(f"{web.url}/#/room/{room['room']}?token={token}")
        page.wait_for_selector(".table-news li")
        lines = page.eval_on_selector_all(".table-news li", "ns => ns.map(n => n.innerText)")
        assert lines and all(line.strip() for line in lines)
        english = re.compile(r"\b(draws|takes|from deck|finds|reveals|gives|keeps|the box)\b")
        assert not [line for line in lines if english.search(line)], lines
        assert any("nostaa" in line or "ottaa" in line for line in lines), lines
    finally:
        page.context.close()


def test_spanish_hints_and_moves_name_the_piles_as_they_are_labelled(
    browser: Any, web: LiveServer
) -> None:
    """Pirámides' notation says "draw" and "joker"; a Spanish page labels those piles
    "mazo" and "jóker", and says so in its hints and its list of legal moves; the round
    table's "Cleared" is "Despejada" (a pyramid cleared, not "eliminated")."""
    es = messages_of(web, "es")
    stock, joker = es["pile\u0004stock"], es["pile\u0004joker"]
    room = create(web.url, game="piramides", seats=[{"kind": "human"}], seed=4242)
    page = open_in(browser, "es")
    try:
        page.goto(f"{web.url}/#/room/{room['room']}?token={room['seats'][0]['token']}")
        page.wait_for_selector("#conn")
        draw = page.locator("button.move[data-move='draw']")
        assert draw.text_content() == stock
        assert page.locator("button.move[data-move='joker']").text_content() == joker
        words = page.eval_on_selector_all("button.move", "ns => ns.map(n => n.textContent)")
        assert "draw" not in words and "joker" not in words
        page.click("#hint")
        page.wait_for_selector("#news li", timeout=30_000)
        hint = page.inner_text("#news li")
        assert stock in hint and "draw" not in hint, hint  # this deal's hint is to draw
        table = page.evaluate(
            """async () => {
                const { summary } = await import(new URL('boards/piramides.js', document.querySelector('script[type=module]').src).href);
                const v = {layout: 'pyramid', variant: {jokers_per_round: 1},
                           round_scores: [{round: 1, cards: 10, stock_cards: 1, jokers: 0,
                                           cleared: true, total: 55}]};
                return summary(v).innerText;
            }"""
        )
        assert "Despejada" in table and "Eliminada" not in table
    finally:
        page.context.close()


def test_goal_card_pictures_carry_no_english_words(browser: Any, web: LiveServer) -> None:
    """The Czech rules page names each goal card in Czech beside its picture; the picture
    itself says nothing in English ("Traffic light" under "Semafor")."""
    from tests.server.client import HTTP

    page = open_in(browser, "cs")
    try:
        page.goto(f"{web.url}/#/rules/pyramideto")
        page.wait_for_selector("article.rules h1")
        sources = page.eval_on_selector_all(
            "article.rules img[src*='/pyramideto/']", "ns => ns.map(n => n.getAttribute('src'))"
        )
        assert len(sources) == 30
        assert "Semafor" in page.inner_text("article.rules")
        for src in sources:
            picture = HTTP.get(f"{web.url}{src}").text
            words = re.findall(r"<text[^>]*>([^<]*)</text>", picture)
            assert words, src  # the pieces' codes are drawn
            assert all(re.fullmatch(r"[SML][rygbk]", w) for w in words), (src, words)
    finally:
        page.context.close()


def test_seats_nobody_named_are_named_in_each_readers_language(
    browser: Any, web: LiveServer
) -> None:
    """A Czech creator leaves the names empty: a Spanish reader sees "Jugador 1" and the
    bot's Spanish name, the Czech one "Hráč 1" and its Czech name, nobody the other's."""
    from tests.server.client import HTTP

    cs, es = messages_of(web, "cs"), messages_of(web, "es")
    creator = open_in(browser, "cs")
    reader = open_in(browser, "es")
    try:
        creator.goto(f"{web.url}/#/")
        creator.click("[data-game='pyramideto']")
        creator.select_option("select[data-seat='1']", "bot:greedy")
        creator.click("#create")
        creator.wait_for_function("() => location.hash.startsWith('#/room/')")
        creator.wait_for_selector("#conn")
        rid = creator.evaluate("() => location.hash.split('/')[2].split('?')[0]")
        stored = [s["name"] for s in HTTP.get(f"{web.url}/api/rooms/{rid}").json()["seats"]]
        assert stored == ["Player 1", "Bot 2 (greedy)"], "the server's default names"
        bot = {
            lang: m["Bot: greedy"].split(":", 1)[1].strip() for lang, m in (("cs", cs), ("es", es))
        }
        mine = creator.inner_text(".players")
        assert cs["Player {n}"].replace("{n}", "1") in mine and bot["cs"] in mine, mine
        reader.goto(f"{web.url}/#/room/{rid}")
        reader.wait_for_selector("#conn")
        theirs = reader.inner_text(".players")
        assert es["Player {n}"].replace("{n}", "1") in theirs and bot["es"] in theirs, theirs
        assert cs["Player {n}"].replace("{n}", "1") not in theirs and bot["cs"] not in theirs
    finally:
        creator.context.close()
        reader.context.close()
