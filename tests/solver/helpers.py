"""Small positions and a plain reference scorer for the solver tests."""

from __future__ import annotations

from pyramids.games.piramides import JOKER
from pyramids.games.piramides.cards import parse_card
from pyramids.games.piramides.game import CLEAR_BONUS, JOKER_PENALTY, RUN_STEP, STOCK_PENALTY
from pyramids.games.piramides.layout import Layout, pyramid_layout
from pyramids.solver.position import Position
from pyramids.solver.search import DRAW_CODE, JOKER_CODE
from pyramids.solver.transitions import legal_codes, step

SMALL = pyramid_layout(3)  # A1 / B1 B2 / C1 C2 C3


def c(name: str) -> int:
    card = parse_card(name)
    assert card is not None, name
    return card


def small(
    cards: str,
    waste: str,
    stock: str = "",
    *,
    jokers: int = 0,
    wrap: bool = True,
    layout: Layout = SMALL,
) -> Position:
    """A position on a small layout: cards listed in position order."""
    return Position(
        layout,
        tuple(c(n) for n in cards.split()),
        c(waste),
        tuple(c(n) for n in stock.split()),
        wrap=wrap,
        jokers=jokers,
    )


def replay_score(pos: Position, line: list[int], golf: bool = False) -> tuple[int, bool]:
    """Play ``line`` move by move (each must be legal); return (round score, cleared)."""
    score = 0
    for code in line:
        assert code in legal_codes(pos), (code, legal_codes(pos))
        if code == DRAW_CODE:
            score -= 0 if golf else STOCK_PENALTY
        elif code == JOKER_CODE:
            score -= 0 if golf else JOKER_PENALTY
        else:
            score += 0 if golf else RUN_STEP * (pos.run + 1)
        pos = step(pos, code)
        if pos.removed == pos.layout.full_mask:
            break
    cleared = pos.removed == pos.layout.full_mask
    if golf:
        score = len(pos.stock) if cleared else -(pos.layout.size - pos.removed.bit_count())
    elif cleared:
        score += CLEAR_BONUS
    return score, cleared


def brute_force(pos: Position, golf: bool = False) -> tuple[bool, int]:
    """Every line, no pruning at all: (can it be cleared, best round score)."""
    best = -(10**9)
    can_clear = False

    def walk(p: Position, score: int) -> None:
        nonlocal best, can_clear
        if p.removed == p.layout.full_mask:
            can_clear = True
            final = score + (len(p.stock) if golf else CLEAR_BONUS)
            best = max(best, final)
            return
        codes = legal_codes(p)
        if not codes:
            final = -(p.layout.size - p.removed.bit_count()) if golf else score
            best = max(best, final)
            return
        for code in codes:
            if golf:
                gain = 0
            elif code == DRAW_CODE:
                gain = -STOCK_PENALTY
            elif code == JOKER_CODE:
                gain = -JOKER_PENALTY
            else:
                gain = RUN_STEP * (p.run + 1)
            walk(step(p, code), score + gain)

    walk(pos, 0)
    return can_clear, best


__all__ = ["JOKER", "SMALL", "brute_force", "c", "replay_score", "small"]
