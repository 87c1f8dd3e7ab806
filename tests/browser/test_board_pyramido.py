"""The Pyramido board in headless Chromium: names, keyboard, floors, phone size, news lines."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.conftest import (
    CHROMIUM,
    NO_CHROMIUM,
    axe_problems,
    open_room,
    open_seat,
    shot,
    small_targets,
    version,
    wait_version_above,
)
from tests.server.client import create
from tests.server.conftest import LiveServer

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.timeout(180)

CSS = "/static/boards/pyramido.css"
BOARD = ".pyramido-board svg.market"
HEX = {
    "red": "#d94c3d",
    "yellow": "#f0c419",
    "green": "#3fa34d",
    "blue": "#3b7dd8",
    "purple": "#8e5cc2",
    "orange": "#f08a24",
}


def legal(page: Any) -> list[str]:
    moves: list[str] = page.eval_on_selector_all(
        "button.move[data-move]", "bs => bs.map(b => b.dataset.move)"
    )
    return moves


def focused(page: Any) -> dict[str, Any]:
    info: dict[str, Any] = page.evaluate(
        "() => { const a = document.activeElement;"
        " return {act: a?.dataset?.act ?? null, cls: a?.getAttribute('class') ?? ''}; }"
    )
    return info


def finish_turn(page: Any) -> None:
    """Play the rest of the turn by clicking: the gem, no card, the refill."""
    for _ in range(4):
        if "Your move" not in page.inner_text("#turn"):
            return
        before = version(page)
        if page.locator(".cell.legal.hit").count():
            page.click(".cell.legal.hit >> nth=0")
        elif page.locator("[data-move='pass']").count():
            page.click("[data-move='pass']")
        elif page.locator(".stack.legal").count():
            page.click(".stack.legal >> nth=0")
        else:
            return
        wait_version_above(page, before)


def test_cells_are_named_and_a_domino_is_placed_by_keyboard(page: Any, web: LiveServer) -> None:
    open_room(page, web, "pyramido", BOARD, seed=5)
    moves = [m.split() for m in legal(page) if m.startswith("q")]
    assert moves, "no placement among the legal moves"
    # every slot and cell a placement names is a place on the board, with its label drawn
    names = set(
        page.eval_on_selector_all("#board [data-place]", "ns => ns.map(n => n.dataset.place)")
    )
    for slot, a, b in moves:
        assert {slot, a, b} <= names, f"{slot} {a} {b} not all on the board"
    coords = set(
        page.eval_on_selector_all(".pyramido-board .coord", "ns => ns.map(n => n.textContent)")
    )
    for _, a, _b in moves:
        assert a[0] in coords and a[1:] in coords, f"no column/row label for {a}"
    labels = set(page.eval_on_selector_all(".cell-name", "ns => ns.map(n => n.textContent)"))
    assert {a for _, a, _ in moves} <= labels
    shot(page, "pyramido-desktop")
    assert not axe_problems(page), axe_problems(page)

    # keyboard only: focus the board, pick the first domino, a cell for A, a cell for B
    before = version(page)
    page.focus("#board [data-act][tabindex='0']")
    assert focused(page)["act"] is not None
    for _ in range(4):
        if focused(page)["act"] == "q1":
            break
        page.keyboard.press("ArrowLeft")
    assert focused(page)["act"] == "q1"
    page.keyboard.press("Enter")
    page.wait_for_selector(".slot.chosen[data-place='q1']")
    # Escape gives the domino back
    page.keyboard.press("Escape")
    page.wait_for_selector(".slot.chosen", state="detached")
    page.keyboard.press("Enter")
    page.wait_for_selector(".slot.chosen[data-place='q1']")
    page.keyboard.press("ArrowDown")
    assert "cell" in focused(page)["cls"], focused(page)
    first = focused(page)["act"]
    page.keyboard.press("Enter")
    page.wait_for_selector(f".cell.chosen[data-place='{first}']")
    for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
        page.focus(f".cell[data-place='{first}']")
        page.keyboard.press(key)
        f = focused(page)
        # a cell: on a wide screen the quarry stands right of the pyramid, and an arrow
        # from the pyramid's right edge reaches it
        if "legal" in f["cls"] and "cell" in f["cls"] and f["act"] != first:
            break
    else:
        raise AssertionError("no cell for block B next to block A")
    second = focused(page)["act"]
    page.keyboard.press("Enter")
    wait_version_above(page, before)
    # the domino just placed is marked as the last move, in the very colours of the quarry
    page.wait_for_selector(".pyramid-top .piece.last")
    placed = page.eval_on_selector_all(
        ".mine .piece.last .block",
        "rs => rs.map(r => [r.getAttribute('fill'), getComputedStyle(r).filter])",
    )
    assert len(placed) == 2
    for fill, flt in placed:
        assert fill in HEX.values() and flt == "none"
    assert {first, second} <= set(
        page.eval_on_selector_all(".cell[data-place]", "ns => ns.map(n => n.dataset.place)")
    )
    finish_turn(page)


def test_a_floor_tab_does_not_block_playing(page: Any, web: LiveServer) -> None:
    open_room(page, web, "pyramido", BOARD, seed=11)
    page.click(".floor-tabs button:has-text('Floor 1')")
    page.wait_for_selector(".floor-tabs button.chosen:has-text('Floor 1')")
    before = version(page)
    page.click(".slot.legal[data-place='q2']")
    page.click(".cell.legal >> nth=0")
    page.click(".cell.legal >> nth=0")
    wait_version_above(page, before)
    page.wait_for_selector(".mine .piece.last")
    finish_turn(page)
    # after the bot's turn, on floor 1's tab, the top view comes back when a domino is picked
    page.wait_for_selector("#turn:text('Your move')")
    page.wait_for_selector(".slot.legal")
    page.click(".floor-tabs button:has-text('Floor 1')")
    page.click(".slot.legal[data-place='q3']")
    page.wait_for_selector(".floor-tabs button.chosen:has-text('Top view')")
    page.wait_for_selector(".cell.legal")


def test_phone_sized_board(browser: Any, web: LiveServer) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        open_room(page, web, "pyramido", BOARD, seed=8)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert not small_targets(page)
        # with a domino chosen, every cell that can take block A is big enough too
        page.click(".slot.legal[data-place='q1']")
        page.wait_for_selector(".cell.legal")
        assert not small_targets(page)
        page.click(".cell.legal >> nth=0")
        assert not small_targets(page)
        assert not axe_problems(page)
        shot(page, "pyramido-phone")
        before = version(page)
        page.click(".cell.legal:not(.chosen) >> nth=0")
        wait_version_above(page, before)
        for _ in range(3):  # gem, card or pass, refill: each step's targets
            if "Your move" not in page.inner_text("#turn"):
                break
            assert not small_targets(page)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            before = version(page)
            if page.locator(".cell.legal.hit").count():
                page.click(".cell.legal.hit >> nth=0")
            elif page.locator("[data-move='pass']").count():
                page.click("[data-move='pass']")
            else:
                page.click(".stack.legal >> nth=0")
            wait_version_above(page, before)
        shot(page, "pyramido-phone-after")
    finally:
        context.close()
    assert not errors


def floor_change() -> tuple[dict[str, Any], dict[str, Any]]:
    """Views of seat 0 just before and just after floor 1 is scored (greedy bots play)."""
    from pyramids import new_game
    from pyramids.ai.registry import make_agent
    from pyramids.engine.rng import Rng

    agent = make_agent("greedy", "pyramido")
    for seed in range(20):
        state = new_game("pyramido", players=2, seed=seed)
        rng = Rng(seed)
        while not state.is_over:
            before = state.view(0)
            state.play(agent.choose(state, rng))
            after = state.view(0)
            if after["floor"] > before["floor"]:
                if all(p["floor_scores"] for p in after["pyramids"]):
                    return before, after
                break
    raise AssertionError("no floor was finished")


def test_explain_tells_the_floor_score_and_who_starts(page: Any, web: LiveServer) -> None:
    before, after = floor_change()
    page.goto(f"{web.url}/")
    page.wait_for_selector(".game-choice")
    lines: list[str] = page.evaluate(
        f"""async () => {{
            const board = await import(new URL('boards/pyramido.js', document.querySelector('script[type=module]').src).href);
            const [before, after] = {json.dumps([before, after])};
            return [board.explain(after, before), board.explain(after, after), board.explain(after, null)];
        }}"""
    )
    scored, same, none = lines
    assert same == [] and none == []
    # the floor's last turn is told first when another seat played it, then the scores
    assert scored[0] == "Floor 1 scored:" or (
        " laid a domino on " in scored[0] and scored[1] == "Floor 1 scored:"
    ), scored
    for i, name in enumerate(after["names"]):
        fs = after["pyramids"][i]["floor_scores"][0]
        line = next(x for x in scored if x.startswith(f"{name}:"))
        assert f"Mino bonus +{fs['bonus']}" in line
        assert f"{fs['total']} point" in line
        for area in fs["areas"]:
            assert f"{area['colour']} area {area['jewels']} jewel" in line
    starter = after["names"][after["current_player"]]
    assert f"{starter} starts floor 2 (lowest score on floor 1)." in scored


def test_explain_tells_what_another_seat_laid_when_its_turn_ends(
    page: Any, web: LiveServer
) -> None:
    """A bot's turn is several quick steps: "What happened" says what it laid, once per
    domino, also when it plays turn after turn (seed 2: seat 0 goes out early)."""
    from pyramids import new_game
    from pyramids.ai.registry import make_agent
    from pyramids.engine.rng import Rng

    agent, rng = make_agent("random", "pyramido"), Rng(2)
    state = new_game("pyramido", players=2, seed=2)
    pairs, placed = [], []  # every step seen from seat 0; (step, seat, cells) of each domino
    while not state.is_over:
        before, mover = state.view(0), state.current_player
        blocks = len(state.blocks(1))
        state.play(agent.choose(state, rng))
        after = state.view(0)
        if mover == 1 and len(state.blocks(1)) == blocks + 2:  # the engine laid a domino
            placed.append((len(pairs), after["turn"]["placed"]["cells"]))
        pairs.append((before, after))
    page.goto(f"{web.url}/")
    page.wait_for_selector(".game-choice")
    told: list[list[str]] = page.evaluate(
        f"""async () => {{
            const board = await import(new URL('boards/pyramido.js', document.querySelector('script[type=module]').src).href);
            return {json.dumps(pairs)}.map(([b, a]) => board.explain(a, b));
        }}"""
    )
    said = [(i, x) for i, lines in enumerate(told) for x in lines if " laid a domino on " in x]
    assert len(placed) >= 5 and len(said) == len(placed), (placed, said)  # seat 0's never
    name = pairs[0][0]["names"][1]
    for (step, cells), (at, line), following in zip(
        placed, said, [*(p[0] for p in placed[1:]), len(pairs)], strict=True
    ):
        assert line == f"{name} laid a domino on {'–'.join(cells)}."
        assert step < at < following, (step, at, following)  # after it, before the next


def later_views() -> dict[str, Any]:
    """Views of seat 0 (with its legal moves) later in greedy games: floor 3, a card step."""
    from pyramids import new_game
    from pyramids.ai.registry import make_agent
    from pyramids.engine.rng import Rng

    agent = make_agent("greedy", "pyramido")
    found: dict[str, Any] = {}
    for seed in range(10):
        state = new_game("pyramido", players=2, seed=seed)
        rng = Rng(seed)
        while not state.is_over and len(found) < 2:
            prev = state.view(0)
            if state.current_player == 0:
                legal = [state.move_to_str(m) for m in state.legal_moves()]
                view = state.view(0)
                if view["floor"] == 3 and view["step"] == "place":
                    found.setdefault("floor3", {"view": view, "prev": prev, "legal": legal})
                if any(m.startswith("card ") for m in legal):
                    found.setdefault("card", {"view": view, "prev": prev, "legal": legal})
            state.play(agent.choose(state, rng))
        if len(found) == 2:
            break
    return found


RENDER = """async (data) => {
    const board = await import(new URL('boards/pyramido.js', document.querySelector('script[type=module]').src).href);
    let root = document.getElementById('pyr-test');
    if (!root) { root = document.createElement('div'); root.id = 'pyr-test'; root.className = 'board';
                 document.querySelector('main').prepend(root); }
    const played = [];
    window.__played = played;
    const ctx = {view: data.view, prev: data.prev, legal: data.legal, seat: 0,
                 seats: data.view.names.map(n => ({name: n})), interactive: true,
                 move: (t) => played.push(t), ui: {}, redraw: () => { root.replaceChildren(); board.render(root, ctx); }};
    root.replaceChildren();
    board.render(root, ctx);
    return root.innerText;
}"""


def test_upper_floors_and_the_card_step(page: Any, web: LiveServer) -> None:
    found = later_views()
    page.goto(f"{web.url}/")
    page.wait_for_selector(".game-choice")
    page.add_style_tag(url=CSS)
    data = found["floor3"]
    text = page.evaluate(RENDER, data)
    assert "undefined" not in text
    # every floor drawn over the one below, one rim per floor above the first
    for f in (1, 2):
        assert page.locator(f"#pyr-test .mine .floor.f{f} .piece").count() > 0
    rims = page.eval_on_selector_all(
        "#pyr-test .mine .piece[data-floor='2']",
        "ps => ps.map(p => p.querySelectorAll('.rim').length)",
    )
    assert rims and set(rims) == {1}
    # floor 3's own grid is labelled a.. and 1.. and its cells carry those names
    cells = {m.split()[1] for m in data["legal"] if m.startswith("q")}
    places = set(
        page.eval_on_selector_all(
            "#pyr-test .cell[data-place]", "ns => ns.map(n => n.dataset.place)"
        )
    )
    assert cells <= places
    shot(page, "pyramido-floors")
    # the floor tab of the floor below shows only that floor; choosing a domino comes back
    page.click("#pyr-test .floor-tabs button:has-text('Floor 2')")
    assert page.locator("#pyr-test .mine .floor.f1").count() == 0
    page.click("#pyr-test .slot.legal >> nth=0")
    page.wait_for_selector("#pyr-test .floor-tabs button.chosen:has-text('Top view')")
    assert page.locator("#pyr-test .cell.legal").count() > 0

    card = found["card"]
    page.evaluate(RENDER, card)
    side = next(m for m in card["legal"] if m.startswith("card ")).split()[1]
    page.click(f"#pyr-test .swatch[data-colour='{side}']")
    page.click("#pyr-test .quarter-pick >> nth=0")
    played = page.evaluate("window.__played")
    assert played and played[0] in card["legal"] and played[0].startswith(f"card {side} ")
    page.evaluate(RENDER, card)
    page.click("#pyr-test [data-move='pass']")
    assert page.evaluate("window.__played") == ["pass"]


def test_the_steps_of_ones_own_turn_can_be_taken_back(page: Any, web: LiveServer) -> None:
    """A misplaced domino or gem is taken back (Undo, or U) until the turn ends; not once
    it has ended, and never by the seat not to move."""
    from tests.server.client import HTTP

    room = open_room(page, web, "pyramido", BOARD, seed=8)
    rid = room["room"]
    assert page.locator("#undo").count() == 0, "nothing to take back before a step"
    start = version(page)
    page.click(".slot.legal[data-place='q1']")
    page.click(".cell.legal >> nth=0")
    page.click(".cell.legal:not(.chosen) >> nth=0")
    v = wait_version_above(page, start)
    placed = page.locator(".mine .piece").count()
    assert placed == 1
    page.wait_for_selector("#undo:not([disabled])")
    page.click("#undo")
    v = wait_version_above(page, v)
    assert page.locator(".mine .piece").count() == 0, "the domino is back in the quarry"
    assert page.locator("#undo").count() == 0
    assert page.locator(".slot.legal[data-place='q1']").count() == 1
    # again, then the keyboard's U takes it back as well
    page.click(".slot.legal[data-place='q1']")
    page.click(".cell.legal >> nth=0")
    page.click(".cell.legal:not(.chosen) >> nth=0")
    v = wait_version_above(page, v)
    page.locator("#board").press("u")
    v = wait_version_above(page, v)
    assert page.locator(".mine .piece").count() == 0
    finish_turn(page)
    page.wait_for_selector("#turn:text('Your move')")  # the bot has played its turn too
    assert page.locator("#undo").count() == 0, "a finished turn is not taken back"
    token = room["seats"][0]["token"]
    now = HTTP.get(f"{web.url}/api/rooms/{rid}/state", params={"token": token}).json()
    late = HTTP.post(
        f"{web.url}/api/rooms/{rid}/undo", json={"token": token, "version": now["version"]}
    )
    assert late.status_code == 409 and late.json()["error"]["code"] == "undo-not-allowed"
    assert now["can_undo"] is False
    # between two people: the seat not to move may not take back the other's step
    duel = create(web.url, game="pyramido", seed=8, seats=[{"kind": "human"}] * 2)
    base = f"{web.url}/api/rooms/{duel['room']}"
    ana, ben = (s["token"] for s in duel["seats"])
    snap = HTTP.get(f"{base}/state", params={"token": ana}).json()
    place = next(m for m in snap["legal"] if m.startswith("q"))
    assert HTTP.post(f"{base}/moves", json={"token": ana, "move": place, "version": 0}).is_success
    assert HTTP.get(f"{base}/state", params={"token": ben}).json()["can_undo"] is False
    refused = HTTP.post(f"{base}/undo", json={"token": ben, "version": 1})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "undo-not-allowed"
    assert HTTP.post(f"{base}/undo", json={"token": ana, "version": 1}).is_success
    record = HTTP.get(f"{base}/state", params={"token": ana}).json()
    assert record["version"] == 2 and record["view"]["step"] == "place"


def _fits(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(
        """() => {
            const r = (s) => document.querySelector(s).getBoundingClientRect();
            const bar = r('.turn-bar'), market = r('.pyramido-board svg.market'),
                  mine = r('.pyramido-board .mine svg.pyramid-top');
            return {bar: bar.bottom, market: [market.top, market.bottom],
                    mine: [mine.top, mine.bottom], height: innerHeight};
        }"""
    )
    return found


def test_the_quarry_and_the_pyramid_are_in_sight_together(browser: Any, web: LiveServer) -> None:
    """On a 1366 x 768 screen the quarry and the pyramid both show, the stacks' tops below
    the sticky turn bar, with no scrolling; on a phone the quarry sticks under the turn bar
    while the pyramid scrolls, so that each step's targets are in sight with the quarry."""
    room = create(
        web.url,
        game="pyramido",
        seed=3,
        seats=[{"kind": "human"}, {"kind": "bot", "agent": "greedy"}],
    )
    desk = browser.new_context(viewport={"width": 1366, "height": 768})
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = desk.new_page()
        page.set_default_timeout(15_000)
        open_seat(page, web, room, BOARD)
        page.wait_for_timeout(200)
        f = _fits(page)
        assert f["market"][0] >= f["bar"] and f["market"][1] <= f["height"], f
        assert f["mine"][0] >= f["bar"] and f["mine"][1] <= f["height"], f
        shot(page, "pyramido-desktop-1366")
        page = phone.new_page()
        page.set_default_timeout(15_000)
        open_seat(page, web, room, BOARD)
        page.evaluate("document.querySelector('.mine svg').scrollIntoView({block: 'end'})")
        page.wait_for_timeout(200)
        f = _fits(page)
        assert f["mine"][1] <= f["height"] + 1, f
        assert f["market"][0] >= f["bar"] - 1 and f["market"][1] <= f["mine"][1], f
        slots = page.eval_on_selector_all(
            ".slot[data-place]",
            "ss => ss.map(s => { const r = s.getBoundingClientRect(); return [r.top, r.bottom]; })",
        )
        assert all(top >= f["bar"] - 1 and bottom <= f["height"] for top, bottom in slots)
        page.click(".slot.legal[data-place='q1']")  # the quarry is tapped from down here
        page.wait_for_selector(".cell.legal")
        shot(page, "pyramido-phone-sticky-quarry")
    finally:
        desk.close()
        phone.close()


