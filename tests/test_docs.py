"""The examples in the documentation run: every ``>>>`` in the package, the README's code.

An example that no longer works teaches the wrong thing, so the suite runs
them all, as python-chess doctests its README. The docstring examples are
found in the source text (only a module whose text holds ``>>>`` is imported,
which keeps this cheap); a module that needs an optional extra that is not
installed is skipped, as the tests of that extra are, while an import error
of our own fails.
"""

from __future__ import annotations

import contextlib
import doctest
import importlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
#: documents whose ```python blocks form one complete program
RUNNABLE_DOCS = ("README.md", "docs/engine.md")
FENCE = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def modules_with_examples() -> list[str]:
    """Dotted names of the package's modules whose source holds a ``>>>`` example."""
    found = []
    for path in sorted((SRC / "pyramids").rglob("*.py")):
        if ">>>" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(SRC).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def import_or_skip(name: str) -> object:
    """The module; skipped if it needs a third-party package that is missing."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name is None or e.name.split(".")[0] == "pyramids":
            raise
        pytest.skip(f"{name} needs {e.name}, an optional extra")


@pytest.mark.parametrize("name", modules_with_examples())
def test_docstring_examples_run(name: str) -> None:
    module = import_or_skip(name)
    tests = [t for t in doctest.DocTestFinder().find(module, name) if t.examples]
    assert tests, f"{name} holds '>>>' but no example doctest can find"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = io.StringIO()
    for test in tests:
        runner.run(test, out=out.write)
    assert runner.failures == 0, out.getvalue()


def test_the_examples_are_found() -> None:
    """Guards the finder: the package documents itself with examples in many places."""
    names = modules_with_examples()
    assert {"pyramids", "pyramids.engine.state", "pyramids.ai.errors"} <= set(names)
    assert len(names) >= 10


def python_blocks(text: str) -> list[str]:
    return [m.group(1) for m in FENCE.finditer(text)]


@pytest.mark.parametrize("doc", RUNNABLE_DOCS)
def test_documented_programs_run(doc: str) -> None:
    blocks = python_blocks((ROOT / doc).read_text(encoding="utf-8"))
    assert blocks, f"{doc} has no ```python block"
    namespace: dict[str, object] = {"__name__": f"example:{doc}"}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for block in blocks:
            exec(compile(block, f"{doc} example", "exec"), namespace)
    assert printed.getvalue().strip(), f"the example of {doc} printed nothing"
    state, again = namespace["state"], namespace.get("again")
    assert getattr(state, "is_over", False)
    if again is not None:
        assert getattr(again, "is_over", False)


def test_python_blocks_are_read_whole() -> None:
    text = "intro\n```python\na = 1\nb = 2\n```\n```sh\nls\n```\n```python\nc = 3\n```\n"
    assert python_blocks(text) == ["a = 1\nb = 2\n", "c = 3\n"]
