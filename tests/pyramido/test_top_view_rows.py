"""The view's top-view rows say what ``PyramidoState.top_view`` says, quarter by quarter."""

from __future__ import annotations

import random

import pytest

from pyramids.engine.registry import new_game
from pyramids.games.pyramido.dominoes import COLOUR_LETTERS
from pyramids.games.pyramido.views import top_view_rows


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 5), (4, 9)])
def test_rows_match_the_top_view_grid_in_every_position(players: int, seed: int) -> None:
    # the rows are written straight into buffers for speed; the grid is the plain reading
    rng = random.Random(seed)
    state = new_game("pyramido", players=players, seed=seed)
    checked = 0
    highest = 1
    while not state.is_over:
        for p in range(players):
            grid = state.top_view(p)
            rows = top_view_rows(state, p)
            assert rows["colour"] == [
                "".join("." if q is None else COLOUR_LETTERS[q[0]] for q in row) for row in grid
            ]
            assert rows["jewel"] == [
                "".join("1" if q and q[1] else "0" for q in row) for row in grid
            ]
            assert rows["floor"] == ["".join(str(q[2]) if q else "0" for q in row) for row in grid]
            checked += 1
        highest = max(highest, state.floor)
        state.play(rng.choice(state.legal_moves()))
    assert checked > 50 and highest > 1  # upper floors (shifted grids) were reached
