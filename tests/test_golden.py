"""Golden playthroughs: a rules change anywhere shows up as a diff of these files.

After an intended change, regenerate with
``.venv/bin/python -m pyramids.engine.playthrough tests/golden/*.txt`` and
review the diff before committing it.
"""

from __future__ import annotations

import difflib
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
        diff = "".join(
            list(
                difflib.unified_diff(
                    expected.splitlines(True), actual.splitlines(True), "golden", "now", n=1
                )
            )[:40]
        )
        pytest.fail(f"{path.name} changed; first lines of the diff:\n{diff}")


def test_every_game_has_a_golden_playthrough() -> None:
    covered = {header_of(p)["game"] for p in GOLDEN}
    assert set(game_ids()) <= covered
