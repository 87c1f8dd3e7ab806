"""Each game played through a pseudo-terminal, as a person at a terminal plays it.

The engine decides what is legal; these tests check what the terminal makes of
it: commands, numbered lists that go stale, undo, hint, saving that cannot lose
a game, Tab completion, hot-seat hand-over, events told, and a second language.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import pyramids
from pyramids.ai.registry import make_agent
from pyramids.engine.errors import IllegalMove
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.i18n import translator
from tests.cli.terminal import Terminal
from tests.conftest import greedy_piramides_moves

Start = Callable[..., Terminal]


def test_a_piramides_session_with_every_command(terminal: Start, tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    t = terminal("play", "piramides", "--deal", "3", "--save", str(saved))
    t.expect("seed/deal 3")
    t.prompt()
    t.send("help")
    shown = t.prompt()
    assert "How to win:" in shown and "Moves you can type now" in shown
    assert "G1" in shown and "8♥" in shown  # a real move of this deal, with its card
    assert "On the board:" in shown and "undo" in shown and "hint [N] [score]" in shown
    t.send("moves")
    shown = t.prompt()
    assert "6 legal moves:" in shown and "1. G1" in shown and "6. joker" in shown
    t.send("9")
    assert "No move number 9: the list goes from 1 to 6." in t.prompt()
    t.send("1")  # G1, the 8♥
    assert "Run 1 (next card +10)" in t.prompt()
    t.send("1")
    assert "That list is out of date: a move was played since." in t.prompt()
    t.send("board")
    assert "Score 5" in t.prompt()
    t.send("")  # an empty line redraws too
    assert "Waste" in t.prompt()
    t.send("hint abc")
    assert "hint does not know 'abc'" in t.prompt()
    t.send("hint 8")
    shown = t.prompt()
    assert "Hint (8 samples" in shown and "Hint: " in shown
    t.send("moves")
    t.prompt()
    t.send("undo")
    shown = t.prompt()
    assert "Move taken back." in shown and "Undo used 1 time" in shown
    t.send("3")
    assert "That list is out of date: a move was taken back since." in t.prompt()
    t.send("moves")
    t.prompt()
    t.send("undo")
    assert "Nothing to undo." in t.prompt()
    t.send("3")  # the list is still that of this position
    assert "Run 1 (next card +10)" in t.prompt()
    t.send(f"save {tmp_path / 'no-such-folder' / 'x.json'}")
    shown = t.prompt()
    assert "Cannot save to" in shown and "No such file or directory" in shown
    assert "The game goes on" in shown
    t.type("dr\t")  # Tab completes the move
    t.send("")
    t.prompt()
    t.send("quit")
    t.expect(f"Leave it? It will be saved to {saved}. [y/N]")
    t.send("n")
    t.prompt()
    t.send("q")
    t.expect("[y/N]")
    t.send("y")
    t.expect(f"Record saved to {saved}")
    assert t.wait_exit() == 0
    record = json.loads(saved.read_text())
    assert record["moves"] == ["G6", "draw"]  # move 3 of the list was G6 (the 8♦)
    assert record["undos"] == 1
    assert pyramids.replay(record).ply == 2


def test_a_piramides_game_to_its_end_tells_the_round_and_asks_y_n(
    terminal: Start, tmp_path: Path
) -> None:
    moves = greedy_piramides_moves(5, rounds=1)
    t = terminal("play", "piramides", "--deal", "5", "-o", "rounds=1")
    for move in moves:
        t.prompt()
        t.send(move)
    shown = t.expect("Save the record of this game? [y/N]")
    assert "Round 1 " in shown and " points." in shown  # the round told, part by part
    assert "Game over." in shown and "Score by round" in shown
    t.send("y")
    t.expect("File name [piramides-5.json]:")
    t.send("")
    t.expect("Record saved to piramides-5.json")
    assert t.wait_exit() == 0
    assert pyramids.replay(json.loads((tmp_path / "piramides-5.json").read_text())).is_over


def test_ctrl_c_and_ctrl_d_leave_but_save_to_save(terminal: Start, tmp_path: Path) -> None:
    saved = tmp_path / "c.json"
    t = terminal("play", "piramides", "--deal", "3", "--save", str(saved))
    t.prompt()
    t.send("draw")
    t.prompt()
    t.interrupt()
    t.expect("Interrupted: leaving the game.")
    t.expect("Record saved to")
    assert t.wait_exit() == 130
    assert json.loads(saved.read_text())["moves"] == ["draw"]
    closed = tmp_path / "d.json"
    t = terminal("play", "piramides", "--deal", "3", "--save", str(closed))
    t.prompt()
    t.send("joker")
    t.prompt()
    t.child.sendeof()
    t.expect("Input closed: leaving the game.")
    assert t.wait_exit() == 0
    assert json.loads(closed.read_text())["moves"] == ["joker"]


def _save(state: State[Any], path: Path) -> Path:
    path.write_text(json.dumps(state.record()))
    return path


def test_a_pyramido_floor_is_scored_and_told(terminal: Start, tmp_path: Path) -> None:
    state = pyramids.new_game("pyramido", players=2, seed=3)
    agent = make_agent("greedy", "pyramido")
    rng = Rng(1)
    # both players nearly done with floor 1: the human finishes it from here
    while len(state.view(None)["pyramids"][0]["grid"]["filled"]) < 16:
        state.play(agent.choose(state, rng))
    while state.current_player != 0:
        state.play(agent.choose(state, rng))
    t = terminal("play", "--resume", str(_save(state, tmp_path / "floor.json")), "--bots", "1")
    t.expect("going on from")
    for _ in range(60):
        t.prompt()
        if "on floor 1: marked areas" in t.text:
            break
        t.send("moves")
        t.prompt()
        t.send("1")
    else:
        raise AssertionError("floor 1 was never scored:\n" + t.text[-3000:])
    assert "Mino bonus +" in t.text and "Floor 2 begins." in t.text
    t.send("q")
    t.expect("[y/N]")
    t.send("y")
    t.expect("Record saved to")  # resumed from a file: saved back to it
    assert t.wait_exit() == 0


def _before_an_event(seed: int) -> State[Any]:
    """A treasure hunt where seat 0's first legal move makes an event card come up."""
    state = pyramids.new_game("pyramido-treasure", players=2, seed=seed)
    agent = make_agent("greedy", "pyramido-treasure")
    rng = Rng(seed)
    while not state.is_over:
        if state.current_player == 0:
            trial = state.copy()
            trial.play(trial.legal_moves()[0])
            if any(n["code"] == "draws-event" for n in trial.view(None)["news"]):
                return state
        state.play(agent.choose(state, rng))
    raise AssertionError("no event came up")


