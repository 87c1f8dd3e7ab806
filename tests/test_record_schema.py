"""The published JSON Schema of records (``engine/record.schema.json``) fits every record.

Why: docs/records.md promises records that any tool can check. The schema is
what such a tool reads first, so it must accept every record the project
writes (golden games, test data, fresh games of every game and variant) and
refuse malformed ones, and its per-game parts must name what the games name.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import pyramids
from pyramids.engine.playthrough import parse
from pyramids.engine.records import make_record, record_schema
from pyramids.engine.registry import game_ids, get_game
from pyramids.engine.rng import Rng

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.txt"))
RECORD_FILES = sorted(
    p
    for folder in ("tests", "examples")
    for p in (ROOT / folder).rglob("*.json")
    if '"pyramids-record"' in p.read_text(encoding="utf-8")
)


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    schema = record_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def problems(validator: Draft202012Validator, record: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(record)
    ]


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_every_golden_game_is_a_valid_record(validator: Draft202012Validator, path: Path) -> None:
    golden = parse(path.read_text(encoding="utf-8"))
    h = golden.header
    state = pyramids.new_game(h["game"], players=h["players"], seed=h["seed"], **h["variant"])
    for ply in golden.plies:
        state.play(state.parse_move(ply.move))
    record = json.loads(json.dumps(state.record()))
    assert record["setup"] == golden.setup
    assert problems(validator, record) == []


def test_the_test_data_holds_records() -> None:
    assert len(RECORD_FILES) >= 2


@pytest.mark.parametrize("path", RECORD_FILES, ids=[p.name for p in RECORD_FILES])
def test_every_record_file_of_the_tests_is_valid(
    validator: Draft202012Validator, path: Path
) -> None:
    assert problems(validator, json.loads(path.read_text(encoding="utf-8"))) == []


def _variants(game_id: str) -> list[dict[str, Any]]:
    """The default variant and, for each option, a value other than its default."""
    out: list[dict[str, Any]] = [{}]
    for option in get_game(game_id).options:
        if option.kind is bool:
            out.append({option.name: not option.default})
        elif option.name == "layout":
            out += [{"layout": "golf"}, {"layout": "tripeaks"}]
        elif option.name == "first_player":
            out.append({"first_player": "random"})
        elif option.kind is int:
            out.append({option.name: option.maximum if option.maximum is not None else 7})
    return out


CASES = [
    (g, n, v)
    for g in game_ids()
    for n in range(get_game(g).min_players, get_game(g).max_players + 1)
    for v in _variants(g)
]


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES, ids=str)
def test_records_of_every_game_and_variant_are_valid(
    validator: Draft202012Validator, game_id: str, players: int, variant: dict[str, Any]
) -> None:
    """A fresh game, and the same game after random moves, with and without its seed."""
    state = pyramids.new_game(game_id, players=players, seed=players, **variant)
    rng = Rng(5)
    records = [state.record()]
    while not state.is_over and state.ply < 400:
        state.play(state.random_move(rng))
    records.append(make_record(state, undos=2))
    for record in records:
        record = json.loads(json.dumps(record))
        assert problems(validator, record) == []
        del record["seed"]
        assert problems(validator, record) == []


def test_a_records_optional_fields_of_the_faces_are_valid(validator: Draft202012Validator) -> None:
    record = json.loads(json.dumps(pyramids.new_game("pyramideto", players=2, seed=1).record()))
    record |= {"bots": {"1": "mcts:level=hard"}, "room": "r1", "practice": False}
    record |= {"commitment": "ab" * 32, "reveal": None}
    assert problems(validator, record) == []


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    *parents, last = path.split(".")

    def change(record: dict[str, Any]) -> None:
        where: Any = record
        for key in parents:
            where = where[int(key)] if key.isdigit() else where[key]
        if value is _DELETE:
            del where[last]
        elif last.isdigit():
            where[int(last)] = value
        else:
            where[last] = value

    return change


_DELETE = object()
BAD = [
    ("piramides", 1, "moves", _DELETE),
    ("piramides", 1, "chance", [{"ply": 0, "choices": 2, "outcome": 1}]),
    ("piramides", 1, "setup.deals.0.3", "1H"),
    ("piramides", 1, "setup.deals.0.4", "twice"),  # a card twice in one deal
    ("piramides", 1, "variant.layout", "spiral"),
    ("piramides", 1, "players", ["Ana", "Ben"]),
    ("pyramideto", 2, "setup.hands.0.0", "unicorn"),
    ("pyramideto", 2, "setup.deck", "doll"),
    ("pyramideto", 2, "variant.hand_size", 8),
    ("pyramido", 3, "setup.quarry", [1, 2]),
    ("pyramido", 3, "setup.stacks.0.0", 0),
    ("pyramido-treasure", 4, "setup.pyramids.0", "RYBRYBR"),
    ("pyramido-treasure", 4, "setup.tokens.0.0", "gold"),
    ("pyramido-treasure", 4, "setup.decks.0.0", "sphinx/5"),
    ("pyramido-treasure", 4, "setup.rotation", 1),
    ("pyramido-treasure", 4, "result.ranking", [0, 1, 2, 3]),
    ("pyramido-treasure", 4, "format_version", 2),
]


@pytest.mark.parametrize(
    ("game_id", "players", "path", "value"), BAD, ids=[f"{g}-{path}" for g, _, path, _ in BAD]
)
def test_malformed_records_are_refused(
    validator: Draft202012Validator, game_id: str, players: int, path: str, value: Any
) -> None:
    record = json.loads(json.dumps(pyramids.new_game(game_id, players=players, seed=1).record()))
    if value == "twice":
        value = record["setup"]["deals"][0][3]
    bad = copy.deepcopy(record)
    _set(path, value)(bad)
    assert problems(validator, record) == []
    assert problems(validator, bad) != []


def test_the_schemas_games_are_the_registrys() -> None:
    """Each game's variant part names exactly its options, with their bounds."""
    defs = record_schema()["$defs"]
    assert record_schema()["properties"]["game"]["enum"] == sorted(game_ids())
    for game_id in game_ids():
        game = get_game(game_id)
        variant = defs[f"{game_id}-variant"]
        assert set(variant["properties"]) == {o.name for o in game.options}
        for option in game.options:
            shape = variant["properties"][option.name]
            assert shape["default"] == option.default
            if option.minimum is not None and "minimum" in shape:
                assert shape["minimum"] == option.minimum
            if option.maximum is not None:
                assert shape.get("maximum") == option.maximum, option.name
