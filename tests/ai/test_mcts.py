"""MCTS over the contract: legal moves, no peeking at hidden state, reproducibility."""

from __future__ import annotations

import json
from typing import Any, cast

import pytest

import pyramids
from pyramids.ai import make_agent
from pyramids.ai.mcts import LEVELS, MCTSAgent, utilities
from pyramids.ai.policies import DEFAULT_POLICY, get_policy
from pyramids.engine.registry import all_games
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from tests.conftest import play_randomly

GAMES = [g.id for g in all_games()]
CASES = [(g.id, n) for g in all_games() for n in sorted({g.min_players, g.max_players})]
IDS = [f"{g}-{n}p" for g, n in CASES]


def small(**options: Any) -> MCTSAgent:
    """A cheap, reproducible search (no time limit)."""
    agent = make_agent(
        "mcts", "any", iterations=options.pop("iterations", 30), seconds=0, **options
    )
    assert isinstance(agent, MCTSAgent)
    return agent


def midgame(game_id: str, players: int, seed: int, plies: int, **variant: Any) -> State[Any]:
    """A position after about ``plies`` random moves where the mover has a real choice."""
    state = pyramids.new_game(game_id, players=players, seed=seed, **variant)
    play_randomly(state, Rng(seed + 1), max_plies=plies)
    rng = Rng(seed + 2)
    while not state.is_over and len(state.legal_moves()) < 2:
        moves = state.legal_moves()
        state.play(moves[rng.below(len(moves))])
    return state


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_mcts_only_returns_legal_moves(game_id: str, players: int) -> None:
    agent = small(iterations=15)
    rng = Rng(3)
    for seed in range(2):
        state = pyramids.new_game(game_id, players=players, seed=seed)
        asked = 0
        while not state.is_over and asked < 4:
            if state.ply % 3 == 0:
                move = agent.choose(state, rng)
                assert move in state.legal_moves()
                asked += 1
            else:
                moves = state.legal_moves()
                move = moves[rng.below(len(moves))]
            state.play(move)


def _fingerprints(state: State[Any], seed: int) -> list[str]:
    """What is public after each move of a random continuation to the end.

    Hidden differences (a card under the deck, a token under a pyramid) show
    up sooner or later as the game goes on: in whose turn it is, in the
    scores, in the moves on offer, and finally on the board.
    """
    state = state.copy()
    rng = Rng(seed)
    out = []
    while not state.is_over and state.ply < 5000:
        moves = state.legal_moves()
        state.play(moves[rng.below(len(moves))])
        out.append(f"{state.current_player} {state.scores()} {len(state.legal_moves())}")
    out.append(json.dumps(state.view(None), sort_keys=True))
    return out


def determinize_is_view_only(state: State[Any], seat: int, other: State[Any]) -> bool:
    """Whether ``determinize(seat, rng)`` of two states with one view gives one game.

    MCTS can only make the same decisions on both if the games its guesses
    lead to are the same; compared by playing both guesses on at random.
    """
    a = state.determinize(seat, Rng(5))
    b = other.determinize(seat, Rng(5))
    return _fingerprints(a, 1) == _fingerprints(b, 1)


@pytest.mark.parametrize("game_id", GAMES)
def test_determinize_depends_only_on_the_view(game_id: str) -> None:
    game = pyramids.get_game(game_id)
    for seed in range(3):
        state = midgame(game_id, game.min_players, seed, plies=4 + 3 * seed)
        seat = state.current_player
        assert seat is not None
        other = state.determinize(seat, Rng(1000 + seed))
        assert determinize_is_view_only(state, seat, other)


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_mcts_never_reads_hidden_information(game_id: str, players: int) -> None:
    """Two states that differ only in what the seat cannot see get the same decision.

    ``other`` is a determinization of ``state`` for the seat to move: same view,
    different hidden cards. A search that used anything but the seat's
    knowledge would grow different trees.
    """
    variants: list[dict[str, Any]] = [{}]
    if game_id == "piramides":
        variants.append({"face_down": True})
    for variant in variants:
        for seed in range(3):
            state = midgame(game_id, players, seed, plies=4 + 3 * seed, **variant)
            if state.is_over:
                continue
            seat = state.current_player
            assert seat is not None
            other = state.determinize(seat, Rng(1000 + seed))
            assert other.view(seat) == state.view(seat)
            assert determinize_is_view_only(state, seat, other)
            a, b = small(iterations=30), small(iterations=30)
            assert a.choose(state, Rng(9)) == b.choose(other, Rng(9))
            assert a.last_visits == b.last_visits


