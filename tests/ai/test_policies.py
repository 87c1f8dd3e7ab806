"""Playout policies: legal moves only, and the preferences they are written for."""

from __future__ import annotations

import pytest

import pyramids
from pyramids.ai.policies import DEFAULT_POLICY, get_policy
from pyramids.engine.errors import UnknownGame
from pyramids.engine.faces import has_face
from pyramids.engine.registry import game_ids
from pyramids.engine.rng import Rng
from pyramids.games.piramides import PiramidesState
from pyramids.games.pyramido import PyramidoState


@pytest.mark.parametrize("game_id", [g for g in game_ids() if has_face("pyramids.ai.policies", g)])
def test_policies_play_only_legal_moves_to_the_end(game_id: str) -> None:
    policy = get_policy(game_id)
    assert policy.playout is not None
    game = pyramids.get_game(game_id)
    for seed in range(3):
        players = min(game.min_players + seed % 2, game.max_players)
        state = pyramids.new_game(game_id, players=players, seed=seed)
        rng = Rng(seed)
        while not state.is_over and state.ply < 1500:
            move = policy.playout(state, rng)
            assert move in state.legal_moves()
            state.play(move)
        if policy.evaluate is not None:
            assert len(policy.evaluate(state)) == state.players


def test_games_without_a_policy_fall_back_to_random_playouts(toygame: str) -> None:
    assert get_policy(toygame) is DEFAULT_POLICY
    assert DEFAULT_POLICY.playout is None
    with pytest.raises(UnknownGame):
        get_policy("no-such-game")


def test_piramides_policy_plays_a_card_whenever_one_fits() -> None:
    playout = get_policy("piramides").playout
    assert playout is not None
    rng = Rng(1)
    seen_draw = False
    for seed in range(10):
        state = pyramids.new_game("piramides", seed=seed)
        assert isinstance(state, PiramidesState)
        while not state.is_over:
            kinds = {m.kind for m in state.legal_moves()}
            move = playout(state, rng)
            kind = getattr(move, "kind", None)
            if "play" in kinds:
                assert kind == "play"
            elif "draw" in kinds:
                assert kind == "draw"
                seen_draw = True
            state.play(move)
    assert seen_draw


def test_pyramido_policy_keeps_its_cards() -> None:
    playout = get_policy("pyramido").playout
    assert playout is not None
    rng = Rng(2)
    state = pyramids.new_game("pyramido", players=2, seed=3)
    assert isinstance(state, PyramidoState)
    while not state.is_over:
        move = playout(state, rng)
        assert getattr(move, "kind", None) != "card"
        state.play(move)
