"""The parts of terminal play one by one: completion, hints, hooks, tables, plots, start-up."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import pyramids
from pyramids.ai.registry import make_agent
from pyramids.cli.common import fit_tables
from pyramids.cli.games import game_hooks
from pyramids.cli.games import piramides as piramides_terminal
from pyramids.cli.lineedit import LineReader, next_words
from pyramids.cli.play import Seat, help_text, new_session
from pyramids.engine.errors import RecordError
from pyramids.engine.rng import Rng
from pyramids.engine.state import State

GAMES = [("piramides", 1), ("pyramido", 2), ("pyramideto", 2), ("pyramido-treasure", 3)]


def text_of(renderable: object, width: int = 120) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def _session(state: State[Any], console: Console) -> Any:
    seats = [Seat(f"Player {i + 1}") for i in range(state.players)]
    return new_session(
        state,
        seats,
        game_hooks(state.game.id),
        console,
        seed=state.seed,
        save_to=None,
        reader=LineReader(interactive=False),
    )


def test_completion_offers_the_next_word_of_the_lines_that_fit() -> None:
    lines = ["q1 e5 f5", "q1 e5 d5", "q2 d5 e5", "moves", "mark e5", "Mr>Lg", "give mummy/2 to p3"]
    assert next_words("", lines) == ["q1", "q2", "moves", "mark", "Mr>Lg", "give"]
    assert next_words("q1 ", lines) == ["e5"]
    assert next_words("q1 e5 ", lines) == ["f5", "d5"]
    assert next_words("MR", lines) == ["Mr>Lg"]  # case does not matter
    assert next_words("give mummy/2 t", lines) == ["to"]
    assert next_words("zz", lines) == []


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_session_completes_commands_and_every_legal_move(game: str, players: int) -> None:
    state = pyramids.new_game(game, players=players, seed=5)
    session = _session(state, Console(record=True))
    lines = session.completions()
    assert {"moves", "board", "help", "quit", "save"} <= set(lines)
    assert {state.move_to_str(m) for m in state.legal_moves()} <= set(lines)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_help_gives_real_moves_of_the_position_a_goal_and_a_key(game: str, players: int) -> None:
    state = pyramids.new_game(game, players=players, seed=5)
    hooks = game_hooks(game)
    view = state.view(state.current_player)
    legal = [state.move_to_str(m) for m in state.legal_moves()]
    examples = hooks.examples(view, legal)
    assert examples, "help shows at least one move of this position"
    for text, meaning in examples:
        assert meaning
        state.parse_move(text)  # each example is something the player can type
    assert hooks.goal(view) and hooks.key(view)
    shown = text_of(help_text(_session(state, Console(record=True))))
    assert "How to win:" in shown and "Commands:" in shown and "On the board:" in shown


def test_the_treasure_key_names_every_field_code_and_pyramideto_every_frame() -> None:
    state = pyramids.new_game("pyramido-treasure", players=2, seed=1)
    key = text_of(help_text(_session(state, Console(record=True))))
    for code, name in (("SX", "sphinx"), ("DG", "sacred dog"), ("LA", "lamp")):
        assert f"{code}" in key and name in key
    state = pyramids.new_game("pyramideto", players=2, seed=1)
    key = text_of(help_text(_session(state, Console(record=True))))
    for colour, theme in (("orange", "Food"), ("purple", "Flags"), ("teal", "Nature")):
        assert f"■ {colour}" in key and theme in key


def _play_until(state: State[Any], done: Any, seed: int = 1) -> tuple[dict[str, Any], Any]:
    agent = make_agent("greedy", state.game.id)
    rng = Rng(seed)
    before = state.view(None)
    while not state.is_over:
        state.play(agent.choose(state, rng))
        after = state.view(None)
        told = game_hooks(state.game.id).events(before, after)
        if done(after, told):
            return after, told
        before = after
    raise AssertionError("never happened")


def test_events_tell_rounds_floors_goals_and_news() -> None:
    state = pyramids.new_game("piramides", seed=5)
    _, told = _play_until(state, lambda v, t: bool(t))
    assert told[0].startswith("Round 1 ") and "stock card" in told[0] and "points." in told[0]
    state = pyramids.new_game("pyramido", players=2, seed=3)
    _, told = _play_until(state, lambda v, t: any("on floor 1" in x for x in t))
    assert any("Mino bonus +" in x for x in told)
    state = pyramids.new_game("pyramideto", players=2, seed=4)
    _, told = _play_until(state, lambda v, t: any("displays" in x for x in t))
    assert any("frame); goals shown: 1." in x for x in told)
    state = pyramids.new_game("pyramido-treasure", players=2, seed=4)
    _, told = _play_until(state, lambda v, t: any(" draws " in x and "deck 2" in x for x in t))
    assert told


def test_endings_say_why_the_game_ended() -> None:
    for game, players in GAMES:
        state = pyramids.new_game(game, players=players, seed=2)
        agent = make_agent("greedy", game)
        rng = Rng(2)
        while not state.is_over:
            state.play(agent.choose(state, rng))
        why = game_hooks(game).ending(state.view(None))
        assert why.endswith(".") and why[0].isupper(), (game, why)


def _hint_output(state: State[Any], arg: str) -> str:
    console = Console(width=120, record=True, color_system=None)
    piramides_terminal.hint_command(_session(state, console), arg)
    text = console.export_text()
    return "\n".join(line for line in text.splitlines() if "samples," not in line)  # no timing


def test_a_hint_is_the_same_each_time_it_is_asked() -> None:
    state = pyramids.new_game("piramides", seed=11)
    first = _hint_output(state, "16")
    assert "Hint: " in first
    assert _hint_output(state, "16") == first
    again = pyramids.new_game("piramides", seed=11)  # the same position, reached anew
    assert _hint_output(again, "16") == first


def test_hint_arguments_are_checked() -> None:
    parse = piramides_terminal.parse_hint_argument
    assert parse("") == (None, "clear")
    assert parse("40 score") == (40, "score")
    assert parse("score 40") == (40, "score")
    for bad in ("abc", "0", "1001", "4 5", "-3"):
        assert isinstance(parse(bad), str), bad


def test_a_score_hint_says_why_when_nothing_can_be_cleared() -> None:
    from pyramids.solver.hint import Hint, MoveEstimate

    state = pyramids.new_game("piramides", seed=3)
    session = _session(state, Console(record=True))
    legal = state.legal_moves()
    nothing = [
        MoveEstimate(m, samples=8, score_total=-80 * (i + 1), scored=8) for i, m in enumerate(legal)
    ]
    advice = piramides_terminal.advice(session, Hint(legal[0], nothing, 8, 0.1, "score"))
    assert "no sampled deal can be cleared" in advice and "0%" not in advice
    advice = piramides_terminal.advice(session, Hint(legal[0], nothing, 8, 0.1, "clear"))
    assert "hint score" in advice and "0%" not in advice
    # the best score clears nothing, but another move clears some samples: no such claim
    some = [*nothing[:-1], MoveEstimate(legal[-1], samples=8, wins=2, score_total=-800, scored=8)]
    advice = piramides_terminal.advice(session, Hint(legal[0], some, 8, 0.1, "score"))
    assert "no sampled deal" not in advice and "0%" in advice


def test_a_position_gets_one_hint_seed_in_every_language() -> None:
    """The view holds the seats' names in the player's language; the seed must not."""
    view = pyramids.new_game("piramides", seed=3).view(0)
    czech = {**view, "names": ["Hráč 1"]}
    assert piramides_terminal.position_seed(czech) == piramides_terminal.position_seed(view)
    moved = pyramids.new_game("piramides", seed=4).view(0)
    assert piramides_terminal.position_seed(moved) != piramides_terminal.position_seed(view)


def test_records_count_undos_and_old_records_stay_valid(tmp_path: Path) -> None:
    from pyramids.engine.records import make_record

    state = pyramids.new_game("piramides", seed=3)
    state.play(state.legal_moves()[0])
    assert "undos" not in make_record(state)  # a game without undo: the record as before
    record = make_record(state, undos=3)
    assert record["undos"] == 3 and pyramids.replay(record).ply == 1
    for bad in (-1, "two", True):
        with pytest.raises(RecordError) as err:
            pyramids.replay({**record, "undos": bad})
        assert err.value.field == "undos"


def test_fit_tables_split_columns_rather_than_cut_them() -> None:
    columns = [(f"figure {k}", [f"{k * 1234.5:.1f} (1.0–2.0)", "x"], True) for k in range(12)]
    tables = fit_tables("title", ("agent", ["mcts:level=hard", "random"]), columns, 80)
    assert len(tables) > 1
    for table in tables:
        text = text_of(table, width=200)
        assert max(len(line.rstrip()) for line in text.splitlines()) <= 80
        assert "mcts:level=hard" in text and "…" not in text


def test_arena_summary_tables_fit_80_columns() -> None:
    from pyramids.ai.arena import AgentSummary, ArenaConfig
    from pyramids.cli.cmd_arena import summary_tables

    config = ArenaConfig(
        game_id="pyramideto", agents=("mcts:level=hard", "greedy", "random"), games=40
    )
    summary = [
        AgentSummary(
            agent=a,
            games=40,
            wins=20,
            win_rate=0.5,
            win_low=0.34,
            win_high=0.66,
            mean_score=3.2,
            score_low=2.9,
            score_high=3.6,
            mean_rank=1.5,
            elo=1500 + i,
            elo_low=1400,
            elo_high=1600,
            mean_move_seconds=0.123,
            max_move_seconds=1.23,
            extra={"moves": 87.5, "drawn": 0.05, "goals displayed": 7.5},
        )
        for i, a in enumerate(config.agents)
    ]
    for table in summary_tables(config, summary, 120):
        text = text_of(table, width=200)
        assert max(len(line.rstrip()) for line in text.splitlines()) <= 80, text
        assert "…" not in text


def test_plots_are_written(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from pyramids.ai.arena import ArenaConfig, run_arena, summarize
    from pyramids.cli.plots import arena_plots, nodes_histogram, short_number
    from pyramids.solver.batch import Job, run_jobs

    config = ArenaConfig(game_id="pyramideto", agents=("greedy", "random"), games=2)
    results = run_arena(config, 1, None, None, lambda _r: None)
    written = arena_plots(config, summarize(config, results, resamples=20), results, tmp_path)
    assert {p.name for p in written} == {"ratings.png", "scores.png"}
    outcomes = run_jobs(
        [Job("golf", n, None, None, "clear", 10_000, 5.0) for n in range(1, 5)], 1, lambda _o: None
    )
    nodes_histogram(outcomes, tmp_path / "h.png", "golf")
    assert all(p.stat().st_size > 1000 for p in [*written, tmp_path / "h.png"])
    assert short_number(25_000) == "25k"


def test_help_starts_without_the_heavy_modules() -> None:
    code = (
        "import sys\n"
        "sys.argv = ['pyramids', '--help']\n"
        "from pyramids.cli.main import app\n"
        "try:\n    app()\nexcept SystemExit:\n    pass\n"
        "heavy = ('rich', 'babel', 'pyramids.games', 'pyramids.ai', 'pyramids.solver', "
        "'matplotlib', 'fastapi', 'sqlalchemy', 'markdown_it')\n"
        "print(sorted({m for m in sys.modules if m.startswith(heavy)}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_the_solve_command_states_the_solvers_node_limit() -> None:
    from pyramids.cli.cmd_solve import DEFAULT_MAX_NODES
    from pyramids.solver.search import DEFAULT_MAX_NODES as solver_default

    assert solver_default == DEFAULT_MAX_NODES


def test_every_terminal_message_is_a_catalog_entry() -> None:
    """The strings of the terminal faces are extracted: a message missing from the
    template would stay English in every language."""
    from pyramids.i18n.build import template

    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template("pyramids")}
    for message in (
        "How to win: ",
        "Moves you can type now, for example:",
        "Save the record of this game?",
        "That list is out of date: a move was played since.",
        "this help",
        "the best move, by solving N sampled stock orders (score: best points, not clearing)",
    ):
        assert message in ids


@pytest.mark.parametrize(
    ("layout", "shown", "left_out"),
    [
        ("golf", ["Round", "Cleared", "Total"], ["Cards", "Stock", "Jokers", "+50"]),
        ("tripeaks", ["Cards", "Stock", "Cleared"], ["Jokers"]),
        ("pyramid", ["Cards", "Stock", "Jokers", "Cleared"], []),
    ],
)
def test_the_score_table_has_the_columns_its_layout_scores(
    layout: str, shown: list[str], left_out: list[str]
) -> None:
    """Golf scores the cards left, not runs; tripeaks has no jokers: no columns of zeros."""
    state = pyramids.new_game("piramides", seed=3, layout=layout)
    agent, rng = make_agent("greedy", "piramides"), Rng(1)
    while not state.is_over:
        state.play(agent.choose(state, rng))
    console = Console(width=100, record=True, color_system=None)
    console.print(game_hooks("piramides").summary(state.view(0)))
    text = console.export_text()
    assert all(word in text for word in shown), text
    assert not any(word in text for word in left_out), text
    assert str(state.scores()[0]) in text


def test_the_status_line_keeps_each_part_whole_and_only_what_the_layout_has() -> None:
    """At 60 columns "Run 0 (next card +5)" broke between "next" and "card"."""
    from pyramids.text.piramides import status_line

    def lines(view: dict[str, Any], width: int) -> list[str]:
        console = Console(width=width, record=True, color_system=None)
        console.print(status_line(view))
        return [line.strip() for line in console.export_text().splitlines()]

    view = pyramids.new_game("piramides", seed=1).view(0)
    narrow = lines(view, 40)
    for part in ("Stock 23", "Jokers 1", "Round 1/5", "Run 0 (next card +5)", "Score 0"):
        assert any(part in line for line in narrow), (part, narrow)
    assert len(narrow) > 1  # it did wrap
    golf = " ".join(lines(pyramids.new_game("piramides", seed=1, layout="golf").view(0), 100))
    assert "Stock" in golf and "Jokers" not in golf and "Run" not in golf
    over = pyramids.new_game("piramides", seed=1, rounds=1)
    agent, rng = make_agent("greedy", "piramides"), Rng(1)
    while not over.is_over:
        over.play(agent.choose(over, rng))
    assert "next card" not in " ".join(lines(over.view(0), 100))


@pytest.mark.parametrize("layout", ["golf", "tripeaks"])
def test_golf_and_tripeaks_help_tell_their_own_rules(layout: str) -> None:
    state = pyramids.new_game("piramides", seed=5, layout=layout)
    shown = " ".join(text_of(help_text(_session(state, Console(record=True, width=100)))).split())
    assert "[JK]" not in shown and "the joker on the waste" not in shown
    assert "a joker costs 50" not in shown
    assert "+50 and deals the next round" not in shown  # the pyramid's round bonus
    if layout == "golf":
        assert "clear the seven columns" in shown and "costs nothing" in shown
        assert "A1 .. G5" in shown
    else:
        assert "clear the three peaks" in shown
        assert "D1..D10" in shown and "G1..G7" not in shown  # a 4-row layout: rows A-D
