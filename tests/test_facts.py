"""The fact-per-line format of the golden files: written, read back, nothing lost."""

from __future__ import annotations

import doctest
import json
from typing import Any

import pytest

from pyramids.engine import facts
from pyramids.engine.facts import INLINE, flatten, format_fact, parse_fact, split_path, unflatten


def lines_of(value: dict[str, Any]) -> list[str]:
    return [format_fact(p, v) for p, v in flatten(value)]


def read(lines: list[str]) -> Any:
    return unflatten(parse_fact(line) for line in lines)


def test_docstring_examples() -> None:
    assert doctest.testmod(facts).failed == 0


def test_short_rows_stay_on_one_line_and_long_ones_split() -> None:
    row = {"card": "4D", "free": False}
    grid = ["." * 40, "." * 40, "." * 40]
    assert lines_of({"cell": row, "grid": grid}) == [
        'cell = {"card":"4D","free":false}',
        f'grid[0] = "{"." * 40}"',
        f'grid[1] = "{"." * 40}"',
        f'grid[2] = "{"." * 40}"',
    ]


def test_a_row_is_split_exactly_when_its_json_passes_the_limit() -> None:
    fits = ["x" * (INLINE - 4)]  # ["xx…"] is INLINE characters
    assert lines_of({"a": fits}) == [f"a = {json.dumps(fits)}"]
    assert lines_of({"a": [fits[0] + "x"]}) == [f'a[0] = "{fits[0]}x"']


def test_nested_containers_are_split_to_their_rows() -> None:
    data = {"p": [{"jewels": [[9, 8]], "cell": "e5"}], "empty": {}, "none": []}
    assert lines_of(data) == [
        "empty = {}",
        "none = []",
        'p[0].cell = "e5"',
        "p[0].jewels[0] = [9,8]",
    ]


def test_keys_that_are_not_names_are_quoted() -> None:
    data = {"a b": 1, "x.y": {"[0]": True}, "é": [None, "q"]}
    lines = lines_of(data)
    assert lines == ['["a b"] = 1', '["x.y"] = {"[0]":true}', '["é"] = [null,"q"]']
    assert split_path('["x.y"]["[0]"]') == ["x.y", "[0]"]


@pytest.mark.parametrize(
    "data",
    [
        {"a": 1, "b": [True, 1, 1.5, None, "s"]},
        {"deep": [[[{"k": [1] * 60}]]], "text": "a = b"},
        {"rows": [{"x": i, "y": [i] * 40} for i in range(12)]},
    ],
)
def test_round_trip(data: dict[str, Any]) -> None:
    lines = lines_of(data)
    back = read(list(reversed(lines)))  # facts can come in any order
    assert json.dumps(back, sort_keys=True) == json.dumps(data, sort_keys=True)


def test_without_a_path_only_a_dict_is_facts() -> None:
    with pytest.raises(ValueError):
        list(flatten([1, 2]))
    assert list(flatten([1, 2], "v")) == [("v", "[1,2]")]


@pytest.mark.parametrize(
    "lines",
    [
        ["a[1] = 2"],  # a list with a gap
        ["a[0] = 1", "a.b = 2"],  # both a list and a dict
        ["a = 1", "a = 2"],  # twice
        ["a = 1", "a.b = 2"],  # inside a leaf
        ["a.b"],  # no value
        ["a..b = 1"],  # not a path
    ],
)
def test_malformed_facts_are_refused(lines: list[str]) -> None:
    with pytest.raises(ValueError):
        read(lines)
