"""Hints under hidden information: which move wins most often, by sampling.

At the table the stock order (and, for tripeaks or ``face_down``, the covered
cards) is unknown. A hint therefore deals the unknown cards again many times
with :meth:`~pyramids.games.piramides.PiramidesState.determinize` (each sample
is consistent with everything the player has seen), solves each legal move
exactly in every sample, and recommends the move that wins in the most
samples (or, in score mode, has the best mean score). Sampling is the honest
answer to "what would a perfect player do without peeking", though it is
optimistic: each sample is solved as if the player knew that sample's order.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from math import sqrt

from pyramids.engine.rng import Rng
from pyramids.games.piramides import PiramidesMove, PiramidesState
from pyramids.games.piramides.game import (
    CLEAR_BONUS,
    JOKER_PENALTY,
    RUN_STEP,
    STOCK_PENALTY,
)
from pyramids.solver.position import Position, position_of
from pyramids.solver.search import (
    DRAW_CODE,
    JOKER_CODE,
    UNKNOWN,
    WIN,
    code_to_move,
    move_to_code,
    solve,
)
from pyramids.solver.transitions import legal_codes, step


@dataclass
class MoveEstimate:
    """What the samples say about one move."""

    move: PiramidesMove
    samples: int = 0
    wins: int = 0
    unknown: int = 0
    score_total: int = 0
    scored: int = 0

    @property
    def chance(self) -> float:
        """Fraction of decided samples in which the move still clears the round."""
        decided = self.samples - self.unknown
        return self.wins / decided if decided else 0.0

    @property
    def mean_score(self) -> float | None:
        """Mean best score after the move (score mode), ``None`` if none was decided."""
        return self.score_total / self.scored if self.scored else None

    @property
    def margin(self) -> float:
        """Half-width of a 95% normal interval on :attr:`chance`."""
        n = self.samples - self.unknown
        if not n:
            return 1.0
        p = self.chance
        return 1.96 * sqrt(p * (1 - p) / n)


@dataclass
class Hint:
    """The recommendation and the estimate of every legal move, best first."""

    best: PiramidesMove
    estimates: list[MoveEstimate] = field(default_factory=list)
    samples: int = 0
    seconds: float = 0.0
    mode: str = "clear"


def _gain(pos: Position, code: int, golf: bool) -> int:
    """Points a move scores at once (the pyramid family's run scoring)."""
    if golf:
        return 0
    if code == DRAW_CODE:
        return -STOCK_PENALTY
    if code == JOKER_CODE:
        return -JOKER_PENALTY
    points = RUN_STEP * (pos.run + 1)
    if pos.removed | 1 << code == pos.layout.full_mask:
        points += CLEAR_BONUS
    return points


def _score_sample(
    pos: Position,
    move: PiramidesMove,
    est: MoveEstimate,
    golf: bool,
    max_nodes: int,
    max_seconds: float,
) -> None:
    code = move_to_code(move)
    child = step(pos, code)
    est.samples += 1
    if child.removed == child.layout.full_mask:
        est.wins += 1
        est.score_total += _gain(pos, code, golf) + (len(child.stock) if golf else 0)
        est.scored += 1
        return
    result = solve(child, "score", max_nodes=max_nodes, max_seconds=max_seconds)
    if result.verdict == UNKNOWN or result.score is None:
        est.unknown += 1
        return
    est.wins += result.verdict == WIN
    est.score_total += _gain(pos, code, golf) + result.score
    est.scored += 1


def hint(
    state: PiramidesState,
    *,
    samples: int = 24,
    mode: str = "clear",
    seed: int = 0,
    max_nodes: int = 200_000,
    max_seconds: float = 5.0,
) -> Hint:
    """Estimate every legal move of ``state`` over sampled deals of the unseen cards.

    Stops early when ``max_seconds`` is spent (after at least one sample);
    each single solve is capped at ``max_nodes`` and counted ``unknown`` past it.
    """
    if state.is_over:
        raise ValueError("the game is over: there is nothing to hint")
    legal = state.legal_moves()
    if len(legal) == 1:
        return Hint(legal[0], [MoveEstimate(legal[0])], 0, 0.0, mode)
    golf = state.layout.name == "golf"
    estimates = {m: MoveEstimate(m) for m in legal}
    rng = Rng(seed)
    start = time.perf_counter()
    done = 0
    for _ in range(samples):
        if done and time.perf_counter() - start > max_seconds:
            break
        det = state.determinize(0, rng.fork())
        assert isinstance(det, PiramidesState)
        pos = position_of(det)
        assert set(legal_codes(pos)) == {move_to_code(m) for m in legal}
        if mode == "clear":
            result = solve(
                pos, "clear", max_nodes=max_nodes, max_seconds=max_seconds, each_move=True
            )
            for m in legal:
                est = estimates[m]
                est.samples += 1
                verdict = result.per_move[move_to_code(m)]
                est.wins += verdict == WIN
                est.unknown += verdict == UNKNOWN
        else:
            for m in legal:
                _score_sample(pos, m, estimates[m], golf, max_nodes, max_seconds)
        done += 1

    def key(e: MoveEstimate) -> tuple[float, float]:
        if mode == "score":
            return (e.mean_score if e.mean_score is not None else float("-inf"), e.chance)
        return (e.chance, e.mean_score or 0.0)

    ranked = sorted(estimates.values(), key=key, reverse=True)
    return Hint(ranked[0].move, ranked, done, time.perf_counter() - start, mode)


__all__ = ["Hint", "MoveEstimate", "code_to_move", "hint"]
