"""One test (or a few) per rule clause of RULINGS.md §3 and docs/rules/pyramideto.md."""

from __future__ import annotations

import pytest

import pyramids
from pyramids.engine.errors import IllegalMove, NotationError, RecordError
from pyramids.games.pyramideto import (
    EXCHANGE,
    GAME,
    GOALS,
    PyramidetoState,
    has_won,
)
from tests.pyramideto.helpers import card, deal, play

FILLER = ["tree", "bee", "robot", "clown", "lamp", "candle"]


def stacks(state: PyramidetoState) -> list[list[str]]:
    return state.view(None)["stacks"]  # type: ignore[no-any-return]


def rule_of(state: PyramidetoState, text: str) -> str:
    with pytest.raises(IllegalMove) as err:
        state.play(state.parse_move(text))
    return err.value.rule


# -- start ---------------------------------------------------------------------


def test_start_is_five_nests_and_three_cards_each() -> None:
    state = pyramids.new_game("pyramideto", players=3, seed=4)
    assert isinstance(state, PyramidetoState)
    assert stacks(state) == [
        ["Sr", "Mr", "Lr"],
        ["Sy", "My", "Ly"],
        ["Sg", "Mg", "Lg"],
        ["Sb", "Mb", "Lb"],
        ["Sk", "Mk", "Lk"],
    ]
    assert [len(state.hand(p)) for p in range(3)] == [3, 3, 3]
    assert state.deck_size == 30 - 9
    assert state.current_player == 0


def test_first_player_option_and_hand_size_option() -> None:
    state = pyramids.new_game("pyramideto", players=4, seed=1, first_player=2, hand_size=5)
    assert state.current_player == 2
    assert state.view(2)["hand_sizes"] == [5, 5, 5, 5]
    assert state.view(2)["deck"] == 10
    with pytest.raises(ValueError):
        pyramids.new_game("pyramideto", players=2, first_player=3)


# -- moving pieces -------------------------------------------------------------


def test_top_k_pieces_move_to_the_table_together() -> None:
    state = deal([["tree", "bee", "robot"], ["clown", "lamp", "candle"]])
    play(state, "Mr>table")
    assert ["Mr", "Lr"] in stacks(state) and ["Sr"] in stacks(state)


def test_group_goes_onto_a_top_at_least_as_large_as_its_lowest_piece() -> None:
    state = deal([["tree", "bee", "robot"], ["clown", "lamp", "candle"]])
    play(state, "Lr>Lg")  # equal size is allowed
    assert ["Sg", "Mg", "Lg", "Lr"] in stacks(state)
    play(state, "My>Lr")  # medium (with Ly on it) onto large
    assert ["Sg", "Mg", "Lg", "Lr", "My", "Ly"] in stacks(state)
    assert rule_of(state, "Lb>Mr") == "too-small"
    play(state, "Mb>Mr")  # medium on medium is fine by size
    assert ["Sr", "Mr", "Mb", "Lb"] in stacks(state)


def test_only_top_pieces_receive_and_a_group_cannot_go_onto_itself() -> None:
    state = deal([["tree", "bee", "robot"], ["clown", "lamp", "candle"]])
    assert rule_of(state, "Lb>Mg") == "not-a-top"
    assert rule_of(state, "Mr>Lr") == "same-stack"


def test_a_move_that_changes_nothing_is_not_legal() -> None:
    state = deal([["tree", "bee", "robot"], ["clown", "lamp", "candle"]])
    assert rule_of(state, "Sr>table") == "no-change"
    play(state, "Lr>table", "Lb>table")
    assert rule_of(state, "Lr>table") == "no-change"  # Lr stands alone on the table


def test_the_group_just_moved_may_not_move_again_but_a_part_or_more_may() -> None:
    state = deal([["tree", "bee", "robot"], ["clown", "lamp", "candle"]])
    play(state, "Mr>Lg")  # group Mr+Lr
    assert state.view(1)["last_group"] == ["Mr", "Lr"]
    assert rule_of(state, "Mr>table") == "same-group"
    assert rule_of(state, "Mr>Lb") == "same-group"
    legal = {state.move_to_str(m) for m in state.legal_moves()}
    assert not any(m.startswith("Mr>") for m in legal)
    assert "Lr>table" in legal  # a part of the group
    assert "Lg>table" in legal  # a bigger group containing it
    play(state, "Lb>Lk")
    assert "Mr>table" in {state.move_to_str(m) for m in state.legal_moves()}  # one turn only


def test_after_an_exchange_the_earlier_group_is_free_again() -> None:
    state = deal([["tree", "bee", "robot"], ["clown", "lamp", "candle"]])
    play(state, "Lr>table", "x clown")
    assert state.view(0)["last_group"] == []
    play(state, "Lr>Lg")


