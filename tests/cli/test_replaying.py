"""``pyramids replay`` of records a player really has: unfinished games of every kind."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pyramids.cli.main import app
from pyramids.engine.records import save_record
from pyramids.engine.registry import get_game
from pyramids.engine.rng import Rng

runner = CliRunner()


@pytest.mark.parametrize(
    ("game_id", "players"),
    [("piramides", 1), ("pyramideto", 3), ("pyramido", 2), ("pyramido-treasure", 2)],
)
def test_an_unfinished_game_replays_without_places_or_an_ending(
    tmp_path: Path, game_id: str, players: int
) -> None:
    state = get_game(game_id).new(players=players, seed=4)
    rng = Rng(4)
    for _ in range(3):
        state.play(state.random_move(rng))
    path = tmp_path / "unfinished.json"
    save_record(state, path)
    result = runner.invoke(app, ["--lang", "en", "replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "The game is not over: 3 moves so far." in result.output
    assert "None" not in result.output  # no "Place None"
    assert "Drawn" not in result.output and "wins" not in result.output
    assert "Place" not in result.output
