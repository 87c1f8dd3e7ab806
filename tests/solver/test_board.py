"""The Golf board format, PySolFC deals, and the engine agreeing with board deals."""

from __future__ import annotations

import pytest

from pyramids.games.piramides import GAME, PiramidesState
from pyramids.games.piramides.layout import GOLF
from pyramids.solver.board import BoardError, board_setup, format_board, parse_board
from pyramids.solver.position import deal_position
from pyramids.solver.pysol import pysol_available, pysol_board
from pyramids.solver.search import WIN, solve

# PySolFC's Golf deal 906, as the other solvers' test suites print it.
BOARD_906 = """\
Talon: 6D KC KS AH AC KD 4S 8D 8H JD TC AD QH 4C JS 2C
Foundations: 5S
9D TS 5C 7D 7H
3S 6S 5D QC 7S
9S 6C 3H JC 9H
QD 7C 5H 3C QS
AS KH 2H TH TD
4H 8C 6H 2D 2S
9C 4D 8S JH 3D
"""


def test_board_round_trips() -> None:
    pos = parse_board(BOARD_906)
    assert pos.layout is GOLF and len(pos.stock) == 16
    assert format_board(pos) == BOARD_906
    # Column A bottom first: 9D at A1, 7H on top at A5.
    assert GOLF.labels[4] == "A5"
    assert format_board(deal_position("golf", 12)) == format_board(
        parse_board(format_board(deal_position("golf", 12)))
    )


def test_board_906_is_won_and_the_engine_replays_the_line() -> None:
    pos = parse_board(BOARD_906, wrap=True)
    r = solve(pos)
    assert r.verdict == WIN
    state = GAME.from_setup(board_setup(pos), 1, GAME.resolve_variant({"layout": "golf"}))
    assert isinstance(state, PiramidesState)
    for move in r.moves():
        state.play(move)
    assert state.is_over and state.round_scores()[0].cleared


def test_a_game_in_progress_reads_with_played_cards_removed() -> None:
    text = BOARD_906.replace("9C 4D 8S JH 3D", "9C 4D").replace("Talon: 6D KC ", "Talon: ")
    pos = parse_board(text)
    assert pos.removed.bit_count() == 3 and len(pos.stock) == 14
    assert format_board(pos) == text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (BOARD_906.replace("Talon:", "Stock:"), "Talon"),
        (BOARD_906.replace("Foundations: 5S", "Foundations: 5S 6S"), "exactly one"),
        (BOARD_906.replace("9D TS", "9D XX"), "line 3"),
        (BOARD_906.replace("9D TS", "9D 9D"), "twice"),
        (BOARD_906 + "AS\n", "7 column lines"),
        (BOARD_906.replace("9D TS 5C 7D 7H", "9D TS 5C 7D 7H 8H"), "at most 5"),
    ],
)
def test_bad_boards_name_the_fault(text: str, words: str) -> None:
    with pytest.raises(BoardError) as err:
        parse_board(text)
    assert words.lower() in str(err.value).lower()


@pytest.mark.skipif(not pysol_available(), reason="pysol_cards (extra 'pysol') not installed")
def test_pysol_deal_906_is_the_published_board() -> None:
    assert pysol_board(906) == BOARD_906


def test_pysol_absent_or_bad_number_is_a_clear_error() -> None:
    with pytest.raises(BoardError):
        pysol_board(0)
