"""PySolFC's Golf deals, through the optional ``pysol_cards`` package (extra ``pysol``).

PySolFC numbers its deals with its own shuffle; ``pysol_cards`` reproduces
it and prints the deal in the Golf board format, which :mod:`.board` reads.
So ``--pysol-deal 906`` is the same board that PySolFC shows as Golf game 906
and that other Golf solvers are tested on.
"""

from __future__ import annotations

from pyramids.solver.board import BoardError, parse_board
from pyramids.solver.position import Position


def pysol_available() -> bool:
    """Whether the optional ``pysol_cards`` package is installed."""
    try:
        import pysol_cards  # type: ignore[import-untyped, import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        return False
    return True


def pysol_board(deal: int) -> str:
    """The board text of PySolFC's Golf deal number ``deal``."""
    try:
        from pysol_cards.cards import CardRenderer  # type: ignore[import-untyped, import-not-found, unused-ignore]
        from pysol_cards.deal_game import Game  # type: ignore[import-untyped, import-not-found, unused-ignore]
        from pysol_cards.random_base import RandomBase  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:
        raise BoardError(
            "PySolFC deals need the optional package pysol_cards: pip install 'pyramids[pysol]'"
        ) from None
    if deal < 1:
        raise BoardError("PySolFC deal numbers start at 1")
    game = Game("golf", deal, RandomBase.DEALS_PYSOLFC)
    text: str = game.calc_layout_string(CardRenderer(True))
    return text


def pysol_position(deal: int, *, wrap: bool = False, strict: bool = False) -> Position:
    """PySolFC's Golf deal number ``deal`` as a solver position (``strict``: PySolFC's rule)."""
    return parse_board(pysol_board(deal), wrap=wrap, strict=strict)
