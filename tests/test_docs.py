"""The documentation holds: its examples run, and project files carry no work diary.

An example that no longer works teaches the wrong thing, so the suite runs
them all, as python-chess doctests its README. The docstring examples are
found in the source text (only a module whose text holds ``>>>`` is imported,
which keeps this cheap); a module that needs an optional extra that is not
installed is skipped, as the tests of that extra are, while an import error
of our own fails.

Docs, code and tests describe the software as it is; its history is in git and
in ``CHANGELOG.md``. So no project file speaks of work sessions, issue numbers
or dates of work (a test below keeps it so).
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


MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
#: what a work diary writes: "Session 11", "issue 19", "issue #6", "1 December 2026",
#: "this session", "the issue's target"
DIARY = re.compile(
    r"\bsessions? \d+|\bissues? #?\d+"
    rf"|\b\d{{1,2}} (?:{MONTHS}) \d{{4}}\b"
    r"|\b(?:this|previous|earlier|next|last|that) session\b"
    r"|\b(?:the|this|that) issue\b|\bissue target",
    re.IGNORECASE,
)
#: the project's own text files: its docs, code, tests, benchmarks and examples
DIARY_FILES = (
    ("docs", (".md",)),
    ("src", (".py", ".md", ".js", ".html", ".css")),
    ("tests", (".py", ".md", ".txt")),
    ("benchmarks", (".py", ".md")),
    ("examples", (".py", ".md")),
)


def project_text_files() -> list[Path]:
    """Every such file but this one, which quotes what a diary writes."""
    files = [ROOT / name for name in ("README.md", "CHANGELOG.md") if (ROOT / name).exists()]
    for folder, suffixes in DIARY_FILES:
        files += sorted(p for p in (ROOT / folder).rglob("*") if p.suffix in suffixes)
    return [p for p in files if p != Path(__file__).resolve()]


def diary_lines(path: Path) -> list[str]:
    """The lines of ``path`` that speak of sessions, issue numbers or dates of work."""
    text = path.read_text(encoding="utf-8")
    return [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for n, line in enumerate(text.splitlines(), 1)
        if DIARY.search(line)
    ]


def test_no_project_file_reads_as_a_work_diary() -> None:
    """History belongs in git and CHANGELOG.md, not in docs, code or tests."""
    found = [line for path in project_text_files() for line in diary_lines(path)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize(
    "line",
    [
        "**Session 11 (2 December 2026): more iterations.**",
        "accepted (issue 19). It passes",
        "issue #6 evidence",
        "Measured 1 December 2026, 10:45 UTC",
        "| before this session (ea8ff15) |",
        "The issue's speed targets are met",
    ],
)
def test_the_diary_check_finds_what_a_diary_writes(line: str) -> None:
    assert DIARY.search(line)


def test_the_diary_check_leaves_plain_words_alone() -> None:
    for line in (
        "def run_session(session: Session) -> None:",
        "A fresh database on the session's PostgreSQL cluster.",
        "the game's issues of fairness",
        "Deal 1 starts 7D 9C 4D 8H",
    ):
        assert not DIARY.search(line), line
    assert len(project_text_files()) > 300
