"""Statistics for the arena: win-rate intervals, mean intervals and Elo ratings.

Why these methods:

* **Wilson score interval** for win rates: unlike the textbook
  ``p ± 1.96·sqrt(p(1-p)/n)`` it stays inside ``[0, 1]`` and is honest near
  0 % and 100 %, where agent comparisons often land.
* **Elo by maximum likelihood** (the Bradley–Terry model, fitted with
  Hunter's MM iteration): every game is broken into pairwise results (the
  better-placed seat beat the worse-placed one; equal places are a draw,
  counted as half a win each way). A weak prior of one virtual draw between
  every pair of agents keeps ratings finite when one agent wins every game.
  Ratings are on the usual Elo scale (400 points = 10:1 odds) with their mean
  fixed at 1500.
* **Intervals for Elo** by bootstrap over games: refit on games resampled
  with replacement (from our own seeded generator, so reports are
  reproducible) and take the 2.5 % and 97.5 % quantiles.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pyramids.engine.rng import Rng

Z95 = 1.959963984540054

#: One pairwise result: (agent a, agent b, a's points: 1 win, 0.5 draw, 0 loss).
Pair = tuple[int, int, float]


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (``successes`` may be fractional)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # a clean sweep lands on 0 or 1 up to rounding: say so exactly
    lo = 0.0 if centre - half < 1e-12 else centre - half
    hi = 1.0 if centre + half > 1 - 1e-12 else centre + half
    return (lo, hi)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and normal-approximation interval ``(mean, low, high)``."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, mean, mean)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def pairs_from_places(agents: Sequence[int], places: Sequence[float]) -> list[Pair]:
    """Pairwise results of one game: lower place beats higher; seats of one agent skip."""
    out: list[Pair] = []
    for i in range(len(agents)):
        for j in range(i + 1, len(agents)):
            a, b = agents[i], agents[j]
            if a == b:
                continue
            if places[i] < places[j]:
                out.append((a, b, 1.0))
            elif places[i] > places[j]:
                out.append((a, b, 0.0))
            else:
                out.append((a, b, 0.5))
    return out


def elo(
    pairs: Sequence[Pair], agents: int, prior_draws: float = 1.0, iterations: int = 500
) -> list[float]:
    """Maximum-likelihood Elo ratings of ``agents`` agents (mean 1500).

    ``prior_draws`` virtual draws between every pair of agents regularise the
    fit (finite ratings even for a clean sweep).
    """
    if agents == 0:
        return []
    if agents == 1:
        return [1500.0]
    wins = [0.0] * agents
    games = [[0.0] * agents for _ in range(agents)]
    for a in range(agents):
        for b in range(agents):
            if a != b:
                games[a][b] = prior_draws
        wins[a] = prior_draws * (agents - 1) / 2
    for a, b, points in pairs:
        games[a][b] += 1
        games[b][a] += 1
        wins[a] += points
        wins[b] += 1 - points
    gamma = [1.0] * agents
    for _ in range(iterations):
        new = []
        for a in range(agents):
            denom = sum(
                games[a][b] / (gamma[a] + gamma[b]) for b in range(agents) if b != a and games[a][b]
            )
            new.append(wins[a] / denom if denom > 0 else gamma[a])
        # keep the geometric mean at 1 so the iteration cannot drift
        log_mean = sum(math.log(g) for g in new) / agents
        new = [g / math.exp(log_mean) for g in new]
        change = max(abs(math.log(n / o)) for n, o in zip(new, gamma, strict=True))
        gamma = new
        if change < 1e-10:
            break
    return [1500.0 + 400.0 * math.log10(g) for g in gamma]


def elo_intervals(
    games: Sequence[Sequence[Pair]],
    agents: int,
    resamples: int = 200,
    seed: int = 0,
    prior_draws: float = 1.0,
) -> list[tuple[float, float]]:
    """Bootstrap 95 % intervals of :func:`elo`, resampling whole games."""
    if not games or agents < 2:
        return [(math.nan, math.nan)] * agents
    rng = Rng(seed)
    samples: list[list[float]] = [[] for _ in range(agents)]
    n = len(games)
    for _ in range(resamples):
        pairs = [p for _ in range(n) for p in games[rng.below(n)]]
        for a, r in enumerate(elo(pairs, agents, prior_draws)):
            samples[a].append(r)
    out = []
    for values in samples:
        values.sort()
        out.append((_quantile(values, 0.025), _quantile(values, 0.975)))
    return out


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolation quantile of already sorted values."""
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)
