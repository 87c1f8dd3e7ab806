"""Each game's map from observation index to meaning agrees with the vectors encoded.

The names are checked three ways on random positions of every game, seat
count and seat: there is one name per value; every one-hot group
(``part=value`` names sharing a ``part``) holds 0/1 values with at most one
set, which a map shifted by even one index breaks; and a few named values are
compared with what the state says they mean.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the research adapters need numpy: pip install pyramids[rl]")


from pyramids.engine.registry import get_game
from pyramids.engine.rng import Rng
from pyramids.envs.encodings import make_codec
from tests.envs.cases import CODEC_CASES, CODEC_IDS, short

Anchor = Callable[[Any, int], dict[str, float]]


def _mover_flags(state: Any, seat: int) -> dict[str, float]:
    n = state.players
    mover = state.current_player
    return {f"seat+{k}.to_move": float(mover == (seat + k) % n) for k in range(n)}


def _scores(top: float) -> Anchor:
    def anchor(state: Any, seat: int) -> dict[str, float]:
        n = state.players
        scores = state.scores()
        out = {
            f"seat+{k}.score": min(max(scores[(seat + k) % n] / top, 0.0), 1.0) for k in range(n)
        }
        return out | _mover_flags(state, seat)

    return anchor


def _piramides(state: Any, seat: int) -> dict[str, float]:
    view = state.view(0)
    there = {f"position[{p}].there": float(not c["removed"]) for p, c in enumerate(view["pyramid"])}
    return there | {"round": state.round / state.variant["rounds"]}


ANCHORS: dict[str, Anchor] = {
    "piramides": _piramides,
    "pyramido": _scores(160),
    "pyramideto": _mover_flags,
    "pyramido-treasure": _scores(83),
}


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
def test_index_names_match_the_encoded_vectors(game_id: str, players: int) -> None:
    codec = make_codec(game_id, players, short(game_id))
    names = codec.observations.index_names()
    assert len(names) == codec.observations.size and len(set(names)) == len(names)
    groups: dict[str, list[int]] = defaultdict(list)
    for i, name in enumerate(names):
        if "=" in name:
            groups[name.split("=")[0]].append(i)
    assert groups, "every game has one-hot groups"
    index = {name: i for i, name in enumerate(names)}
    state = get_game(game_id).new(players=players, seed=3, **short(game_id))
    rng = Rng(3)
    checked = 0
    for ply in range(400):
        if state.is_over:
            break
        if ply % 7 == 0:
            for seat in range(players):
                obs = codec.observations.encode(state.view(seat))
                for group, at in groups.items():
                    values = obs[at]
                    assert set(values.tolist()) <= {0.0, 1.0}, group
                    assert values.sum() <= 1.0, group
                for name, value in ANCHORS[game_id](state, seat).items():
                    assert obs[index[name]] == pytest.approx(value, abs=1e-6), name
                checked += 1
        moves = state.legal_moves()
        state.play(moves[rng.below(len(moves))])
    assert checked >= players * 3
