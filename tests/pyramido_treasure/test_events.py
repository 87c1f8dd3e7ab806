"""The five events and the game-over card, including events with nobody to give or take."""

from __future__ import annotations

import pytest

import pyramids
from pyramids.engine.errors import IllegalMove
from pyramids.games.pyramido_treasure import TreasureState
from tests.pyramido_treasure.helpers import T, arrange, card, setup, slide_to, start


def hand(state: TreasureState, p: int) -> list[str]:
    return state.view(None)["hands"][p]


def moves(state: TreasureState) -> list[str]:
    return sorted(state.move_to_str(m) for m in state.legal_moves())


# -- sandstorm -------------------------------------------------------------------------------


def test_sandstorm_turns_the_box_half_a_turn_and_the_player_draws_again() -> None:
    state = start(3)
    arrange(state, deck=2, cards=["sandstorm", "mummy/2"], turn=1)
    assert state.rotation == 2
    assert state.current_player == 1
    assert state.view(None)["search"]["card"] == "mummy/2"
    assert state.view(None)["visible"]["spot"] == "g5"  # box B2 seen from the other side


# -- gift --------------------------------------------------------------------------------------


def test_gift_holders_give_one_card_each_choosing_which() -> None:
    state = start(4, setup({"mummy": "C2"}))
    hands = {1: ["mummy/1", "mummy/2"], 2: ["mummy/1", "vase/1"], 3: ["crown/1"]}
    arrange(state, deck=2, cards=["gift", "parrot/2"], hands=hands)
    assert state.phase == "gift"
    slide_to(state, "B1")  # a blank: slide on
    assert state.phase == "gift" and state.current_player == 0
    slide_to(state, "B2", "C2")  # back over the blank, then the mummy
    assert state.phase == "gift-give" and state.current_player == 1
    assert moves(state) == ["give mummy/1 to p1", "give mummy/2 to p1"]
    with pytest.raises(IllegalMove) as err:
        state.play(state.parse_move("give crown/1 to p1"))
    assert err.value.rule == "bad-card"
    state.play(state.parse_move("give mummy/2"))
    # player 2 has only one mummy card: no choice, given at once; player 3 has none
    assert hand(state, 0) == ["mummy/1", "mummy/2"]
    assert hand(state, 1) == ["mummy/1"]
    assert hand(state, 2) == ["vase/1"]
    assert hand(state, 3) == ["crown/1"]
    assert state.current_player == 1 and state.view(None)["search"]["card"] == "parrot/2"


def test_gift_with_nobody_to_give_just_ends_the_turn() -> None:
    state = start(3, setup({"mummy": "C2"}))
    arrange(state, deck=2, cards=["gift", "parrot/2"], hands={1: ["vase/1"]})
    slide_to(state, "C2")
    assert state.scores() == [0, 1, 0]
    assert state.current_player == 1 and state.phase == "search"


def test_eliminated_players_do_not_give() -> None:
    state = start(4, setup({"mummy": "C2"}))
    arrange(state, deck=3, cards=["gift", "parrot/4"], hands={2: ["mummy/1"]}, turn=1)
    state._out = 1 << 2
    slide_to(state, "C2")
    assert hand(state, 2) == ["mummy/1"] and hand(state, 1) == []
    assert not state.is_out(1), "a treasure revealed in an event never eliminates"


# -- danger -------------------------------------------------------------------------------------


def test_danger_success_takes_the_named_cards_from_the_current_deck() -> None:
    state = start(3, setup({"mummy": "C2"}))
    arrange(state, deck=2, cards=["danger", "parrot/2", "sphinx/2", "mummy/2", "vase/3"])
    assert state.phase == "danger-name" and len(state.legal_moves()) == 66
    state.play(state.parse_move("name mummy sphinx"))
    slide_to(state, "B1", "A1")  # blank, sphinx
    assert state.phase == "danger" and state.view(None)["event"]["revealed"] == ["sphinx"]
    slide_to(state, "B1", "C1", "C2")  # blank, blank, mummy
    assert hand(state, 0) == ["sphinx/2", "mummy/2"]
    assert state.view(None)["deck_left"] == ["vase/3"]
    assert state.decks_left()[1] == 1  # sphinx and mummy left the deck behind its top
    # parrot/2 stayed on top of the deck: player 1 draws it
    assert state.current_player == 1 and state.view(None)["search"]["card"] == "parrot/2"


