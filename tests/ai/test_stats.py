"""Arena statistics: Wilson intervals, Elo fits and their bootstrap intervals."""

from __future__ import annotations

import math

import pytest

from pyramids.ai.stats import elo, elo_intervals, mean_interval, pairs_from_places, wilson


def test_wilson_matches_the_published_formula() -> None:
    # 8 of 10: the textbook Wilson 95% interval is 0.4902 .. 0.9433
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4)
    assert hi == pytest.approx(0.9433, abs=1e-4)
    # never outside [0, 1], even for clean sweeps, and symmetric around 1/2
    assert wilson(0, 20)[0] == 0.0
    assert wilson(20, 20)[1] == 1.0
    a, b = wilson(3, 10)
    c, d = wilson(7, 10)
    assert a == pytest.approx(1 - d) and b == pytest.approx(1 - c)
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_interval() -> None:
    mean, lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    half = 1.959963984540054 * math.sqrt((2.25 + 0.25 + 0.25 + 2.25) / 3 / 4)
    assert (lo, hi) == pytest.approx((2.5 - half, 2.5 + half))
    assert mean_interval([7.0]) == (7.0, 7.0, 7.0)


def test_pairs_from_places_skip_same_agent_and_count_ties_as_draws() -> None:
    assert pairs_from_places([0, 1, 2], [1, 2, 2]) == [(0, 1, 1.0), (0, 2, 1.0), (1, 2, 0.5)]
    assert pairs_from_places([0, 0, 1], [2, 1, 3]) == [(0, 1, 1.0), (0, 1, 1.0)]


def test_elo_two_agents_is_the_log_odds_of_the_score() -> None:
    # 3 wins and 1 loss plus the prior's one draw: 3.5 of 5 points
    pairs = [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)]
    r = elo(pairs, 2)
    assert r[0] - r[1] == pytest.approx(400 * math.log10(3.5 / 1.5), abs=1e-6)
    assert (r[0] + r[1]) / 2 == pytest.approx(1500)
    # even results: equal ratings; a clean sweep stays finite
    assert elo([(0, 1, 1.0), (0, 1, 0.0)], 2) == pytest.approx([1500, 1500])
    sweep = elo([(0, 1, 1.0)] * 50, 2)
    assert math.isfinite(sweep[0]) and sweep[0] > sweep[1] + 500


def test_elo_orders_a_transitive_chain() -> None:
    pairs = [(0, 1, 1.0)] * 6 + [(1, 2, 1.0)] * 6 + [(0, 2, 1.0)] * 6 + [(0, 1, 0.0)] * 2
    r = elo(pairs, 3)
    assert r[0] > r[1] > r[2]
    assert sum(r) / 3 == pytest.approx(1500)


def test_bootstrap_intervals_contain_the_fit_and_are_reproducible() -> None:
    games = [[(0, 1, 1.0)]] * 14 + [[(0, 1, 0.0)]] * 6
    fit = elo([p for g in games for p in g], 2)
    ci = elo_intervals(games, 2, resamples=100, seed=3)
    for (lo, hi), r in zip(ci, fit, strict=True):
        assert lo < r < hi
    assert ci == elo_intervals(games, 2, resamples=100, seed=3)
    assert all(math.isnan(x) for x in elo_intervals([], 2)[0])
