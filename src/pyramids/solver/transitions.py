"""Moves on solver positions, for hints and for checking the solver against the engine.

The search inlines these steps for speed; this module spells them out once,
slowly and plainly, so tests can compare every step with the engine's.
"""

from __future__ import annotations

from dataclasses import replace

from pyramids.solver.position import DRAW_CODE, JOKER, JOKER_CODE, JOKER_RANK, Position


def legal_codes(pos: Position) -> list[int]:
    """The legal move codes of ``pos`` (none once the layout is cleared)."""
    if pos.removed == pos.layout.full_mask:
        return []
    table, waste, free = pos.follow, pos.waste_rank, pos.free
    codes = [
        i
        for i, r in enumerate(pos.ranks)
        if free >> i & 1 and (waste == JOKER_RANK or table[waste] >> r & 1)
    ]
    if pos.stock:
        codes.append(DRAW_CODE)
    if pos.jokers:
        codes.append(JOKER_CODE)
    return codes


def step(pos: Position, code: int) -> Position:
    """The position after the move ``code`` (assumed legal)."""
    if code == DRAW_CODE:
        return replace(pos, waste=pos.stock[0], stock=pos.stock[1:], run=0)
    if code == JOKER_CODE:
        return replace(pos, waste=JOKER, jokers=pos.jokers - 1, run=pos.run + 1)
    return replace(pos, removed=pos.removed | 1 << code, waste=pos.cards[code], run=pos.run + 1)
