"""Tables at 60 columns and in long-worded languages: whole headers, never "…"."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import pyramids
from pyramids.ai.registry import make_agent
from pyramids.cli.games import game_hooks
from pyramids.cli.main import app
from pyramids.engine.rng import Rng
from pyramids.text import pyramido
from pyramids.text.language import set_language
from tests.cli.terminal import Terminal
from tests.review.positions import pyramideto_immediate_win


@pytest.fixture
def finnish() -> None:
    set_language("fi")  # tests/cli/conftest.py restores the language after the test


def _finished_pyramido() -> dict[str, object]:
    state = pyramids.new_game("pyramido", players=4, seed=3)
    agent, rng = make_agent("greedy", "pyramido"), Rng(1)
    while not state.is_over:
        state.play(agent.choose(state, rng))
    return state.view(None)


@pytest.mark.parametrize("width", [60, 80, 120])
def test_the_pyramido_end_table_keeps_its_headers(width: int) -> None:
    console = Console(width=width, record=True, color_system=None)
    console.print(pyramido.summary(_finished_pyramido()))
    text = console.export_text()
    assert "…" not in text and "Place" in text and "Total" in text, text


def test_the_pyramido_end_table_in_finnish_at_80(finnish: object) -> None:
    console = Console(width=80, record=True, color_system=None)
    console.print(pyramido.summary(_finished_pyramido()))
    text = console.export_text()
    assert "…" not in text and "Sija" in text, text


@pytest.mark.parametrize(("lang", "width"), [("en", 60), ("fi", 80), ("fi", 60)])
def test_review_tables_keep_their_columns(tmp_path: Path, lang: str, width: int) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(pyramideto_immediate_win()))
    result = CliRunner().invoke(
        app, ["--lang", lang, "review", str(path), "--budget", "20"], terminal_width=width
    )
    assert result.exit_code == 0, result.output
    assert "…" not in result.output, result.output


def _turn(height: int, *, terminal: bool = True) -> str:
    state = pyramids.new_game("pyramideto", players=2, seed=3)
    buffer = io.StringIO()
    console = Console(
        file=buffer, width=60, height=height, force_terminal=terminal, color_system=None
    )
    console.print(game_hooks("pyramideto").draw(state.view(0)))
    return buffer.getvalue()


def test_a_pyramideto_turn_fits_a_60x20_terminal() -> None:
    short = _turn(20)
    assert len(short.splitlines()) <= 18, short  # the stacks stay on screen with the prompt
    assert "Lr > My > Sb" in short and "Hamburger" in short  # every goal, one line each
    tall = _turn(40)
    assert "╭" in tall  # a tall terminal keeps the goal cards' pictures
    assert "╭" in _turn(20, terminal=False)  # a file has no screen to scroll away


def test_help_comes_a_page_at_a_time_on_a_short_terminal(terminal: Callable[..., Terminal]) -> None:
    t = terminal("play", "pyramideto", "--players", "2", "--bots", "1", "--seed", "3")
    t.child.setwinsize(20, 60)
    t.prompt()
    t.send("help")
    t.expect("-- more")
    t.send("q")
    t.prompt()
    t.send("q")
    t.expect("[y/N]")
    t.send("y")
    assert t.wait_exit() == 0
