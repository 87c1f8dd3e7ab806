"""Tables at 60 columns and in long-worded languages: whole headers, never "…"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import pyramids
from pyramids.ai.registry import make_agent
from pyramids.cli.main import app
from pyramids.engine.rng import Rng
from pyramids.text import pyramido
from pyramids.text.language import set_language
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
