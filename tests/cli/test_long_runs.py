"""Huge counts start at once with a progress bar, and Ctrl-C keeps the finished work.

Each command is given a count it could never finish (the whole schedule
built first used to take memory for minutes before anything showed); the
test waits for the progress bar, presses Ctrl-C, and reads the summary of
what was done.
"""

from __future__ import annotations

from collections.abc import Callable

from tests.cli.terminal import Terminal

Start = Callable[..., Terminal]
HUGE = "1000000000000"


def test_arena_streams_and_ctrl_c_summarises_the_games_played(terminal: Start) -> None:
    t = terminal("arena", "piramides", "--agents", "random,greedy", "--games", HUGE, timeout=60)
    t.expect(f"/{int(HUGE) * 2}")  # the bar's count: the solitaire plays each deal twice
    t.interrupt()
    t.expect("Interrupted:")
    t.expect("Elo")  # the summary of the games played
    assert t.wait_exit() == 130


def test_solve_streams_and_ctrl_c_summarises_the_deals_solved(terminal: Start) -> None:
    t = terminal("solve", "golf", "--deals", f"1..{HUGE}", timeout=60)
    t.expect(f"/{HUGE}")
    t.interrupt()
    t.expect("Interrupted:")
    t.expect("winnable fraction")
    assert t.wait_exit() == 130


def test_simulate_keeps_its_finished_games_on_ctrl_c(terminal: Start) -> None:
    t = terminal("simulate", "piramides", "--games", HUGE, timeout=60)
    t.expect(f"/{HUGE}")
    t.interrupt()
    t.expect("Interrupted:")
    t.expect("games of piramides")
    assert t.wait_exit() == 130
