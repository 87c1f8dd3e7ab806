"""Each clause of RULINGS.md §2 (board, sliding, turn flow, decks, ends), tested directly."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import pyramids
from pyramids.engine.errors import IllegalMove, NotationError, RecordError
from pyramids.games.pyramido_treasure import GAME, TreasureState
from pyramids.games.pyramido_treasure.board import (
    FIELD,
    FIELD_SPOTS,
    NEIGHBOURS,
    SPOTS,
    VIEW_NAME,
    distance,
)
from pyramids.games.pyramido_treasure.treasures import (
    DECKS,
    EVENTS,
    GAME_OVER,
    card_points,
    is_treasure_card,
)
from tests.pyramido_treasure.helpers import T, arrange, card, setup, slide_to, spot, start


def snapshot(state: TreasureState) -> str:
    views = [state.view(p) for p in [None, *range(state.players)]]
    return json.dumps([views, state.ply, [state.token_at(s) for s in range(SPOTS)]])


# -- board and setup -------------------------------------------------------------------


def test_board_has_twelve_fields_of_two_by_two() -> None:
    assert SPOTS == 48
    assert len(FIELD_SPOTS) == 12
    for f, spots in enumerate(FIELD_SPOTS):
        assert len(spots) == 4
        rows = {s // 8 for s in spots}
        cols = {s % 8 for s in spots}
        assert len(rows) == 2 and len(cols) == 2 and max(rows) - min(rows) == 1
        assert all(FIELD[s] == f for s in spots)
    assert sorted(len(n) for n in NEIGHBOURS).count(2) == 4  # only the corners have two
    assert all(distance(a, b) == 1 for a in range(SPOTS) for b in NEIGHBOURS[a])


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("shuffle_fields", [False, True])
def test_setup_places_one_treasure_per_field_and_47_pyramids(
    players: int, shuffle_fields: bool
) -> None:
    for seed in range(20):
        state = pyramids.new_game(
            "pyramido-treasure", players=players, seed=seed, shuffle_fields=shuffle_fields
        )
        assert isinstance(state, TreasureState)
        tokens = [state.token_at(s) for s in range(SPOTS)]
        assert tokens.count(0) == 36
        assert sorted(t for t in tokens if t) == list(range(1, 13))
        for f, spots in enumerate(FIELD_SPOTS):
            inside = [tokens[s] for s in spots if tokens[s]]
            assert len(inside) == 1
            if not shuffle_fields:
                assert inside == [f + 1]
        assert state.pyramid_count() == 47
        assert state.visible_token == 0, "the empty spot starts on a blank token"
        board = "".join(state.view(None)["board"])
        assert board.count(".") == 1
        assert set(board) == {".", "R", "Y", "B"}


def test_shuffle_fields_deals_treasures_to_fields_at_random() -> None:
    moved = 0
    for seed in range(10):
        state = pyramids.new_game("pyramido-treasure", players=2, seed=seed, shuffle_fields=True)
        assert isinstance(state, TreasureState)
        for f, spots in enumerate(FIELD_SPOTS):
            moved += any(state.token_at(s) not in (0, f + 1) for s in spots)
    assert moved > 50


def test_decks_hold_the_48_cards_with_their_values() -> None:
    d1, d2, d3 = (list(d) for d in DECKS)
    assert len(d1) + len(d2) + len(d3) == 48
    assert len(d1) == 16 and all(is_treasure_card(c) and card_points(c) == 1 for c in d1)
    assert {c >> 2 for c in d1} == set(range(12))
    assert [n for n in Counter(d1).values()].count(2) == 4
    t2 = [c for c in d2 if is_treasure_card(c)]
    assert sorted(card_points(c) for c in t2) == [2] * 6 + [3] * 5
    assert len({c >> 2 for c in t2}) == 11
    assert sorted(c for c in d2 if not is_treasure_card(c)) == sorted(EVENTS)
    t3 = [c for c in d3 if is_treasure_card(c)]
    assert len(t3) == 10 and all(card_points(c) == 4 for c in t3)
    assert sorted(c for c in d3 if not is_treasure_card(c)) == sorted((*EVENTS, GAME_OVER))


def test_the_first_player_draws_at_once() -> None:
    state = start(3, setup(first=2), first_player="random")
    assert state.current_player == 2
    assert state.phase == "search"
    assert state.view(None)["search"] == {
        "card": "sphinx/1",
        "owner": 2,
        "treasure": "sphinx",
        "points": 1,
    }
    assert state.view(None)["decks_left"] == [15, 16, 16]


# -- sliding ------------------------------------------------------------------------------


def test_only_pyramids_next_to_the_empty_spot_slide() -> None:
    state = start(2)  # empty at B2
    assert sorted(m.a for m in state.legal_moves()) == sorted(
        spot(b) for b in ["B1", "A2", "C2", "B3"]
    )
    before = snapshot(state)
    with pytest.raises(IllegalMove) as err:
        state.play(state.parse_move("d4"))
    assert err.value.rule == "not-adjacent"
    assert snapshot(state) == before


def test_a_slide_moves_the_pyramid_and_reveals_the_token_under_the_new_gap() -> None:
    state = start(2)
    slide_to(state, "B1")
    assert state.empty_spot == spot("B1")
    v = state.view(None)
    assert v["board"][0][1] == "." and v["board"][1][1] == "R"
    assert v["visible"] == {"spot": "b1", "box": "B1", "index": spot("B1"), "token": "blank"}
    assert state.pyramid_count() == 47


# -- turn flow -----------------------------------------------------------------------------


def test_a_blank_lets_the_same_player_slide_again() -> None:
    state = start(2)
    slide_to(state, "B1")
    assert state.current_player == 0 and state.phase == "search"


def test_another_treasure_passes_the_same_search_to_the_next_player() -> None:
    state = start(3, setup({"mummy": "C2"}))
    slide_to(state, "C2")
    assert state.visible_treasure == T["mummy"]
    assert state.current_player == 1
    assert state.view(None)["search"]["card"] == "sphinx/1"
    assert state.hand(0) == ()


def test_the_sought_treasure_is_taken_and_the_next_player_draws() -> None:
    state = start(3, setup({"mummy": "C2"}))
    slide_to(state, "C2", "B2", "B1", "A1")  # mummy (turn passes), blank, blank, sphinx
    assert state.hand(1) == (card("sphinx/1"),)
    assert state.current_player == 2
    assert state.view(None)["search"]["card"] == "mummy/1"
    assert state.scores() == [0, 1, 0]
    assert state.rotation == 0, "deck 1 never turns the box"


def test_a_treasure_already_visible_is_taken_at_once() -> None:
    state = start(3)
    arrange(state, deck=1, cards=["sphinx/1", "sphinx/1", "mummy/1"])
    slide_to(state, "B1", "A1")
    # player 1 drew the second sphinx card while the sphinx was visible
    assert state.hand(0) == (card("sphinx/1"),)
    assert state.hand(1) == (card("sphinx/1"),)
    assert state.current_player == 2
    assert state.view(None)["search"]["card"] == "mummy/1"
    assert any("already visible" in n["text"] for n in state.view(None)["news"])


def test_deck_one_leads_to_deck_two() -> None:
    state = start(2)
    arrange(state, deck=1, cards=["sphinx/1"])
    slide_to(state, "B1", "A1")
    v = state.view(None)
    # deck 2 (unshuffled here) starts with sphinx/2: visible, so player 1 takes it at once
    assert v["deck"] == 2 and v["decks_left"] == [0, 14, 16]
    assert state.hand(1) == (card("sphinx/2"),) and state.rotation == 1


def test_every_treasure_found_in_deck_two_turns_the_box() -> None:
    state = start(2)
    arrange(state, deck=2, cards=["sphinx/2", "sphinx/3", "mummy/2"])
    slide_to(state, "B1", "A1")
    # found (one turn), and the next card is the visible sphinx: taken at once (another turn)
    assert state.rotation == 2
    assert state.hand(0) == (card("sphinx/2"),) and state.hand(1) == (card("sphinx/3"),)
    assert state.current_player == 0


def test_deck_three_eliminates_a_wrong_finder_with_four_players() -> None:
    state = start(4, setup({"mummy": "C2"}))
    arrange(state, deck=3, cards=["sphinx/4", "mummy/4"])
    slide_to(state, "C2")
    assert state.is_out(0) and state.current_player == 1
    assert state.view(None)["eliminated"] == [True, False, False, False]
    slide_to(state, "B2", "B1", "A1")
    assert state.hand(1) == (card("sphinx/4"),)
    assert state.current_player == 2


def test_deck_three_eliminates_nobody_with_three_players() -> None:
    state = start(3, setup({"mummy": "C2"}))
    arrange(state, deck=3, cards=["sphinx/4"])
    slide_to(state, "C2")
    assert not state.is_out(0) and state.current_player == 1


def test_the_game_ends_when_fewer_than_two_players_are_left() -> None:
    state = start(4, setup({"mummy": "C2"}))
    arrange(state, deck=3, cards=["sphinx/4"], hands={3: ["crown/1"]})
    slide_to(state, "C2", "C3", "C2")  # mummy (0 out), scarab (1 out), mummy (2 out)
    assert state.is_over and state.end_reason == "one-left"
    assert state.current_player is None and state.legal_moves() == []
    assert state.ranking() == [2, 2, 2, 1]


def test_the_game_over_card_ends_the_game_at_once() -> None:
    state = start(2)
    arrange(state, deck=3, cards=["game-over", "sphinx/4"], hands={1: ["mummy/4"]})
    assert state.is_over and state.end_reason == "game-over-card"
    assert state.winners() == [1]
    with pytest.raises(IllegalMove) as err:
        state.play(state.parse_move("b1"))
    assert err.value.rule == "game-over"


def test_the_game_ends_when_deck_three_runs_out() -> None:
    state = start(2)
    arrange(state, deck=3, cards=["sphinx/4"])
    slide_to(state, "B1", "A1")
    assert state.is_over and state.end_reason == "deck-empty"
    assert state.scores() == [4, 0]


def test_ties_are_shared() -> None:
    state = start(3)
    arrange(state, deck=3, cards=["game-over"], hands={0: ["mummy/2"], 2: ["vase/2"]})
    assert state.ranking() == [1, 3, 1]


def test_slide_limit_variant_ends_the_game() -> None:
    state = start(2, slide_limit=2)
    slide_to(state, "B1")
    assert not state.is_over
    slide_to(state, "C1")
    assert state.is_over and state.end_reason == "slide-limit"


# -- the turned box: views, typed names and records ------------------------------------------


def test_the_view_is_drawn_turned() -> None:
    state = start(2)
    arrange(state, deck=2, cards=["sphinx/2", "mummy/2"], turn=0)
    slide_to(state, "B1", "A1")
    v = state.view(1)
    assert v["rotation"] == 1 and (v["rows"], v["cols"]) == (8, 6)
    assert [len(r) for r in v["board"]] == [6] * 8
    # A1 (box top-left) is seen top-right after a clockwise quarter turn
    assert v["visible"]["box"] == "A1" and v["visible"]["spot"] == "f1"
    assert v["board"][0][5] == "."


def test_typed_spot_names_follow_the_turned_view() -> None:
    state = start(2)
    arrange(state, deck=2, cards=["sphinx/2", "mummy/2"], turn=0)
    slide_to(state, "B1", "A1")
    assert state.rotation == 1
    v = state.view(state.current_player)
    (row, col) = next((r, line.index(".")) for r, line in enumerate(v["board"]) if "." in line)
    below = f"{chr(ord('a') + col)}{row + 2}"  # the pyramid just below the gap, as seen
    move = state.parse_move(below)
    # the box's top row is now its right-hand column: below A1 (seen f1) lies B1
    assert state.move_to_str(move) == f"{below}=B1"
    state.play(move)
    after = state.view(state.current_player)["board"]
    assert after[row + 1][col] == "." and after[row][col] != "."
    # the same text at rotation 0 would name another spot
    assert VIEW_NAME[0][move.a] != below


def test_records_state_box_names_for_turned_slides_and_replay() -> None:
    state = start(2)
    arrange(state, deck=2, cards=["sphinx/2", "mummy/2", "parrot/2"], turn=0)
    written = []
    for box in ("B1", "A1", "A2"):
        move = next(m for m in state.legal_moves() if m.a == spot(box))
        written.append(state.move_to_str(move))
        state.play(move)
    # after the sphinx is found the box has turned: the record keeps both names
    assert written == ["b1", "a1", "e1=A2"]


def test_a_full_record_replays_with_turned_names() -> None:
    state = pyramids.new_game("pyramido-treasure", players=3, seed=11)
    from pyramids.ai.registry import make_agent
    from pyramids.engine.rng import Rng

    agents = [make_agent("greedy", "pyramido-treasure") for _ in range(3)]
    rng = Rng(2)
    while not state.is_over:
        p = state.current_player
        assert p is not None
        state.play(agents[p].choose(state, rng))
    record = json.loads(json.dumps(state.record()))
    assert any("=" in m for m in record["moves"]), "the box turned during the game"
    again = pyramids.replay(record)
    assert again.scores() == state.scores() and again.view(None) == state.view(None)


def test_a_box_name_that_disagrees_with_the_view_is_refused() -> None:
    state = start(2)
    arrange(state, deck=2, cards=["sphinx/2", "mummy/2"], turn=0)
    slide_to(state, "B1", "A1")
    with pytest.raises(NotationError, match="box coordinates"):
        state.parse_move("f2=B2")
    assert state.parse_move("f2=b1") == state.parse_move("f2")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "z9",
        "i1",
        "a7",
        "name sphinx sphinx",
        "name sphinx",
        "name gold mummy",
        "poker p9 mummy",
        "poker p2 dragon",
        "give mirage to p2",
        "give mummy/7 to p2",
        "hello world",
    ],
)
def test_notation_errors_are_clear(text: str) -> None:
    state = start(2)
    with pytest.raises(NotationError) as err:
        state.parse_move(text)
    assert err.value.message


def test_notation_of_every_move_kind_round_trips() -> None:
    state = start(3)
    for m in [
        GAME.parse_move(state, "name mummy sphinx"),
        GAME.parse_move(state, "poker p3 sacred-dog"),
        GAME.parse_move(state, "give vase/3 to p2"),
    ]:
        assert GAME.parse_move(state, GAME.move_to_str(state, m)) == m
    assert GAME.parse_move(state, "name Sacred_Dog MU") == GAME.parse_move(
        state, "name mummy sacred-dog"
    )
    assert GAME.parse_move(state, "poker 3 DG") == GAME.parse_move(state, "poker p3 sacred-dog")


# -- setups are checked -------------------------------------------------------------------------


def _broken(change: str) -> dict[str, object]:
    su = setup()
    if change == "two-treasures":
        su["tokens"][0][1] = "mummy"
    elif change == "wrong-field":
        su["tokens"][0][0], su["tokens"][0][2] = "mummy", "sphinx"
    elif change == "empty-on-treasure":
        su["pyramids"][0] = ".RRRRRRR"
        su["pyramids"][1] = "RRRRRRRR"
    elif change == "two-gaps":
        su["pyramids"][5] = "RRRRRRR."
    elif change == "bad-token":
        su["tokens"][3][3] = "gold"
    elif change == "bad-deck":
        su["decks"][1][0] = "game-over"
    elif change == "bad-first":
        su["first_player"] = 7
    return su


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ("two-treasures", "setup.tokens"),
        ("wrong-field", "setup.tokens"),
        ("empty-on-treasure", "setup.pyramids"),
        ("two-gaps", "setup.pyramids"),
        ("bad-token", "setup.tokens[3][3]"),
        ("bad-deck", "setup.decks[1]"),
        ("bad-first", "setup.first_player"),
    ],
)
def test_bad_setups_name_the_field(change: str, field: str) -> None:
    with pytest.raises(RecordError) as err:
        GAME.from_setup(_broken(change), 2, GAME.resolve_variant({}))
    assert err.value.field == field


def test_wrong_field_is_fine_when_fields_are_shuffled() -> None:
    state = GAME.from_setup(
        _broken("wrong-field"), 2, GAME.resolve_variant({"shuffle_fields": True})
    )
    assert isinstance(state, TreasureState)
    assert state.view(None)["fields"][0]["treasure"] is None


def test_first_player_beyond_the_table_is_refused() -> None:
    with pytest.raises(ValueError, match="first_player"):
        pyramids.new_game("pyramido-treasure", players=2, first_player=3)


@pytest.mark.parametrize("rotation", [0, 1, 2, 3])
def test_every_turned_view_names_each_spot_once_and_keeps_neighbours(rotation: int) -> None:
    from pyramids.games.pyramido_treasure.board import SPOT_BY_VIEW, VIEW_CELL, view_dims

    rows, cols = view_dims(rotation)
    cells = VIEW_CELL[rotation]
    assert sorted(cells) == [(r, c) for r in range(rows) for c in range(cols)]
    assert all(SPOT_BY_VIEW[rotation][VIEW_NAME[rotation][s]] == s for s in range(SPOTS))
    for a in range(SPOTS):
        for b in NEIGHBOURS[a]:
            (ra, ca), (rb, cb) = cells[a], cells[b]
            assert abs(ra - rb) + abs(ca - cb) == 1
    # a quarter turn clockwise takes the box's top-left corner to the top-right
    corner = VIEW_CELL[rotation][0]
    assert corner == [(0, 0), (0, 5), (5, 7), (7, 0)][rotation]
