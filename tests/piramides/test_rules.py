"""Pirámides: one test per rule clause of RULINGS.md §4, on hand-made deals."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import pyramids
from pyramids.engine.errors import IllegalMove, RecordError
from pyramids.engine.rng import Rng
from pyramids.games.piramides import (
    DRAW,
    GAME,
    PLAY,
    USE_JOKER,
    PiramidesState,
    card_name,
    parse_card,
)
from tests.conftest import play_randomly

RANKS = "A23456789TJQK"
SUITS = "CDHS"
BOTTOM = list(range(21, 28))  # row G


def pos(label: str) -> int:
    i = GAME.layout.index_of(label)
    assert i is not None
    return i


def make_deal(pyramid: dict[str, str], waste: str, stock: list[str]) -> list[str]:
    """A full 52-card deal with the given cards placed; the rest fill in any order."""
    placed = [*pyramid.values(), waste, *stock]
    assert len(set(placed)) == len(placed)
    rest = [r + s for s in SUITS for r in RANKS if r + s not in placed]
    cards: list[str | None] = [None] * 52
    for label, name in pyramid.items():
        cards[pos(label)] = name
    cards[28] = waste
    for k, name in enumerate(stock):
        cards[29 + k] = name
    for i in range(52):
        if cards[i] is None:
            cards[i] = rest.pop(0)
    return [c for c in cards if c is not None]


def state_of(*deals: list[str], **variant: Any) -> PiramidesState:
    variant.setdefault("rounds", len(deals))
    options = GAME.resolve_variant(variant)
    s = GAME.from_setup({"deals": list(deals)}, 1, options)
    return s


def climbing_deal() -> list[str]:
    """A deal cleared by 28 plays, bottom row first: ranks climb A,2,..,K,A,2,... from a King."""
    order = [
        p
        for row in range(6, -1, -1)
        for p in range(row * (row + 1) // 2, row * (row + 1) // 2 + row + 1)
    ]
    used: dict[str, int] = {}
    names: dict[str, str] = {}
    for k, p in enumerate(order):
        rank = RANKS[k % 13]
        suit = SUITS[used.get(rank, 0)]
        used[rank] = used.get(rank, 0) + 1
        names[GAME.layout.labels[p]] = rank + suit
    return make_deal(names, "KS", [])


def test_deal_shape_and_deal_number_is_forever() -> None:
    s = pyramids.new_game("piramides", seed=1)
    assert isinstance(s, PiramidesState)
    assert s.stock_left == 23 and s.round == 1 and s.jokers_left == 1
    deal = s.setup()["deals"][0]
    # Deal number 1 as dealt by the documented shuffle; it must never change.
    assert " ".join(deal[:8]) == "7D 9C 4D 8H 8D 5S JD 6D"
    assert deal[28] == "QC" and s.waste == parse_card("QC")
    assert len(s.setup()["deals"]) == 5 and len(set(deal)) == 52


def test_only_uncovered_cards_are_free() -> None:
    s = state_of(make_deal({"G1": "2C", "G2": "2D", "F1": "3C"}, "AC", []))
    assert s.free_mask == sum(1 << p for p in BOTTOM)
    s.play(PLAY[pos("G1")])  # 2C on AC
    assert not s.free_mask >> pos("F1") & 1, "F1 is still overlapped by G2"
    with pytest.raises(IllegalMove) as err:
        s.play(PLAY[pos("F1")])
    assert err.value.rule == "not-free"
    assert "covered" in err.value.message


def test_a_card_becomes_free_when_both_covering_cards_are_gone() -> None:
    s = state_of(make_deal({"G1": "2C", "G2": "3D", "F1": "4C"}, "AC", []))
    s.play(PLAY[pos("G1")])
    s.play(PLAY[pos("G2")])
    assert s.free_mask >> pos("F1") & 1
    s.play(PLAY[pos("F1")])
    assert s.removed_mask == (1 << pos("G1")) | (1 << pos("G2")) | (1 << pos("F1"))


@pytest.mark.parametrize(
    ("waste", "card", "ok"),
    [
        ("KH", "AC", True),
        ("AH", "KC", True),
        ("AH", "2C", True),
        ("2H", "AC", True),
        ("QH", "KC", True),
        ("5H", "4C", True),
        ("5H", "6C", True),
        ("AH", "3C", False),
        ("KH", "JC", False),
        ("5H", "5C", False),
        ("AH", "QC", False),
    ],
)
def test_plus_minus_one_with_ace_wrapping(waste: str, card: str, ok: bool) -> None:
    s = state_of(make_deal({"G4": card}, waste, []))
    move = PLAY[pos("G4")]
    assert (move in s.legal_moves()) == ok
    if not ok:
        with pytest.raises(IllegalMove) as err:
            s.play(move)
        assert err.value.rule == "not-adjacent-rank"
        assert "one rank above or below" in err.value.message


def test_suits_do_not_matter() -> None:
    for suit in "CDHS":
        s = state_of(make_deal({"G1": "8" + suit}, "7" + ("H" if suit != "H" else "D"), []))
        assert PLAY[pos("G1")] in s.legal_moves()


def test_run_scoring_and_stock_penalty() -> None:
    s = state_of(make_deal({"G1": "2C", "G2": "3C", "G3": "4C", "G5": "9C"}, "AC", ["8D", "TD"]))
    s.play(PLAY[pos("G1")])
    s.play(PLAY[pos("G2")])
    s.play(PLAY[pos("G3")])
    assert s.scores() == [5 + 10 + 15] and s.run == 3
    s.play(DRAW)  # turns 8D, breaks the run, costs 5
    assert s.scores() == [30 - 5] and s.run == 0
    s.play(PLAY[pos("G5")])  # 9C on 8D starts a new run at 5
    assert s.scores() == [25 + 5]
    s.play(DRAW)
    assert s.scores() == [25]
    r = s.round_scores()[0]
    assert (r.cards, r.stock_cards, r.jokers, r.cleared) == (35, 2, 0, False)


def test_stock_can_be_turned_at_any_time() -> None:
    s = state_of(make_deal({"G1": "2C"}, "AC", ["9D"]))
    assert DRAW in s.legal_moves() and PLAY[pos("G1")] in s.legal_moves()
    s.play(DRAW)
    assert s.waste == parse_card("9D") and s.stock_left == 22


def test_joker_costs_fifty_and_counts_as_a_run_step() -> None:
    s = state_of(make_deal({"G1": "2C", "G2": "9C"}, "AC", []))
    s.play(PLAY[pos("G1")])  # +5
    s.play(USE_JOKER)  # -50, run step 2
    assert s.run == 2
    s.play(PLAY[pos("G2")])  # any card follows the joker; scores as step 3: +15
    assert s.scores() == [5 - 50 + 15]
    with pytest.raises(IllegalMove) as err:
        s.play(USE_JOKER)
    assert err.value.rule == "no-joker"


def test_jokers_per_round_option() -> None:
    deal = make_deal({}, "AC", [])
    assert USE_JOKER not in state_of(deal, jokers_per_round=0).legal_moves()
    s = state_of(deal, jokers_per_round=2)
    s.play(USE_JOKER)
    s.play(USE_JOKER)
    assert s.jokers_left == 0 and s.scores() == [-100]


def test_clearing_scores_bonus_and_deals_a_new_round() -> None:
    first = climbing_deal()
    second = make_deal({"G1": "5H"}, "4H", [])
    s = state_of(first, second)
    for _ in range(28):
        moves = [m for m in s.legal_moves() if m.kind == "play"]
        assert len(moves) >= 1
        s.play(moves[0])
    assert s.round == 2 and not s.is_over
    assert s.scores() == [5 * sum(range(1, 29)) + 50]
    assert s.round_scores()[0].cleared and s.round_scores()[0].total == 2030 + 50
    # the new round: new deal, full stock, the joker back, run reset
    assert s.stock_left == 23 and s.jokers_left == 1 and s.run == 0
    assert s.waste == parse_card("4H")


def test_five_rounds_at_most() -> None:
    s = state_of(*[climbing_deal()] * 5)
    for _ in range(5 * 28):
        s.play(next(m for m in s.legal_moves() if m.kind == "play"))
    assert s.is_over and s.round == 5
    assert s.scores() == [5 * (2030 + 50)]
    assert len(s.round_scores()) == 5


def test_round_failure_ends_the_game() -> None:
    # Free cards are 7s and 2s; the last stock card, a King, fits none of them.
    labels = [f"G{i}" for i in range(1, 8)]
    bottom = dict(zip(labels, ["7C", "7D", "7H", "7S", "2C", "2D", "2H"], strict=True))
    stock = [*[f"{r}{su}" for su in "CDHS" for r in "59TJQ"][:22], "KC"]
    deal = make_deal(bottom, "4D", stock)
    s = state_of(deal, make_deal({}, "AC", []), jokers_per_round=1)
    for _ in range(23):
        s.play(DRAW)
    assert not s.is_over, "the joker is still there: the round goes on"
    with_joker = s.copy()
    s2 = state_of(deal, make_deal({}, "AC", []), jokers_per_round=0)
    for _ in range(22):
        s2.play(DRAW)
    assert not s2.is_over
    s2.play(DRAW)
    assert s2.is_over, "stock empty, no joker, no playable card: the round fails"
    assert s2.round == 1 and not s2.round_scores()[0].cleared
    assert s2.scores() == [-5 * 23]
    assert s2.current_player is None and s2.legal_moves() == []
    with pytest.raises(IllegalMove) as err:
        s2.play(DRAW)
    assert err.value.rule == "game-over"
    # the joker lets a 7 follow; then nothing fits a 7 and the round fails there
    with_joker.play(USE_JOKER)
    assert not with_joker.is_over
    with_joker.play(PLAY[pos("G1")])
    assert with_joker.is_over
    assert with_joker.scores() == [-5 * 23 - 50 + 10]


def test_stock_empty_is_refused_with_a_reason() -> None:
    s = state_of(make_deal({}, "AC", []), jokers_per_round=5)
    for _ in range(23):
        s.play(DRAW)
    with pytest.raises(IllegalMove) as err:
        s.play(DRAW)
    assert err.value.rule == "stock-empty" and "stock is empty" in err.value.message


def test_illegal_moves_leave_the_state_unchanged() -> None:
    s = state_of(make_deal({"G1": "2C", "F1": "3C"}, "AC", []))
    s.play(PLAY[pos("G1")])
    before = json.dumps(s.view(0))
    for move, rule in [
        (PLAY[pos("G1")], "already-played"),
        (PLAY[pos("F1")], "not-free"),
        (PLAY[pos("A1")], "not-free"),
    ]:
        with pytest.raises(IllegalMove) as err:
            s.play(move)
        assert err.value.rule == rule
        assert json.dumps(s.view(0)) == before
    assert s.ply == 1


def test_face_down_variant_reveals_cards_when_uncovered() -> None:
    deal = make_deal({"G1": "2C", "G2": "3D", "F1": "4C"}, "AC", [])
    s = state_of(deal, face_down=True)
    view = {c["pos"]: c["card"] for c in s.view(0)["pyramid"]}
    assert view["G1"] == "2C" and view["F1"] is None and view["A1"] is None
    assert sum(1 for c in view.values() if c is not None) == 7
    s.play(PLAY[pos("G1")])
    assert {c["pos"]: c["card"] for c in s.view(0)["pyramid"]}["F1"] is None
    s.play(PLAY[pos("G2")])
    assert {c["pos"]: c["card"] for c in s.view(0)["pyramid"]}["F1"] == "4C"
    # a face-down card cannot be named by its card
    with pytest.raises(IllegalMove):
        s.parse_move("AH" if deal[0] == "AH" else deal[0])


def test_notation_positions_cards_and_words() -> None:
    s = state_of(make_deal({"G3": "TH"}, "9C", []))
    assert s.parse_move("g3") == PLAY[pos("G3")]
    assert s.parse_move("TH") == s.parse_move("10h") == s.parse_move("t♥") == PLAY[pos("G3")]
    assert s.parse_move("d") == s.parse_move("draw") == DRAW
    assert s.parse_move("J") == s.parse_move("joker") == USE_JOKER
    assert s.move_to_str(PLAY[pos("G3")]) == "G3"
    for bad in ("H9", "zz", "", "11h"):
        with pytest.raises(IllegalMove) as err:
            s.parse_move(bad)
        assert err.value.rule == "notation"
    with pytest.raises(IllegalMove, match="not among the pyramid"):
        s.parse_move("9C")  # the waste card is not in the pyramid


def test_setup_is_validated() -> None:
    good = make_deal({}, "AC", [])
    for setup, field in [
        ({"deals": "x"}, "setup.deals"),
        ({"deals": [good, good]}, "setup.deals"),
        ({"deals": [good[:51]]}, "setup.deals[0]"),
        ({"deals": [[*good[:51], "ZZ"]]}, "setup.deals[0][51]"),
        ({"deals": [[*good[:51], good[0]]]}, "setup.deals[0]"),
    ]:
        with pytest.raises(RecordError) as err:
            GAME.from_setup(setup, 1, GAME.resolve_variant({"rounds": 1}))
        assert err.value.field == field


def independent_score(moves: list[str]) -> int:
    """Recompute the score from the move list alone (a second model of the scoring rule)."""
    total = 0
    run = 0
    plays_in_round = 0
    for text in moves:
        if text == "draw":
            total -= 5
            run = 0
        elif text == "joker":
            total -= 50
            run += 1
        else:
            run += 1
            total += 5 * run
            plays_in_round += 1
            if plays_in_round == 28:
                total += 50
                run = 0
                plays_in_round = 0
    return total


@given(
    seed=st.integers(0, 2**32 - 1),
    agent=st.integers(0, 2**32 - 1),
    jokers=st.integers(0, 3),
    face_down=st.booleans(),
)
def test_score_is_the_sum_of_its_parts(seed: int, agent: int, jokers: int, face_down: bool) -> None:
    s = pyramids.new_game("piramides", seed=seed, jokers_per_round=jokers, face_down=face_down)
    play_randomly(s, Rng(agent))
    assert isinstance(s, PiramidesState)
    parts = s.round_scores()
    assert s.scores() == [sum(r.total for r in parts)]
    for r in parts:
        assert r.total == r.cards - 5 * r.stock_cards - 50 * r.jokers + (50 if r.cleared else 0)
    assert s.scores()[0] == independent_score(s.record()["moves"])
    # the game ends only by failing a round or clearing the last one
    assert parts[-1].cleared == (len(parts) == 5 and all(r.cleared for r in parts))


@given(seed=st.integers(0, 2**32 - 1), agent=st.integers(0, 2**32 - 1), cut=st.integers(0, 60))
def test_view_never_shows_the_stock_order(seed: int, agent: int, cut: int) -> None:
    s = pyramids.new_game("piramides", seed=seed, face_down=True)
    play_randomly(s, Rng(agent), max_plies=cut)
    assert isinstance(s, PiramidesState)
    text = json.dumps(s.view(0))
    hidden = [card_name(c) for c in s._stock[s._stock_pos :]]
    hidden += [
        card_name(s.card_at(i))
        for i in range(28)
        if not s.removed_mask >> i & 1 and not s.face_up(i)
    ]
    for name in hidden:
        assert f'"{name}"' not in text
    # two games that differ only in hidden cards look the same
    other = s.determinize(0, Rng(agent + 1))
    assert other.view(0) == s.view(0)


def test_a_deep_copied_or_pickled_state_shows_the_same_view() -> None:
    # The view must not depend on object identity of the layout (adapters and
    # process pools pickle states).
    import copy
    import pickle

    s = pyramids.new_game("piramides", seed=4)
    assert copy.deepcopy(s).view(0) == s.view(0)
    assert pickle.loads(pickle.dumps(s)).view(0) == s.view(0)
