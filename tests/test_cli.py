"""The command line as a user meets it: play, replay, simulate, games, agents.

These run through Typer's test runner (input from a pipe, no terminal): what a
script or a pipe gets. tests/cli/ drives the same commands through a
pseudo-terminal, where line editing, Ctrl-C and the hot-seat clear exist.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import pyramids
from pyramids.cli.main import app
from pyramids.engine.rng import Rng
from tests.conftest import greedy_piramides_moves, play_randomly

runner = CliRunner()


def test_games_lists_every_game_and_explains_one() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for g in pyramids.game_ids():
        assert g in result.output
    assert "face_down=false" in result.output  # values as they are typed, not Python's
    result = runner.invoke(app, ["games", "piramides"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "jokers_per_round" in text and "0 to 52" in text and "true or false" in text
    assert "tripeaks" in text and "Only uncovered" in text
    assert "pyramids play piramides -o jokers_per_round=2" in text
    result = runner.invoke(app, ["games", "pyramido"])
    assert "random" in result.output and "0 or more" in " ".join(result.output.split())
    result = runner.invoke(app, ["games", "chess"])
    assert result.exit_code == 2 and "unknown game 'chess'" in result.output


def test_version_and_help_show_flags_as_flags() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"pyramids {pyramids.__version__}"
    result = runner.invoke(app, ["play", "--help"])
    assert result.exit_code == 0
    assert "--face-down" in result.output and "--solvable" in result.output
    assert "<bool>" not in result.output and "--resume FILE" in result.output
    result = runner.invoke(app, ["replay", "--help"])
    assert "--boards" in result.output and "--step " in result.output
    assert "--no-step" not in result.output


def test_agents_lists_random_and_greedy() -> None:
    result = runner.invoke(app, ["agents", "piramides"])
    assert result.exit_code == 0
    assert "random" in result.output and "greedy" in result.output


def test_play_piramides_session(tmp_path: Path) -> None:
    state = pyramids.new_game("piramides", seed=3)
    first = state.move_to_str(state.legal_moves()[0])
    out = tmp_path / "game.json"
    keys = f"moves\nA1\nnonsense\n{first}\nundo\n2\nmoves\n1\nsave {out}\nquit\ny\n"
    result = runner.invoke(app, ["play", "piramides", "--deal", "3"], input=keys)
    assert result.exit_code == 0, result.output
    assert "seed/deal 3" in result.output
    assert "1. " in result.output  # the numbered move list
    assert "Illegal: the card at A1 is still covered" in result.output
    assert "is not a move" in result.output
    assert "Move taken back." in result.output
    assert "That list is out of date: a move was taken back since." in result.output
    assert "It is saved in" in result.output  # quit knows the game was just saved
    record = json.loads(out.read_text())
    assert record["moves"] == [first] and record["undos"] == 1
    assert pyramids.replay(record).ply == 1


def test_play_to_the_end_shows_the_breakdown_and_saves(tmp_path: Path) -> None:
    out = tmp_path / "end.json"
    keys = "\n".join(greedy_piramides_moves(5)) + "\n"
    result = runner.invoke(
        app, ["play", "piramides", "--deal", "5", "--save", str(out)], input=keys
    )
    assert result.exit_code == 0, result.output
    assert "Game over." in result.output and "Score by round" in result.output
    assert "Round 1 " in result.output  # told as it happened
    assert pyramids.replay(json.loads(out.read_text())).is_over


def test_the_end_of_game_question_never_takes_a_command_as_a_file_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    keys = "\n".join(greedy_piramides_moves(5, rounds=1)) + "\nmoves\n"
    result = runner.invoke(app, ["play", "piramides", "--deal", "5", "-o", "rounds=1"], input=keys)
    assert result.exit_code == 0, result.output
    assert "Save the record of this game? [y/N]" in result.output
    assert list(tmp_path.iterdir()) == []  # 'moves' was a no, not a file name
    keys = "\n".join(greedy_piramides_moves(5, rounds=1)) + "\ny\nmine.json\n"
    result = runner.invoke(app, ["play", "piramides", "--deal", "5", "-o", "rounds=1"], input=keys)
    assert "File name [piramides-5.json]:" in result.output
    assert pyramids.replay(json.loads((tmp_path / "mine.json").read_text())).is_over


def test_saving_where_it_cannot_keeps_the_game(tmp_path: Path) -> None:
    blocked = tmp_path / "no-such-folder" / "x.json"
    good = tmp_path / "good.json"
    keys = f"draw\nsave {blocked}\nsave {tmp_path}\ndraw\nsave {good}\nq\ny\n"
    result = runner.invoke(app, ["play", "piramides", "--deal", "3"], input=keys)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert f"Cannot save to {blocked}: No such file or directory." in text
    assert f"Cannot save to {tmp_path}: Is a directory." in text
    assert "The game goes on" in text
    assert json.loads(good.read_text())["moves"] == ["draw", "draw"]
    result = runner.invoke(app, ["play", "piramides", "--save", str(blocked)], input="q\n")
    assert result.exit_code == 2 and "does not exist" in result.output  # refused up front


def test_quit_asks_in_an_unfinished_game_and_save_is_honoured(tmp_path: Path) -> None:
    out = tmp_path / "left.json"
    result = runner.invoke(
        app, ["play", "piramides", "--deal", "3", "--save", str(out)], input="draw\nq\nn\nq\ny\n"
    )
    assert result.exit_code == 0, result.output
    assert result.output.count("Leave it? It will be saved to") == 2
    assert json.loads(out.read_text())["moves"] == ["draw"]
    result = runner.invoke(app, ["play", "piramides", "--deal", "3"], input="draw\nq\ny\n")
    assert "not saved" in result.output and "pyramids play piramides --seed 3" in result.output
    gone = tmp_path / "eof.json"
    result = runner.invoke(
        app, ["play", "piramides", "--deal", "3", "--save", str(gone)], input="joker\n"
    )
    assert "Input closed" in result.output and json.loads(gone.read_text())["moves"] == ["joker"]


def test_resume_goes_on_and_saves_back(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    runner.invoke(
        app, ["play", "piramides", "--deal", "3", "--save", str(path)], input="draw\nundo\ndraw\n"
    )
    assert json.loads(path.read_text())["undos"] == 1
    result = runner.invoke(app, ["play", "--resume", str(path)], input="joker\n")
    assert result.exit_code == 0, result.output
    assert "going on from" in result.output
    record = json.loads(path.read_text())
    assert record["moves"] == ["draw", "joker"] and record["undos"] == 1
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    result = runner.invoke(app, ["play", "--resume", str(bad)])
    assert result.exit_code == 2 and "not valid JSON" in result.output


def test_solvable_names_the_deals_it_plays_not_the_seed() -> None:
    result = runner.invoke(app, ["play", "piramides", "--solvable", "--seed", "3"], input="draw\n")
    assert result.exit_code == 0, result.output
    assert "Winnable deals: 4, " in result.output  # deal 3 is lost: the first winnable is 4
    assert "seed/deal 3" not in result.output and "the winnable deals above" in result.output
    # --seed 3 alone would be deal 3, another game: the same deal again says --solvable
    assert result.output.count("--seed 3") == result.output.count("--seed 3 --solvable") == 1


def test_resume_seats_the_saved_bots_again(tmp_path: Path) -> None:
    """A game saved against a bot goes on against it: its seat is not handed to a person."""
    path = tmp_path / "duel.json"
    result = runner.invoke(
        app,
        ["play", "pyramideto", "--bots", "1", "--seed", "4", "--save", str(path)],
        input="Lr>table\n",
    )
    record = json.loads(path.read_text())
    assert record["bots"] == {"1": "greedy"} and len(record["moves"]) == 2, result.output
    result = runner.invoke(app, ["play", "--resume", str(path)], input="moves\n1\n")
    assert result.exit_code == 0, result.output
    assert "Bot 1>" not in result.output and "Pass the screen" not in result.output
    record = json.loads(path.read_text())
    assert len(record["moves"]) == 4 and record["bots"] == {"1": "greedy"}  # the bot answered
    # --agent alone keeps the saved bot's seat, played by that agent
    result = runner.invoke(
        app, ["play", "--resume", str(path), "--agent", "random"], input="moves\n1\n"
    )
    assert result.exit_code == 0 and "Pass the screen" not in result.output, result.output
    record = json.loads(path.read_text())
    assert len(record["moves"]) == 6 and record["bots"] == {"1": "random"}
    for bad in ({"1": 3}, {"7": "greedy"}, {"1": "nobody"}, {"²": "greedy"}):
        broken = tmp_path / "broken.json"
        broken.write_text(json.dumps({**record, "bots": bad}))
        result = runner.invoke(app, ["play", "--resume", str(broken)])
        assert result.exit_code == 2 and "Traceback" not in result.output, (bad, result.output)


def test_undo_is_refused_where_it_would_not_be_fair() -> None:
    result = runner.invoke(
        app,
        ["play", "pyramideto", "--players", "2", "--bots", "1", "--seed", "4"],
        input="Lr>table\nundo\nq\ny\n",
    )
    assert result.exit_code == 0, result.output
    assert "Undo is only offered in single-player games" in " ".join(result.output.split())


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
    result = runner.invoke(app, ["play", "pyramido", "--bots", "3"])
    assert result.exit_code == 2 and "--bots must be between 0 and 2" in result.output


def _finished_record(tmp_path: Path) -> tuple[Path, int]:
    state = pyramids.new_game("piramides", seed=9)
    play_randomly(state, Rng(1))
    path = tmp_path / "r.json"
    record = state.record()
    record["undos"] = 2
    path.write_text(json.dumps(record))
    return path, state.ply


def test_replay_tells_the_moves_and_the_result(tmp_path: Path) -> None:
    path, plies = _finished_record(tmp_path)
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0
    state = pyramids.replay(path)
    assert json.loads(result.output) == {
        "game": "piramides",
        "moves": plies,
        "over": True,
        "scores": state.scores(),
        "ranking": [1],
        "undos": 2,
    }
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0
    assert f"{plies}. " in result.output and "Round 1 over" in result.output
    assert "Game over." in result.output and "Score by round" in result.output
    assert "Played with undo: 2 moves were taken back" in result.output
    assert "Waste" not in result.output  # no boards unless asked
    result = runner.invoke(app, ["replay", str(path), "--boards"])
    assert f"move {plies}:" in result.output and "Waste" in result.output


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
    record = state.record()
    record["undos"] = -1
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "undos" in result.output


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


def test_arena_tables_fit_80_columns() -> None:
    result = runner.invoke(
        app, ["arena", "piramides", "--agents", "greedy,random", "--games", "3"], terminal_width=80
    )
    assert result.exit_code == 0, result.output
    table = result.output[result.output.index("piramides: 3 deals") :]
    assert max(len(line) for line in table.splitlines()) <= 80
    assert "…" not in table and "Elo" in table and "rounds cleared" in table


@pytest.mark.parametrize("port", ["0", "99999", "-5"])
def test_serve_refuses_a_port_outside_the_tcp_range(port: str) -> None:
    """99999 used to listen on 99999 - 65536 while printing a link to 99999."""
    result = runner.invoke(app, ["serve", "--port", port])
    assert result.exit_code == 2 and "--port" in result.output, result.output
