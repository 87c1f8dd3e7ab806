"""``--help`` of every command: words for values, never Python types."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from pyramids.cli.main import COMMAND_MODULES, app

runner = CliRunner()
COMMANDS = [m.rsplit(".cmd_", 1)[1] for m in COMMAND_MODULES]
PYTHON_TYPE = re.compile(r"<(int|str|float|path|list\[[a-z]+\]|bool)>")


@pytest.mark.parametrize("command", COMMANDS)
def test_help_names_values_in_words(command: str) -> None:
    result = runner.invoke(app, [command, "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    assert not PYTHON_TYPE.search(result.output), result.output


def test_values_read_as_words() -> None:
    text = runner.invoke(app, ["arena", "--help"], terminal_width=100).output
    assert "--jobs N" in text and "-o, --option TEXT" in text and "--out PATH" in text