def test_exchange_puts_the_card_under_the_deck_and_draws_the_top() -> None:
    state = deal([["tree", "bee", "robot"], ["clown", "lamp", "candle"]], deck=["pirate"])
    size = state.deck_size
    play(state, "x bee")
    assert state.hand(0) == tuple(sorted((card("tree"), card("robot"), card("pirate"))))
    assert state.deck_size == size
    assert state._deck[-1] == card("bee")
    assert rule_of(state, "x tree") == "not-in-hand"  # it is seat 1's turn now


def test_exchange_with_an_empty_deck_is_refused() -> None:
    state = deal([["tree", "bee", "robot"], ["clown", "lamp", "candle"]])
    state._deck = ()
    state._serials = ()
    assert rule_of(state, "x tree") == "deck-empty"
    assert not any(m.is_exchange for m in state.legal_moves())


# -- achieving goals ------------------------------------------------------------


WATERMELON = ["Mk>table", "Lr>Lg", "Lk>table", "Sk>Lr"]


def test_building_a_goal_displays_it_and_draws_a_new_card() -> None:
    state = deal(
        [["watermelon", "bee", "robot"], ["clown", "lamp", "candle"]], deck=["pirate", "tree"]
    )
    play(state, *WATERMELON)
    assert state.displayed(0) == (card("watermelon"),)
    assert card("pirate") in state.hand(0) and len(state.hand(0)) == 3
    assert state.scores() == [1, 0]
    view = state.view(1)
    assert view["displayed"][0][0]["name"] == "Watermelon"


def test_a_goal_built_by_someone_else_counts_for_its_holder() -> None:
    state = deal([["tree", "bee", "robot"], ["watermelon", "lamp", "candle"]])
    play(state, "Mk>table", "Lk>table", "Lr>Lg", "Mb>table")
    assert state.current_player == 0
    play(state, "Sk>Lr")
    assert state.displayed(1) == (card("watermelon"),)
    assert state.displayed(0) == ()


def test_pieces_above_and_below_a_goal_do_not_matter_but_a_gap_does() -> None:
    state = deal([["lithuania", "bee", "robot"], ["clown", "lamp", "candle"]])
    # Lithuania is Lr, Mg, Sy bottom to top; build it on top of the blue nest
    play(state, "Lr>Lb", "Lg>table", "Mg>Lr")
    assert state.displayed(0) == ()
    play(state, "My>table", "Sy>Mg")
    assert state.displayed(0) == (card("lithuania"),)
    state = deal([["lithuania", "bee", "robot"], ["clown", "lamp", "candle"]])
    play(state, "Lr>Lb", "Lg>table", "Mg>Lr", "Lk>table", "Mk>table", "Sk>Mg", "My>table")
    play(state, "Sy>Sk")
    assert ["Sb", "Mb", "Lb", "Lr", "Mg", "Sk", "Sy"] in stacks(state)
    assert state.displayed(0) == ()  # Sk sits between Mg and Sy


def test_a_drawn_card_whose_tower_already_stands_is_displayed_at_once() -> None:
    state = deal(
        [["watermelon", "bee", "robot"], ["clown", "lamp", "candle"]], deck=["traffic-light"]
    )
    # Traffic light: Mg, My, Mr. Build it first (nobody holds it), then watermelon.
    play(state, "Lg>table", "Ly>table", "My>Mg", "Lr>table", "Mr>My")
    assert state.displayed(0) == () and state.displayed(1) == ()
    play(state, "Lr>Lg", "Lk>table", "Mk>table", "Sk>Lr")
    assert set(state.displayed(0)) == {card("watermelon"), card("traffic-light")}


def test_mover_is_checked_first_when_one_move_completes_two_winning_goals() -> None:
    # Spain (Lr, Ly, Mr) and Germany (Ly, Mr, Sk) both stand once Mr (with Sk) goes on Ly.
    state = deal([["spain", "bee", "robot"], ["germany", "lamp", "candle"]])
    # each seat already shows four goals of distinct... two frames: one more wins
    state._displayed = (
        (card("hamburger"), card("tree"), card("pineapple"), card("island")),
        (card("clown"), card("doll"), card("volcano"), card("sunflower")),
    )
    play(state, "Lr>table", "Ly>Lr", "Lk>table", "Mk>table", "Sk>Mr")
    assert state.current_player == 1 and not state.is_over
    play(state, "Mr>Ly")
    assert ["Lr", "Ly", "Mr", "Sk"] in stacks(state)
    assert state.is_over and state.winner == 1
    assert len(state.displayed(0)) == 4 and card("spain") in state.hand(0)
    assert state.ranking() == [2, 1]
    assert state.end_reason == "goal"


# -- end of the game ----------------------------------------------------------


def test_winning_conditions() -> None:
    by_frame: dict[int, list[int]] = {}
    for g in GOALS:
        by_frame.setdefault(g.frame, []).append(g.number)
    f0, f1, f2, f3, f4 = (by_frame[f] for f in range(5))
    assert not has_won([f0[0], f0[1], f1[0], f1[1]])  # 4 goals, 2 frames, 2 each
    assert has_won([f0[0], f0[1], f1[0], f1[1], f2[0]])  # a 5th goal
    assert has_won([f0[0], f1[0], f2[0], f3[0]])  # a 4th frame colour
    assert has_won([f4[0], f4[1], f4[2]])  # a 3rd card of one frame
    assert not has_won([f0[0], f1[0], f2[0], f2[1]])


