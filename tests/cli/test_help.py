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


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("cs", ["počet hráčů", "Hrát hru v terminálu"]),
        ("es", ["número de jugadores", "Juega una partida en la terminal"]),
        ("fi", ["pelaajien määrä", "Pelaa peliä päätteessä"]),
        ("pt", ["número de jogadores", "Jogue uma partida no terminal"]),
    ],
)
def test_help_speaks_the_chosen_language(lang: str, words: list[str]) -> None:
    listing = runner.invoke(app, ["--lang", lang, "--help"], terminal_width=100).output
    assert "Pyramids: " in listing and "Pyramids: four table games" not in listing
    result = runner.invoke(app, ["--lang", lang, "play", "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    for word in words:
        assert word in text, text


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("cs", ["Spustí webovou aplikaci", "port TCP", "Zkontroluje záznam hry ze serveru"]),
        ("es", ["Sirve la aplicación web", "puerto TCP", "Comprueba el registro de una partida"]),
        ("fi", ["Käynnistää verkkosovelluksen", "TCP-portti", "Tarkistaa palvelimella pelatun"]),
        ("pt", ["Serve o aplicativo web", "porta TCP", "Verifica o registro de uma partida"]),
    ],
)
def test_the_servers_commands_speak_the_chosen_language(lang: str, words: list[str]) -> None:
    """``serve`` and ``verify`` too: a club's host reads them in their own language."""
    texts = []
    for command in ("serve", "verify"):
        result = runner.invoke(app, ["--lang", lang, command, "--help"], terminal_width=100)
        assert result.exit_code == 0, result.output
        texts.append(" ".join(result.output.split()))
    text = " ".join(texts)
    for word in words:
        assert word in text, text


def test_a_bad_serve_option_is_refused_in_the_chosen_language() -> None:
    result = runner.invoke(app, ["--lang", "es", "serve", "--bot-lease", "0"])
    assert result.exit_code == 2
    assert "--bot-lease debe ser un número positivo de segundos" in result.output
