"""JSON data as one fact per line (``path = value``), and back.

Why: the golden playthroughs must read as a small diff when a rule changes. A
state serialised on one line changes as a whole; written leaf by leaf, a change
of one score or one cell is one changed line, and the line itself says where it
is (``pyramid[3].card = "4H"``).

A container of scalars that fits in ``INLINE`` characters stays on one line as
compact JSON (a pyramid cell, a short list of scores): it is one row, one fact.
Anything larger is split into its members, so a grid is one line per row and a
long list one line per item. Keys are sorted, so the order is stable.

>>> [format_fact(p, v) for p, v in flatten({"b": [1, 2], "a": {"x": None}})]
['a = {"x":null}', 'b = [1,2]']
>>> unflatten(parse_fact(line) for line in ['a.x = null', 'b[1] = 2', 'b[0] = 1'])
{'a': {'x': None}, 'b': [1, 2]}
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

#: The longest compact JSON that a container of scalars keeps on one line.
INLINE = 100

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STEP = re.compile(r'\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')

Step = str | int
"""One step of a path: a dict key or a list index."""


def dumps(value: Any) -> str:
    """Compact, key-sorted JSON: the value half of a fact line."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _is_row(value: dict[str, Any] | list[Any]) -> bool:
    """A non-empty container of scalars short enough for one line."""
    members = value.values() if isinstance(value, dict) else value
    return all(not isinstance(m, dict | list) for m in members) and len(dumps(value)) <= INLINE


def _key_step(key: str) -> str:
    return f".{key}" if _NAME.fullmatch(key) else f"[{dumps(key)}]"


def flatten(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """The ``(path, json)`` facts of ``value``, in a stable order.

    An empty container, a scalar and a short row are leaves; the path of a
    top-level key has no leading dot (so without a path, ``value`` must be a
    non-empty dict).
    """
    if not path and not (isinstance(value, dict) and value):
        raise ValueError("without a path, only a non-empty dict can be written as facts")
    if isinstance(value, dict | list) and value and not (path and _is_row(value)):
        if isinstance(value, dict):
            for key in sorted(value):
                step = _key_step(key)
                yield from flatten(value[key], path + step if path else step.lstrip("."))
        else:
            for i, item in enumerate(value):
                yield from flatten(item, f"{path}[{i}]")
        return
    yield path, dumps(value)


def format_fact(path: str, value_json: str) -> str:
    """The line ``path = value``."""
    return f"{path} = {value_json}"


def split_path(path: str) -> list[Step]:
    """The steps of a path (``a.b[2]["x y"]`` → ``["a", "b", 2, "x y"]``)."""
    rest = path if path.startswith("[") else "." + path
    steps: list[Step] = []
    at = 0
    while at < len(rest):
        m = _STEP.match(rest, at)
        if m is None:
            raise ValueError(f"not a fact path: {path!r}")
        name, index, quoted = m.groups()
        steps.append(name if name is not None else int(index) if index else json.loads(quoted))
        at = m.end()
    if not steps:
        raise ValueError("an empty fact path")
    return steps


def parse_fact(line: str) -> tuple[str, Any]:
    """``(path, value)`` of a ``path = value`` line."""
    path, sep, value = line.partition(" = ")
    if not sep:
        raise ValueError(f"not a fact line: {line!r}")
    split_path(path)
    return path, json.loads(value)


class _Node(dict[Step, Any]):
    """A branch of the path tree (a leaf value may itself be a dict: a row)."""


def unflatten(facts: Iterable[tuple[str, Any]]) -> Any:
    """The data that ``flatten`` wrote as these ``(path, value)`` facts, in any order."""
    root = _Node()
    for path, value in facts:
        *parents, last = split_path(path)
        node = root
        for step in parents:
            child = node.setdefault(step, _Node())
            if not isinstance(child, _Node):
                raise ValueError(f"{path!r} goes inside a leaf")
            node = child
        if last in node:
            raise ValueError(f"{path!r} given twice")
        node[last] = value
    return _build(root)


def _build(node: Any) -> Any:
    """Turn the path tree into dicts and lists (a branch keyed 0..n-1 is a list)."""
    if not isinstance(node, _Node):
        return node
    if all(isinstance(k, int) for k in node):
        if sorted(node) != list(range(len(node))):
            raise ValueError(f"list indices with a gap: {sorted(node)}")
        return [_build(node[i]) for i in range(len(node))]
    if any(isinstance(k, int) for k in node):
        raise ValueError("a path is both a list index and a dict key")
    return {k: _build(v) for k, v in node.items()}
