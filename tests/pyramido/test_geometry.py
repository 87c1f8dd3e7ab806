"""Placement legality at the footprint edges, floor offsets and rotations."""

from __future__ import annotations

import pytest

from pyramids.engine.errors import IllegalMove
from pyramids.engine.rng import Rng
from pyramids.games.pyramido import DOMINOES, PyramidoMove, PyramidoState
from pyramids.games.pyramido.geometry import (
    FRAME,
    FRAME_GRID,
    ROT_MASK,
    UPPER_GRIDS,
    allowed_cells,
    fits,
    quarter_shift,
)
from tests.pyramido.helpers import FULL_5X4, careful_play, go_up, lay, new


def place(state: PyramidoState, text: str) -> None:
    state.play(state.parse_move(text))


def rule_of(state: PyramidoState, text: str) -> str:
    with pytest.raises(IllegalMove) as err:
        place(state, text)
    return err.value.rule


def test_first_domino_covers_the_centre_in_any_rotation() -> None:
    s = new()
    assert rule_of(s, "q1 a1 a2") == "first-domino"
    assert {s.move_to_str(m).split(" ", 1)[1] for m in s.legal_moves()} == {
        "e5 f5", "f5 e5", "d5 e5", "e5 d5", "e5 e6", "e6 e5", "e4 e5", "e5 e4",
    }  # fmt: skip
    assert len(s.legal_moves()) == 24  # 8 placements x 3 quarry slots
    place(s, "q2 e5 e4")
    assert s.step in ("mark", "card")


def test_five_wide_floor_can_grow_to_four_rows_only() -> None:
    s = new()
    lay(s, 0, "c5=R d5=R e5=R f5=R g5=R")
    assert rule_of(s, "q1 h5 h6") == "footprint"  # 6 wide
    assert rule_of(s, "q1 b5 b6") == "footprint"
    assert rule_of(s, "q1 c7 d7") == "not-connected"
    assert rule_of(s, "q1 e5 e6") == "cell-taken"
    assert rule_of(s, "q1 e6 g6") == "not-adjacent"
    lay(s, 0, "c6=R c7=R c8=R")  # 5 x 4 now
    assert rule_of(s, "q1 c4 d4") == "footprint"  # a 5th row
    assert rule_of(s, "q1 d9 d8") == "footprint"
    place(s, "q1 d6 d7")  # inside the box: fine


def test_four_wide_five_tall_is_allowed_and_bounded() -> None:
    s = new()
    lay(s, 0, "d3=R d4=R d5=R d6=R d7=R")
    place(s, "q3 e5 f5")
    t = new()
    lay(t, 0, "d3=R d4=R d5=R d6=R d7=R e5=R f5=R g5=R")  # 4 x 5
    assert rule_of(t, "q1 h5 h4") == "footprint"
    assert rule_of(t, "q1 c3 c2") == "footprint"
    assert rule_of(t, "q1 c3 c4") == "footprint"  # 5 wide and 5 tall
    place(t, "q1 e3 f3")


def test_legal_moves_agree_with_the_rules_everywhere() -> None:
    """Every (slot, cell, cell) is legal exactly when listed, on floor 1 and floor 2."""
    for seed in range(4):
        s = new(2, seed)
        rng = Rng(seed)
        for _ in range(6 + 5 * seed):
            if s.is_over:
                break
            s.play(s.legal_moves()[rng.below(len(s.legal_moves()))])
        if s.is_over or s.step != "place":
            continue
        grid = s.grid(s.current_player or 0)
        legal = set(s.legal_moves())
        for a in range(grid.cells):
            for b in range(grid.cells):
                m = PyramidoMove("place", 0, a, b)
                try:
                    s._check(m)
                    ok = True
                except IllegalMove:
                    ok = False
                assert ok == (m in legal), s.move_to_str(m)
    t = new()
    lay(t, 0, FULL_5X4)
    go_up(t, 0)
    lay(t, 0, "a1=R b2=R")
    legal = set(t.legal_moves())
    assert PyramidoMove("place", 0, 0, 0 + 4) not in legal  # a1 taken
    assert PyramidoMove("place", 0, 1, 2) in legal  # b1 c1
    assert rule_of(t, "q1 a2 c2") == "not-adjacent"
    place(t, "q1 d3 d2")  # floor 2: anywhere, connected or not


