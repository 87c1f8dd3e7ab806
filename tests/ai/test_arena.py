"""The arena: scheduling, statistics on a tiny known case, parallel = serial, the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

import pyramids
from pyramids.ai.arena import (
    ArenaConfig,
    GameResult,
    Match,
    parse_agent_spec,
    run_arena,
    schedule,
    summarize,
)
from pyramids.ai.stats import elo, wilson
from pyramids.cli.main import app


def test_agent_specs() -> None:
    assert parse_agent_spec("mcts:level=hard:iterations=50") == (
        "mcts",
        {"level": "hard", "iterations": "50"},
    )
    assert parse_agent_spec(" greedy ") == ("greedy", {})
    with pytest.raises(ValueError, match="name=value"):
        parse_agent_spec("mcts:hard")


def test_two_player_schedule_rotates_seats_on_shared_deals() -> None:
    config = ArenaConfig("pyramideto", ("a", "b"), games=5)
    assert schedule(config) == [
        Match(0, 0, (0, 1)),
        Match(1, 0, (1, 0)),
        Match(2, 1, (0, 1)),
        Match(3, 1, (1, 0)),
        Match(4, 2, (0, 1)),
    ]


def test_more_agents_than_seats_play_every_pairing_and_fewer_fill_seats() -> None:
    config = ArenaConfig("pyramideto", ("a", "b", "c"), games=6, players=2)
    seats = [m.seats for m in schedule(config)]
    assert seats == [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
    config = ArenaConfig("pyramideto", ("a", "b"), games=4, players=4)
    assert [m.seats for m in schedule(config)][:2] == [(0, 1, 0, 1), (1, 0, 1, 0)]


def test_solitaire_is_played_duplicate() -> None:
    config = ArenaConfig("piramides", ("a", "b"), games=2)
    assert schedule(config) == [
        Match(0, 0, (0,)),
        Match(1, 0, (1,)),
        Match(2, 1, (0,)),
        Match(3, 1, (1,)),
    ]


def test_summary_of_a_tiny_known_case() -> None:
    """Four 2-player games on two deals: A wins three, B one; no draws."""
    config = ArenaConfig("pyramideto", ("A", "B"), games=4)
    results = [
        GameResult(0, 0, [0, 1], [5, 2], [1, 2], 30),
        GameResult(1, 0, [1, 0], [1, 5], [2, 1], 31),
        GameResult(2, 1, [0, 1], [5, 0], [1, 2], 32),
        GameResult(3, 1, [1, 0], [5, 3], [1, 2], 33),
    ]
    a, b = summarize(config, results, resamples=50)
    assert (a.games, a.wins, b.wins) == (4, 3.0, 1.0)
    assert a.win_rate == 0.75
    assert (a.win_low, a.win_high) == pytest.approx(wilson(3, 4))
    assert a.mean_score == 4.5 and b.mean_score == 2.0
    assert a.mean_rank == 1.25 and b.mean_rank == 1.75
    expected = elo([(0, 1, 1.0)] * 3 + [(0, 1, 0.0)], 2)
    assert [a.elo, b.elo] == pytest.approx(expected)
    assert a.elo_low <= a.elo <= a.elo_high


def test_shared_first_place_and_solitaire_deals() -> None:
    config = ArenaConfig("pyramideto", ("A", "B"), games=1)
    (a, b) = summarize(config, [GameResult(0, 0, [0, 1], [0, 0], [1, 1], 200)], resamples=10)
    assert a.wins == b.wins == 0.5
    config = ArenaConfig("piramides", ("A", "B"), games=2)
    results = [
        GameResult(0, 0, [0], [100], [1], 40),
        GameResult(1, 0, [1], [50], [1], 40),
        GameResult(2, 1, [0], [10], [1], 40),
        GameResult(3, 1, [1], [10], [1], 40),
    ]
    a, b = summarize(config, results, resamples=10)
    assert (a.games, a.wins, b.wins) == (2, 1.5, 0.5)
    assert a.mean_score == 55 and b.mean_score == 30
    assert math.isfinite(a.elo) and a.elo > b.elo


def test_parallel_runs_give_the_serial_results(tmp_path: Path) -> None:
    config = ArenaConfig(
        "pyramideto", ("mcts:iterations=4:seconds=0", "greedy", "random"), games=3, players=2
    )
    serial = run_arena(config, jobs=1)
    parallel = run_arena(config, jobs=2, records=tmp_path)
    assert [r.outcome() for r in serial] == [r.outcome() for r in parallel]
    # every game's record was saved and replays to the same result
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    assert [m.seats for m in schedule(config)] == [(0, 1), (1, 0), (0, 2)]
    again = pyramids.replay(files[2])
    assert again.scores() == serial[2].scores and again.ranking() == serial[2].ranking


def test_cli_arena_prints_and_writes(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "out"
    result = runner.invoke(
        app,
        [
            "arena",
            "piramides",
            "--agents",
            "greedy,random",
            "--games",
            "3",
            "--seed",
            "4",
            "--out",
            str(out),
            "--plot",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output and "Elo" in result.output
    data = json.loads((out / "summary.json").read_text())
    assert data["game"] == "piramides" and len(data["results"]) == 6
    assert [row["agent"] for row in data["summary"]] == ["greedy", "random"]
    assert (out / "summary.csv").read_text().startswith("agent,games,wins")
    assert len((out / "games.csv").read_text().splitlines()) == 7
    for name in ("ratings.png", "scores.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["arena", "piramides", "--agents", "nobody"], "unknown agent"),
        (["arena", "nogame", "--agents", "random"], "unknown game"),
        (["arena", "piramides", "--agents", "mcts:level=brutal"], "level"),
        (["arena", "piramides", "--agents", "random", "--games", "0"], "at least one game"),
        (["arena", "piramides", "--agents", "random", "--plot"], "--out"),
    ],
)
def test_cli_arena_rejects_bad_input_clearly(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output
