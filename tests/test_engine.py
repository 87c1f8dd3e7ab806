"""Engine pieces shared by all games: registry, variants, players, records."""

from __future__ import annotations

import json
from typing import Any

import pytest

import pyramids
from pyramids.ai.registry import make_agent
from pyramids.engine.errors import IllegalMove, RecordError, UnknownGame, VariantError
from pyramids.engine.rng import Rng
from pyramids.engine.variant import Option, first_player_option, resolve_variant


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGame, match="known games: piramides"):
        pyramids.new_game("chess")
    assert issubclass(UnknownGame, ValueError)


def test_player_counts_are_checked() -> None:
    with pytest.raises(ValueError, match="a solitaire: one player"):
        pyramids.new_game("piramides", players=2)


def test_variant_options_are_checked_and_completed() -> None:
    opts = (
        Option("flag", False, bool, "a flag"),
        Option("count", 3, int, "a count", minimum=1, maximum=5),
        Option("mode", "a", str, "a mode", choices=("a", "b")),
        first_player_option(),
    )
    assert resolve_variant("g", opts, {}) == {
        "flag": False,
        "count": 3,
        "mode": "a",
        "first_player": 0,
    }
    got = resolve_variant("g", opts, {"flag": "yes", "count": "5", "first_player": "random"})
    assert got["flag"] is True and got["count"] == 5 and got["first_player"] == "random"
    for bad, match in [
        ({"count": 0}, "at least 1"),
        ({"count": 6}, "at most 5"),
        ({"count": "many"}, "whole number"),
        ({"count": True}, "whole number"),
        ({"flag": "maybe"}, "true or false"),
        ({"mode": "c"}, "one of a, b"),
        ({"first_player": "youngest"}, "whole number"),
        ({"colour": 1}, "no option 'colour'"),
    ]:
        with pytest.raises(VariantError, match=match):
            resolve_variant("g", opts, bad)


def test_illegal_move_is_a_value_error_with_a_rule() -> None:
    state = pyramids.new_game("piramides", seed=1)
    with pytest.raises(ValueError) as err:
        state.play(state.parse_move("A1"))
    assert isinstance(err.value, IllegalMove)
    assert err.value.to_dict()["rule"] == "not-free"


def test_record_is_json_and_names_everything() -> None:
    state = pyramids.new_game("piramides", seed=2, names=["Ana"])
    state.play(state.legal_moves()[-1])
    record = json.loads(json.dumps(state.record()))
    assert record["format"] == "pyramids-record" and record["format_version"] == 1
    assert record["game"] == "piramides" and record["players"] == ["Ana"]
    assert {"jokers_per_round": 1, "face_down": False, "rounds": 5}.items() <= record[
        "variant"
    ].items()
    assert set(record["variant"]) == {o.name for o in pyramids.get_game("piramides").options}
    assert record["seed"] == 2 and len(record["setup"]["deals"]) == 5
    assert record["result"] == {"over": False, "scores": state.scores(), "ranking": None}
    # without the seed the record still replays from its explicit setup
    del record["seed"]
    assert pyramids.replay(record).scores() == state.scores()
    record["rules_version"] = 99
    with pytest.raises(RecordError, match="rules_version"):
        pyramids.replay(record)


def _record_with_chance() -> dict[str, Any]:
    """The record of a treasure hunt played until a card was drawn by chance."""
    state = pyramids.new_game("pyramido-treasure", players=2, seed=3)
    agent, rng = make_agent("greedy", "pyramido-treasure"), Rng(1)
    while not any(True for _ in state.chance_outcomes()):
        state.play(agent.choose(state, rng))
    record: dict[str, Any] = json.loads(json.dumps(state.record()))
    return record


def test_a_record_replays_with_exactly_its_chance_outcomes() -> None:
    record = _record_with_chance()
    assert pyramids.replay(record).record()["chance"] == record["chance"]


def test_a_record_with_an_extra_chance_outcome_is_refused() -> None:
    """A tampered record may not carry chance outcomes that its moves never drew."""
    record = _record_with_chance()
    last = record["chance"][-1]
    record["chance"].append({"ply": len(record["moves"]) + 5, "choices": 2, "outcome": 1})
    with pytest.raises(RecordError, match="never used") as caught:
        pyramids.replay(record)
    assert caught.value.field == "chance" and caught.value.params == {"count": 1}
    record["chance"][-1] = dict(last)  # the same outcome twice: the second is never drawn
    with pytest.raises(RecordError, match="chance"):
        pyramids.replay(record)
