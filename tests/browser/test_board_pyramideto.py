"""The Pyramideto board in headless Chromium: nesting pyramids in profile with their pieces
named as the notation names them, a move by keyboard only (piece, then target, Escape
cancels), the move marked at both ends, the phone layout, explain() and the breakdown."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import (
    CHROMIUM,
    NO_CHROMIUM,
    PHONE,
    WITH_A_BOT,
    ensure_keys,
    my_turn,
    open_seat,
    shot,
    small_targets,
    version,
    wait_version_above,
)
from tests.server.client import create, move, state
from tests.server.conftest import LiveServer

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.timeout(120)

BOARD = ".pyramideto-board .pt-chip"
ARROWS = ["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"]
OPPOSITE = dict(zip(ARROWS, ARROWS[2:] + ARROWS[:2], strict=True))


def room_with_a_bot(web: LiveServer, seed: int = 3) -> dict[str, Any]:
    return create(
        web.url,
        game="pyramideto",
        seed=seed,
        seats=WITH_A_BOT,
    )


def active(page: Any) -> dict[str, Any] | None:
    found: dict[str, Any] | None = page.evaluate(
        "(() => { const a = document.activeElement;"
        " if (!a || !a.dataset || !a.dataset.act) return null;"
        " return {act: a.dataset.act, target: a.dataset.target === '1'}; })()"
    )
    return found


def walk_to(page: Any, wanted: Any, limit: int = 80) -> dict[str, Any]:
    """Press arrow keys until the focused thing satisfies ``wanted``; return it."""
    seen: set[str] = set()
    for step in range(limit):
        now = active(page)
        assert now is not None, "focus left the board"
        if wanted(now):
            return now
        seen.add(now["act"])
        for key in ARROWS:
            page.keyboard.press(key)
            after = active(page)
            if after and after["act"] not in seen:
                break
            if after and after["act"] != now["act"]:
                page.keyboard.press(OPPOSITE[key])  # back, and try the next direction
        else:  # every neighbour seen: go on through one of them
            page.keyboard.press(ARROWS[(step // 2) % 4])
    raise AssertionError(f"no focusable thing found by the arrows (seen {sorted(seen)})")


def test_nesting_pyramids_with_their_pieces_named_as_the_notation(
    page: Any, web: LiveServer
) -> None:
    room = room_with_a_bot(web)
    open_seat(page, web, room, BOARD)
    my_turn(page)
    snap = state(web.url, room["room"], room["seats"][0]["token"])
    legal, stacks = snap["legal"], snap["view"]["stacks"]
    # every piece has its chip, named by its code, and its shape in the picture
    chips = page.eval_on_selector_all(".pt-chip", "ns => ns.map(n => n.dataset.place)")
    assert sorted(chips) == sorted(c for s in stacks for c in s)
    shapes = page.eval_on_selector_all(
        ".pt-piece[data-place]", "ns => ns.map(n => n.dataset.place)"
    )
    assert sorted(shapes) == sorted(chips)
    # each stack is named under its picture by its top piece (the name moves use: Mr>Lg)
    plates = page.eval_on_selector_all(
        ".pt-stack[data-top] .pt-plate", "ns => ns.map(n => n.textContent)"
    )
    assert plates == [s[-1] for s in stacks]
    # every place a legal move names is on the board
    for m in legal:
        if m.startswith("x "):
            assert page.locator(f"[data-place='{m[2:]}']").count() == 1, m
            continue
        piece, target = m.split(">")
        assert page.locator(f"[data-place='{piece}']").count() >= 1, m
        assert page.locator(f"[data-place='{target}']").count() >= 1, m
    # what acts: the pieces that can move and the exchanges, nothing else
    acts = set(page.eval_on_selector_all("[data-act]", "ns => ns.map(n => n.dataset.act)"))
    sources = {m.split(">")[0] for m in legal if ">" in m}
    exchanges = {"x:" + m[2:] for m in legal if m.startswith("x ")}
    assert acts == sources | exchanges
    # a nest reads as nested: the small and medium pyramids stand inside the large one
    inside = page.evaluate(
        """() => {
            const box = (c) => document.querySelector(`.pt-piece[data-place="${c}"]`)
                .getBoundingClientRect();
            const l = box('Lg'), m = box('Mg'), s = box('Sg');
            const within = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
                && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
            return within(s, m) && within(m, l) && Math.abs(s.bottom - l.bottom) < 1;
        }"""
    )
    assert inside, "the nest of greens does not read as nested pyramids"
    # goal cards carry their frame colour, and names
    frames = {f["id"]: f["rgb"] for f in snap["view"]["frames"]}
    for card in snap["view"]["hand"]:
        css = page.eval_on_selector(
            f".pt-goal[data-goal='{card['id']}']",
            "n => getComputedStyle(n).getPropertyValue('--frame').trim()",
        )
        assert css == frames[card["frame"]]
        assert page.inner_text(f".pt-goal[data-goal='{card['id']}'] .pt-goal-name")
    shot(page, "pyramideto-desktop")


def test_a_move_by_keyboard_only_is_accepted_and_marked_at_both_ends(
    page: Any, web: LiveServer
) -> None:
    room = room_with_a_bot(web, seed=8)
    open_seat(page, web, room, BOARD)
    my_turn(page)
    ensure_keys(page)
    page.focus("#board [data-act][tabindex='0']")
    # a piece that can move (the page's own choice: what the arrows reach first)
    walk_to(page, lambda a: not a["act"].startswith("x:"))
    page.keyboard.press("Enter")
    page.wait_for_selector(".pt-chip.selected")
    assert page.locator("[data-target='1']").count() >= 1
    # Escape puts it back
    page.keyboard.press("Escape")
    page.wait_for_selector(".pt-chip.selected", state="detached")
    assert page.locator("[data-target='1']").count() == 0
    focused = active(page)
    assert focused is not None, "focus is lost after Escape"
    walk_to(page, lambda a: not a["act"].startswith("x:"))
    page.keyboard.press("Enter")
    page.wait_for_selector(".pt-chip.selected")
    chosen = page.get_attribute(".pt-chip.selected", "data-place")
    target = walk_to(page, lambda a: a["target"])
    before = version(page)
    page.keyboard.press("Enter")
    wait_version_above(page, before)
    text = f"{chosen}>{target['act']}"
    # the news log tells the move; the moved group is marked at its new place and the old one
    page.wait_for_selector("#news :text('You ')")
    assert chosen in page.inner_text("#news")
    page.wait_for_selector(".pt-piece.last")
    assert page.locator(".pt-stack.from").count() >= 1
    del text
    my_turn(page)  # the bot answered: its move is marked the same way
    page.wait_for_selector(".pt-chip.last")
    # and the keyboard player's focus is still on the board, ready for the next move
    assert page.evaluate("() => document.getElementById('board').contains(document.activeElement)")
    assert page.locator(".pt-stack.from").count() >= 1
    page.wait_for_timeout(800)  # the group has landed
    shot(page, "pyramideto-after-move")


def test_phone_layout_fits_and_pieces_and_targets_are_finger_sized(
    browser: Any, web: LiveServer
) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        room = room_with_a_bot(web, seed=5)
        open_seat(page, web, room, BOARD)
        my_turn(page)

        def check(what: str) -> None:
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the page scrolls sideways ({width}px) {what}"
            assert page.locator("[data-act]").count()
            small = small_targets(page, "[data-act]")
            assert not small, f"under 44 px on a phone {what}: {small}"

        check("at the start")
        shot(page, "pyramideto-phone")
        page.click(".pt-chip.movable >> nth=0")
        page.wait_for_selector(".pt-chip.selected")
        assert page.locator("[data-target='1']").count() >= 1
        check("with a piece picked up")
        shot(page, "pyramideto-phone-picked")
    finally:
        context.close()


def test_explain_tells_moves_exchanges_goals_and_the_winner(page: Any, web: LiveServer) -> None:
    room = room_with_a_bot(web, seed=2)
    open_seat(page, web, room, BOARD)
    lines = page.evaluate(
        """async () => {
            const b = await import(new URL('boards/pyramideto.js', document.querySelector('script[type=module]').src).href);
            const NAMES = {
                watermelon: 'Watermelon', doll: 'Doll', bee: 'Bee', strawberry: 'Strawberry'};
            const card = (id, frame, tower) => ({id, name: NAMES[id] || id, frame, tower});
            const base = {
                ply: 4, turn: 4, turn_limit: 200, deck: 20, viewer: 0, current_player: 0,
                is_over: false,
                names: ['Ana', 'Bot'], hand_sizes: [3, 3], winner: null, end: null,
                stacks: [['Sr', 'Mr', 'Lr'], ['Sg', 'Mg', 'Lg']], last_group: [],
                hand: [card('watermelon', 'orange', ['Lg', 'Lr', 'Sk']),
                       card('doll', 'pink', ['Lb', 'Mr', 'Sy'])],
                displayed: [[], []],
                frames: [{id: 'orange', theme: 'Food', rgb: '#f28c28'},
                         {id: 'pink', theme: 'Toys and people', rgb: '#e75480'}],
            };
            const onto = structuredClone(base);
            onto.ply = 5; onto.turn = 5; onto.current_player = 1;
            onto.stacks = [['Sr', 'Mr'], ['Sg', 'Mg', 'Lg', 'Lr']]; onto.last_group = ['Lr'];
            const table = structuredClone(base);
            table.ply = 5; table.turn = 5; table.current_player = 1;
            table.stacks = [['Lr'], ['Sr', 'Mr'], ['Sg', 'Mg', 'Lg']]; table.last_group = ['Lr'];
            const theirs = structuredClone(base);
            theirs.current_player = 1;
            const botMoved = structuredClone(onto);
            botMoved.current_player = 0;
            const swapped = structuredClone(base);
            swapped.ply = 5; swapped.turn = 5; swapped.current_player = 1;
            swapped.hand = [swapped.hand[1], card('bee', 'teal', ['Ly', 'Mk', 'Sy'])];
            const achieved = structuredClone(onto);
            achieved.displayed = [[card('strawberry', 'orange', ['Lr', 'Mr', 'Sg'])], []];
            const won = structuredClone(achieved);
            won.is_over = true; won.winner = 0; won.end = 'goal';
            won.displayed = [
                [1, 2, 3, 4, 5].map((k) => card('g' + k, 'orange', ['Lr', 'Mr', 'Sg'])), []];
            const drawn = structuredClone(botMoved);
            drawn.is_over = true; drawn.end = 'turn-limit';
            return {
                same: b.explain(base, base), none: b.explain(base, null),
                onto: b.explain(onto, base), table: b.explain(table, base),
                bot: b.explain(botMoved, theirs), swapped: b.explain(swapped, base),
                achieved: b.explain(achieved, base), won: b.explain(won, base).at(-1),
                drawn: b.explain(drawn, theirs).at(-1),
            };
        }"""
    )
    assert lines["same"] == [] and lines["none"] == []
    assert lines["onto"] == ["You moved Lr onto Lg"]
    assert lines["table"] == ["You put Lr on the table"]
    assert lines["bot"] == ["Bot moved Lr onto Lg"]
    assert lines["swapped"] == ["You exchanged Watermelon for a new card"]
    assert lines["achieved"][-1] == "You achieved Strawberry (Food)"
    assert lines["won"] == "Ana wins with a 5th goal"
    assert lines["drawn"] == "A draw: the limit of 200 moves was reached"


def test_breakdown_fits_a_phone(browser: Any, web: LiveServer) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(f"{web.url}/")
        page.wait_for_selector(".game-choice")
        sizes = page.evaluate(
            """async () => {
                const b = await import(new URL('boards/pyramideto.js', document.querySelector('script[type=module]').src).href);
                const css = document.createElement('link');  // the board's style, as the app adds it
                css.rel = 'stylesheet';
                css.href = '/static/boards/pyramideto.css';
                await new Promise((ok) => { css.onload = ok; document.head.append(css); });
                const card = (id, frame) => ({id, name: id, frame, tower: ['Lr', 'Mr', 'Sg']});
                const v = {
                    names: ['Anastasia Papadopoulou', 'Bot (greedy)', 'Bartholomew', 'Zé'],
                    winner: 0, end: 'goal',
                    ranking: [1, 2, 3, 3], is_over: true,
                    displayed: [[card('a', 'orange'), card('b', 'purple'), card('c', 'teal'),
                                 card('d', 'brown')],
                                [card('e', 'pink'), card('f', 'orange')], [card('g', 'teal')], []],
                    frames: [{id: 'orange', rgb: '#f28c28'}, {id: 'purple', rgb: '#8e44ad'},
                             {id: 'teal', rgb: '#16a085'},
                             {id: 'brown', rgb: '#8b5a2b'}, {id: 'pink', rgb: '#e75480'}],
                };
                const box = document.createElement('dialog');
                box.className = 'summary';
                document.body.append(box);
                box.append(b.summary(v));
                box.showModal();
                const r = box.querySelector('.pyramideto-breakdown').getBoundingClientRect();
                const scroll = box.querySelector('.pt-scroll');
                return {right: r.right, page: document.documentElement.scrollWidth,
                        hidden: scroll.scrollWidth - scroll.clientWidth, text: box.innerText};
            }"""
        )
        shot(page, "pyramideto-phone-summary")
        assert sizes["right"] <= 390 and sizes["page"] <= 390
        # every column in sight: a table scrolled sideways hides it, with nothing to say so
        assert sizes["hidden"] <= 0, sizes["hidden"]
        assert "wins with a 4th frame colour" in sizes["text"]
    finally:
        context.close()


def test_a_game_drawn_at_the_turn_limit_is_called_a_draw(page: Any, web: LiveServer) -> None:
    """Every seat first is a draw, not a "shared win" over a line that says "draw"."""
    room = create(
        web.url,
        game="pyramideto",
        seed=8,
        seats=[{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bea"}],
        variant={"turn_limit": 2},
    )
    tokens = [s["token"] for s in room["seats"]]
    for _ in range(2):
        snap = state(web.url, room["room"], tokens[0])
        mover = snap["view"]["current_player"]
        mine = state(web.url, room["room"], tokens[mover])
        r = move(web.url, room["room"], tokens[mover], mine["legal"][0], mine["version"])
        assert r.status_code == 200, r.text
    over = state(web.url, room["room"], tokens[0])["view"]
    assert over["is_over"] and over["ranking"] == [1, 1], over
    open_seat(page, web, room, BOARD)
    page.wait_for_selector("dialog#summary[open]")
    assert page.inner_text("#summary-title") == "Draw"
    assert "draw" in page.inner_text("dialog#summary .pyramideto-breakdown").lower()