def test_hidden_parts_really_differ_in_the_peeking_test() -> None:
    """Guard for the test above: the two states do hold different hidden cards."""
    state = midgame("piramides", 1, 0, plies=4)
    other = state.determinize(0, Rng(1000))
    assert state.setup() != other.setup()


@pytest.mark.parametrize("game_id", GAMES)
def test_same_seed_same_move_and_workers_in_processes_match_serial(game_id: str) -> None:
    """The tree in every game (``worlds=0``: the treasure hunt would decide without one)."""
    game = pyramids.get_game(game_id)
    state = midgame(game_id, max(2, game.min_players) if game.max_players > 1 else 1, 5, 3)
    first = small(iterations=40, worlds=0).choose(state, Rng(11))
    assert small(iterations=40, worlds=0).choose(state, Rng(11)) == first
    serial = small(iterations=40, workers=2, parallel=False, worlds=0)
    parallel = small(iterations=40, workers=2, worlds=0)
    assert serial.choose(state, Rng(12)) == parallel.choose(state, Rng(12))
    assert serial.last_visits == parallel.last_visits
    assert sum(parallel.last_visits.values()) == 40


def test_progressive_widening_limits_children() -> None:
    state = midgame("piramides", 1, 2, plies=2)
    assert len(state.legal_moves()) >= 2
    narrow = small(iterations=50, widen_above=1, widen_k=1.0, widen_alpha=0.0)
    narrow.choose(state, Rng(1))
    assert len(narrow.last_visits) == 1
    wide = small(iterations=50)
    wide.choose(state, Rng(1))
    assert len(wide.last_visits) == len(state.legal_moves())


def test_search_prefers_the_card_that_keeps_the_run() -> None:
    """With the joker and the stock as the only other moves, playing a card wins."""
    for seed in range(20):
        state = pyramids.new_game("piramides", seed=seed)
        plays = [m for m in state.legal_moves() if m.kind == "play"]
        if plays:
            break
    move = small(iterations=300).choose(state, Rng(0))
    assert getattr(move, "kind", None) == "play"


def test_levels_and_options() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard"]
    budgets = [LEVELS[k].iterations or 0 for k in LEVELS]
    assert budgets == sorted(budgets)
    hard = make_agent("mcts", "piramides", level="hard")
    assert isinstance(hard, MCTSAgent)
    assert hard.params.seconds is not None and hard.params.seconds < 2
    with pytest.raises(ValueError, match="level"):
        make_agent("mcts", "piramides", level="brutal")
    with pytest.raises(ValueError, match="iterations"):
        make_agent("mcts", "piramides", iterations="many")
    with pytest.raises(ValueError, match="at least"):
        make_agent("mcts", "piramides", workers=0)
    text = make_agent("mcts", "piramides", iterations="7", seconds="0", c="1.5")
    assert isinstance(text, MCTSAgent)
    assert (text.params.iterations, text.params.seconds, text.params.c) == (7, None, 1.5)


class _Fake:
    """Just what :func:`utilities` reads."""

    def __init__(self, scores: list[int], ranking: list[int]) -> None:
        self.players = len(scores)
        self._scores = scores
        self._ranking = ranking

    def scores(self) -> list[int]:
        return self._scores

    def ranking(self) -> list[int]:
        return self._ranking


def test_utilities_from_places_ties_and_margin() -> None:
    def u(scores: list[int], ranking: list[int], margin: float = 0.0) -> list[float]:
        return utilities(cast(State[Any], _Fake(scores, ranking)), DEFAULT_POLICY, margin)

    assert u([5, 3], [1, 2]) == [1.0, 0.0]
    assert u([4, 4, 1], [1, 1, 3]) == [0.75, 0.75, 0.0]
    assert u([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx([0, 1 / 3, 2 / 3, 1])
    # the margin term: the runner-up close to the winner gets a little more
    close = u([10, 9, 0], [1, 2, 3], margin=0.1)
    assert close[0] == pytest.approx(1.0)
    assert close[1] == pytest.approx(0.9 * 0.5 + 0.1 * 0.9)
    assert close[2] == pytest.approx(0.0)
    # a solitaire: the score through the game's scale, monotone and inside (0, 1)
    policy = get_policy("piramides")
    low, high = (utilities(cast(State[Any], _Fake([s], [1])), policy, 0.1)[0] for s in (-100, 400))
    assert 0 < low < 0.5 < high < 1