def test_danger_success_takes_only_what_the_deck_still_holds() -> None:
    state = start(2, setup({"mummy": "C2"}))
    arrange(state, deck=2, cards=["danger", "parrot/2"])
    state.play(state.parse_move("name sphinx mummy"))
    slide_to(state, "B1", "A1", "B1", "C1", "C2")
    assert hand(state, 0) == []
    assert any("no card of the sphinx" in n["text"] for n in state.view(None)["news"])


def test_danger_failure_gives_a_card_to_an_opponent_of_choice() -> None:
    state = start(3, setup({"mummy": "C2"}))
    arrange(state, deck=2, cards=["danger", "parrot/2"], hands={0: ["crown/1", "vase/1"]})
    state.play(state.parse_move("name sphinx parrot"))
    slide_to(state, "C2", "B2", "B1", "A1")  # mummy first: the pair cannot match
    assert state.phase == "danger-give" and state.current_player == 0
    assert moves(state) == [
        "give crown/1 to p2",
        "give crown/1 to p3",
        "give vase/1 to p2",
        "give vase/1 to p3",
    ]
    state.play(state.parse_move("give vase/1 to p3"))
    assert hand(state, 0) == ["crown/1"] and hand(state, 2) == ["vase/1"]
    assert state.current_player == 1


def test_danger_failure_with_no_card_gives_nothing() -> None:
    state = start(2, setup({"mummy": "C2"}))
    arrange(state, deck=2, cards=["danger", "parrot/2"])
    state.play(state.parse_move("name parrot lamp"))
    slide_to(state, "C2", "B2", "B1", "A1")
    assert state.scores() == [0, 0] and state.current_player == 1


def test_danger_needs_both_named_treasures_not_one_twice() -> None:
    state = start(2, setup({"mummy": "C2"}))
    arrange(state, deck=2, cards=["danger", "parrot/2"], hands={0: ["crown/1"]})
    state.play(state.parse_move("name sphinx mummy"))
    slide_to(state, "C2", "B2", "C2")  # the mummy twice
    assert hand(state, 1) == ["crown/1"], "the only card went to the only opponent"


def test_danger_may_not_name_the_visible_treasure() -> None:
    state = start(2)
    arrange(state, deck=2, cards=["danger", "parrot/2"], empty="A1")
    assert state.visible_treasure == T["sphinx"]
    assert len(state.legal_moves()) == 55
    with pytest.raises(IllegalMove) as err:
        state.play(state.parse_move("name sphinx mummy"))
    assert err.value.rule == "treasure-visible"


# -- mirage ---------------------------------------------------------------------------------------


def test_mirage_with_an_empty_handed_neighbour_does_nothing() -> None:
    state = start(3)
    arrange(state, deck=2, cards=["mirage", "parrot/2"], turn=1, hands={2: ["crown/1"]})
    # player 1's right-hand neighbour is player 0, who has no card
    assert state.current_player == 2 and state.view(None)["search"]["card"] == "parrot/2"
    assert any("mirage fades" in n["text"] for n in state.view(None)["news"])


def test_mirage_keeps_the_card_when_its_treasure_is_revealed() -> None:
    state = start(3, setup({"mummy": "C2"}))
    arrange(state, deck=2, cards=["mirage", "parrot/2"], turn=1, hands={0: ["mummy/1"]})
    assert state.phase == "mirage" and state.view(None)["event"]["card"] == "mummy/1"
    assert list(state.chance_outcomes())[-1][1:] == (1, 0)
    slide_to(state, "C2")
    assert hand(state, 1) == ["mummy/1"] and hand(state, 0) == []
    assert state.current_player == 2


