"""MCTS in the treasure hunt: flat Monte Carlo events, the careful walker, the cut-off score.

``mcts:level=hard`` decides the treasure hunt by :func:`decide` (``worlds`` > 0);
the tree, with the walker's playouts and shortlist, is what ``easy``,
``medium`` and ``worlds=0`` play, and the tests of the tree below ask for it so.
"""

from __future__ import annotations

import pytest

from pyramids.ai.errors import AgentError
from pyramids.ai.greedy.pyramido_treasure import TreasureMemoryAgent
from pyramids.ai.mcts import MCTSAgent
from pyramids.ai.policies import get_policy
from pyramids.ai.policies.pyramido_treasure import (
    PENDING,
    candidates,
    close_steps,
    decide,
    evaluate,
    playout,
    ranked_steps,
    wanted,
)
from pyramids.engine.rng import Rng
from pyramids.games.pyramido_treasure import SLIDES, TreasureState
from pyramids.games.pyramido_treasure.board import NEIGHBOURS, SPOTS
from pyramids.games.pyramido_treasure.phases import OVER, SLIDE_PHASES, Phase
from pyramids.games.pyramido_treasure.treasures import card_points
from tests.ai.positions import self_play_positions


def greedy_positions(seed: int, plies: int, players: int = 2) -> list[TreasureState]:
    """Every position of a game ``greedy`` plays in every seat, up to ``plies``."""
    seen = self_play_positions("pyramido-treasure", TreasureMemoryAgent(), seed, plies, players)
    assert all(isinstance(s, TreasureState) for s in seen)
    return [s for s in seen if isinstance(s, TreasureState)]


def test_policy_is_registered_with_its_hooks() -> None:
    policy = get_policy("pyramido-treasure")
    assert policy.candidates is candidates
    assert policy.playout is playout
    assert policy.evaluate is evaluate
    assert policy.decide is decide
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
        agent = MCTSAgent(iterations=150, seconds=0, worlds=0)
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
        agent = MCTSAgent(iterations=50, seconds=0, worlds=0)
        assert agent.choose(state, Rng(2)) == SLIDES[steps[0]]
        assert agent.last_visits == {SLIDES[steps[0]]: 0}
        return
    pytest.fail("no position with a single close step")


def test_search_still_runs_where_the_walker_sees_a_choice() -> None:
    for state in greedy_positions(10, 300):
        if state.phase != "search" or len(close_steps(state)) < 2:
            continue
        agent = MCTSAgent(iterations=60, seconds=0, worlds=0)
        move = agent.choose(state, Rng(3))
        assert move.a in close_steps(state)
        assert sum(agent.last_visits.values()) == 60
        return
    pytest.fail("no position with two close steps")


#: the phases where the player chooses something other than a slide
EVENT_CHOICES = frozenset(p.label for p in Phase if p not in SLIDE_PHASES and p is not OVER)


def event_positions(seeds: range, plies: int = 400, players: int = 2) -> list[TreasureState]:
    """Event choices with more than one option, from games ``greedy`` plays in every seat."""
    return [
        s
        for seed in seeds
        for s in greedy_positions(seed, plies, players)
        if s.phase in EVENT_CHOICES and len(s.legal_moves()) > 1
    ]


def test_decide_reads_only_what_the_seat_knows() -> None:
    """Another determinization of the same view (other hidden tokens, deck order, draws):
    the same decision, at events (flat Monte Carlo) and slides (``greedy``'s) alike."""
    checked = 0
    events = [
        *event_positions(range(11, 14))[:12],
        *event_positions(range(31, 35), players=4)[:10],
        *event_positions(range(35, 39), players=5)[:10],
    ]
    assert len(events) >= 25
    for state in [*events, *greedy_positions(14, 40)[5::7]]:
        seat = state.current_player
        assert seat is not None
        other = state.determinize(seat, Rng(900 + checked))
        mine = decide(state, state.legal_moves(), seat, Rng(checked), 2, None)
        assert mine in state.legal_moves()
        assert decide(other, other.legal_moves(), seat, Rng(checked), 2, None) == mine
        checked += 1
    assert checked >= 30


def test_events_are_weighed_not_just_ranked() -> None:
    """Playing the options out changes some choices from the ranking's first option;
    a broken tally (every option scored alike) would always keep the first."""
    departures = 0
    positions = event_positions(range(15, 21))
    assert len(positions) >= 10
    for k, state in enumerate(positions):
        seat = state.current_player
        assert seat is not None
        moves = state.legal_moves()
        first = candidates(state, moves)[0]
        departures += decide(state, moves, seat, Rng(k), 4, None) != first
    assert departures > 0


def test_slides_are_greedys_and_the_deadline_keeps_one_world() -> None:
    slides = [s for s in greedy_positions(21, 60) if s.phase == "search"][3:8]
    for k, state in enumerate(slides):
        seat = state.current_player
        assert seat is not None
        want = TreasureMemoryAgent().choose(state, Rng(k))
        assert decide(state, state.legal_moves(), seat, Rng(k), 4, None) == want
    state = event_positions(range(22, 26))[0]
    seat = state.current_player
    assert seat is not None
    moves = state.legal_moves()
    late = decide(state, moves, seat, Rng(5), 8, 0.0)  # the deadline long past
    assert late == decide(state, moves, seat, Rng(5), 1, None)


def test_mcts_plays_the_decision_without_growing_a_tree() -> None:
    state = event_positions(range(27, 30))[0]
    seat = state.current_player
    assert seat is not None
    agent = MCTSAgent(level="hard", seconds=0)
    assert agent.worlds == 4
    move = agent.choose(state, Rng(6))
    assert agent.last_visits == {move: 0}
    # the decision is decide's, from the first seed drawn from the caller's stream
    moves = state.legal_moves()
    assert move == decide(state, moves, seat, Rng(Rng(6).next_u64()), 4, None)
    # the plain algorithm, for comparisons, never takes the game's shortcut
    plain = MCTSAgent(level="hard", iterations=30, seconds=0, playouts="random")
    plain.choose(state, Rng(6))
    assert sum(plain.last_visits.values()) == 30
    tree = MCTSAgent(iterations=40, seconds=0, worlds=0)
    tree.choose(state, Rng(6))
    assert sum(tree.last_visits.values()) == 40
    # the lower levels keep the tree: one world plays as well as four, so
    # with worlds they would play as ``hard`` does
    for level in ("easy", "medium"):
        lower = MCTSAgent(level=level, iterations=30, seconds=0)
        assert lower.worlds == 0
        lower.choose(state, Rng(6))
        assert sum(lower.last_visits.values()) == 30


@pytest.mark.parametrize("worlds", ["-1", "many"])
def test_a_bad_worlds_option_is_refused(worlds: str) -> None:
    with pytest.raises(AgentError, match="worlds"):
        MCTSAgent(worlds=worlds)
