"""What each game declares once about itself holds in play: bounds on scores, length and moves.

The research adapters read these declarations instead of repeating them per
encoding (OpenSpiel's utility bounds and game length, the generic encoding's
action space), so a bound that does not hold would make them lie.
"""

from __future__ import annotations

import pytest

import pyramids
from pyramids.ai.registry import make_agent, plays
from pyramids.engine.registry import game_ids
from pyramids.engine.rng import Rng

#: variants whose games have a declared length (the treasure hunt has none by default)
BOUNDED: dict[str, list[dict[str, object]]] = {
    "piramides": [{}, {"layout": "tripeaks"}, {"layout": "golf"}, {"jokers_per_round": 3}],
    "pyramideto": [{"turn_limit": 60}],
    "pyramido-treasure": [{"slide_limit": 120}],
}


def test_every_game_declares_chance_and_hidden_information(toygame: str) -> None:
    for game_id in game_ids():
        game = pyramids.get_game(game_id)
        assert isinstance(game.chance, bool) and isinstance(game.hidden_information, bool)
        assert all(isinstance(name, str) for name in game.opponents)
    # a seat with a secret is hidden information; the converse need not hold (Pyramido)
    assert not any(
        g.secret_seats and not g.hidden_information for g in map(pyramids.get_game, game_ids())
    )


#: every game with random play, and with greedy play where it has a greedy agent (Nim has none)
CASES = [(g, "random") for g in [*game_ids(), "toygame"]] + [(g, "greedy") for g in game_ids()]


@pytest.mark.parametrize(("game_id", "agent"), CASES)
def test_declared_bounds_hold_in_played_games(game_id: str, agent: str, toygame: str) -> None:
    """Random games go everywhere; greedy ones last and score as real games do."""
    assert plays(agent, game_id)
    game = pyramids.get_game(game_id)
    bot = make_agent(agent, game_id)
    for variant in BOUNDED.get(game_id, [{}]):
        for players in sorted({game.min_players, game.max_players}):
            for seed in range(2):
                state = game.new(players=players, seed=seed, **variant)
                low, high = game.score_bounds(players, state.variant)
                length = game.max_game_length(players, state.variant)
                most = game.max_legal_moves(players, state.variant)
                assert length is not None, f"{game_id} {variant} should have a length"
                rng = Rng(seed)
                while not state.is_over:
                    assert most is None or len(state.legal_moves()) <= most
                    state.play(bot.choose(state, rng))
                    assert state.ply <= length
                assert all(low <= s <= high for s in state.scores()), (game_id, state.scores())


def test_no_length_is_declared_where_nothing_bounds_a_game() -> None:
    assert pyramids.get_game("pyramideto").max_game_length(2, {"turn_limit": 0}) is None
    treasure = pyramids.get_game("pyramido-treasure")
    assert treasure.max_game_length(2, {"slide_limit": 0}) is None
