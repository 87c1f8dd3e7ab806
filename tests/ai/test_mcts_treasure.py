"""MCTS in the treasure hunt: the careful walker, its public-only plan, the cut-off score."""

from __future__ import annotations

import pytest

from pyramids.ai.greedy.pyramido_treasure import TreasureMemoryAgent
from pyramids.ai.mcts import MCTSAgent
from pyramids.ai.policies import get_policy
from pyramids.ai.policies.pyramido_treasure import (
    PENDING,
    candidates,
    close_steps,
    evaluate,
    playout,
    ranked_steps,
    wanted,
)
from pyramids.engine.rng import Rng
from pyramids.games.pyramido_treasure import SLIDES, TreasureState
from pyramids.games.pyramido_treasure.board import NEIGHBOURS, SPOTS
from pyramids.games.pyramido_treasure.treasures import card_points
from tests.ai.positions import self_play_positions


def greedy_positions(seed: int, plies: int) -> list[TreasureState]:
    """Every position of a game ``greedy`` plays against itself, up to ``plies``."""
    seen = self_play_positions("pyramido-treasure", TreasureMemoryAgent(), seed, plies)
    assert all(isinstance(s, TreasureState) for s in seen)
    return [s for s in seen if isinstance(s, TreasureState)]


def test_policy_is_registered_with_its_hooks() -> None:
    policy = get_policy("pyramido-treasure")
    assert policy.candidates is candidates
    assert policy.playout is playout
    assert policy.evaluate is evaluate
    assert policy.playout_limit is not None and policy.playout_limit <= 40


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_walker_order_and_candidates_read_only_public_information(seed: int) -> None:
    """A determinization (other hidden tokens, other deck order) gets the same ranking."""
    for i, state in enumerate(greedy_positions(seed, 120)):
        seat = state.current_player
        assert seat is not None
        other = state.determinize(seat, Rng(500 + i))
        moves = state.legal_moves()
        assert candidates(state, moves) == candidates(other, other.legal_moves())
        short = candidates(state, moves)
        assert short and set(short) <= set(moves) and len(set(short)) == len(short)
        if state.phase in ("search", "gift", "danger", "mirage", "poker"):
            assert sorted(ranked_steps(state)) == sorted(NEIGHBOURS[state.empty_spot])


def _known_other_treasure(state: TreasureState, spot: int) -> bool:
    """The token at ``spot`` was revealed and is a treasure the mover does not want."""
    token = state.token_at(spot)
    return bool(state._known >> spot & 1 and token and token - 1 not in wanted(state))


@pytest.mark.parametrize("seed", [3, 4])
def test_walker_never_steps_on_a_known_other_treasure_when_it_can_avoid_it(seed: int) -> None:
    checked = 0
    for state in greedy_positions(seed, 200):
        if state.phase != "search":
            continue
        around = NEIGHBOURS[state.empty_spot]
        safe = [n for n in around if not _known_other_treasure(state, n)]
        if len(safe) == len(around) or not safe:
            continue
        checked += 1
        assert not _known_other_treasure(state, ranked_steps(state)[0])
    assert checked > 0


def test_walker_finds_a_treasure_whose_spot_is_known_without_revealing_another() -> None:
    """Walking a seen treasure's spot: every step of the walk is safe and it ends there."""
    walks = 0
    for state in greedy_positions(5, 300):
        if state.phase != "search":
            continue
        sought = state.sought >> 2
        spot = next(s for s in range(SPOTS) if state.token_at(s) == sought + 1)
        if not state._known >> spot & 1 or state.empty_spot == spot:
            continue
        walk = state.copy()
        seeker = walk.current_player
        for _ in range(60):
            if walk.phase != "search" or walk.sought >> 2 != sought:
                break
            assert walk.current_player == seeker, "the walker revealed another treasure"
            walk.play(SLIDES[ranked_steps(walk)[0]])
        assert walk.empty_spot == spot
        walks += 1
    assert walks >= 3


def test_cut_off_score_credits_the_seeker_with_a_share_of_the_card() -> None:
    state = greedy_positions(7, 1)[0]
    assert state.phase == "search"
    seat = state.current_player
    assert seat is not None
    guess = evaluate(state)
    held = state.scores()
    for p, g in enumerate(guess):
        extra = PENDING * card_points(state.sought) if p == seat else 0.0
        assert g == pytest.approx(held[p] + extra)


def test_mcts_prefers_the_walkers_safe_step_next_to_a_known_other_treasure() -> None:
    """Where one step reveals a known other treasure (the card passes), search avoids it."""
    for state in greedy_positions(8, 300):
        if state.phase != "search":
            continue
        around = NEIGHBOURS[state.empty_spot]
        bad = [n for n in around if _known_other_treasure(state, n)]
        if not bad or len(bad) == len(around):
            continue
        agent = MCTSAgent(iterations=150, seconds=0)
        move = agent.choose(state, Rng(1))
        assert move.a not in bad
        return
    pytest.fail("no position with a known other treasure next to the gap")


def test_a_one_move_shortlist_is_played_without_searching() -> None:
    """Walking over known blanks the walker's step is clear: MCTS plays it, 0 visits spent."""
    for state in greedy_positions(9, 300):
        if state.phase != "search" or len(state.legal_moves()) < 2:
            continue
        steps = close_steps(state)
        if len(steps) != 1:
            continue
        agent = MCTSAgent(iterations=50, seconds=0)
        assert agent.choose(state, Rng(2)) == SLIDES[steps[0]]
        assert agent.last_visits == {SLIDES[steps[0]]: 0}
        return
    pytest.fail("no position with a single close step")


def test_search_still_runs_where_the_walker_sees_a_choice() -> None:
    for state in greedy_positions(10, 300):
        if state.phase != "search" or len(close_steps(state)) < 2:
            continue
        agent = MCTSAgent(iterations=60, seconds=0)
        move = agent.choose(state, Rng(3))
        assert move.a in close_steps(state)
        assert sum(agent.last_visits.values()) == 60
        return
    pytest.fail("no position with two close steps")
