"""Review of the engine against RULINGS.md §1, clause by clause, on hand-built positions.

Each test names the clause it checks. Positions are laid block by block
(``lay``) or dealt from a chosen quarry (``custom``), so every expectation is
worked out by hand from the rule, not read back from the engine.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from rich.console import Console

from pyramids.cli.games.pyramido import floors_command
from pyramids.engine.errors import IllegalMove, NotationError
from pyramids.engine.rng import Rng
from pyramids.games.pyramido import DOMINOES, GAME, PyramidoState
from pyramids.games.pyramido.dominoes import JEWEL_COUNT
from pyramids.games.pyramido.game import upper_grid
from pyramids.games.pyramido.geometry import FRAME_GRID, STRIDE, Grid, quarter_shift
from pyramids.text.pyramido import describe, render
from tests.pyramido.helpers import FULL_5X4, gem, go_up, lay, new

Domino = tuple[tuple[int, int], tuple[int, int]]


def custom(quarry: list[int], players: int = 2) -> PyramidoState:
    """A game whose quarry holds dominoes ``quarry`` (numbers), the rest in 4 stacks."""
    others = [k for k in range(1, 91) if k not in quarry]
    stacks = [others[0:22], others[22:44], others[44:66], others[66:]]
    return GAME.from_setup(
        {"first_player": 0, "quarry": quarry, "stacks": stacks}, players, GAME.resolve_variant({})
    )


def with_(n: int) -> list[int]:
    """A quarry of domino ``n`` in slot 1 and two others."""
    return [n, *[k for k in (1, 2, 3) if k != n][:2]]


def find(pred: Callable[[int, Domino], bool], skip: int = 0) -> int:
    """Number (1-based) of the ``skip``-th domino matching ``pred``."""
    return [i + 1 for i, d in enumerate(DOMINOES) if pred(i, d)][skip]


def play(state: PyramidoState, text: str) -> None:
    state.play(state.parse_move(text))


def rule_of(state: PyramidoState, text: str) -> str:
    before = state.view(None)
    with pytest.raises(IllegalMove) as err:
        play(state, text)
    assert state.view(None) == before  # a refused move changes nothing
    return err.value.rule


def texts(state: PyramidoState) -> set[str]:
    return {state.move_to_str(m) for m in state.legal_moves()}


# -- floor 1: contact, overlap, footprint -----------------------------------------


def test_floor_one_needs_a_full_edge_and_no_overlap() -> None:
    s = new()
    lay(s, 0, "e5=R f5=R")
    assert rule_of(s, "q1 g6 g7") == "not-connected"  # g6 touches f5 by a corner only
    assert rule_of(s, "q1 d4 d3") == "not-connected"
    assert rule_of(s, "q1 f5 g5") == "cell-taken"
    assert rule_of(s, "q1 e5 e6") == "cell-taken"
    # every listed placement touches e5 or f5 along an edge with at least one block
    touching = {"d5", "g5", "e4", "f4", "e6", "f6"}
    for t in texts(s):
        a, b = t.split()[1:]
        assert {a, b} & touching and not {a, b} & {"e5", "f5"}
    play(s, "q1 g6 g5")  # g5 shares its left edge with f5


def test_floor_one_grows_to_five_by_four_or_four_by_five_never_more() -> None:
    square = " ".join(f"{c}{r}=G" for r in range(4, 8) for c in "cdef")  # 4×4, c4..f7
    s = new()
    lay(s, 0, square)
    legal = {frozenset(t.split()[1:]) for t in texts(s)}
    assert frozenset({"g4", "g5"}) in legal  # 5 wide, 4 tall
    assert frozenset({"c8", "d8"}) in legal  # 4 wide, 5 tall
    assert frozenset({"b4", "b5"}) in legal  # 5 wide to the left
    assert rule_of(s, "q1 g7 g8") == "footprint"  # 5×5
    assert rule_of(s, "q1 c3 c2") == "footprint"  # 4×6
    assert rule_of(s, "q1 g4 h4") == "footprint"  # 6×4
    play(s, "q1 g4 g5")
    # now 5 wide: the box is 5×4 at most, so no fifth row and no sixth column
    t = new()
    lay(t, 0, square + " g4=G g5=G")
    assert rule_of(t, "q1 c8 d8") == "footprint"
    assert rule_of(t, "q1 b4 b5") == "footprint"
    u = new()
    lay(u, 0, square + " c8=G d8=G")
    assert rule_of(u, "q1 g4 g5") == "footprint"
    assert rule_of(u, "q1 c9 d9") == "footprint"  # 4×6
    assert frozenset({"e8", "f8"}) in {frozenset(x.split()[1:]) for x in texts(u)}


@pytest.mark.parametrize(
    ("cells", "size"),
    [
        (FULL_5X4, (4, 3)),
        (" ".join(f"{c}{r}" for r in range(3, 8) for c in "defg"), (3, 4)),
    ],
)
def test_a_full_floor_one_carries_the_offset_grids(cells: str, size: tuple[int, int]) -> None:
    s = new()
    lay(s, 0, " ".join(f"{c}=R" for c in cells.split()))
    x0, y0, x1, y1 = s._bbox[0]
    assert {(x1 - x0 + 1, y1 - y0 + 1)} <= {(5, 4), (4, 5)}
    assert (upper_grid(s._bbox[0], 2).cols, upper_grid(s._bbox[0], 2).rows) == size


# -- floors 2-4: offset grids ---------------------------------------------------------


def _cell_holding(grid: Grid, shift: int, bit: int) -> tuple[int, int]:
    """(cell, quarter) of ``grid`` whose quarter is top-view bit ``bit``."""
    for c in range(grid.cells):
        for q in range(4):
            if grid.quarter_bits[c][q] + shift == bit:
                return c, q
    raise AssertionError(f"bit {bit} is not on the grid")


@pytest.mark.parametrize("box", [(2, 3, 6, 6), (3, 2, 6, 6)])
def test_each_upper_block_covers_one_quarter_of_four_blocks_below(
    box: tuple[int, int, int, int],
) -> None:
    shift = quarter_shift(box[0], box[1])
    below: Grid = FRAME_GRID
    below_shift = 0
    for floor in (2, 3, 4):
        grid = upper_grid(box, floor)
        assert grid.cells == (box[2] - box[0] + 2 - floor) * (box[3] - box[1] + 2 - floor)
        for cell in range(grid.cells):
            under = [_cell_holding(below, below_shift, b + shift) for b in grid.quarter_bits[cell]]
            # four different blocks below, and each loses the quarter facing the centre:
            # the upper tl quarter lies on the br quarter of the block up-left, and so on
            assert len({c for c, _ in under}) == 4
            assert [q for _, q in under] == [3, 2, 1, 0]
            i, j = cell % grid.cols, cell // grid.cols
            first = under[0][0]
            if below is not FRAME_GRID:
                assert first == j * below.cols + i
            assert [c for c, _ in under] == [
                first,
                first + 1,
                first + below.cols,
                first + below.cols + 1,
            ]
        below, below_shift = grid, shift
    # floor 4 of a 5×4 pyramid is 2×1, of a 4×5 one 1×2
    assert (below.cols, below.rows) == ((2, 1) if box[2] - box[0] == 4 else (1, 2))


def test_upper_floor_pairs_do_not_wrap_round_rows() -> None:
    s = new()
    lay(s, 0, " ".join(f"{c}=R" for c in FULL_5X4.split()))
    go_up(s, 0)
    s._begin(0)
    assert rule_of(s, "q1 d1 a2") == "not-adjacent"  # d1 ends the row; a2 starts the next
    assert rule_of(s, "q1 a1 c1") == "not-adjacent"
    assert "q1 d1 d2" in texts(s) and "q1 c3 d3" in texts(s)
    assert len({frozenset(t.split()[1:]) for t in texts(s)}) == 3 * 3 + 4 * 2  # 17 pairs


# -- marking --------------------------------------------------------------------------


def _two_colour_one_each() -> int:
    return find(lambda i, d: d[0][0] != d[1][0] and JEWEL_COUNT[i] == (1, 1))


def test_marking_offers_each_block_with_a_jewel_and_an_unused_gem() -> None:
    n = _two_colour_one_each()
    (ca, _), (cb, _) = DOMINOES[n - 1]
    s = custom(with_(n))
    play(s, "q1 e5 f5")
    assert s.step == "mark" and texts(s) == {"mark e5", "mark f5"}
    play(s, "mark f5")
    assert s.gems(0) == ((cb, FRAME_GRID.cell_of("f5")),)
    # the card may only cover the block without the gem
    assert {t.split()[2] for t in texts(s) if t.startswith("card")} == {"e5"}
    t = custom(with_(n))
    t._gemmask[0] = 1 << cb  # the gem of B's colour is already on the pyramid
    play(t, "q1 e5 f5")
    assert texts(t) == {"mark e5"}
    u = custom(with_(n))
    u._gemmask[0] = (1 << ca) | (1 << cb)  # no matching gem left: the step is skipped
    play(u, "q1 e5 f5")
    assert u.step == "card" and u.gems(0) == ()


def test_a_domino_without_a_usable_jewel_block_skips_marking() -> None:
    n = find(lambda i, d: JEWEL_COUNT[i] == (0, 2) or JEWEL_COUNT[i] == (2, 0))
    s = custom(with_(n))
    jewelled = 0 if JEWEL_COUNT[n - 1][0] else 1
    play(s, "q1 e5 f5")
    assert texts(s) == {f"mark {('e5', 'f5')[jewelled]}"}  # only the block with the icons
    assert rule_of(s, f"mark {('e5', 'f5')[1 - jewelled]}") == "no-jewel"
    assert rule_of(s, "pass") == "wrong-step"  # mandatory when possible


def test_one_colour_domino_takes_one_gem_and_the_card_on_the_other_block_brings_none() -> None:
    n = find(lambda i, d: d[0][0] == d[1][0] and JEWEL_COUNT[i] == (1, 1))
    colour = DOMINOES[n - 1][0][0]
    s = custom(with_(n))
    play(s, "q1 e5 e6")
    assert texts(s) == {"mark e5", "mark e6"}
    play(s, "mark e6")
    side = "RYGBPO"[colour]
    play(s, f"card {side} e5 tr")  # same colour: that gem is already used, none on the card
    assert s.gems(0) == ((colour, FRAME_GRID.cell_of("e6")),)
    assert s.cards_left(0) == 2


# -- single-block card ---------------------------------------------------------------


def _jewels_at(state: PyramidoState, p: int, cell: str) -> list[int]:
    grid = state.grid(p)
    c = grid.cell_of(cell)
    assert c is not None
    top = state.top_view(p)
    out = []
    for q, bit in enumerate(grid.quarter_bits[c]):
        b = bit + state._shift[p]
        here = top[b // STRIDE][b % STRIDE]
        if here is not None and here[1]:
            out.append(q)
    return out


def test_card_replaces_the_block_jewels_included_and_brings_the_gem_if_unused() -> None:
    n = find(lambda i, d: JEWEL_COUNT[i] == (2, 0) and d[0][0] != d[1][0])
    ca = DOMINOES[n - 1][0][0]
    s = custom(with_(n))
    s._gemmask[0] = 1 << ca  # no gem for A: the card step comes straight away
    play(s, "q1 e5 f5")
    assert s.step == "card"
    assert len(_jewels_at(s, 0, "e5")) == 2
    side = next(k for k in range(6) if k not in (ca,))
    play(s, f"card {'RYGBPO'[side]} e5 bl")
    assert _jewels_at(s, 0, "e5") == [2]  # the domino's two icons are gone, one at bl
    assert s.top_view(0)[8][8] is not None and s.top_view(0)[8][8][0] == side
    assert s.gems(0) == ((side, FRAME_GRID.cell_of("e5")),)  # mandatory gem on the card
    assert s.cards_left(0) == 2 and s.step == "refill"
    # the other side of the same card is gone too
    assert s._cards[0] >> (side >> 1) & 1 == 0


def test_no_card_step_without_cards() -> None:
    n = _two_colour_one_each()
    s = custom(with_(n))
    s._cards[0] = 0
    play(s, "q1 e5 f5")
    play(s, "mark e5")
    assert s.step == "refill" and texts(s) == {"refill 1", "refill 2"}


# -- refill ---------------------------------------------------------------------------


def test_refill_comes_from_the_two_stacks_behind_the_slot() -> None:
    for slot in (1, 2, 3):
        s = new(2, 7)
        play(s, f"q{slot} e5 f5")
        while s.step != "refill":
            play(s, "pass" if s.step == "card" else s.move_to_str(s.legal_moves()[0]))
        assert texts(s) == {f"refill {slot}", f"refill {slot + 1}"}
        top = s.stack_top(slot)  # stack slot + 1, 0-based index slot
        play(s, f"refill {slot + 1}")
        assert s.quarry[slot - 1] == top


def test_an_emptied_stack_takes_half_rounded_down_of_the_lowest_tallest() -> None:
    rest = [k for k in range(4, 91)]
    stacks = [rest[:1], rest[1:32], rest[32:56], rest[56:]]  # 1, 31, 24, 31
    s = GAME.from_setup(
        {"first_player": 0, "quarry": [1, 2, 3], "stacks": stacks}, 2, GAME.resolve_variant({})
    )
    play(s, "q1 e5 f5")
    while s.step != "refill":
        play(s, "pass" if s.step == "card" else s.move_to_str(s.legal_moves()[0]))
    play(s, "refill 1")
    # stacks 2 and 4 tie at 31: the lower number gives its bottom 15 (31 // 2)
    assert s.stack_sizes() == [15, 16, 24, 31]
    assert [d + 1 for d in s._stacks[0]] == stacks[1][:15]
    assert [d + 1 for d in s._stacks[1]] == stacks[1][15:]
    assert s.stack_top(1) == stacks[1][-1] - 1  # the tallest stack's top stays on top


# -- floor end, gems, next floor --------------------------------------------------------


def _nearly_done(
    players: int, waiting: int, holes: dict[int, tuple[str, ...]] | None = None
) -> PyramidoState:
    """Everyone's floor 1 full of jewel-less green, but ``waiting`` who lacks f7 and g7.

    ``holes`` leaves other cells empty for other seats (they are not done either).
    """
    n = find(lambda i, d: JEWEL_COUNT[i] == (1, 1) and d[0][0] != 2 and d[1][0] != 2)
    s = custom(with_(n), players)
    gaps = {waiting: ("f7", "g7"), **(holes or {})}
    for p in range(players):
        lay(s, p, " ".join(f"{c}=G" for c in FULL_5X4.split() if c not in gaps.get(p, ())))
    s._done = ((1 << players) - 1) & ~sum(1 << p for p in gaps)
    s._last = (waiting - 1) % players
    s._begin(waiting)
    return s


def test_the_floor_ends_when_the_last_player_fills_it_and_gems_return() -> None:
    s = _nearly_done(3, 1)
    assert s.current_player == 1 and s.floor == 1
    play(s, "q1 f7 g7")
    play(s, "mark f7")
    # the gem's area is f7 alone (green around it): 1 jewel, counted twice
    assert s.floor_score(1).total == 2
    play(s, "pass")
    play(s, "refill 1")
    assert s.floor == 2
    assert [len(s.floor_scores(p)) for p in range(3)] == [1, 1, 1]
    assert [s.floor_scores(p)[0].total for p in range(3)] == [0, 2, 0]
    assert all(s.gems(p) == () for p in range(3))
    assert all(pyr["gems_unused"] == list(GAME_COLOURS) for pyr in s.view(None)["pyramids"])
    # seats 0 and 2 tie lowest at 0; seat 1 played last, so seat 2 comes first
    assert s.current_player == 2 and s.step == "place"


GAME_COLOURS = ("red", "yellow", "green", "blue", "purple", "orange")


def test_players_who_are_done_skip_their_turns() -> None:
    n = _two_colour_one_each()
    s = custom(with_(n), 3)
    holes = {0: ("f7", "g7"), 1: (), 2: ("c4", "d4")}
    for p, gap in holes.items():
        lay(s, p, " ".join(f"{c}=G" for c in FULL_5X4.split() if c not in gap))
    s._done = 0b010  # seat 1 has filled floor 1
    s._begin(0)
    play(s, "q1 f7 g7")
    while s.current_player == 0:
        play(s, "pass" if s.step == "card" else s.move_to_str(s.legal_moves()[0]))
    assert s.current_player == 2 and s.floor == 1  # seat 1 is skipped
    play(s, "q2 c4 d4")
    while s.current_player == 2:
        play(s, "pass" if s.step == "card" else s.move_to_str(s.legal_moves()[0]))
    assert s.floor == 2  # everyone still in has filled it


# -- hidden information ---------------------------------------------------------------


def _numbers(node: Any, out: set[int]) -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("id", "domino") and isinstance(v, int):
                out.add(v)
            _numbers(v, out)
    elif isinstance(node, list):
        for v in node:
            _numbers(v, out)


@pytest.mark.parametrize("players", [2, 4])
def test_no_domino_below_a_stack_top_appears_in_any_view(players: int) -> None:
    s = new(players, 21)
    rng = Rng(3)
    checked = 0
    while not s.is_over and s.ply < 400:
        hidden = {d + 1 for st in s._stacks for d in st[:-1]}
        for seat in [None, *range(players)]:
            seen: set[int] = set()
            view = s.view(seat)
            _numbers(view, seen)
            assert not seen & hidden
            assert "stacks" not in json.dumps(view["variant"])
        checked += 1
        moves = s.legal_moves()
        p = s.current_player
        if s.step == "place" and p is not None:  # avoid holes, to reach the upper floors
            cost = {m: s.dead_cells(p, (1 << m.b) | (1 << m.c)) for m in moves}
            moves = [m for m in moves if cost[m] == min(cost.values())]
        s.play(moves[rng.below(len(moves))])
    assert s.floor >= 3 and checked > 100


def test_determinize_changes_nothing_but_the_order_below_the_tops() -> None:
    s = new(3, 12)
    rng = Rng(4)
    for _ in range(60):
        moves = s.legal_moves()
        s.play(moves[rng.below(len(moves))])
    det = s.determinize(1, Rng(5))
    assert det._stacks != s._stacks
    assert det._quarry == s._quarry
    assert [x[-1] for x in det._stacks] == [x[-1] for x in s._stacks]
    for p in range(3):
        assert det.blocks(p) == s.blocks(p) and det.gems(p) == s.gems(p)
        assert det.cards_left(p) == s.cards_left(p)
    assert det.step == s.step and det.current_player == s.current_player
    assert [det.view(p) for p in (None, 0, 1, 2)] == [s.view(p) for p in (None, 0, 1, 2)]


def test_a_player_going_out_has_not_played_for_the_next_floor_tie_break() -> None:
    """RULINGS §1 "Next floor": ties count from the player after the one who *played* last.

    Seat 0 plays the last turn of floor 1; seat 2 then cannot place, has one
    card and goes out without playing, which ends the floor. Seats 1 and 3 tie
    lowest at 0: counting from the seat after seat 0, seat 1 starts floor 2.
    """
    s = _nearly_done(4, 0, {2: ("d5", "f6")})
    s._cards[2] = 0b001
    play(s, "q1 f7 g7")
    while s.floor == 1:
        play(s, "pass" if s.step == "card" else s.move_to_str(s.legal_moves()[0]))
    assert s.is_out(2) and s.in_players() == [0, 1, 3]
    assert [s.floor_scores(p)[0].total for p in (1, 3)] == [0, 0]
    assert s.floor_scores(0)[0].total > 0
    assert s.current_player == 1


def test_a_four_by_five_pyramid_scores_areas_through_all_four_floors() -> None:
    """Floor 1 d3..g7 (4×5); every floor green but a red column up the top-left corner.

    Red: floor-1 d3 (jewel tl), floor-2 a1 (jewel br), floor-3 a1 (jewel tl),
    floor-4 a1 (none). Floor-3 a1's tl quarter lies on floor-2 a1's br quarter,
    so that jewel is covered: red shows d3 tl and floor-3 a1 tl = 2. Green
    jewels: floor-1 g7 br (an outer corner, never covered) shows; floor-2 c4 tl
    lies under floor-3 b3's br quarter and does not: green shows 1.
    Gems on both floor-4 blocks: 2 + 1, Mino bonus 1 (green): 4.
    """
    s = new()
    cells = [f"{c}{r}" for r in range(3, 8) for c in "defg"]
    lay(
        s,
        0,
        " ".join(f"{c}={'R:tl' if c == 'd3' else 'G:br' if c == 'g7' else 'G'}" for c in cells),
    )
    go_up(s, 0)
    assert (s.grid(0).cols, s.grid(0).rows) == (3, 4)
    lay(
        s,
        0,
        " ".join(f"{c}{r}=G" for r in range(1, 5) for c in "abc" if f"{c}{r}" not in ("a1", "c4")),
    )
    lay(s, 0, "a1=R:br c4=G:tl")
    go_up(s, 0)
    assert (s.grid(0).cols, s.grid(0).rows) == (2, 3)
    lay(s, 0, "a1=R:tl b1=G a2=G b2=G a3=G b3=G")
    go_up(s, 0)
    assert (s.grid(0).cols, s.grid(0).rows) == (1, 2)
    lay(s, 0, "a1=R a2=G")
    gem(s, 0, "a1")
    gem(s, 0, "a2")
    assert s.floor_score(0).areas == ((0, 2), (2, 1))
    assert s.floor_score(0).total == 4
    # the top view agrees: three jewels show in all, two red and one green
    shown = [(q[0], q[2]) for row in s.top_view(0) for q in row if q is not None and q[1]]
    assert sorted(shown) == [(0, 1), (0, 3), (2, 1)]


# -- terminal play --------------------------------------------------------------------


def _screen(renderable: object, width: int = 80) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_the_screen_names_the_choices_of_each_step_and_who_is_out() -> None:
    n = _two_colour_one_each()
    (ca, _), (cb, _) = DOMINOES[n - 1]
    s = custom(with_(n))
    first = _screen(render(s.view(0)))
    # at 80 columns every stack title stays on its line, above its domino number
    assert "stack 1 (22)  stack 2 (22)" in " ".join(first.split("\n"))
    listed = describe(s.view(0), "q1 e5 f5")
    assert listed.startswith("q1 e5 f5") and f"#{n}:" in listed and "on f5" in listed
    play(s, "q1 e5 f5")
    screen = " ".join(_screen(render(s.view(0))).split())
    assert f"mark e5 ({GAME_COLOURS[ca]} gem) or mark f5 ({GAME_COLOURS[cb]} gem)" in screen
    assert "e4" not in screen  # empty cells are named only while choosing a cell
    play(s, "mark f5")
    assert "(block e5)" in " ".join(_screen(render(s.view(0))).split())
    play(s, "pass")
    assert "refill 1 or refill 2" in " ".join(_screen(render(s.view(0))).split())
    t = _nearly_done(3, 0, {2: ("d5", "f6")})
    t._cards[2] = 0b001
    play(t, "q1 f7 g7")
    while t.current_player == 0:
        play(t, "pass" if t.step == "card" else t.move_to_str(t.legal_moves()[0]))
    assert "Out of the game: Player 3" in " ".join(_screen(render(t.view(1))).split())


def test_floors_command_refuses_seat_numbers_out_of_range() -> None:
    s = new(2, 1)
    for arg in ("0", "3", "x"):
        console = Console(width=100, record=True, color_system=None)
        floors_command(SimpleNamespace(state=s, console=console), arg)
        assert "player number 1..2" in console.export_text()


def test_a_step_with_the_wrong_words_says_how_to_write_it() -> None:
    s = new(2, 5)
    for text, expected in (
        ("q1 e5", "q<slot 1-3> <cell of A> <cell of B>"),
        ("#3 e5", "q<slot 1-3>"),
        ("card R e5", "card <colour> <cell of a block just placed> <tl|tr|bl|br>"),
        ("refill", "refill <stack 1-4>"),
        ("fill G d5", "fill <colour> <empty cell> <tl|tr|bl|br>"),
        ("mark e5", "no domino has been placed this turn"),
        ("hello", "not a move"),
    ):
        with pytest.raises(NotationError) as err:
            s.parse_move(text)
        assert expected in str(err.value), text
