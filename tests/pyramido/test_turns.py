"""The steps of a turn, the quarry and stacks, notation and setup checks."""

from __future__ import annotations

import pytest

import pyramids
from pyramids.engine.errors import IllegalMove, NotationError, RecordError, VariantError
from pyramids.engine.rng import Rng
from pyramids.games.pyramido import DOMINOES, GAME, PyramidoState
from pyramids.games.pyramido.dominoes import JEWEL_COUNT


def custom(quarry: list[int], stacks: list[list[int]], players: int = 2) -> PyramidoState:
    state = GAME.from_setup(
        {"first_player": 0, "quarry": quarry, "stacks": stacks},
        players,
        GAME.resolve_variant({}),
    )
    return state


def rest(after: int) -> list[int]:
    return list(range(after, 91))


def find(pred: object) -> int:
    """Number (1-based) of the first domino matching ``pred``."""
    return next(i + 1 for i, d in enumerate(DOMINOES) if pred(i, d))  # type: ignore[operator]


def test_an_emptied_stack_takes_the_bottom_half_of_the_tallest() -> None:
    s = custom([1, 2, 3], [[4], list(range(5, 11)), list(range(11, 21)), rest(21)])
    s.play(s.parse_move("q1 e5 f5"))
    while s.step != "refill":
        s.play(s.parse_move("pass") if s.step == "card" else s.legal_moves()[0])
    assert {s.move_to_str(m) for m in s.legal_moves()} == {"refill 1", "refill 2"}
    with pytest.raises(IllegalMove) as err:
        s.play(s.parse_move("refill 3"))
    assert err.value.rule == "not-behind-slot"
    s.play(s.parse_move("refill 1"))
    assert s.quarry[0] == 3  # domino #4 (index 3) came up
    assert s.stack_sizes() == [35, 6, 10, 35]  # 70 // 2 moved from stack 4
    assert s.stack_top(0) == 54 and s.stack_top(3) == 89
    assert s.current_player == 1


def test_gem_is_mandatory_and_the_card_brings_its_own_gem() -> None:
    # a two-colour domino with both jewels on block A; neither block red or yellow
    n = find(
        lambda i, d: d[0][0] != d[1][0] and JEWEL_COUNT[i] == (2, 0) and min(d[0][0], d[1][0]) > 1
    )
    others = [k for k in range(1, 91) if k != n]
    s = custom([n, *others[:2]], [others[2:24], others[24:46], others[46:68], others[68:]])
    colour_a = DOMINOES[n - 1][0][0]
    s.play(s.parse_move("q1 e5 f5"))
    assert s.step == "mark"
    assert [s.move_to_str(m) for m in s.legal_moves()] == ["mark e5"]
    with pytest.raises(IllegalMove) as err:
        s.play(s.parse_move("gem f5"))
    assert err.value.rule == "no-jewel"
    with pytest.raises(IllegalMove) as err:
        s.play(s.parse_move("pass"))
    assert err.value.rule == "wrong-step"
    s.play(s.parse_move("gem e5"))
    assert s.gems(0) == ((colour_a, 40),)
    assert s.step == "card"
    with pytest.raises(IllegalMove) as err:
        s.play(s.parse_move("card R e5 tl"))
    assert err.value.rule == "block-has-gem"
    s.play(s.parse_move("card R f5 br"))  # red card side on block B, jewel bottom-right
    assert s.gems(0)[-1] == (0, 41)  # the red gem goes on the card at once
    assert s.cards_left(0) == 2
    view = s.view(1)["pyramids"][0]
    assert view["blocks"][-1] == {
        "floor": 1, "cell": "f5", "quarter": [10, 8], "colour": "red",
        "jewels": [[11, 9]], "domino": None, "card": 0,
    }  # fmt: skip
    assert s.step == "refill"


def test_pass_skips_the_card() -> None:
    s = pyramids.new_game("pyramido", 2, seed=3)
    assert isinstance(s, PyramidoState)
    s.play(s.legal_moves()[0])
    if s.step == "mark":
        s.play(s.legal_moves()[0])
    assert s.step == "card"
    s.play(s.parse_move("pass"))
    assert s.step == "refill" and s.cards_left(0) == 3


def test_notation_accepts_variants_and_rejects_nonsense() -> None:
    s = pyramids.new_game("pyramido", 2, seed=3)
    assert isinstance(s, PyramidoState)
    m = s.parse_move("q2 e5 e6")
    assert s.parse_move("2 E5 E6") == m
    assert s.parse_move(f"#{s.quarry[1] + 1} e5 e6") == m
    for bad in (
        "",
        "q4 e5 e6",
        "q1 z9 e5",
        "mark",
        "refill 5",
        "refill 23",
        "card X e5 tl",
        "fill R e5 mid",
    ):
        with pytest.raises(NotationError):
            s.parse_move(bad)
    before = s.view(0)
    with pytest.raises(IllegalMove):
        s.play(s.parse_move("refill 1"))
    assert s.view(0) == before


def test_setup_is_checked_field_by_field() -> None:
    good = pyramids.new_game("pyramido", 2, seed=1).setup()
    variant = GAME.resolve_variant({})
    cases = [
        ({**good, "quarry": [1, 2]}, "setup.quarry"),
        ({**good, "quarry": [1, 2, 999]}, "setup.quarry[2]"),
        ({**good, "stacks": good["stacks"][:3]}, "setup.stacks"),
        ({**good, "first_player": 5}, "setup.first_player"),
        ({**good, "stacks": [*good["stacks"][:3], [good["quarry"][0]]]}, "setup"),
        ({**good, "stacks": [*good["stacks"][:3], []]}, "setup.stacks[3]"),
    ]
    for setup, field in cases:
        with pytest.raises(RecordError) as err:
            GAME.from_setup(setup, 2, variant)
        assert err.value.field == field
    with pytest.raises(VariantError):
        pyramids.new_game("pyramido", 2, seed=1, first_player=3)


def test_a_determinized_record_replays_through_a_stack_split() -> None:
    s = custom([1, 2, 3], [[4], list(range(5, 11)), list(range(11, 21)), rest(21)])
    s.play(s.parse_move("q1 e5 f5"))
    while s.step != "refill":
        s.play(s.parse_move("pass") if s.step == "card" else s.legal_moves()[0])
    s.play(s.parse_move("refill 1"))  # stack 1 empties and takes half of stack 4
    det = s.determinize(1, Rng(8))
    assert det._stacks != s._stacks
    assert [len(x) for x in det._stacks] == [35, 6, 10, 35]
    again = pyramids.replay(det.record())
    assert isinstance(again, PyramidoState)
    assert again._stacks == det._stacks
