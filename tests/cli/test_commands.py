"""The command table of terminal play: dispatch, help and Tab completion read the same entries."""

from __future__ import annotations

import doctest
from typing import Any

import pytest
from rich.console import Console

import pyramids
from pyramids.cli import commands
from pyramids.cli.commands import Command, CommandTable
from pyramids.cli.games import game_hooks
from pyramids.cli.lineedit import LineReader
from pyramids.cli.play import COMMANDS, Seat, Session, dispatch, help_text, new_session
from tests.cli.test_pieces import GAMES, text_of


def _session(game: str, players: int) -> Session:
    state = pyramids.new_game(game, players=players, seed=5)
    return new_session(
        state,
        [Seat(f"Player {i + 1}") for i in range(players)],
        game_hooks(game),
        Console(width=120, record=True, color_system=None),
        seed=5,
        save_to=None,
        reader=LineReader(interactive=False),
    )


def test_docstring_examples() -> None:
    assert doctest.testmod(commands).failed == 0


def test_a_command_reads_its_usage_and_keywords_from_its_argument_spec() -> None:
    save = Command("save", (), "FILE", "s", print)
    hint = Command("hint", (), "[N] [score]", "h", print)
    bare = Command("moves", ("m", "list"), "", "m", print)
    assert (save.usage, save.keywords) == ("save FILE", ())
    assert (hint.usage, hint.keywords) == ("hint [N] [score]", ("score",))
    assert (bare.usage, bare.names) == ("moves", ("moves", "m", "list"))


def test_a_word_runs_one_command_only() -> None:
    clash = Command("hold", ("q",), "", "clash", print)
    with pytest.raises(ValueError, match="'q' already runs 'quit'"):
        CommandTable(COMMANDS, [clash])


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_help_lists_each_command_of_the_table_once(game: str, players: int) -> None:
    session = _session(game, players)
    shown = text_of(help_text(session))
    for cmd in session.commands:
        assert shown.count(f"  {cmd.usage}") == 1, cmd.usage
    own = {cmd.name for cmd in game_hooks(game).commands}
    assert {cmd.name for cmd in session.commands} == {cmd.name for cmd in COMMANDS} | own
    assert ("hint [N] [score]" in shown) == (game == "piramides")
    assert ("floors [N]" in shown) == (game == "pyramido")


def test_every_word_of_the_table_runs_its_command_in_any_case() -> None:
    session = _session("piramides", 1)
    ran: list[tuple[str, str]] = []

    def record(name: str) -> Any:
        return lambda _session, arg: ran.append((name, arg))

    table = CommandTable(
        Command(c.name, c.aliases, c.args, c.summary, record(c.name)) for c in session.commands
    )
    session.commands = table
    for cmd in table:
        for word in cmd.names:
            dispatch(session, f"  {word.upper()}   some words ")
            assert ran.pop() == (cmd.name, "some words")
    dispatch(session, "draw")  # not a word of the table: a move
    assert not ran and session.state.ply == 1


def test_completion_offers_the_commands_and_their_keywords() -> None:
    lines = _session("piramides", 1).completions()
    assert {"moves", "list", "board", "undo", "save", "help", "quit", "exit", "hint"} <= set(lines)
    assert "hint score" in lines
    assert not {"m", "b", "u", "h", "?", "q"} & set(lines)  # one-letter words complete nothing
    assert "floors" in _session("pyramido", 2).completions()
