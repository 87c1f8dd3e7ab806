"""A saved game is never replaced silently: ``--save``, ``save FILE`` and the end-of-game prompt.

These run through Typer's runner (a pipe, not a terminal): there nobody can be
asked, so a file already there is refused and left as it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pyramids.cli.main import app
from tests.cli.terminal import Terminal
from tests.conftest import greedy_piramides_moves

runner = CliRunner()
OTHER = '{"another": "saved game"}\n'


def test_save_refuses_an_existing_file_before_the_game(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text(OTHER)
    result = runner.invoke(app, ["play", "piramides", "--deal", "3", "--save", str(other)])
    assert result.exit_code == 2, result.output
    assert "the file exists and is left as it was" in " ".join(result.output.split())
    assert other.read_text() == OTHER


def test_the_save_command_refuses_an_existing_file_and_the_game_goes_on(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text(OTHER)
    mine = tmp_path / "mine.json"
    keys = f"draw\nsave {other}\nsave {mine}\ndraw\nsave {mine}\nq\ny\n"
    result = runner.invoke(app, ["play", "piramides", "--deal", "3"], input=keys)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert f"Not saved: {other} exists and is left as it was." in text
    assert other.read_text() == OTHER
    assert json.loads(mine.read_text())["moves"] == ["draw", "draw"]  # its own file: replaced


def test_the_end_prompt_offers_a_free_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "piramides-5.json").write_text(OTHER)
    keys = "\n".join(greedy_piramides_moves(5, rounds=1)) + "\ny\n\n"
    result = runner.invoke(app, ["play", "piramides", "--deal", "5", "-o", "rounds=1"], input=keys)
    assert result.exit_code == 0, result.output
    assert "File name [piramides-5-2.json]:" in result.output
    assert (tmp_path / "piramides-5.json").read_text() == OTHER
    assert json.loads((tmp_path / "piramides-5-2.json").read_text())["game"] == "piramides"


def test_at_a_terminal_the_player_is_asked(
    terminal: Callable[..., Terminal], tmp_path: Path
) -> None:
    other = tmp_path / "other.json"
    other.write_text(OTHER)
    t = terminal("play", "piramides", "--deal", "3", "--save", "other.json")
    t.expect("other.json exists. Replace it? [y/N]")
    t.send("n")
    t.expect("the file exists and is left as it was")
    assert t.wait_exit() == 2 and other.read_text() == OTHER
    t = terminal("play", "piramides", "--deal", "3")
    t.prompt()
    t.send("draw")
    t.prompt()
    t.send("save other.json")
    t.expect("other.json exists. Replace it? [y/N]")
    t.send("y")
    t.expect("Record saved to other.json")
    t.prompt()
    t.send("q")
    t.expect("[y/N]")
    t.send("y")
    assert t.wait_exit() == 0
    assert json.loads(other.read_text())["moves"] == ["draw"]
