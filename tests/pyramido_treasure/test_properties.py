"""Random play for 2-5 players: conservation, one visible token, replays, no leaks."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import pyramids
from pyramids.engine.rng import Rng
from pyramids.games.pyramido_treasure import TreasureState
from pyramids.games.pyramido_treasure.board import SPOTS
from pyramids.games.pyramido_treasure.treasures import TOKEN_NAMES

seeds = st.integers(min_value=0, max_value=2**32 - 1)
players = st.integers(min_value=2, max_value=5)


def tokens_named(view: dict[str, Any]) -> list[tuple[int, str]]:
    """Every (spot index, token) pair a view mentions."""
    found = []
    for key in ("revealed", "recent"):
        found += [(e["index"], e["token"]) for e in view[key]]
    found.append((view["visible"]["index"], view["visible"]["token"]))
    return found


@settings(max_examples=15)
@given(n=players, seed=seeds, agent_seed=seeds, shuffle=st.booleans())
def test_random_play_keeps_every_invariant(
    n: int, seed: int, agent_seed: int, shuffle: bool
) -> None:
    state = pyramids.new_game("pyramido-treasure", players=n, seed=seed, shuffle_fields=shuffle)
    assert isinstance(state, TreasureState)
    tokens = [state.token_at(s) for s in range(SPOTS)]
    rng = Rng(agent_seed)
    revealed = {state.empty_spot}
    step = 0
    while not state.is_over:
        moves = state.legal_moves()
        state.play(moves[rng.below(len(moves))])
        revealed.add(state.empty_spot)
        step += 1
        if step % 37 == 0 or state.is_over:
            assert state.pyramid_count() == 47
            assert [state.token_at(s) for s in range(SPOTS)] == tokens
            for seat in [None, *range(n)]:
                v = state.view(seat)
                assert "".join(v["board"]).count(".") == 1, "exactly one token visible"
                for s, token in tokens_named(v):
                    assert s in revealed, "a view names a token nobody has seen"
                    assert TOKEN_NAMES[tokens[s]] == token
            assert sum(len(h) for h in state.view(None)["hands"]) <= 48
            # the count of the current deck (bit arithmetic) is its list of cards' length
            assert state.decks_left()[state.deck_number - 1] == len(state.deck_left())
    assert state.end_reason in ("game-over-card", "deck-empty", "one-left")
    assert {s for _, s in state.reveal_history()} == revealed
    record = json.loads(json.dumps(state.record()))
    again = pyramids.replay(record)
    assert again.view(None) == state.view(None) and again.scores() == state.scores()


@settings(max_examples=15)
@given(n=players, seed=seeds, agent_seed=seeds, other=seeds, cut=st.integers(0, 600))
def test_views_cannot_tell_apart_states_that_differ_only_in_hidden_parts(
    n: int, seed: int, agent_seed: int, other: int, cut: int
) -> None:
    state = pyramids.new_game("pyramido-treasure", players=n, seed=seed)
    assert isinstance(state, TreasureState)
    rng = Rng(agent_seed)
    while not state.is_over and state.ply < cut:
        moves = state.legal_moves()
        state.play(moves[rng.below(len(moves))])
    twin = state.determinize(0, Rng(other))
    assert isinstance(twin, TreasureState)
    for seat in [None, *range(n)]:
        assert twin.view(seat) == state.view(seat)
    # the twin hides its treasures elsewhere whenever something is still unseen
    seen = {s for _, s in state.reveal_history()}
    for s in seen:
        assert twin.token_at(s) == state.token_at(s)
    assert sorted(twin.token_at(s) for s in range(SPOTS)) == sorted(
        state.token_at(s) for s in range(SPOTS)
    )


def test_determinize_moves_unseen_treasures() -> None:
    state = pyramids.new_game("pyramido-treasure", players=3, seed=5)
    assert isinstance(state, TreasureState)
    layouts = {
        tuple(state.determinize(1, Rng(k)).token_at(s) for s in range(SPOTS)) for k in range(8)
    }
    assert len(layouts) > 1


def test_a_game_replays_to_the_same_moves_from_the_same_seed() -> None:
    def play(seed: int) -> list[str]:
        state = pyramids.new_game("pyramido-treasure", players=4, seed=seed)
        rng = Rng(9)
        while not state.is_over:
            moves = state.legal_moves()
            state.play(moves[rng.below(len(moves))])
        out: list[str] = state.record()["moves"]
        return out

    assert play(3) == play(3)
    assert play(3) != play(4)
