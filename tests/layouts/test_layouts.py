"""The tripeaks and golf layouts and the wrap option: one engine, other geometries."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pyramids
from pyramids.engine.errors import IllegalMove
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.games.piramides import GAME, PLAY, PiramidesState
from pyramids.games.piramides.cards import CARD_NAMES, shuffled_deck
from pyramids.games.piramides.layout import GOLF, PYRAMID, TRIPEAKS
from tests.conftest import play_randomly

VARIANTS: list[dict[str, Any]] = [
    {"layout": "tripeaks"},
    {"layout": "golf"},
    {"layout": "golf", "wrap": False},
    {"layout": "pyramid", "wrap": False},
    {"layout": "tripeaks", "face_down": True},
]
IDS = ["tripeaks", "golf", "golf-nowrap", "pyramid-nowrap", "tripeaks-facedown"]


def new(seed: int, **variant: Any) -> PiramidesState:
    s = pyramids.new_game("piramides", seed=seed, **variant)
    assert isinstance(s, PiramidesState)
    return s


def fingerprint(s: State[Any]) -> str:
    return json.dumps([s.view(None), s.view(0), s.scores(), s.is_over, s.ply], sort_keys=True)


def test_tripeaks_geometry() -> None:
    assert TRIPEAKS.size == 28
    assert bin(TRIPEAKS.initially_free).count("1") == 10  # the bottom row D1..D10
    free = [TRIPEAKS.labels[i] for i in range(28) if TRIPEAKS.initially_free >> i & 1]
    assert free == [f"D{k}" for k in range(1, 11)]
    a1, b1, b2 = (TRIPEAKS.index_of(x) for x in ("A1", "B1", "B2"))
    c1, c2, c3 = (TRIPEAKS.index_of(x) for x in ("C1", "C2", "C3"))
    assert a1 is not None and b1 is not None and b2 is not None
    assert TRIPEAKS.covered_by[a1] == 1 << b1 | 1 << b2
    assert TRIPEAKS.covered_by[b1] == 1 << c1 | 1 << c2  # type: ignore[operator]
    assert TRIPEAKS.covered_by[b2] == 1 << c2 | 1 << c3  # type: ignore[operator]
    # the peaks share only the bottom row: C3 and C4 belong to different peaks
    c4 = TRIPEAKS.index_of("C4")
    assert c4 is not None
    assert not any(TRIPEAKS.covered_by[b] >> c4 & 1 for b in (b1, b2))


def test_golf_geometry_and_labels() -> None:
    assert GOLF.size == 35
    free = [GOLF.labels[i] for i in range(35) if GOLF.initially_free >> i & 1]
    assert free == [f"{col}5" for col in "ABCDEFG"]
    a4, a5 = GOLF.index_of("A4"), GOLF.index_of("a5")
    assert a4 is not None and a5 is not None
    assert GOLF.covered_by[a4] == 1 << a5 and GOLF.covered_by[a5] == 0


@pytest.mark.parametrize(("layout", "stock"), [("tripeaks", 23), ("golf", 16)])
def test_one_deal_no_joker_and_deal_number_is_seed(layout: str, stock: int) -> None:
    s = new(7, layout=layout)
    assert s.stock_left == stock and s.jokers_left == 0
    assert s.view(0)["rounds"] == 1 and len(s.setup()["deals"]) == 1
    # deal N of a layout = the first deal of seed N
    assert s.setup()["deals"][0] == [CARD_NAMES[c] for c in shuffled_deck(Rng(7))]
    assert "joker" not in [s.move_to_str(m) for m in s.legal_moves()]
    with pytest.raises(IllegalMove) as err:
        s.play(s.parse_move("joker"))
    assert err.value.rule == "no-joker"


def test_pyramid_default_is_unchanged_and_old_records_replay() -> None:
    s = new(3)
    assert s.layout is PYRAMID and s.wrap
    assert s.variant["layout"] == "pyramid" and s.variant["wrap"] is True
    # records name every option; views keep the pyramid's old variant object
    assert {"layout", "wrap"} <= set(s.record()["variant"])
    assert set(s.view(0)["variant"]) == {"jokers_per_round", "face_down", "rounds"}
    assert new(3, layout="golf").view(0)["variant"]["layout"] == "golf"
    assert new(3, wrap=False).view(None)["variant"]["wrap"] is False
    play_randomly(s, Rng(1))
    record = s.record()
    old = json.loads(json.dumps(record))
    del old["variant"]["layout"], old["variant"]["wrap"]  # a record from before the options
    again = pyramids.replay(old)
    assert fingerprint(again) == fingerprint(s)
    assert again.record() == record
    golf = new(3, layout="golf", wrap=False)
    assert (
        golf.record()["variant"]["layout"] == "golf" and golf.record()["variant"]["wrap"] is False
    )
    assert "x" not in s.view(0)["pyramid"][0]


def test_tripeaks_covered_cards_are_face_down_until_free() -> None:
    s = new(11, layout="tripeaks")
    view = {c["pos"]: c for c in s.view(0)["pyramid"]}
    assert all(view[f"D{k}"]["card"] for k in range(1, 11))
    assert all(view[lab]["card"] is None for lab in ("A1", "B3", "C9"))
    # determinize redeals the hidden cards and keeps the view
    det = s.determinize(0, Rng(5))
    assert det.view(0) == s.view(0)
    assert [det.card_at(i) for i in range(28)] != [s.card_at(i) for i in range(28)]


def test_no_wrap_refuses_ace_on_king() -> None:
    names = [CARD_NAMES[c] for c in range(52)]
    # golf, column A top (A5) holds the Ace of clubs; waste the King of spades
    order = [n for n in names if n not in ("AC", "KS")]
    deal = [*order[:4], "AC", *order[4:34], "KS", *order[34:]]
    for wrap, legal in ((True, True), (False, False)):
        options = GAME.resolve_variant({"layout": "golf", "wrap": wrap})
        s = GAME.from_setup({"deals": [deal]}, 1, options)
        assert isinstance(s, PiramidesState)
        assert (PLAY[4] in s.legal_moves()) is legal
        if not legal:
            with pytest.raises(IllegalMove) as err:
                s.play(s.parse_move("A5"))
            assert err.value.rule == "not-adjacent-rank" and "wrap" in err.value.message
    with pytest.raises(IllegalMove) as err:
        s.play(s.parse_move("A4"))
    assert err.value.rule == "not-free" and "column" in err.value.message


def test_golf_score_counts_cards_left_or_stock_left() -> None:
    s = new(4, layout="golf", wrap=False)
    play_randomly(s, Rng(2))
    r = s.round_scores()[0]
    left = 35 - s.removed_mask.bit_count()
    assert s.scores() == [s.stock_left if r.cleared else -left]


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
@settings(max_examples=15)
@given(seed=st.integers(0, 2**32 - 1), agent=st.integers(0, 2**32 - 1))
def test_contract_holds_for_every_layout(variant: dict[str, Any], seed: int, agent: int) -> None:
    s = new(seed, **variant)
    cut = agent % 60
    play_randomly(s, Rng(agent), max_plies=cut)
    if not s.is_over:
        legal = s.legal_moves()
        for m in legal:
            assert s.parse_move(s.move_to_str(m)) == m
        before = fingerprint(s)
        for m in set(PLAY[: s.layout.size]) - set(legal):
            with pytest.raises(IllegalMove):
                s.play(m)
        assert fingerprint(s) == before
        det = s.determinize(0, Rng(agent + 1))
        assert det.view(0) == s.view(0)
        assert det.legal_moves() == s.legal_moves()
    twin = s.copy()
    play_randomly(s, Rng(agent))
    assert s.is_over
    record = json.loads(json.dumps(s.record()))
    again = pyramids.replay(record)
    assert fingerprint(again) == fingerprint(s)
    assert again.record() == record
    assert twin.ply <= s.ply


def test_render_draws_other_layouts() -> None:
    from rich.console import Console

    from pyramids.text.piramides import render

    for layout in ("tripeaks", "golf"):
        s = new(2, layout=layout)
        console = Console(width=100, record=True, color_system=None)
        console.print(render(s.view(0)))
        text = console.export_text()
        assert "Waste" in text and "Stock" in text
        shown = [c["card"] for c in s.view(0)["pyramid"] if c["card"]]
        assert len(shown) == (10 if layout == "tripeaks" else 35)
        assert ("depth 5" in text) == (layout == "golf")