def test_upper_floors_veil_floor_one_and_name_their_columns_close_by(
    browser: Any, web: LiveServer
) -> None:
    """On floor 2 and up, the empty cells' dashed grid and names lie on a veil over the
    floor below, not over its jewels; the column letters stand just above what is drawn."""
    from tests.browser.conftest import drive_room

    room, _ = drive_room(
        web,
        "pyramido",
        2,
        3,
        lambda s: (
            s.view(0)["floor"] >= 2 and s.current_player == 0 and s.view(0)["step"] == "place"
        ),
    )
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        open_seat(page, web, room, BOARD)
        found = page.evaluate(
            """() => {
                const svg = document.querySelector('.mine svg.pyramid-top');
                const cells = [...svg.querySelectorAll('.cell.empty .face')];
                const veiled = cells.every((f) => {
                    const s = getComputedStyle(f);
                    return s.fill !== 'none' && +s.fillOpacity >= 0.6;
                });
                const grid = cells.map((f) => f.getBoundingClientRect());
                const top = Math.min(...grid.map((r) => r.top));
                const blocks = [...svg.querySelectorAll('.floor.f1 .block')].map((b) => b.getBoundingClientRect());
                const drawnTop = Math.min(top, ...blocks.map((r) => r.top));
                const letters = [...svg.querySelectorAll('text.coord')]
                    .filter((t) => /^[a-z]$/.test(t.textContent)).map((t) => t.getBoundingClientRect().bottom);
                return {count: cells.length, veiled, gap: Math.min(...letters.map((b) => drawnTop - b))};
            }"""
        )
        assert found["count"] > 0 and found["veiled"], found
        assert 0 <= found["gap"] < 12, found
        assert not small_targets(page, ".floor-tabs button")
        shot(page, "pyramido-upper-floor-phone")
    finally:
        context.close()
