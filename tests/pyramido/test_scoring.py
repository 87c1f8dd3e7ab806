"""Hand-built pyramids with their scores worked out by hand; tie-breaks; next-floor starter."""

from __future__ import annotations

from pyramids.engine.rng import Rng
from pyramids.games.pyramido import FloorScore, PyramidoState
from pyramids.games.pyramido.game import next_floor_starter
from tests.pyramido.helpers import FULL_5X4, careful_play, gem, go_up, lay, new

R, Y, G, B = 0, 1, 2, 3


def floor_one(extra: str = "") -> PyramidoState:
    """Floor 1 in cells c..g x 4..7, all blue without jewels but for the blocks listed.

    Red: c4 (jewel tl), d4 (tl, br), c5 (none). Yellow: g7 (tl). Blue jewel: e5 (tl).
    """
    s = new()
    base = {cell: "B" for cell in FULL_5X4.split()}
    base.update({"c4": "R:tl", "d4": "R:tl,br", "c5": "R", "g7": "Y:tl", "e5": "B:tl"})
    for item in extra.split():
        cell, _, what = item.partition("=")
        base[cell] = what
    lay(s, 0, " ".join(f"{c}={w}" for c, w in base.items()))
    return s


def test_no_marked_area_scores_nothing() -> None:
    s = floor_one()
    assert s.floor_score(0) == FloorScore(1, (), 0)
    assert s.floor_score(0).total == 0


def test_one_marked_area_counts_twice() -> None:
    s = floor_one()
    gem(s, 0, "d4")  # red area c4 + d4 + c5: jewels tl of c4, tl and br of d4 = 3
    assert s.floor_score(0) == FloorScore(1, ((R, 3),), 3)
    assert s.floor_score(0).total == 6


def test_several_areas_add_the_lowest_once_more() -> None:
    s = floor_one("e7=G:br")
    gem(s, 0, "c4")  # red: 3
    gem(s, 0, "g7")  # yellow: 1
    gem(s, 0, "e7")  # green: 1 (tied lowest: counted once more, not twice)
    assert s.floor_score(0).areas == ((R, 3), (Y, 1), (G, 1))
    assert s.floor_score(0).total == 3 + 1 + 1 + 1


def test_unmarked_areas_do_not_score_even_with_jewels() -> None:
    s = floor_one("g6=B:br")
    gem(s, 0, "g7")  # only yellow is marked; the blue jewels (e5, g6) do not count
    assert s.floor_score(0).total == 1 + 1


def test_areas_span_floors_and_covered_jewels_do_not_count() -> None:
    s = floor_one("g6=B:br")
    go_up(s, 0)
    # Floor 2 a1 stands on c4, d4, c5, d5 (a quarter of each); b1 on d4, e4, d5, e5.
    # a1 red with a jewel top-left joins the red of floor 1 into one area; b1 blue
    # covers d4's bottom-right jewel and e5's top-left jewel.
    lay(s, 0, "a1=R:tl b1=B")
    gem(s, 0, "a1")
    # visible red jewels: c4 tl, d4 tl, a1 tl (d4 br is under b1) = 3; one area: twice
    assert s.floor_score(0) == FloorScore(2, ((R, 3),), 3)
    gem(s, 0, "b1")
    # blue: floor-1 blue quarters and b1 are one area; e5's jewel is covered, g6's shows
    assert s.floor_score(0).areas == ((R, 3), (B, 1))
    assert s.floor_score(0).total == 3 + 1 + 1


def test_an_area_joined_only_through_a_higher_floor() -> None:
    s = floor_one("g4=R:tl,tr")  # a second red area, far from c4/d4
    go_up(s, 0)
    lay(s, 0, "a1=B b1=R c1=R d1=R")  # a red bridge on floor 2 from d4 to g4
    gem(s, 0, "d1")
    # Floor-2 cells a1..d1 cover the bottom row of quarters of c4..g4 (shifted by one).
    # Red area now: c4 (tl, tr, bl showing), d4 (top row), the bridge b1-d1, g4 (tl, tr,
    # br showing) and c5 below c4: one area. Jewels showing: c4 tl, d4 tl, g4 tl and tr;
    # d4's br is under the (jewel-less) red b1 = 4 jewels, one marked area: 4 + 4.
    assert s.floor_score(0).areas == ((R, 4),)
    assert s.floor_score(0).total == 8


def _ranked(totals: list[list[int]], cards: list[int]) -> list[int]:
    s = new(len(totals))
    s._floor_scores = [
        tuple(FloorScore(f + 1, ((0, t),), 0) for f, t in enumerate(ts)) for ts in totals
    ]
    s._cards = [(1 << c) - 1 for c in cards]
    s._over = True
    return s.ranking()


def test_ranking_by_total() -> None:
    assert _ranked([[10, 5], [20, 0], [3, 3]], [0, 0, 3]) == [2, 1, 3]


def test_tie_broken_by_unused_cards() -> None:
    assert _ranked([[10, 10], [15, 5]], [1, 2]) == [2, 1]


def test_tie_broken_by_best_single_floor() -> None:
    assert _ranked([[15, 5], [10, 10]], [1, 1]) == [1, 2]


def test_full_tie_is_shared() -> None:
    assert _ranked([[12, 8], [8, 12], [1, 1]], [2, 2, 3]) == [1, 1, 3]


def test_eliminated_players_rank_last_latest_out_best() -> None:
    s = new(4)
    s._floor_scores = [(FloorScore(1, ((0, t),), 0),) for t in (9, 2, 30, 1)]
    s._out = 0b0101
    s._elim = (2, 0)  # seat 2 out first, then seat 0
    s._over = True
    assert s.ranking() == [3, 1, 4, 2]


def test_next_floor_starter() -> None:
    assert next_floor_starter({0: 7, 1: 3, 2: 9}, last=0, players=3) == 1
    # seats 1 and 2 tied lowest: count from the seat after the last to play
    assert next_floor_starter({0: 5, 1: 3, 2: 3}, last=1, players=3) == 2
    assert next_floor_starter({0: 5, 1: 3, 2: 3}, last=2, players=3) == 1
    assert next_floor_starter({0: 3, 1: 3, 2: 3}, last=2, players=3) == 0
    # an eliminated seat (absent) never starts
    assert next_floor_starter({0: 4, 2: 4}, last=0, players=3) == 2


def test_floor_ends_score_everyone_and_the_lowest_starts() -> None:
    s = new(3, 4)
    rng = Rng(9)
    checked = 0
    while not s.is_over:
        floor = s.floor
        moves = s.legal_moves()
        p = s.current_player
        if s.step == "place":
            best = min(s.dead_cells(p or 0, (1 << m.b) | (1 << m.c)) for m in moves)
            moves = [m for m in moves if s.dead_cells(p or 0, (1 << m.b) | (1 << m.c)) == best]
        s.play(moves[rng.below(len(moves))])
        if s.floor != floor:
            totals = {q: s.floor_scores(q)[-1].total for q in s.in_players()}
            assert s.current_player == next_floor_starter(totals, s._last, 3)
            checked += 1
    assert checked == 3
    for q in range(3):
        assert s.scores()[q] == sum(fs.total for fs in s.floor_scores(q))


def test_careful_games_end_with_four_floor_scores() -> None:
    s = new(2, 3)
    careful_play(s, Rng(1), reckless=0.0)
    assert [len(s.floor_scores(p)) for p in range(2) if not s.is_out(p)] == [4] * sum(
        not s.is_out(p) for p in range(2)
    )
