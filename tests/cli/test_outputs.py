"""Every output path is checked before the work, and refused in one line.

A command that runs for minutes must not fail at its last step on a typing
mistake, must not create folders a mistyped path names, and must never print
a traceback for a user's mistake. Each case here used to play or solve first,
then fail with a Rich traceback (or create the folders).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pyramids.cli.main import app
from pyramids.engine.records import save_record
from pyramids.engine.registry import get_game

runner = CliRunner()


def _refused(args: list[str], *words: str) -> str:
    result = runner.invoke(app, ["--lang", "en", *args])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    text = " ".join(result.output.split())
    assert text.startswith("Error:"), text
    for word in words:
        assert word in text, text
    return text


def test_solve_checks_its_outputs_first_and_creates_no_folder(tmp_path: Path) -> None:
    missing = tmp_path / "nodir" / "sub"
    _refused(
        ["solve", "golf", "--deals", "1..3", "--plot", str(missing / "x.png")],
        f"the folder {missing} does not exist",
    )
    _refused(
        ["solve", "golf", "--deals", "1..3", "--verdicts", str(missing / "v.json")],
        "does not exist",
    )
    assert not (tmp_path / "nodir").exists()
    _refused(["solve", "golf", "--deals", "1..3", "--verdicts", str(tmp_path)], "that is a folder")


def test_arena_and_simulate_check_their_folders_first(tmp_path: Path) -> None:
    a_file = tmp_path / "taken"
    a_file.write_text("x")
    arena = ["arena", "piramides", "--agents", "random", "--games", "2"]
    _refused([*arena, "--out", str(a_file)], "that is a file; give a folder")
    _refused([*arena, "--records", str(tmp_path / "no" / "recs")], "does not exist")
    simulate = ["simulate", "piramides", "--games", "2"]
    _refused([*simulate, "--records", str(a_file)], "that is a file; give a folder")
    _refused([*simulate, "--records", str(tmp_path / "no" / "recs")], "does not exist")
    assert not (tmp_path / "no").exists()


def test_review_checks_its_outputs_first_and_creates_no_folder(tmp_path: Path) -> None:
    state = get_game("piramides").new(players=1, seed=2)
    state.play(state.legal_moves()[0])
    record = tmp_path / "game.json"
    save_record(state, record)
    missing = tmp_path / "nonexistent"
    _refused(["review", str(record), "--plot", str(missing / "r.png")], "does not exist")
    _refused(["review", str(record), "--json", str(missing / "r.json")], "does not exist")
    assert not missing.exists()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["review", "x.json", "--jobs", "0"], ["--jobs must be at least 1"]),
        (["solve", "golf", "--deal", "-1"], ["--deal must be 0 or more"]),
        (["solve", "golf", "--deal", "3", "--plot", "x.png"], ["--plot", "--deals"]),
        (["solve", "golf", "--deal", "3", "--verdicts", "v.json"], ["--verdicts", "--deals"]),
    ],
)
def test_refused_like_their_siblings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], words: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    _refused(args, *words)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "missing.json"],
        ["review", "missing.json"],
        ["play", "--resume", "missing.json"],
        ["solve", "golf", "--file", "missing.json"],
        ["verify", "missing.json"],
    ],
)
def test_one_sentence_for_a_missing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    text = _refused(args)
    assert text == "Error: cannot read missing.json: No such file or directory", text
