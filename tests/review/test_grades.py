"""Grades: every band edge of every game's profile, and a loss inside its noise is good.

The bands are the table of ``docs/review.md``; a decision is graded on its
loss less one standard error, so a review flags a move only when the
evidence says it lost something.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

import pyramids
from pyramids.ai.registry import make_agent
from pyramids.engine.registry import all_games
from pyramids.engine.rng import Rng
from pyramids.review import (
    BLUNDER,
    GOOD,
    INACCURACY,
    MISTAKE,
    Decision,
    Thresholds,
    review,
    thresholds_for,
)
from pyramids.review.model import DEFAULT_THRESHOLDS
from tests.review.positions import pyramideto_immediate_win

#: each game's bands as docs/review.md gives them: inaccuracy, mistake, blunder from
BANDS: dict[str, tuple[float, float, float]] = {
    "piramides": (0.05, 0.10, 0.25),
    "pyramideto": (0.06, 0.12, 0.25),
    "pyramido": (0.07, 0.14, 0.28),
    "pyramido-treasure": (0.07, 0.14, 0.28),
}


def test_every_game_has_the_documented_bands() -> None:
    assert {g.id for g in all_games()} == set(BANDS)
    for game_id, (inaccuracy, mistake, blunder) in BANDS.items():
        assert thresholds_for(game_id) == Thresholds(inaccuracy, mistake, blunder)
    assert Thresholds(0.06, 0.12, 0.25) == DEFAULT_THRESHOLDS


def _edges(bands: Thresholds) -> list[tuple[float, str]]:
    """(loss, grade) at each side of every band edge, and at both ends of the scale."""
    table = [(0.0, GOOD)]
    below = GOOD
    for edge, grade in (
        (bands.inaccuracy, INACCURACY),
        (bands.mistake, MISTAKE),
        (bands.blunder, BLUNDER),
    ):
        table += [(math.nextafter(edge, 0.0), below), (edge, grade)]
        below = grade
    return [*table, (1.0, BLUNDER)]


@pytest.mark.parametrize("game_id", [*BANDS, "default"])
def test_each_band_edge_gives_its_grade(game_id: str) -> None:
    bands = DEFAULT_THRESHOLDS if game_id == "default" else thresholds_for(game_id)
    table = _edges(bands)
    assert [grade for _, grade in table] == [
        GOOD,
        GOOD,
        INACCURACY,
        INACCURACY,
        MISTAKE,
        MISTAKE,
        BLUNDER,
        BLUNDER,
    ]
    for loss, grade in table:
        assert bands.grade(loss) == grade, (game_id, loss)


def _inside_noise(decisions: list[Decision], bands: Thresholds) -> list[Decision]:
    """The decisions whose loss reaches a band that its loss less its noise does not."""
    return [d for d in decisions if bands.grade(d.loss) != bands.grade(max(0.0, d.loss - d.noise))]


def _check_graded_on_loss_less_noise(record: dict[str, Any], budget: int) -> None:
    result = review(record, budget=budget, seed=3)
    bands = result.thresholds
    # guard: the review holds decisions whose measured loss alone would grade worse
    assert _inside_noise(result.decisions, bands)
    for d in result.decisions:
        assert d.grade == bands.grade(max(0.0, d.loss - d.noise)), d
    # and a loss no larger than its noise is good
    for d in result.decisions:
        if d.loss <= d.noise:
            assert d.grade == GOOD, d


def test_a_multiplayer_loss_inside_its_noise_is_graded_by_loss_less_noise() -> None:
    _check_graded_on_loss_less_noise(pyramideto_immediate_win(), 20)


def test_a_piramides_loss_inside_its_noise_is_graded_by_loss_less_noise() -> None:
    state = pyramids.new_game("piramides", seed=4)
    agent, rng = make_agent("random", "piramides"), Rng(4)
    while not state.is_over:
        state.play(agent.choose(state, rng))
    _check_graded_on_loss_less_noise(state.record(), 80)
