"""Pyramido views: JSON a web app or terminal draws everything from.

Everything on the table is public except the order of each stack below its
top, so every seat gets the same view (apart from the header's ``viewer``):
each pyramid block by block with quarter coordinates, gems, unused gems and
cards, floor scores, the quarry, each stack's top and size, the floor, the
step of the turn and who is out. Quarter coordinates are in the 18×18 frame
(see ``geometry``); ``top_view`` gives the topmost colour/jewel/floor per
quarter as strings, one per row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyramids.games.pyramido.dominoes import COLOUR_LETTERS, COLOURS, domino_json
from pyramids.games.pyramido.geometry import QUARTER_SIZE, STRIDE
from pyramids.games.pyramido.moves import CARD, FILL, MARK, REFILL

if TYPE_CHECKING:
    from pyramids.games.pyramido.game import PyramidoState


def pyramid_view(state: PyramidoState, p: int) -> dict[str, Any]:
    """One player's pyramid as JSON: blocks, gems, cards, top view, floor scores."""
    blocks = []
    for floor, cell, colour, jewels, dom in state._blocks[p]:
        grid, shift = state.grid_of_floor(p, floor)
        qb = grid.quarter_bits[cell]
        base = qb[0] + shift
        blocks.append(
            {
                "floor": floor,
                "cell": grid.labels[cell],
                "quarter": [base % STRIDE, base // STRIDE],
                "colour": COLOURS[colour],
                "jewels": [
                    [(qb[q] + shift) % STRIDE, (qb[q] + shift) // STRIDE]
                    for q in range(4)
                    if jewels >> q & 1
                ],
                "domino": dom + 1 if dom >= 0 else None,
                "card": colour >> 1 if dom < 0 else None,
            }
        )
    grid = state._grid[p]
    shift = state._shift[p]
    gems = []
    for colour, cell in state._gems[p]:
        base = grid.quarter_bits[cell][0] + shift
        gems.append(
            {
                "colour": COLOURS[colour],
                "floor": grid.floor,
                "cell": grid.labels[cell],
                "quarter": [base % STRIDE, base // STRIDE],
            }
        )
    x0, y0, x1, y1 = state._bbox[p]
    origin = grid.quarter_bits[0][0] + shift
    return {
        "out": state.is_out(p),
        "floor_done": bool(state._done >> p & 1),
        "bounds": None if x1 < 0 else [x0, y0, x1, y1],
        "grid": {
            "floor": grid.floor,
            "cols": grid.cols,
            "rows": grid.rows,
            "origin": [origin % STRIDE, origin // STRIDE],
            "filled": [grid.labels[c] for c in range(grid.cells) if state._occ[p] >> c & 1],
        },
        "blocks": blocks,
        "gems_placed": gems,
        "gems_unused": [COLOURS[c] for c in range(6) if not state._gemmask[p] >> c & 1],
        "cards_unused": [
            [COLOURS[2 * k], COLOURS[2 * k + 1]] for k in range(3) if state._cards[p] >> k & 1
        ],
        "top_view": top_view_rows(state, p),
        "floor_scores": [
            {
                "floor": fs.floor,
                "areas": [{"colour": COLOURS[c], "jewels": j} for c, j in fs.areas],
                "bonus": fs.bonus,
                "total": fs.total,
            }
            for fs in state._floor_scores[p]
        ],
        "current_floor_score": None
        if state._over or state.is_out(p)
        else state.floor_score(p).total,
    }


_LETTERS = COLOUR_LETTERS.encode()


def top_view_rows(state: PyramidoState, p: int) -> dict[str, list[str]]:
    """The top view as three lists of row strings: colour letter, jewel shown, floor.

    The same facts as :meth:`PyramidoState.top_view`, written straight into
    byte buffers: building them quarter by quarter from that grid was most of
    the cost of a view (one per seat after every move on the server).
    """
    size = QUARTER_SIZE
    colour = bytearray(b"." * (size * size))
    jewel = bytearray(b"0" * (size * size))
    floor_of = bytearray(b"0" * (size * size))
    for floor, cell, c, jewels, _ in state._blocks[p]:
        grid, shift = state.grid_of_floor(p, floor)
        qb = grid.quarter_bits[cell]
        for q in range(4):
            y, x = divmod(qb[q] + shift, STRIDE)
            i = y * size + x  # later blocks lie higher: they overwrite, as in top_view
            colour[i] = _LETTERS[c]
            jewel[i] = 49 if jewels >> q & 1 else 48  # "1" / "0"
            floor_of[i] = 48 + floor
    rows = range(0, size * size, size)
    return {
        "colour": [colour[k : k + size].decode() for k in rows],
        "jewel": [jewel[k : k + size].decode() for k in rows],
        "floor": [floor_of[k : k + size].decode() for k in rows],
    }


def full_view(state: PyramidoState, v: dict[str, Any]) -> dict[str, Any]:
    """Add the game's public parts to the view header ``v``: everything but stack order."""
    placed = None
    if state._pdom >= 0 and not state._over:
        grid = state._grid[state._turn]
        placed = {
            "domino": domino_json(state._pdom),
            "cells": [grid.labels[state._pa], grid.labels[state._pb]],
            "gem_on": None if state._pgem < 0 else "AB"[state._pgem],
        }
    v.update(
        {
            "colours": list(COLOURS),
            "floor": state._floor,
            "step": None if state._over else state._step,
            "turn": None
            if state._over
            else {
                "player": state._turn,
                "empty_slot": state._slot + 1 if state._step in (MARK, CARD, REFILL) else None,
                "placed": placed,
                "fill_cards_laid": state._fills if state._step == FILL else None,
            },
            "quarry": [None if d < 0 else domino_json(d) for d in state._quarry],
            "stacks": [
                {"size": len(s), "top": domino_json(s[-1]) if s else None} for s in state._stacks
            ],
            "out": [state.is_out(p) for p in range(state.players)],
            "eliminated": list(state._elim),
            "pyramids": [pyramid_view(state, p) for p in range(state.players)],
        }
    )
    return v


def public_facts(state: PyramidoState) -> dict[str, Any]:
    """The public facts :func:`full_view` writes out, as plain numbers.

    For the research adapters' fast observations: the same information as
    the view (nothing about stack order below the tops), without the JSON.
    Dominoes are engine numbers (-1: none).
    """
    over = state._over
    return {
        "over": over,
        "floor": state._floor,
        "step": None if over else state._step,
        "empty_slot": state._slot if not over and state._step in (MARK, CARD, REFILL) else None,
        "placed": state._pdom if state._pdom >= 0 and not over else -1,
        "gem_on": state._pgem,
        "fills": state._fills if not over and state._step == FILL else 0,
        "quarry": state._quarry,
        "stacks": [(len(s), s[-1] if s else -1) for s in state._stacks],
        "done": state._done,
        "gems_unused": [state._gemmask[p] for p in range(state.players)],
        "cards": [state._cards[p] for p in range(state.players)],
    }
