"""The memory agents: they use only the view, remember or forget, and head for the treasure."""

from __future__ import annotations

import pytest

import pyramids
from pyramids.ai.greedy.pyramido_treasure import (
    Belief,
    ChildAgent,
    TreasureMemoryAgent,
    costs_to,
    reach_costs,
)
from pyramids.ai.registry import agent_names, make_agent
from pyramids.engine.rng import Rng
from pyramids.games.pyramido_treasure import TreasureState
from pyramids.games.pyramido_treasure.board import FIELD_SPOTS, SPOTS, distance
from tests.pyramido_treasure.helpers import T, arrange, setup, slide_to, spot, start


def test_agents_are_registered_for_the_game() -> None:
    names = agent_names("pyramido-treasure")
    assert {"random", "greedy", "child"} <= set(names)
    assert isinstance(make_agent("greedy", "pyramido-treasure"), TreasureMemoryAgent)
    assert isinstance(make_agent("child", "pyramido-treasure"), ChildAgent)
    with pytest.raises(ValueError):
        TreasureMemoryAgent(forget=1.5)


def test_path_costs_are_manhattan_on_a_flat_board() -> None:
    flat = [1.0] * SPOTS
    for a in (0, 13, 47):
        reach = reach_costs(a, flat)
        back = costs_to(a, flat)
        assert all(reach[b] == distance(a, b) == back[b] for b in range(SPOTS))


def test_belief_with_fixed_fields_spreads_over_unseen_spots_of_the_field() -> None:
    belief = Belief({FIELD_SPOTS[1][0]: 0, FIELD_SPOTS[1][1]: 0}, shuffled=False)
    chances = [belief.chance[T["mummy"]][s] for s in FIELD_SPOTS[1]]
    assert chances == [0.0, 0.0, 0.5, 0.5]
    assert sum(belief.chance[T["mummy"]]) == pytest.approx(1.0)
    shuffled = Belief({}, shuffled=True)
    assert sum(shuffled.chance[T["mummy"]]) == pytest.approx(1.0)
    assert shuffled.chance[T["mummy"]][0] == pytest.approx(1 / 48)


def test_the_searcher_takes_a_shortest_path_to_a_remembered_treasure() -> None:
    state = start(2, setup({"mummy": "D2"}))
    arrange(state, deck=2, cards=["mummy/2", "parrot/2"], empty="H6")
    agent = TreasureMemoryAgent()
    # the mummy's field is C1 D1 C2 D2; every slide must bring the empty spot closer
    steps = 0
    while state.phase == "search" and state.current_player == 0:
        before = min(distance(state.empty_spot, s) for s in FIELD_SPOTS[1])
        state.play(agent.choose(state, Rng(steps)))
        steps += 1
        after = min(distance(state.empty_spot, s) for s in FIELD_SPOTS[1])
        assert after < before or before == 0
    assert steps < 14


def test_perfect_memory_remembers_every_reveal_and_a_child_forgets() -> None:
    state = start(2, setup({"mummy": "C2"}))
    slide_to(state, "B1", "C1")  # two blanks seen by the table
    perfect = TreasureMemoryAgent()
    perfect.choose(state, Rng(1))
    assert perfect.memory(0).tokens == {spot("B2"): 0, spot("B1"): 0, spot("C1"): 0}
    forgetful = TreasureMemoryAgent(forget=1.0)
    forgetful.choose(state, Rng(1))
    slide_to(state, "C2")  # the mummy: the turn passes to player 1 ...
    forgetful.choose(state, Rng(1))  # ... who learns it and then, next turn, forgets
    remembered = forgetful.memory(1).tokens
    assert remembered[spot("C2")] == T["mummy"] + 1
    slide_to(state, "C3")  # the scarab: back to player 0
    forgetful.choose(state, Rng(2))
    slide_to(state, "C2")  # the mummy again: player 1's new turn
    forgetful.choose(state, Rng(3))
    assert set(forgetful.memory(1).tokens) == {spot("C3"), spot("C2")}, (
        "forget=1: only what was revealed since the last turn is left"
    )


def test_agents_decide_only_on_the_view() -> None:
    """Two states that differ only in hidden tokens and deck order get the same choices."""
    for seed in range(6):
        state = pyramids.new_game("pyramido-treasure", players=3, seed=seed)
        rng = Rng(seed)
        while state.ply < 40 + 7 * seed and not state.is_over:
            moves = state.legal_moves()
            state.play(moves[rng.below(len(moves))])
        if state.is_over:
            continue
        twin = state.determinize(state.current_player, Rng(seed + 100))
        for name in ("greedy", "child"):
            a = make_agent(name, "pyramido-treasure").choose(state, Rng(4))
            b = make_agent(name, "pyramido-treasure").choose(twin, Rng(4))
            assert a == b


def _duel(first: str, second: str, games: int) -> list[int]:
    wins = [0, 0]
    for seed in range(games):
        state = pyramids.new_game("pyramido-treasure", players=2, seed=seed, first_player=seed % 2)
        agents = [make_agent(first, "pyramido-treasure"), make_agent(second, "pyramido-treasure")]
        rng = Rng(seed)
        while not state.is_over:
            p = state.current_player
            assert p is not None
            state.play(agents[p].choose(state, rng))
        for w in state.winners():
            wins[w] += 1
    return wins


def test_the_searcher_beats_random_play() -> None:
    wins = _duel("greedy", "random", 6)
    assert wins[0] == 6


def test_agents_play_whole_games_for_every_player_count() -> None:
    for n in range(2, 6):
        state = pyramids.new_game("pyramido-treasure", players=n, seed=n, shuffle_fields=n % 2 == 1)
        assert isinstance(state, TreasureState)
        agents = [make_agent("child" if p % 2 else "greedy", "pyramido-treasure") for p in range(n)]
        rng = Rng(n)
        while not state.is_over:
            p = state.current_player
            assert p is not None
            move = agents[p].choose(state, rng)
            assert move in state.legal_moves()
            state.play(move)
        assert state.slides < 600, "searchers with memory finish far faster than random play"
