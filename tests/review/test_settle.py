"""Settling: a decision that is surely good stops early; one that may be flagged gets its budget.

Settling is a truncation of the full search (same guesses, same random
streams), so a review that settles must give, on every decision it does not
settle, exactly the full review's numbers, and the same grades nearly
everywhere, with fewer playouts in all.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import pyramids
from pyramids.ai.registry import make_agent
from pyramids.engine.rng import Rng
from pyramids.review import GOOD, grade_agreement, parse_budget, review, run


def _game(game_id: str, seed: int, plies: int) -> dict[str, Any]:
    """The first ``plies`` moves of a game of ``greedy`` against ``random``."""
    state = pyramids.new_game(game_id, players=2, seed=seed)
    agents = [make_agent("greedy", game_id), make_agent("random", game_id)]
    rng = Rng(seed)
    while not state.is_over and state.ply < plies:
        seat = state.current_player
        assert seat is not None
        move = agents[seat].choose(state, rng)
        state.play(move)
        for agent in agents:
            agent.observe(state, move, seat)
    return state.record()


def test_settling_spends_less_and_cuts_only_decisions_that_are_surely_good() -> None:
    for game_id, plies, budget in (("pyramideto", 24, 150), ("pyramido-treasure", 40, 200)):
        record = _game(game_id, 3, plies)
        _, settled_budget = parse_budget(budget)
        full = review(record, budget=replace(settled_budget, settle=False), seed=2)
        fast = review(record, budget=settled_budget, seed=2)
        assert [d.ply for d in fast.decisions] == [d.ply for d in full.decisions]
        by_ply = {d.ply: d for d in full.decisions}
        cut = [d for d in fast.decisions if d.evidence < by_ply[d.ply].evidence]
        assert cut, game_id  # settling happened
        assert sum(d.evidence for d in fast.decisions) < sum(d.evidence for d in full.decisions)
        for d in fast.decisions:
            if d in cut:
                assert d.grade == GOOD, d
            else:  # not settled: the full search, to the number
                assert d.to_dict() == by_ply[d.ply].to_dict()
        assert grade_agreement(fast.decisions, full.decisions) >= 0.9


def test_a_long_game_shares_the_budget_of_a_long_game_among_its_decisions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past ``LONG_GAME_DECISIONS`` the iterations per decision shrink, down to the floor."""
    record = _game("pyramideto", 3, 12)
    _, budget = parse_budget(100)
    whole = review(record, budget=budget, seed=2)
    assert whole.iterations == 300  # Pyramideto's share of 100
    monkeypatch.setattr(run, "LONG_GAME_DECISIONS", 6)
    halved = review(record, budget=budget, seed=2)
    assert halved.iterations == 150 and len(halved.decisions) == 12
    assert (
        max(d.evidence for d in halved.decisions) <= 150 < max(d.evidence for d in whole.decisions)
    )
    monkeypatch.setattr(run, "LONG_GAME_DECISIONS", 1)
    assert review(record, budget=budget, seed=2).iterations == 30  # the floor, a tenth