def test_upper_floors_sit_offset_by_one_quarter_each() -> None:
    s = new()
    lay(s, 0, FULL_5X4)  # floor 1 in frame cells c..g x 4..7: starts at cell (2, 3)
    assert s._bbox[0] == (2, 3, 6, 6)
    shift = quarter_shift(2, 3)
    for floor, (cols, rows) in zip((2, 3, 4), ((4, 3), (3, 2), (2, 1)), strict=True):
        grid = UPPER_GRIDS[(5, 4, floor)]
        assert (grid.cols, grid.rows) == (cols, rows)
        bit = grid.quarter_bits[0][0] + shift
        # corner on the centres: floor f starts (f - 1) quarters in from floor 1's corner
        assert (bit % 20, bit // 20) == (4 + floor - 1, 6 + floor - 1)
    assert [(UPPER_GRIDS[(4, 5, f)].cols, UPPER_GRIDS[(4, 5, f)].rows) for f in (2, 3, 4)] == [
        (3, 4),
        (2, 3),
        (1, 2),
    ]
    assert FRAME_GRID.quarter_bits[FRAME_GRID.cell_of("c4") or 0][0] == 6 * 20 + 4


def test_blocks_turn_with_the_domino() -> None:
    tl, tr, bl, br = 1, 2, 4, 8
    assert ROT_MASK[1][tl] == tr and ROT_MASK[1][tr] == br and ROT_MASK[1][br] == bl
    assert ROT_MASK[2][tl | tr] == bl | br
    s = new()
    dom = s.quarry[0]
    place(s, "q1 e5 e6")  # A above B: a quarter turn clockwise
    blocks = s.blocks(0)
    assert blocks[0][:3] == (1, FRAME_GRID.cell_of("e5"), DOMINOES[dom][0][0])
    assert blocks[0][3] == ROT_MASK[1][DOMINOES[dom][0][1]]
    assert blocks[1][3] == ROT_MASK[1][DOMINOES[dom][1][1]]


def test_every_player_still_in_fills_all_forty_cells() -> None:
    s = new(3, 11)
    careful_play(s, Rng(5), reckless=0.0)
    for p in range(3):
        if not s.is_out(p):
            cells = {(f, c) for f, c, *_ in s.blocks(p)}
            assert len(cells) == 40
            assert [sum(1 for f, _ in cells if f == k) for k in (1, 2, 3, 4)] == [20, 12, 6, 2]


def test_dead_cells_count_what_no_domino_can_cover() -> None:
    s = new()
    lay(s, 0, "c5=R d5=R e5=R f5=R g5=R")
    cell = s.grid(0).cell_of

    def mask(*labels: str) -> int:
        return sum(1 << (cell(x) or 0) for x in labels)

    assert s.dead_cells(0) == 0
    # the box may still grow: d6 between c6 and e6 can still pair with d7
    assert s.dead_cells(0, mask("c6", "e6")) == 0
    full = [c for c in FULL_5X4.split()]
    t = new()
    lay(t, 0, " ".join(f"{c}=R" for c in full if c not in ("d6", "e6", "f7")))
    assert t.dead_cells(0) == 1  # the box is full size: f7 is shut in, d6-e6 is a pair
    assert t.dead_cells(0, mask("e6")) == 2
    u = new()
    lay(u, 0, FULL_5X4)
    go_up(u, 0)
    g = u.grid(0).cell_of

    def up(*labels: str) -> int:
        return sum(1 << (g(x) or 0) for x in labels)

    # floor 2 is 4 x 3; checkerboard black where column + row is even (a1 black)
    lay(u, 0, "a1=R b1=R c1=R d1=R a2=R b2=R")
    assert u.dead_cells(0) == 0  # c2 d2 / a3 b3 c3 d3 tile
    assert u.dead_cells(0, up("c3")) == 1  # {a3 b3} fine, {c2 d2 d3} two white one black
    assert u.dead_cells(0, up("b3")) == 1  # a3 alone; {c2 d2 c3 d3} fine
    assert u.dead_cells(0, up("b3", "c2")) == 2  # a3 alone; {d2 c3 d3} unbalanced


def test_allowed_cells_match_the_footprint_rule_for_every_box() -> None:
    for x0 in range(FRAME):
        for x1 in range(x0, min(x0 + 5, FRAME)):
            for y0 in range(FRAME):
                for y1 in range(y0, min(y0 + 5, FRAME)):
                    if not fits(x0, y0, x1, y1):
                        continue
                    brute = sum(
                        1 << (y * FRAME + x)
                        for y in range(FRAME)
                        for x in range(FRAME)
                        if fits(min(x0, x), min(y0, y), max(x1, x), max(y1, y))
                    )
                    assert allowed_cells(x0, y0, x1, y1) == brute, (x0, y0, x1, y1)
