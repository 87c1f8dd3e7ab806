"""No fit: single-block cards fill the gaps; without 2 cards the player is out."""

from __future__ import annotations

import pytest

from pyramids.engine.errors import IllegalMove
from pyramids.engine.rng import Rng
from pyramids.games.pyramido import PyramidoState
from tests.pyramido.helpers import FULL_5X4, careful_play, go_up, lay, new


def holed_floor(holes: list[str], players: int = 2) -> PyramidoState:
    """Player 0's floor 1 filled but for ``holes`` (no two adjacent), re-checked at turn start."""
    s = new(players)
    lay(s, 0, " ".join(f"{c}=G" for c in FULL_5X4.split() if c not in holes))
    s._begin(0)
    return s


def test_no_fit_with_cards_fills_two_cells_without_gems() -> None:
    s = holed_floor(["d5", "f6"])
    quarry = s.quarry
    assert s.step == "fill" and not s.has_fit(0)
    texts = {s.move_to_str(m) for m in s.legal_moves()}
    assert len(texts) == 3 * 2 * 2 * 4  # cards x sides x cells x quarters
    assert "fill R d5 tl" in texts and "fill O f6 br" in texts
    with pytest.raises(IllegalMove) as err:
        s.play(s.parse_move("fill R e5 tl"))
    assert err.value.rule == "cell-taken"
    s.play(s.parse_move("fill R d5 tl"))
    assert s.step == "fill" and s.current_player == 0
    with pytest.raises(IllegalMove) as err:
        s.play(s.parse_move("fill Y f6 tl"))  # the other side of the card just used
    assert err.value.rule == "card-used"
    s.play(s.parse_move("fill B f6 br"))
    assert s.current_player == 1 and s.step == "place"
    assert s.cards_left(0) == 1
    assert s.gems(0) == ()  # cards laid for no fit never carry a gem
    assert s.quarry == quarry  # no domino taken, nothing refilled
    assert s.view(None)["pyramids"][0]["floor_done"] is True


def test_no_fit_on_an_upper_floor_takes_any_empty_cell() -> None:
    s = new()
    lay(s, 0, FULL_5X4)
    go_up(s, 0)
    lay(s, 0, "b1=R c1=R d1=R a2=R b2=R d2=R a3=R b3=R c3=R d3=R")  # a1 and c2 empty
    s._begin(0)
    assert s.step == "fill"
    cells = {s.move_to_str(m).split()[2] for m in s.legal_moves()}
    assert cells == {"a1", "c2"}


def test_no_fit_with_one_card_puts_the_player_out() -> None:
    s = new(3)
    lay(s, 0, " ".join(f"{c}=G" for c in FULL_5X4.split() if c not in ("d5", "f6")))
    s._cards[0] = 0b100
    s._begin(0)
    assert s.is_out(0) and s.current_player == 1 and s.step == "place"
    assert s.view(2)["out"] == [True, False, False]
    assert s.ranking()[0] == 3  # ranked last whatever the scores


def test_four_holes_need_four_cards_so_three_are_not_enough() -> None:
    s = holed_floor(["c4", "e4", "d6", "g7"])
    s.play(s.parse_move("fill R c4 tl"))
    s.play(s.parse_move("fill G e4 tl"))
    assert s.current_player == 1 and not s.is_out(0)
    # player 1 takes a turn; then player 0 has still no fit and a single card
    s.play(s.legal_moves()[0])  # place
    while s.step != "place":  # gem / card / refill of the same turn
        s.play(s.legal_moves()[0])
    assert s.is_out(0)
    assert s.current_player == 1 and not s.is_over  # the others play on


def test_the_game_ends_when_every_player_is_out() -> None:
    s = holed_floor(["c4", "e4", "d6", "g7"])
    s._cards = [0b001, 0b001]
    lay(s, 1, " ".join(f"{c}=G" for c in FULL_5X4.split() if c not in ("c4", "e4")))
    s._next_turn(1)
    assert s.is_out(0) and s.current_player is None
    assert s.is_over and s.is_out(1)
    assert s.ranking() == [2, 1]  # seat 1 went out last


def test_an_eliminated_player_is_skipped_until_the_end() -> None:
    for seed in range(30):
        s = new(3, seed)
        careful_play(s, Rng(seed), reckless=0.6)
        out = [p for p in range(3) if s.is_out(p)]
        if out and len(out) < 3:
            assert all(s.ranking()[p] > s.ranking()[q] for p in out for q in s.in_players())
            return
    pytest.fail("no game with an elimination among 30 seeds")