def test_game_ends_at_once_when_a_goal_wins() -> None:
    state = deal([["watermelon", "bee", "robot"], ["clown", "lamp", "candle"]])
    state._displayed = ((card("tree"), card("spain"), card("lamp")), ())
    play(state, *WATERMELON)
    assert state.is_over and state.winner == 0 and state.current_player is None
    assert state.legal_moves() == []
    assert state.scores() == [4, 0] and state.ranking() == [1, 2]
    with pytest.raises(IllegalMove) as err:
        state.play(EXCHANGE[card("bee")])
    assert err.value.rule == "game-over"


def test_turn_limit_ends_in_a_draw() -> None:
    state = pyramids.new_game("pyramideto", players=3, seed=2, turn_limit=4)
    assert isinstance(state, PyramidetoState)
    for _ in range(4):
        assert not state.is_over
        state.play(state.legal_moves()[0])
    assert state.is_over and state.end_reason == "turn-limit"
    assert state.ranking() == [1, 1, 1] and state.winners() == [0, 1, 2]


def test_no_turn_limit_when_zero() -> None:
    state = pyramids.new_game("pyramideto", players=2, seed=2, turn_limit=0)
    for _ in range(400):
        if state.is_over:
            break
        moves = [m for m in state.legal_moves() if m.is_exchange] or state.legal_moves()
        state.play(moves[0])
    assert isinstance(state, PyramidetoState)
    assert state.end_reason != "turn-limit"


def test_empty_deck_leaves_fewer_cards_in_hand() -> None:
    hands = [
        ["watermelon", "bee", "robot", "lamp", "tree", "candle", "clown"],
        ["pirate", "doll", "spain", "island", "bolivia", "volcano", "gabon"],
        ["muffin", "hamburger", "strawberry", "ice-cream", "pineapple", "germany", "lithuania"],
        ["colombia", "sunflower", "ladybird", "traffic-light", "potted-flower", "lighthouse", "x"],
    ]
    hands[3][-1] = "birthday-cake"
    state = deal(hands, deck=["spinning-top", "rocket"])
    play(state, "x watermelon", "x pirate")  # the two deck cards are drawn, two go under
    play(state, "x muffin", "x colombia")
    assert state.deck_size == 2
    state._deck = ()
    state._serials = ()
    play(state, *WATERMELON[:3])
    assert state.current_player == 3
    play(state, "Mb>table")
    play(state, "Sk>Lr")
    # seat 2 drew watermelon when seat 0 had put it under the deck
    assert state.displayed(2) == (card("watermelon"),)
    assert len(state.hand(2)) == 6 and state.view(0)["hand_sizes"] == [7, 7, 6, 7]
    assert not state.is_over


def test_no_player_able_to_hold_a_card_ends_the_game_drawn() -> None:
    state = deal([["watermelon"], ["bee"]], hand_size=1)
    state._deck = ()
    state._serials = ()
    state._hands = ((card("watermelon"),), ())
    play(state, *WATERMELON)
    assert state.is_over and state.end_reason == "no-cards"
    assert state.winner is None and state.ranking() == [1, 1]


# -- notation, setup ---------------------------------------------------------------


def test_notation_reads_several_spellings() -> None:
    state = deal([["tree", "bee", "robot"], ["clown", "lamp", "candle"]])
    m = state.parse_move("Mr>Lg")
    assert state.parse_move("mr lg") == m == state.parse_move("MR on LG")
    assert state.parse_move("Lr>t") == state.parse_move("lr table")
    assert state.parse_move("x 2") == EXCHANGE[state.hand(0)[1]]
    assert state.parse_move("exchange Tree") == EXCHANGE[card("tree")]
    assert state.move_to_str(m) == "Mr>Lg"
    assert state.move_to_str(EXCHANGE[card("tree")]) == "x tree"
    for bad in ("Qr>Lg", "Mr>Zz", "x 9", "x nothing", "Mr", ""):
        with pytest.raises(NotationError):
            state.parse_move(bad)


def test_setup_is_checked_strictly() -> None:
    options = GAME.resolve_variant({})
    good = pyramids.new_game("pyramideto", players=2, seed=9).setup()
    for field, broken in [
        ("setup.first_player", {**good, "first_player": 5}),
        ("setup.hands", {**good, "hands": good["hands"][:1]}),
        ("setup.hands[0]", {**good, "hands": [good["hands"][0][:2], good["hands"][1]]}),
        ("setup.deck[0]", {**good, "deck": ["nope", *good["deck"][1:]]}),
        ("setup", {**good, "deck": [good["hands"][0][0], *good["deck"][1:]]}),
    ]:
        with pytest.raises(RecordError) as err:
            GAME.from_setup(broken, 2, options)
        assert err.value.field == field
