"""``pyramids solve`` and ``play --solvable`` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pyramids.cli.main import app
from pyramids.solver.board import parse_board
from pyramids.solver.solvable import solvable_game
from tests.solver.test_board import BOARD_906

runner = CliRunner()


def test_one_deal_prints_verdict_line_nodes_time() -> None:
    r = runner.invoke(app, ["solve", "golf", "--deal", "3", "--no-wrap"])
    assert r.exit_code == 0, r.output
    assert "winnable" in r.output and "nodes" in r.output and " ms" in r.output
    assert "every move legal" in r.output


def test_json_output_and_score_mode() -> None:
    args = ["solve", "golf", "--deal", "8", "--no-wrap", "--json", "--mode", "score"]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    # golf deal 8 cannot be cleared without wrap; the best play leaves 7 cards
    assert data["verdict"] == "lose" and data["score"] == -7
    assert data["engine_checked"] is True


def test_range_writes_verdicts_and_plot(tmp_path: Path) -> None:
    out = tmp_path / "v.json"
    png = tmp_path / "h.png"
    r = runner.invoke(
        app,
        ["solve", "tripeaks", "--deals", "1..6", "--verdicts", str(out), "--plot", str(png)],
    )
    assert r.exit_code == 0, r.output
    assert "winnable fraction" in r.output and "nodes p90" in r.output
    data = json.loads(out.read_text())
    assert [d["deal"] for d in data["deals"]] == [1, 2, 3, 4, 5, 6]
    assert {d["verdict"] for d in data["deals"]} <= {"win", "lose", "unknown"}
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_board_file_and_export(tmp_path: Path) -> None:
    board = tmp_path / "906.txt"
    board.write_text(BOARD_906)
    r = runner.invoke(app, ["solve", "golf", "--board", str(board), "--wrap", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["verdict"] == "win"
    exported = tmp_path / "12.txt"
    r = runner.invoke(
        app, ["solve", "golf", "--deal", "12", "--export-board", str(exported), "--max-nodes", "10"]
    )
    assert r.exit_code == 0, r.output
    assert "unknown" in r.output
    assert len(parse_board(exported.read_text()).stock) == 16


def test_bad_input_is_a_clear_error(tmp_path: Path) -> None:
    cases = [
        ["solve", "klondike", "--deal", "1"],
        ["solve", "golf"],
        ["solve", "golf", "--deal", "1", "--deals", "1..3"],
        ["solve", "golf", "--deals", "5..1"],
        ["solve", "pyramid", "--board", str(tmp_path / "x.txt")],
        ["solve", "golf", "--board", str(tmp_path / "missing.txt")],
        ["solve", "golf", "--deal", "1", "--jokers", "1"],
        ["solve", "golf", "--deal", "1", "--mode", "fast"],
        ["solve", "--deal", "1", "--jokers", "-1"],
        ["solve", "--deals", "1..3", "--jokers", "-1"],
    ]
    for args in cases:
        r = runner.invoke(app, args)
        assert r.exit_code == 2, (args, r.output)
        assert "Error" in r.output and "Traceback" not in r.output, (args, r.output)


def test_cards_file_format(tmp_path: Path) -> None:
    from pyramids.solver.position import deal_state

    deal = deal_state("golf", 3).setup()["deals"][0]
    f = tmp_path / "deal.txt"
    f.write_text(" ".join(deal))
    r = runner.invoke(app, ["solve", "golf", "--file", str(f), "--no-wrap", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["verdict"] == "win"
    f.write_text(" ".join(deal[:-1]))
    r = runner.invoke(app, ["solve", "golf", "--file", str(f)])
    assert r.exit_code == 2 and "52" in r.output


def test_solvable_deals_only_winnable_rounds() -> None:
    state, numbers = solvable_game(1, {"rounds": 2, "layout": "tripeaks"})
    assert len(numbers) == 1 and state.seed is None
    from pyramids.solver.position import position_of
    from pyramids.solver.search import WIN, solve

    assert solve(position_of(state)).verdict == WIN
    r = runner.invoke(app, ["play", "pyramideto", "--solvable"], input="q\n")
    assert r.exit_code == 2


def test_play_solvable_and_hint_in_the_terminal() -> None:
    r = runner.invoke(
        app,
        ["play", "piramides", "--solvable", "--deal", "1", "-o", "layout=tripeaks"],
        input="hint 3\nhint 0\nq\n",
    )
    assert r.exit_code == 0, r.output
    assert "Winnable deals: 1" in r.output
    assert "Hint: play" in r.output and "sampled deals" in r.output
    assert "from 1 to 1000" in r.output  # 'hint 0' is refused with a clear message
