"""The greedy agent, the terminal renderer and `pyramids play pyramideto`."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

import pyramids
from pyramids.ai.greedy.pyramideto import GreedyPyramideto
from pyramids.ai.registry import make_agent
from pyramids.cli.games import game_hooks
from pyramids.cli.main import app
from pyramids.engine.rng import Rng
from pyramids.games.pyramideto import GOALS, PyramidetoState
from tests.conftest import play_randomly
from tests.pyramideto.helpers import card, deal, play


def text_of(renderable: object) -> str:
    console = Console(width=140, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_greedy_is_registered() -> None:
    assert isinstance(make_agent("greedy", "pyramideto"), GreedyPyramideto)


def test_greedy_completes_its_own_goal() -> None:
    state = deal([["watermelon", "bee", "robot"], ["clown", "lamp", "candle"]])
    play(state, "Mk>table", "Lr>Lg", "Lk>table", "Mb>table")
    move = GreedyPyramideto().choose(state, Rng(0))
    assert state.move_to_str(move) == "Sk>Lr"  # type: ignore[arg-type]


def test_greedy_does_not_build_a_tower_it_has_not_seen() -> None:
    # Seat 0 holds no card using Sk; Sk onto Lr would complete Watermelon, which
    # seat 0 has not seen (it may be in seat 1's hand), so the greedy avoids it.
    state = deal([["tree", "bee", "robot"], ["watermelon", "lamp", "candle"]])
    play(state, "Mk>table", "Lr>Lg", "Lk>table", "Mb>table")
    agent = GreedyPyramideto()
    for k in range(30):
        move = agent.choose(state, Rng(k))
        assert state.move_to_str(move) != "Sk>Lr"  # type: ignore[arg-type]


@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    cut=st.integers(min_value=0, max_value=150),
    det_seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_greedy_decides_only_on_what_its_seat_knows(seed: int, cut: int, det_seed: int) -> None:
    state = pyramids.new_game("pyramideto", players=3, seed=seed)
    play_randomly(state, Rng(seed), max_plies=cut)
    if state.is_over:
        return
    seat = state.current_player
    other = state.determinize(seat, Rng(det_seed))
    agent = GreedyPyramideto()
    assert agent.choose(state, Rng(5)) == agent.choose(other, Rng(5))


def test_render_shows_own_hand_only() -> None:
    state = deal([["watermelon", "bee", "robot"], ["clown", "lamp", "candle"]])
    hooks = game_hooks("pyramideto")
    mine = text_of(hooks.render(state.view(0)))
    assert "Watermelon" in mine and "Clown" not in mine and "Candle" not in mine
    assert "Lg" in mine and "Deck 24" in mine
    spectator = text_of(hooks.render(state.view(None)))
    assert "Watermelon" not in spectator and "Clown" not in spectator


def test_render_tells_the_seat_where_its_exchanged_card_is() -> None:
    state = deal([["watermelon", "bee", "robot"], ["clown", "lamp", "candle"]])
    play(state, "x watermelon")
    hooks = game_hooks("pyramideto")
    shown = text_of(hooks.render(state.view(0)))
    assert "You put Watermelon under the deck; it is now 1st from the bottom" in shown  # its name
    assert "You put" not in text_of(hooks.render(state.view(1)))


def test_render_and_summary_after_a_win() -> None:
    state = deal([["watermelon", "bee", "robot"], ["clown", "lamp", "candle"]])
    state._displayed = ((card("tree"), card("spain"), card("lamp")), ())
    play(state, "Mk>table", "Lr>Lg", "Lk>table", "Sk>Lr")
    hooks = game_hooks("pyramideto")
    assert hooks.summary is not None and hooks.stats is not None
    shown = text_of(hooks.render(state.view(None)))
    assert "Watermelon" in shown and "wins" in shown
    table = text_of(hooks.summary(state.view(None)))
    assert "Player 1 wins with a 4th frame colour (4 goals displayed)" in table
    assert hooks.stats(state.view(None))["drawn"] == 0.0


def test_terminal_play_reports_the_rule_of_an_illegal_move() -> None:
    lines = "Sr>table\nLb>Mg\nMr>Lr\nfoo\nLr>table\nq\n"
    result = CliRunner().invoke(
        app, ["play", "pyramideto", "--players", "3", "--bots", "2", "--seed", "3"], input=lines
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "changes nothing" in out
    assert "pieces go only on the top piece of a stack" in out
    assert "cannot go onto itself" in out
    assert "is not a move" in out
    assert "Bot 1: " in out and "Bot 2: " in out


def test_greedy_bots_reach_goals_and_beat_random_play() -> None:
    wins = 0
    for seed in range(6):
        state = pyramids.new_game("pyramideto", players=2, seed=seed)
        assert isinstance(state, PyramidetoState)
        agent = GreedyPyramideto()
        rng = Rng(seed)
        while not state.is_over:
            if state.current_player == 0:
                state.play(agent.choose(state, rng))  # type: ignore[arg-type]
            else:
                moves = state.legal_moves()
                state.play(moves[rng.below(len(moves))])
        wins += state.winner == 0
        assert len(state.displayed(0)) >= 3
        assert all(c in range(len(GOALS)) for c in state.displayed(0))
    assert wins == 6


def test_a_bots_only_terminal_game_ends_with_a_summary_and_a_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = CliRunner().invoke(
        app,
        [
            "play",
            "pyramideto",
            "--players",
            "2",
            "--bots",
            "2",
            "--seed",
            "4",
            "--save",
            str(record),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Game over." in result.output and "Place" in result.output
    final = pyramids.replay(record)
    assert final.is_over and final.game.id == "pyramideto"


def test_greedy_players_do_not_loop_and_someone_wins() -> None:
    agent = GreedyPyramideto()
    for seed in (8, 26, 28):  # deals where greedy players looped before the repeat penalty
        state = pyramids.new_game("pyramideto", players=4, seed=seed)
        assert isinstance(state, PyramidetoState)
        rng = Rng(seed)
        while not state.is_over:
            state.play(agent.choose(state, rng))  # type: ignore[arg-type]
        assert state.winner is not None, state.notation_log()[-8:]
