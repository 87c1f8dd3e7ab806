"""The engine contract, checked for every registered game and player count.

These properties hold for any game, so a new game in the registry is tested
by this file without writing a line: random legal play never raises, copies
are independent, records replay to the same state, illegal moves change
nothing, views are JSON and hide what a seat cannot know.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import pyramids
from pyramids.engine.errors import IllegalMove, RecordError
from pyramids.engine.registry import all_games
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from tests.conftest import play_randomly

CASES = [(g.id, n) for g in all_games() for n in range(g.min_players, g.max_players + 1)]
IDS = [f"{g}-{n}p" for g, n in CASES]

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def fingerprint(state: State[Any]) -> str:
    """Everything observable about a state, as one string."""
    views = [state.view(p) for p in [None, *range(state.players)]]
    return json.dumps(
        [views, state.scores(), state.current_player, state.is_over, state.ply], sort_keys=True
    )


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
@given(seed=seeds, agent_seed=seeds)
def test_random_play_ends_and_replays(
    game_id: str, players: int, seed: int, agent_seed: int
) -> None:
    state = pyramids.new_game(game_id, players=players, seed=seed)
    play_randomly(state, Rng(agent_seed))
    assert state.is_over
    assert state.current_player is None
    assert state.legal_moves() == []
    ranking = state.ranking()
    assert len(ranking) == players and min(ranking) == 1
    record = json.loads(json.dumps(state.record()))
    again = pyramids.replay(record)
    assert fingerprint(again) == fingerprint(state)
    assert again.record() == record


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
@given(seed=seeds, agent_seed=seeds, cut=st.integers(min_value=0, max_value=400))
def test_copies_are_independent_and_replay_midgame(
    game_id: str, players: int, seed: int, agent_seed: int, cut: int
) -> None:
    state = pyramids.new_game(game_id, players=players, seed=seed)
    play_randomly(state, Rng(agent_seed), max_plies=cut)
    before = fingerprint(state)
    twin = state.copy()
    play_randomly(twin, Rng(agent_seed + 1), max_plies=cut + 30)
    assert fingerprint(state) == before
    again = pyramids.replay(state.record())
    assert fingerprint(again) == before
    # the replayed game continues exactly as the original (same chance stream)
    a, b = state.copy(), again
    play_randomly(a, Rng(7), max_plies=cut + 40)
    play_randomly(b, Rng(7), max_plies=cut + 40)
    assert fingerprint(a) == fingerprint(b)


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
@given(seed=seeds, agent_seed=seeds, cut=st.integers(min_value=0, max_value=300))
def test_notation_round_trips_and_illegal_moves_change_nothing(
    game_id: str, players: int, seed: int, agent_seed: int, cut: int
) -> None:
    state = pyramids.new_game(game_id, players=players, seed=seed)
    play_randomly(state, Rng(agent_seed), max_plies=cut)
    if state.is_over:
        with pytest.raises(IllegalMove):
            state.play(state.moves_played()[-1])
        return
    legal = state.legal_moves()
    for m in legal:
        assert state.parse_move(state.move_to_str(m)) == m
    assert len(set(legal)) == len(legal), "legal moves must be distinct"
    # every move played anywhere in this game that is not legal now must be refused
    before = fingerprint(state)
    for m in set(state.moves_played()) - set(legal):
        with pytest.raises(IllegalMove) as err:
            state.play(m)
        assert err.value.rule and err.value.message
        assert fingerprint(state) == before
    with pytest.raises(IllegalMove):
        state.parse_move("certainly not a move ###")
    assert fingerprint(state) == before


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
@given(seed=seeds, agent_seed=seeds, det_seed=seeds, cut=st.integers(min_value=0, max_value=300))
def test_determinize_agrees_with_what_the_seat_sees(
    game_id: str, players: int, seed: int, agent_seed: int, det_seed: int, cut: int
) -> None:
    state = pyramids.new_game(game_id, players=players, seed=seed)
    play_randomly(state, Rng(agent_seed), max_plies=cut)
    for seat in [None, *range(players)]:
        det = state.determinize(seat, Rng(det_seed))
        assert det.view(seat) == state.view(seat)
        assert det.legal_moves() == state.legal_moves() or seat != state.current_player
        # the determinized state is a full, playable game
        play_randomly(det, Rng(det_seed), max_plies=det.ply + 50)


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
@given(seed=seeds, agent_seed=seeds, det_seed=seeds, cut=st.integers(min_value=0, max_value=300))
def test_determinizer_gives_what_determinize_gives(
    game_id: str, players: int, seed: int, agent_seed: int, det_seed: int, cut: int
) -> None:
    """Sample after sample from one stream, then after the state has been played on."""
    state = pyramids.new_game(game_id, players=players, seed=seed)
    play_randomly(state, Rng(agent_seed), max_plies=cut)
    for seat in [None, *range(players)]:
        sample = state.determinizer(seat)
        ours, theirs = Rng(det_seed), Rng(det_seed)
        for _ in range(3):
            a, b = sample(ours), state.determinize(seat, theirs)
            assert fingerprint(a) == fingerprint(b)
            assert ours.state == theirs.state
            # the same hidden parts and the same chance to come: the same game from here
            play_randomly(a, Rng(det_seed), max_plies=a.ply + 30)
            play_randomly(b, Rng(det_seed), max_plies=b.ply + 30)
            assert fingerprint(a) == fingerprint(b)
    if state.is_over:
        return
    seat = state.current_player
    sample = state.determinizer(seat)
    # the sampler follows the state as it is now (a few plies on: cards drawn, exchanged)
    play_randomly(state, Rng(agent_seed + 1), max_plies=state.ply + 12)
    assert fingerprint(sample(Rng(det_seed))) == fingerprint(state.determinize(seat, Rng(det_seed)))


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_determinizer_checks_the_seat(game_id: str, players: int) -> None:
    state = pyramids.new_game(game_id, players=players, seed=1)
    for bad in (-1, players, "0", True):
        with pytest.raises(ValueError):
            state.determinizer(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
@given(seed=seeds)
def test_views_are_json_and_check_the_seat(game_id: str, players: int, seed: int) -> None:
    state = pyramids.new_game(game_id, players=players, seed=seed)
    for seat in [None, *range(players)]:
        v = state.view(seat)
        assert json.loads(json.dumps(v)) == v
        assert v["game"] == game_id and v["viewer"] == seat
        assert "seed" not in v and "setup" not in v
    for bad in (-1, players, "0", True):
        with pytest.raises(ValueError):
            state.view(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", [g.id for g in all_games()])
def test_same_seed_same_game(game_id: str) -> None:
    g = pyramids.get_game(game_id)
    a = g.new(players=g.min_players, seed=42)
    b = g.new(players=g.min_players, seed=42)
    c = g.new(players=g.min_players, seed=43)
    assert a.setup() == b.setup()
    assert a.setup() != c.setup()


@pytest.mark.parametrize("game_id", [g.id for g in all_games()])
def test_tampered_records_name_the_fault(game_id: str) -> None:
    g = pyramids.get_game(game_id)
    state = g.new(players=g.min_players, seed=5)
    play_randomly(state, Rng(3), max_plies=12)
    good = state.record()

    def broken(**changes: Any) -> dict[str, Any]:
        r = json.loads(json.dumps(good))
        r.update(changes)
        return r

    cases: list[tuple[dict[str, Any], str]] = [
        (broken(game="chess"), "game"),
        (broken(format="other"), "format"),
        (broken(variant={"no_such_option": 1}), "variant"),
        (broken(players=[]), "players"),
        (broken(setup={}), "setup"),
        (broken(moves="draw"), "moves"),
        (broken(moves=[*good["moves"], "###"]), f"moves[{len(good['moves'])}]"),
        (broken(moves=[42]), "moves[0]"),
        (broken(result={"over": True, "scores": [99999] * g.min_players}), "result"),
    ]
    if "seed" in good:
        cases.append((broken(seed=good["seed"] + 1), "setup"))
    for record, field in cases:
        with pytest.raises(RecordError) as err:
            pyramids.replay(record)
        assert err.value.field.startswith(field.split("[")[0]), (field, err.value)
    with pytest.raises(RecordError) as err:
        pyramids.replay("{not json")
    assert err.value.field == "json"


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
@given(seed=seeds, agent_seed=seeds)
def test_random_move_and_play_legal_are_the_fast_forms_of_the_plain_ones(
    game_id: str, players: int, seed: int, agent_seed: int
) -> None:
    """A search's fast path plays the very game the checked path plays, move for move.

    After every move the two states must offer the same moves and agree on the
    mover, scores and ply; every tenth move and at the end, on every view too
    (the views of four seats cost milliseconds each, and a state that went
    wrong stays wrong, so a divergence still shows within ten moves).
    """
    fast = pyramids.new_game(game_id, players=players, seed=seed)
    plain = fast.copy()
    rng = Rng(agent_seed)
    for ply in range(150):
        if fast.is_over:
            break
        twin = rng.copy()
        moves = plain.legal_moves()
        assert fast.legal_moves() == moves
        expected = moves[twin.below(len(moves))]
        move = fast.random_move(rng)
        assert move == expected and rng.state == twin.state
        fast.play_legal(move)
        plain.play(expected)
        assert (fast.current_player, fast.scores(), fast.ply, fast.is_over) == (
            plain.current_player,
            plain.scores(),
            plain.ply,
            plain.is_over,
        )
        if ply % 10 == 9:
            assert fingerprint(fast) == fingerprint(plain)
    assert fingerprint(fast) == fingerprint(plain)
    assert fast.record() == plain.record()
    if fast.is_over:
        with pytest.raises(ValueError):
            fast.random_move(rng)
