"""The command line as a user meets it: play, replay, simulate, games, agents."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import pyramids
from pyramids.cli.main import app
from pyramids.engine.rng import Rng
from tests.conftest import play_randomly

runner = CliRunner()


def test_games_lists_every_game() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for g in pyramids.game_ids():
        assert g in result.output


def test_agents_lists_random_and_greedy() -> None:
    result = runner.invoke(app, ["agents", "piramides"])
    assert result.exit_code == 0
    assert "random" in result.output and "greedy" in result.output


def test_play_piramides_session(tmp_path: Path) -> None:
    # deal 3: waste 8♥, the bottom row holds 9♦? we only rely on the engine's answers
    state = pyramids.new_game("piramides", seed=3)
    first = state.move_to_str(state.legal_moves()[0])
    out = tmp_path / "game.json"
    keys = f"moves\nA1\nnonsense\n{first}\nundo\n{first}\nsave {out}\nquit\n"
    result = runner.invoke(app, ["play", "piramides", "--deal", "3"], input=keys)
    assert result.exit_code == 0, result.output
    assert "seed/deal 3" in result.output
    assert "1. " in result.output  # the numbered move list
    assert "Illegal: the card at A1 is still covered" in result.output
    assert "is not a move" in result.output
    assert "Move taken back." in result.output
    record = json.loads(out.read_text())
    assert record["moves"] == [first]
    assert pyramids.replay(record).ply == 1


def test_play_to_the_end_shows_the_breakdown_and_saves(tmp_path: Path) -> None:
    out = tmp_path / "end.json"
    keys = "draw\n" * 23 + "joker\n" + "1\n" * 40
    result = runner.invoke(
        app, ["play", "piramides", "--deal", "5", "--save", str(out)], input=keys
    )
    assert result.exit_code == 0, result.output
    assert "Game over." in result.output
    assert "Score by round" in result.output
    assert pyramids.replay(json.loads(out.read_text())).is_over


def test_play_face_down_hides_covered_cards() -> None:
    result = runner.invoke(app, ["play", "piramides", "--deal", "2", "--face-down"], input="q\n")
    assert result.exit_code == 0
    assert "▒▒▒" in result.output


def test_play_rejects_bad_options() -> None:
    result = runner.invoke(app, ["play", "nosuchgame"])
    assert result.exit_code == 2 and "unknown game" in result.output
    result = runner.invoke(app, ["play", "piramides", "-o", "jokers_per_round=lots"])
    assert result.exit_code == 2 and "jokers_per_round" in result.output
    result = runner.invoke(app, ["play", "piramides", "-o", "colour=red"])
    assert result.exit_code == 2 and "no option 'colour'" in result.output


def test_replay_json_and_move_by_move(tmp_path: Path) -> None:
    state = pyramids.new_game("piramides", seed=9)
    play_randomly(state, Rng(1))
    path = tmp_path / "r.json"
    path.write_text(json.dumps(state.record()))
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.output) == {
        "game": "piramides",
        "moves": state.ply,
        "over": True,
        "scores": state.scores(),
        "ranking": [1],
    }
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0
    assert f"move {state.ply}:" in result.output
    assert "Score by round" in result.output


def test_replay_names_the_tampered_move(tmp_path: Path) -> None:
    state = pyramids.new_game("piramides", seed=9)
    play_randomly(state, Rng(1), max_plies=5)
    record = state.record()
    record["moves"][2] = "A1"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "moves[2]" in result.output and "move 3" in result.output
    path.write_text("{")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "not valid JSON" in result.output


def test_simulate_summary_and_records(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "simulate",
            "piramides",
            "--games",
            "6",
            "--agent",
            "greedy",
            "--seed",
            "4",
            "--records",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "6 games of piramides" in result.output
    assert "rounds cleared" in result.output
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 6
    assert pyramids.replay(json.loads(files[0].read_text())).is_over
    bad = runner.invoke(app, ["simulate", "piramides", "--agent", "nobody"])
    assert bad.exit_code == 2 and "unknown agent" in bad.output
