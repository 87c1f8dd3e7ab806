"""``pyramids verify`` on a record of a game played outside a server.

Such a record (terminal play, ``simulate --records``) was never committed to, so there is
no commitment to check: verify checks its moves and says why that is all, instead of
calling an honest record "NOT verified". A tampered one is still refused.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from pyramids.cli.main import app
from pyramids.engine.records import make_record
from pyramids.engine.registry import new_game

runner = CliRunner()


def _played(path: Path) -> dict[str, Any]:
    state = new_game("pyramideto", players=2, seed=11)
    rng = random.Random(3)
    for _ in range(12):
        state.play(rng.choice(state.legal_moves()))
    record = make_record(state)
    path.write_text(json.dumps(record))
    return record


def test_a_terminal_record_is_checked_for_its_moves_and_said_to_carry_no_commitment(
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.json"
    _played(path)
    result = runner.invoke(app, ["--lang", "en", "verify", str(path)], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "NOT verified" not in result.output
    assert "not played on a server" in result.output
    as_json = runner.invoke(app, ["--lang", "en", "verify", "--json", str(path)])
    out = json.loads(as_json.output)
    assert out["ok"] is True and out["committed"] is False
    assert [c["check"] for c in out["checks"]] == ["moves"]


def test_a_tampered_terminal_record_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    record = _played(path)
    record["moves"] = [*record["moves"][:-1], "no such move"]
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["--lang", "en", "verify", str(path)], terminal_width=200)
    assert result.exit_code == 1
    assert "NOT verified" in result.output


def test_verify_speaks_the_readers_language(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    _played(path)
    result = runner.invoke(app, ["--lang", "es", "verify", str(path)], terminal_width=200)
    assert result.exit_code == 0
    assert "not played on a server" not in result.output
