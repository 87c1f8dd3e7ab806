"""A sixth game, registered by one line, served by every face through its generic behaviour.

Nim (``tests/toygame``) has the engine contract and nothing else: no terminal
drawing, web board, greedy agent, playout policy, encoding or review profile.
These tests play it in the terminal (a real ``pyramids play`` on a
pseudo-terminal, which learns of the game from ``PYRAMIDS_EXTRA_GAMES``), on
the server, with the random and MCTS agents, under review, and through
Gymnasium, PettingZoo and OpenSpiel. The contract tests of
``tests/test_contract.py`` cover it too when run with that variable set.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import pyramids
from pyramids.ai.arena import ArenaConfig, run_arena, summarize
from pyramids.ai.mcts import MCTSAgent
from pyramids.ai.registry import UnknownAgent, agent_names, default_opponent, make_agent
from pyramids.engine.errors import UnknownGame
from pyramids.engine.registry import EXTRA_GAMES_VARIABLE, parse_extra_games
from pyramids.engine.rng import Rng
from tests import toygame as nim
from tests.cli.terminal import Terminal

ROOT = Path(__file__).resolve().parents[1]


def test_one_line_of_the_environment_registers_a_game() -> None:
    assert parse_extra_games(nim.ENTRY) == {nim.ID: "tests.toygame:GAME"}
    assert parse_extra_games(f" {nim.ENTRY} , other=pkg.mod:GAME ,") == {
        nim.ID: "tests.toygame:GAME",
        "other": "pkg.mod:GAME",
    }
    with pytest.raises(ValueError, match="id=module:attribute"):
        parse_extra_games("toygame=tests.toygame")
    with pytest.raises(ValueError, match="already taken"):
        parse_extra_games("piramides=tests.toygame:GAME")


def test_outside_the_registry_it_is_unknown() -> None:
    with pytest.raises(UnknownGame):
        pyramids.get_game(nim.ID)


# -- the terminal -------------------------------------------------------------------


@pytest.fixture
def nim_terminal(tmp_path: Path) -> Iterator[Any]:
    """``start(*args)``: ``pyramids *args`` on a pseudo-terminal, Nim registered by the variable."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {EXTRA_GAMES_VARIABLE: nim.ENTRY, "PYTHONPATH": path}
    opened: list[Terminal] = []

    def start(*args: str) -> Terminal:
        t = Terminal(tmp_path, *args, timeout=30.0, env=env)
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


def test_two_people_play_it_in_the_terminal(
    nim_terminal: Any, toygame: str, tmp_path: Path
) -> None:
    expected = nim.GAME.new(players=2, seed=3)
    t = nim_terminal("play", nim.ID, "--seed", "3", "--save", str(tmp_path / "nim.json"))
    t.prompt("Player 1")
    t.send("help")
    shown = t.prompt("Player 1")
    first = [expected.move_to_str(m) for m in expected.legal_moves()[:3]]
    assert all(m in shown for m in first), "help lists moves one may type now"
    t.send("z9")
    assert "'z9' is not a pile letter and a count, like b3" in t.prompt("Player 1")
    while not expected.is_over:
        seat = expected.current_player
        assert seat is not None
        # take a whole pile: the game ends in as many moves as there are piles
        pile = next(p for p, left in enumerate(expected.view(None)["piles"]) if left)
        move = nim.Take(pile, expected.view(None)["piles"][pile])
        t.send(expected.move_to_str(move))
        expected.play(move)
        if not expected.is_over:
            t.prompt(f"Player {expected.current_player + 1}")
    shown = t.expect("Game over.")
    assert "'piles': [0, 0, 0]" in shown, "the generic drawing pretty-prints the view"
    assert "Pass the screen" not in t.text, "no secrets: no hand-over between people"
    assert t.wait_exit() == 0
    record = json.loads((tmp_path / "nim.json").read_text())
    assert pyramids.replay(record).scores() == expected.scores()


def test_bots_play_it_in_the_terminal(nim_terminal: Any) -> None:
    t = nim_terminal("play", nim.ID, "--players", "3", "--bots", "3", "--seed", "8")
    t.expect("Game over.")
    assert t.wait_exit() == 0
    assert "Bot 3: " in t.text and "Place" in t.text


def test_its_bots_default_to_mcts_as_it_has_no_greedy_agent(toygame: str) -> None:
    from pyramids.cli.start import _seats

    assert agent_names(toygame) == ["random", "mcts"]
    assert default_opponent(toygame) == "mcts"
    seats = _seats(2, 1, None, toygame)
    assert seats[0].agent is None and isinstance(seats[1].agent, MCTSAgent)
    with pytest.raises(UnknownAgent, match="does not play toygame"):
        make_agent("greedy", toygame)


# -- agents and review --------------------------------------------------------------


