"""A minimal bitmask implementation of the Pirámides rules, for comparison only.

Why it exists: random play through the public engine API is to run at least
half as fast as the simplest thing Python can do for these
rules. This module is that simplest thing, written without any of the
contract (no move objects, no move log, no checks of illegal moves, no views,
no records): a round is six ints (removed and free positions as bitmasks,
the waste card, the stock pointer, jokers left, the current run) and, per
waste rank, the bitmask of positions whose card may follow it (built when the
round is dealt, so the cards that fit are one AND), a move is
an int (``0..27`` a position, :data:`DRAW`, :data:`JOKER_MOVE`), and the
geometry and rank adjacency are the engine's own precomputed tables, so both
sides pay for the same rules and nothing else. Dealing uses the project's
generator with the same shuffle, so both sides deal the same cards.

It is not part of the package and nothing imports it but the benchmark.
"""

from __future__ import annotations

from pyramids.engine.rng import Rng
from pyramids.games.piramides.cards import JOKER, NEXT_RANKS, shuffled_deck
from pyramids.games.piramides.layout import PYRAMID

SIZE = PYRAMID.size
FULL = PYRAMID.full_mask
INITIALLY_FREE = PYRAMID.initially_free
COVERS = PYRAMID.covers
COVERED_BY = PYRAMID.covered_by
DRAW = SIZE
JOKER_MOVE = SIZE + 1
ROUNDS = 5
RUN_STEP = 5


class RefPiramides:
    """One game of five rounds (one joker each), default pyramid layout with wrap."""

    __slots__ = (
        "cards",
        "deals",
        "fit",
        "free",
        "jokers",
        "over",
        "points",
        "removed",
        "round",
        "run",
        "stock",
        "stock_pos",
        "waste",
    )

    def __init__(self, rng: Rng, lazy: bool = True) -> None:
        # lazy: shuffle a round's deck only when the round is reached
        self.deals = [shuffled_deck(rng)] if lazy else [shuffled_deck(rng) for _ in range(ROUNDS)]
        self.round = 0
        self.points = 0
        self.over = False
        self._start(self.deals[0])

    def _start(self, deal: list[int]) -> None:
        self.cards = deal
        # per waste rank (13 = the joker): the positions whose card may follow it
        by_rank = [0] * 13
        for i in range(SIZE):
            by_rank[deal[i] % 13] |= 1 << i
        fit = []
        for r in range(13):
            follow, mask = NEXT_RANKS[r], 0
            for s in range(13):
                if follow >> s & 1:
                    mask |= by_rank[s]
            fit.append(mask)
        fit.append(FULL)
        self.fit = fit
        self.waste = deal[SIZE]
        self.stock = deal[SIZE + 1 :]
        self.stock_pos = 0
        self.removed = 0
        self.free = INITIALLY_FREE
        self.jokers = 1
        self.run = 0

    def _fits(self) -> int:
        return self.free & self.fit[13 if self.waste == JOKER else self.waste % 13]

    def legal_moves(self) -> list[int]:
        if self.over:
            return []
        fits = self._fits()
        moves = []
        while fits:
            low = fits & -fits
            moves.append(low.bit_length() - 1)
            fits ^= low
        if self.stock_pos < len(self.stock):
            moves.append(DRAW)
        if self.jokers:
            moves.append(JOKER_MOVE)
        return moves

    def play(self, move: int, rng: Rng | None = None) -> None:
        if move < SIZE:
            self.removed = removed = self.removed | 1 << move
            free = self.free & ~(1 << move)
            for p in COVERS[move]:
                if not COVERED_BY[p] & ~removed:
                    free |= 1 << p
            self.free = free
            self.waste = self.cards[move]
            self.run += 1
            self.points += RUN_STEP * self.run
            if removed == FULL:
                self.round += 1
                if self.round == ROUNDS:
                    self.over = True
                    return
                if len(self.deals) == self.round:
                    assert rng is not None
                    self.deals.append(shuffled_deck(rng))
                self._start(self.deals[self.round])
                return
        elif move == DRAW:
            self.waste = self.stock[self.stock_pos]
            self.stock_pos += 1
            self.run = 0
            self.points -= 5
        else:
            self.waste = JOKER
            self.jokers -= 1
            self.run += 1
            self.points -= 50
        if not self.jokers and self.stock_pos >= len(self.stock) and not self._fits():
            self.over = True
