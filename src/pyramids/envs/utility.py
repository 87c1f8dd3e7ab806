"""How a finished game's outcome becomes a number per seat, shared by the adapters.

A solitaire's utility is its score. With several players the score alone is
a poor target (a seat can score high and still lose), so the adapters that
need a game-theoretic utility use the *pairwise* one: each seat gets +1 for
every opponent ranked below it and -1 for every one above, divided by the
number of opponents. It lies in [-1, 1], ties count 0, and the seats' values
always add up to 0, so OpenSpiel may treat the game as zero-sum.
"""

from __future__ import annotations

from collections.abc import Sequence


def pairwise_utility(ranking: Sequence[int]) -> list[float]:
    """Per seat, (opponents beaten - opponents beating it) / opponents; ranks 1 = best."""
    n = len(ranking)
    if n < 2:
        raise ValueError("pairwise utility needs at least two seats")
    return [sum((r_other > r) - (r_other < r) for r_other in ranking) / (n - 1) for r in ranking]