def test_random_and_mcts_agents_play_it_in_the_arena(toygame: str) -> None:
    config = ArenaConfig(toygame, ("random", "mcts:iterations=200"), games=6, seed=1)
    results = run_arena(config)
    assert len(results) == 6
    assert all(sum(r.scores) == 1 for r in results), "every game of Nim has one winner"
    summary = {s.agent: s for s in summarize(config, results)}
    # Nim is solved by search: a few hundred playouts beat random play
    assert summary["mcts:iterations=200"].wins > summary["random"].wins


def test_a_review_grades_it_with_the_default_bands(toygame: str) -> None:
    state = pyramids.new_game(toygame, players=2, seed=5)
    while not state.is_over:
        state.play(state.legal_moves()[0])
    result = pyramids.review(state.record(), seat=0, budget=40)
    assert result.decisions, "Nim has choices to review"
    assert {d.grade for d in result.decisions} <= {"good", "inaccuracy", "mistake", "blunder"}


# -- the server ---------------------------------------------------------------------


def test_the_server_offers_it_with_the_generic_board_and_plays_it(
    toygame: str, tmp_path: Path
) -> None:
    from tests.server.client import HTTP, create, wait_over
    from tests.server.conftest import LiveServer

    live = LiveServer(tmp_path / "db.sqlite").start()
    try:
        games = {g["id"]: g for g in HTTP.get(f"{live.url}/api/games").json()}
        nim_info = games[toygame]
        assert nim_info["board"] is None and nim_info["board_css"] is False
        assert games["pyramido"]["board"] == "pyramido"
        assert nim_info["secrets"] is False
        rules = HTTP.get(f"{live.url}/api/games/{toygame}/rules").json()
        assert rules["html"] is None and rules["game"]["title"] == "Nim", "no rules page"
        bots = {b["agent"]: b for b in nim_info["bots"]}
        assert set(bots) == {"random", "mcts"}
        assert [b["agent"] for b in nim_info["bots"] if b["default"]] == ["mcts"]
        assert bots["mcts"]["levels"] == ["easy", "medium", "hard"]
        seats = [{"kind": "bot", "agent": "random"}, {"kind": "bot", "agent": "mcts"}]
        room = create(live.url, game=toygame, seats=seats, seed=2)
        final = wait_over(live.url, room["room"])
        assert sorted(final["scores"]) == [0, 1]
    finally:
        live.stop()


# -- the research adapters ----------------------------------------------------------


def test_gymnasium_plays_it_through_the_generic_encoding(toygame: str) -> None:
    pytest.importorskip("gymnasium", reason="pip install pyramids[rl]")
    import numpy as np

    from pyramids.envs.gym_env import PyramidsEnv

    env = PyramidsEnv(toygame, players=2, opponents="random")
    assert env.action_space.n == 3 * nim.MOST
    obs, info = env.reset(seed=4)
    assert obs.shape == env.observation_space.shape and obs.any()
    rng = np.random.default_rng(0)
    done, steps = False, 0
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        assert len(legal) == len(env.state.legal_moves())
        obs, reward, done, _, info = env.step(int(rng.choice(legal)))
        steps += 1
    assert steps <= nim.GAME.max_game_length(2, env.state.variant)
    assert env.state.is_over and reward in (0.0, 1.0)
    env.reset(seed=4)
    past = len(env.state.legal_moves())  # the first id that names no move here
    assert past < env.action_space.n
    _, reward, _, _, info = env.step(past)
    assert info["illegal_action"] and reward == -1.0 and env.state.ply == 0


def test_pettingzoo_plays_it_and_passes_the_api_test(toygame: str) -> None:
    pytest.importorskip("pettingzoo", reason="pip install pyramids[rl]")
    from pettingzoo.test import api_test

    from pyramids.envs.pettingzoo_env import make_env_functions

    env, _, parallel_env = make_env_functions(toygame)
    api_test(env(players=3), num_cycles=30)
    par = parallel_env(players=2)
    observations, _ = par.reset(seed=1)
    steps = 0
    totals = dict.fromkeys(par.possible_agents, 0.0)
    while par.agents:
        mover = next(a for a in par.agents if observations[a]["action_mask"].any())
        action = int(observations[mover]["action_mask"].argmax())
        observations, rewards, *_ = par.step({mover: action})
        for agent, reward in rewards.items():
            totals[agent] += reward
        steps += 1
    assert 1 <= steps <= nim.GAME.max_game_length(2, {"piles": 3})
    assert sorted(totals.values()) == [0.0, 1.0], "the score reward: 1 for who took the last"


def test_openspiel_declares_it_from_the_game_and_simulates_it(toygame: str) -> None:
    pytest.importorskip("numpy", reason="pip install pyramids[rl]")
    pyspiel = pytest.importorskip("pyspiel", reason="pip install pyramids[openspiel]")
    from pyramids.envs.openspiel_game import register

    game = pyspiel.load_game(register(toygame), {"players": 2})
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game.max_game_length() == 3 * nim.MOST
    assert game.num_distinct_actions() == 3 * nim.MOST
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    state = game.new_initial_state()
    rng = Rng(7)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.below(len(legal))])
    assert sorted(state.returns()) == [-1.0, 1.0]
