"""Helpers for the Pyramido tests: hand-built pyramids and a careful random player."""

from __future__ import annotations

import pyramids
from pyramids.engine.rng import Rng
from pyramids.games.pyramido import COLOUR_LETTERS, QUARTERS, PyramidoState
from pyramids.games.pyramido.game import upper_grid
from pyramids.games.pyramido.geometry import quarter_shift


def new(players: int = 2, seed: int = 0) -> PyramidoState:
    state = pyramids.new_game("pyramido", players=players, seed=seed)
    assert isinstance(state, PyramidoState)
    return state


def lay(state: PyramidoState, p: int, spec: str) -> None:
    """Lay blocks on ``p``'s floor being built: ``"c4=R:tl,br d4=B e5=Y:tl"``.

    Bypasses the rules on purpose: scoring tests need exact pyramids that no
    quarry would deal. Colour letters are R Y G B P O; jewels are quarters.
    """
    grid = state.grid(p)
    for item in spec.split():
        label, _, what = item.partition("=")
        colour, _, jewels = what.partition(":")
        mask = sum(1 << QUARTERS.index(q) for q in jewels.split(",") if q)
        cell = grid.cell_of(label)
        assert cell is not None, label
        state._paint(p, cell, COLOUR_LETTERS.index(colour), mask)
        state._blocks[p] = (
            *state._blocks[p],
            (state.floor, cell, COLOUR_LETTERS.index(colour), mask, -1),
        )


def gem(state: PyramidoState, p: int, label: str) -> None:
    """Put ``p``'s gem on the block at ``label`` (its colour is read from the top view)."""
    grid = state.grid(p)
    cell = grid.cell_of(label)
    assert cell is not None
    seed = grid.quarter_mask[cell] << state._shift[p]
    colour = next(k for k, m in enumerate(state._col[p]) if m & seed)
    state._gems[p] = (*state._gems[p], (colour, cell))
    state._gemmask[p] |= 1 << colour


def go_up(state: PyramidoState, p: int) -> None:
    """Move ``p`` to the next floor over its finished floor 1 (as the floor end does)."""
    state._floor += 1
    box = state._bbox[p]
    state._grid[p] = upper_grid(box, state.floor)
    state._shift[p] = quarter_shift(box[0], box[1])
    state._occ[p] = 0
    state._gems[p] = ()
    state._gemmask[p] = 0


FULL_5X4 = " ".join(f"{c}{r}" for r in range(4, 8) for c in "cdefg")


def careful_play(state: PyramidoState, rng: Rng, reckless: float = 0.2) -> int:
    """Play to the end; placements avoid dead cells except a ``reckless`` share at random.

    Pure random play leaves holes on floor 1 and ends most games there; this
    player reaches the top floors, so the properties are tested on whole games.
    Returns the number of plies played.
    """
    plies = 0
    while not state.is_over:
        moves = state.legal_moves()
        assert moves
        if state.step == "place" and rng.random() >= reckless:
            p = state.current_player
            assert p is not None
            dead: dict[int, int] = {}
            for m in moves:
                pair = (1 << m.b) | (1 << m.c)
                if pair not in dead:
                    dead[pair] = state.dead_cells(p, pair)
            best = min(dead.values())
            moves = [m for m in moves if dead[(1 << m.b) | (1 << m.c)] == best]
        state.play(moves[rng.below(len(moves))])
        plies += 1
    return plies