def test_a_treasure_event_is_told(terminal: Start, tmp_path: Path) -> None:
    state = _before_an_event(4)
    trial = state.copy()
    trial.play(trial.legal_moves()[0])
    news = [n["text"] for n in trial.view(None)["news"]]
    drawn = next(n["text"] for n in trial.view(None)["news"] if n["code"] == "draws-event")
    t = terminal("play", "--resume", str(_save(state, tmp_path / "hunt.json")), "--bots", "1")
    t.prompt()
    t.send("moves")
    t.prompt()
    t.send("1")
    shown = t.prompt()
    for line in news:  # every news line of the move, in order
        assert line.replace("Player 2", "Bot 1") in shown
    assert drawn.replace("Player 2", "Bot 1") in shown
    t.send("help")
    shown = t.prompt()
    assert "SX" in shown and "sphinx" in shown and "the empty spot" in shown  # the key
    t.send("q")
    t.send("y")
    assert t.wait_exit() == 0


def test_hot_seat_hand_over_clears_the_scrollback(terminal: Start, tmp_path: Path) -> None:
    state = pyramids.new_game("pyramideto", players=2, seed=4)
    mine = [c["name"] for c in state.view(0)["hand"]]
    theirs = [c["name"] for c in state.view(1)["hand"]]
    t = terminal("play", "pyramideto", "--players", "2", "--seed", "4")
    t.expect("Pass the screen to Player 1, then press Enter")
    t.send("")
    shown = t.prompt("Player 1")
    assert all(name in shown for name in mine) and not any(name in shown for name in theirs)
    t.send("Lr>table")
    t.expect("Pass the screen to Player 2, then press Enter")
    assert "\x1b[3J" in t.raw[t.raw.rfind("Lr>table") :]  # scrollback cleared, not only the screen
    t.send("")
    shown = t.prompt("Player 2")
    assert all(name in shown for name in theirs) and not any(name in shown for name in mine)
    t.type("\x1b[A")  # the up arrow: Player 1's lines are gone with the hand-over
    t.send("")
    assert "Illegal" not in t.prompt("Player 2")  # an empty line: the board again
    t.send("Ly>Lr")
    shown = t.expect("Pass the screen to Player 1, then press Enter")
    assert "Since your last turn:" in shown and "Player 2: Ly>Lr" in shown
    t.send("")
    t.prompt("Player 1")
    t.send("q")
    t.send("y")
    assert t.wait_exit() == 0


def test_pyramido_hot_seat_has_no_hand_over(terminal: Start) -> None:
    t = terminal("play", "pyramido", "--players", "2", "--seed", "4")
    t.prompt("Player 1")
    t.send("q1 d5 e5")
    t.prompt("Player 1")
    t.send("mark d5")
    t.prompt("Player 1")
    t.send("pass")
    t.prompt("Player 1")
    t.send("refill 1")
    t.expect("Player 2 to move.")
    t.prompt("Player 2")
    assert "Pass the screen" not in t.text and "\x1b[3J" not in t.raw
    t.send("q")
    t.send("y")
    assert t.wait_exit() == 0


@pytest.mark.parametrize("lang", ["pt", "fi", "cs", "es"])
def test_help_and_reasons_in_each_language(terminal: Start, lang: str) -> None:
    tr = translator(lang)
    state = pyramids.new_game("piramides", seed=3)
    try:
        state.play(state.parse_move("A1"))
    except IllegalMove as e:
        assert tr.error(e) != e.message, f"the rule's reason is not translated into {lang}"
        refused = tr.gettext("Illegal: {reason}", reason=tr.error(e))
    t = terminal("--lang", lang, "play", "piramides", "--deal", "3")
    prompt = tr.gettext("Player {number}", number=1)
    t.prompt(prompt)
    t.send("help")
    shown = " ".join(t.prompt(prompt).split())  # the terminal wraps long lines
    for english in ("How to win: ", "Commands:", "On the board:"):
        translated = tr.gettext(english)
        assert translated != english, f"{english!r} is not translated into {lang} yet"
        assert " ".join(translated.split()) in shown
    t.send("A1")
    assert " ".join(refused.split()) in " ".join(t.prompt(prompt).split())
    t.send("q")
    t.send("n")
    t.prompt(prompt)
    t.child.sendeof()
    assert t.wait_exit() == 0
