"""The treasure-hunt ceiling benchmark: its game loop is the arena's, its cheater cheats well."""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.bench_think import EVENT_PHASES, questions
from benchmarks.bench_treasure_ceiling import (
    OmniscientAgent,
    WalkerAgent,
    main,
    measure,
    play_game,
)

import pyramids
from pyramids.ai.arena import ArenaConfig, build_agent, play_match, run_arena, schedule, summarize
from pyramids.ai.base import Agent
from pyramids.engine.rng import Rng
from pyramids.games.pyramido_treasure import TreasureState
from pyramids.games.pyramido_treasure.board import SPOTS, distance


def test_the_arena_builds_each_seat_with_the_factory_it_is_given() -> None:
    """The benchmark's players come in through ``play_match``'s ``agent_factory``."""
    config = ArenaConfig("pyramido-treasure", ("random", "greedy"), games=2, seed=7, players=2)
    for match in schedule(config):
        asked: list[str] = []

        def factory(spec: str, game_id: str, asked: list[str] = asked) -> Agent:
            asked.append(spec)
            return build_agent(spec, game_id)

        counted = play_match(config, match, agent_factory=factory)
        assert asked == [config.agents[a] for a in match.seats]
        # the same agents built by the default factory: the same game
        assert counted.outcome() == play_match(config, match).outcome()
        assert play_game(config, match).outcome() == counted.outcome()


def test_a_bigger_table_seats_the_entrant_against_every_other_seat() -> None:
    """``--players 3``: the entrant and two opponents, the arena's rotation and games.

    A table of ``(entrant, opponent)`` repeated would be the arena's default
    for two agents at three seats (the entrant twice at some tables), which
    would not measure one player against a field of ``greedy``.
    """
    got = measure("random", games=3, seed=4, jobs=1, opponent="greedy", players=3)
    config = ArenaConfig(
        "pyramido-treasure", ("random", "greedy", "greedy"), games=3, seed=4, players=3
    )
    want = summarize(config, run_arena(config))
    assert [s.agent for s in got] == ["random", "greedy", "greedy"]
    assert [(s.games, s.wins, s.mean_score) for s in got] == [
        (s.games, s.wins, s.mean_score) for s in want
    ]


def test_the_table_size_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--players", "6", "--games", "1"])
    assert "--players must be 2 to 5" in capsys.readouterr().err


def _first_hunt(state: TreasureState, agent: Agent) -> tuple[int, bool]:
    """Slides the player to move takes on its first card, and whether it found the treasure."""
    seat = state.current_player
    card = state.sought
    assert seat is not None and state.phase == "search"
    rng = Rng(1)
    slides = 0
    while state.current_player == seat and state.phase == "search" and state.sought == card:
        move = agent.choose(state, rng)
        assert move in state.legal_moves()
        state.play(move)
        slides += 1
        assert slides < 300, "the hunt never ended"
    return slides, card in state.hand(seat)


def _spot_of(state: TreasureState, treasure: int) -> int:
    return next(s for s in range(SPOTS) if state.token_at(s) == treasure + 1)


def test_omniscient_agent_finds_a_hidden_treasure_the_walker_must_guess_at() -> None:
    """From the opening position (nothing revealed but the gap), over ten deals.

    The cheater (walls variant: another treasure's spot costs 1,000 steps)
    always finds its treasure without revealing another one, and never in
    more slides than the walker where the walker finds it too: the walker's
    successful walk crosses only blanks, so it is one of the paths the
    cheater's search compares. The walker, who can only guess within the
    treasure's field, fails some of these hunts and is slower in others.
    """
    walker_failed = walker_slower = 0
    for seed in range(10):
        start: Any = pyramids.new_game("pyramido-treasure", players=2, seed=seed)
        assert isinstance(start, TreasureState)
        target = _spot_of(start, start.sought >> 2)
        cheat, found = _first_hunt(start.copy(), OmniscientAgent(wrong_treasure_cost=1000.0))
        walk, walker_found = _first_hunt(start.copy(), WalkerAgent())
        assert found
        assert cheat >= distance(start.empty_spot, target)
        if walker_found:
            assert cheat <= walk
            walker_slower += cheat < walk
        else:
            walker_failed += 1
    assert walker_failed > 0 and walker_slower > 0


def test_think_benchmark_can_ask_only_the_treasure_hunts_event_choices() -> None:
    """``bench_think --events``: the decisions ``hard`` plays out option by option."""
    asked = questions("pyramido-treasure", 3, 4, events=True)
    assert len(asked) == 4
    for state in asked:
        assert state.view(None)["phase"] in EVENT_PHASES
        assert len(state.legal_moves()) > 1
    plain = questions("pyramido-treasure", 3, 4)
    assert any(s.view(None)["phase"] not in EVENT_PHASES for s in plain)
