""" "The same deal again" names the whole game: players, bots, options, seed, --solvable."""

from __future__ import annotations

import shlex

import pytest
from typer.testing import CliRunner

from pyramids.cli.main import app

runner = CliRunner()


def _same_deal(args: list[str], keys: str) -> str:
    result = runner.invoke(app, ["--lang", "en", "play", *args], input=keys)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "The same deal again: " in text, text
    return text.split("The same deal again: ", 1)[1].strip()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["pyramideto", "--players", "3", "--bots", "2", "-o", "hand_size=5", "--seed", "8"],
            "pyramids play pyramideto --players 3 --bots 2 --agent greedy -o hand_size=5 --seed 8",
        ),
        (
            ["piramides", "-o", "layout=golf", "--seed", "8"],
            "pyramids play piramides -o layout=golf --seed 8",
        ),
        (
            ["piramides", "--solvable", "--deal", "8"],
            "pyramids play piramides --seed 8 --solvable",
        ),
    ],
)
def test_the_command_deals_exactly_that_game(args: list[str], expected: str) -> None:
    command = _same_deal(args, "moves\n1\nq\ny\n")
    assert command == expected
    words = shlex.split(command)[2:]
    again = _same_deal(words, "moves\n1\nq\ny\n")
    assert again == command  # the printed command deals the game that prints it
