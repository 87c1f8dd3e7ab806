"""Choosing how strong a bot is: agent options in play and simulate, explained by ``agents``."""

from __future__ import annotations

from typer.testing import CliRunner

from pyramids.cli.main import app

runner = CliRunner()


def test_play_takes_an_agent_with_its_level() -> None:
    args = ["play", "pyramideto", "--bots", "1", "--agent", "mcts:level=easy", "--seed", "2"]
    result = runner.invoke(app, ["--lang", "en", *args], input="q\ny\n")
    assert result.exit_code == 0, result.output
    assert "unknown agent" not in result.output
    bad = runner.invoke(app, ["play", "pyramideto", "--bots", "1", "--agent", "mcts:level=godlike"])
    assert bad.exit_code == 2 and "level" in bad.output


def test_simulate_takes_agent_options() -> None:
    args = ["simulate", "pyramideto", "--games", "1", "--agent", "mcts:iterations=5,random"]
    result = runner.invoke(app, ["--lang", "en", *args])
    assert result.exit_code == 0, result.output
    assert "mcts:iterations=5" in result.output


def test_agents_explains_child_and_the_levels() -> None:
    result = runner.invoke(app, ["--lang", "en", "agents"], terminal_width=100)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "mcts:level=hard" in text and "easy" in text and "medium" in text
    assert "child is the treasure hunt's greedy player with a child's memory" in text
    assert "uniformly random legal moves" in text
