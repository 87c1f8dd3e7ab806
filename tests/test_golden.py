"""Golden playthroughs: a rules change anywhere shows up as a diff of these files.

After an intended change, regenerate with
``.venv/bin/python -m pyramids.engine.playthrough tests/golden/*.txt`` and
review the diff before committing it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pyramids.engine.playthrough import header_of, regenerate
from pyramids.engine.registry import game_ids

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.txt"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_playthrough_unchanged(path: Path) -> None:
    expected = path.read_text(encoding="utf-8")
    actual = regenerate(path)
    if actual != expected:
        pytest.fail(f"{path.name} changed:\n{first_difference(expected, actual)}")


def first_difference(expected: str, actual: str) -> str:
    """Where two playthroughs first differ, with a little context (lines are long JSON)."""
    old, new = expected.splitlines(), actual.splitlines()
    for n, (a, b) in enumerate(zip(old, new, strict=False), 1):
        if a != b:
            col = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), 0)
            lo = max(0, col - 60)
            return (
                f"line {n}, column {col}:\n"
                f"  golden: …{a[lo : col + 60]}…\n"
                f"  now:    …{b[lo : col + 60]}…"
            )
    return f"golden has {len(old)} lines, now {len(new)}"


def test_every_game_has_a_golden_playthrough() -> None:
    covered = {header_of(p)["game"] for p in GOLDEN}
    assert set(game_ids()) <= covered