def test_mirage_failure_returns_the_card_and_gives_one_of_ones_own() -> None:
    state = start(3)
    hands = {0: ["mummy/1"], 1: ["crown/1", "vase/1"]}
    arrange(state, deck=2, cards=["mirage", "parrot/2"], turn=1, hands=hands)
    slide_to(state, "B1", "A1")  # the sphinx, not the mummy
    assert hand(state, 0) == ["mummy/1"]
    assert state.phase == "mirage-give" and moves(state) == [
        "give crown/1 to p1",
        "give vase/1 to p1",
    ]
    with pytest.raises(IllegalMove) as err:
        state.play(state.parse_move("give crown/1 to p3"))
    assert err.value.rule == "bad-recipient"
    state.play(state.parse_move("give crown/1"))
    assert hand(state, 0) == ["mummy/1", "crown/1"] and hand(state, 1) == ["vase/1"]


def test_mirage_failure_with_no_own_card_only_returns_it() -> None:
    state = start(2)
    arrange(state, deck=2, cards=["mirage", "parrot/2"], turn=1, hands={0: ["mummy/1"]})
    slide_to(state, "B1", "A1")
    assert hand(state, 0) == ["mummy/1"] and hand(state, 1) == []
    assert state.current_player == 0


def test_mirage_draws_the_card_from_the_seeded_stream_and_records_it() -> None:
    seen = set()
    for seed in range(12):
        state = start(2)
        state._rng = pyramids.Rng(seed)
        arrange(state, deck=2, cards=["mirage"], turn=1, hands={0: ["mummy/1", "vase/1"]})
        _ply, choices, outcome = list(state.chance_outcomes())[-1]
        assert choices == 2
        seen.add(state.view(None)["event"]["card"])
        assert state.view(None)["event"]["card"] == ["mummy/1", "vase/1"][outcome]
    assert seen == {"mummy/1", "vase/1"}


# -- desert poker ---------------------------------------------------------------------------------


def test_poker_opponent_finds_the_named_treasure_and_takes_a_random_card() -> None:
    state = start(3)
    arrange(state, deck=2, cards=["desert-poker", "parrot/2"], hands={0: ["crown/1"]})
    assert state.phase == "poker-name"
    assert len(state.legal_moves()) == 2 * 12
    state.play(state.parse_move("poker p3 sphinx"))
    assert state.current_player == 2 and state.phase == "poker"
    slide_to(state, "B1", "A1")
    assert hand(state, 2) == ["crown/1"] and hand(state, 0) == []
    assert state.current_player == 1, "the player after the poker player draws"


def test_poker_opponent_misses_and_the_player_takes_a_random_card() -> None:
    state = start(3, setup({"mummy": "C2"}))
    arrange(state, deck=2, cards=["desert-poker", "parrot/2"], hands={1: ["vase/3"]})
    state.play(state.parse_move("poker p2 sphinx"))
    slide_to(state, "C2")
    assert hand(state, 0) == ["vase/3"] and hand(state, 1) == []


def test_poker_with_nothing_to_take_changes_no_hands() -> None:
    state = start(2, setup({"mummy": "C2"}))
    arrange(state, deck=2, cards=["desert-poker", "parrot/2"])
    state.play(state.parse_move("poker p2 lamp"))
    slide_to(state, "C2")
    assert state.scores() == [0, 0]
    assert any("no card to lose" in n["text"] for n in state.view(None)["news"])


def test_poker_rules_on_naming() -> None:
    state = start(4)
    arrange(state, deck=3, cards=["desert-poker", "parrot/4"], empty="A1")
    state._out = 1 << 3
    with pytest.raises(IllegalMove) as err:
        state.play(state.parse_move("poker p4 mummy"))
    assert err.value.rule == "bad-opponent"
    with pytest.raises(IllegalMove) as err:
        state.play(state.parse_move("poker p2 sphinx"))
    assert err.value.rule == "treasure-visible"
    with pytest.raises(IllegalMove) as err:
        state.play(state.parse_move("b2"))
    assert err.value.rule == "not-sliding"
    assert len(state.legal_moves()) == 2 * 11


def test_game_over_card_in_the_middle_of_deck_three() -> None:
    state = start(2)
    arrange(state, deck=3, cards=["sphinx/4", "game-over", "mummy/4"])
    slide_to(state, "B1", "A1")
    assert state.is_over and state.hand(0) == (card("sphinx/4"),)
