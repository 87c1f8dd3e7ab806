"""Golden playthroughs: a rules change anywhere shows up as a diff of these files.

After an intended change, regenerate with
``.venv/bin/python -m pyramids.engine.playthrough tests/golden/*.txt`` (or
``make golden``) and review the diff before committing it. The format, one
fact per line, is described in docs/testing.md.
"""

from __future__ import annotations

import difflib
import functools
import json
from pathlib import Path

import pytest

from pyramids.engine.playthrough import (
    Playthrough,
    header_of,
    parse,
    play_through,
    regenerate,
    render,
)
from pyramids.engine.registry import game_ids

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.txt"))


@functools.cache
def played(path: Path) -> Playthrough:
    """The game that ``path``'s header describes, played again by the current engine."""
    h = header_of(path)
    return play_through(h["game"], h["players"], h["seed"], h["agent_seed"], h["variant"])


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_playthrough_unchanged(path: Path) -> None:
    expected = path.read_text(encoding="utf-8")
    actual = render(played(path))
    if actual != expected:
        pytest.fail(f"{path.name} changed:\n{first_difference(expected, actual)}")


def first_difference(expected: str, actual: str, most: int = 40) -> str:
    """The start of the unified diff of two playthroughs, each hunk headed by its ply (as git)."""
    old = expected.splitlines()
    diff = difflib.unified_diff(old, actual.splitlines(), "golden", "now", n=2, lineterm="")
    lines = [f"{line} {section_at(old, line)}" if line.startswith("@@") else line for line in diff]
    more = f"\n… and {len(lines) - most} more diff lines" if len(lines) > most else ""
    return "\n".join(lines[:most]) + more


def section_at(lines: list[str], hunk: str) -> str:
    """The section title (``ply 12 player 1``) above the first line of a hunk ``@@ -N,…``."""
    start = int(hunk.split()[1].lstrip("-").split(",")[0])
    return next((line for line in reversed(lines[:start]) if not line.startswith(" ")), "")


def test_every_game_has_a_golden_playthrough() -> None:
    covered = {header_of(p)["game"] for p in GOLDEN}
    assert set(game_ids()) <= covered


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_file_reads_back_as_the_game_it_records(path: Path) -> None:
    """Reading a golden file gives every move and state the engine produced, nothing lost."""
    read = parse(path.read_text(encoding="utf-8"))
    # json.dumps also tells true from 1, which == does not
    assert json.dumps(read, sort_keys=True) == json.dumps(played(path), sort_keys=True)


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_lines_are_short_facts(path: Path) -> None:
    """No state on one line: every line is a section title, a move or one short fact."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert max(len(line) for line in lines) <= 160


def test_regenerate_reads_the_header() -> None:
    path = GOLDEN[0]
    assert regenerate(path) == path.read_text(encoding="utf-8")


def test_a_file_in_another_format_is_refused(tmp_path: Path) -> None:
    old = tmp_path / "old.txt"
    old.write_text('# playthrough {"game":"piramides"}\nsetup {}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="not a golden playthrough"):
        header_of(old)
    with pytest.raises(ValueError, match="not a golden playthrough"):
        parse(old.read_text(encoding="utf-8"))
