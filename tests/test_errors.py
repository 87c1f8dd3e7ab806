"""Who plays, and with whom: every bad player count, name, seat or agent is a PyramidsError.

A face catches one type (``PyramidsError``) and shows its template in the
player's language; these tests hold the library and the command line to that
(the server's side is tests/server/test_player_errors.py). And an import error
inside our own code is a bug that surfaces, never a feature that quietly goes
missing: ``except ImportError`` guards third-party imports only.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import pyramids
from pyramids.ai.arena import ArenaConfig, build_agent, parse_agent_spec
from pyramids.ai.errors import AgentError, UnknownAgent
from pyramids.ai.registry import make_agent
from pyramids.cli.main import app
from pyramids.engine.errors import PlayersError, PyramidsError, SeatError
from pyramids.engine.rng import Rng
from pyramids.engine.state import check_seat
from pyramids.i18n import translator
from tests.conftest import play_randomly
from tests.test_messages import check_error

SRC = Path(__file__).resolve().parents[1] / "src" / "pyramids"
runner = CliRunner()


def raised(kind: type[PyramidsError], code: str, call: Any, *args: Any, **kwargs: Any) -> Any:
    """The error ``call`` raises: of ``kind`` (a ValueError too), with ``code``, complete."""
    with pytest.raises(kind) as err:
        call(*args, **kwargs)
    assert isinstance(err.value, ValueError)  # what callers relied on before, still true
    assert err.value.code == code, err.value.code
    check_error(err.value)
    return err.value


# -- the library ---------------------------------------------------------------------------


def test_player_counts_names_and_seats_are_players_errors() -> None:
    err = raised(PlayersError, "player-count", pyramids.new_game, "pyramido", players=7)
    assert err.params == {"game_id": "pyramido", "minimum": 2, "maximum": 4, "players": 7}
    raised(PlayersError, "player-count", pyramids.new_game, "piramides", players="one")
    err = raised(PlayersError, "player-names", pyramids.new_game, "pyramideto", 2, names=["A", ""])
    assert err.params == {"count": 2}
    state = pyramids.new_game("pyramideto", players=3)
    err = raised(SeatError, "no-such-seat", state.view, 3)
    assert isinstance(err, PlayersError) and err.params == {"number": 3, "count": 3}
    assert state.view(2)["viewer"] == 2 and state.view(None)["viewer"] is None


def test_check_seat_refuses_what_is_not_a_seat_number() -> None:
    assert check_seat(0, 1) == 0 and check_seat(3, 4) == 3
    for bad in (-1, 4, True, 1.0, "1", None):
        err = raised(SeatError, "no-such-seat", check_seat, bad, 4)
        assert err.params["number"] == (bad if type(bad) is int else repr(bad))


def test_a_review_of_a_seat_the_game_does_not_have() -> None:
    state = pyramids.new_game("pyramideto", players=2, seed=1)
    play_randomly(state, Rng(1), max_plies=6)
    raised(SeatError, "no-such-seat", pyramids.review, state.record(), seat=2, budget=8)


def test_agent_names_specs_levels_and_options_are_agent_errors() -> None:
    err = raised(UnknownAgent, "unknown-agent", make_agent, "nobody", "piramides")
    assert err.params["agent"] == "nobody" and "greedy" in str(err.params["known"])
    err = raised(UnknownAgent, "unknown-agent", make_agent, "child", "piramides")
    assert err.params["game_id"] == "piramides" and "child" not in str(err.params["known"])
    assert isinstance(err, AgentError)
    raised(AgentError, "agent-level", make_agent, "mcts", "pyramido", level="brutal")
    err = raised(AgentError, "agent-option", make_agent, "mcts", "pyramido", iterations="many")
    assert err.params == {"option": "iterations", "value": "'many'"}
    err = raised(AgentError, "agent-option", make_agent, "mcts", "pyramido", widen_k="0")
    assert err.params["minimum"] == "0.1"
    raised(AgentError, "agent-option", make_agent, "mcts", "pyramido", margin=2)
    raised(AgentError, "agent-option", make_agent, "greedy", "pyramido-treasure", forget=2.0)
    raised(AgentError, "agent-spec", parse_agent_spec, "mcts:hard")
    raised(AgentError, "agent-spec", parse_agent_spec, ":level=hard")
    err = raised(AgentError, "agent-option", build_agent, "greedy:depth=3", "pyramideto")
    assert err.params["options"] == "depth"
    raised(AgentError, "agent-spec", ArenaConfig("piramides", (), games=1).check)
    raised(PyramidsError, "arena-games", ArenaConfig("piramides", ("greedy",), games=0).check)


def test_a_bot_seat_level_is_an_agent_error() -> None:
    from pyramids.server.bots import build_agent as bot

    raised(AgentError, "agent-level", bot, "random", "pyramido", "hard")
    err = raised(AgentError, "agent-level", bot, "mcts", "pyramido", "brutal")
    assert err.params == {"levels": "easy, medium, hard", "level": "'brutal'"}
    raised(UnknownAgent, "unknown-agent", bot, "nobody", "pyramido", None)


def test_the_gymnasium_adapter_checks_its_seat() -> None:
    pytest.importorskip("gymnasium")
    from pyramids.envs.gym_env import PyramidsEnv

    raised(SeatError, "no-such-seat", PyramidsEnv, "pyramideto", players=2, seat=2)
    raised(PlayersError, "player-count", PyramidsEnv, "pyramideto", players=9)


# -- the command line ---------------------------------------------------------------------


def error_line(result: Any, label: str = "Error:") -> str:
    """The one ``Error: ...`` line a refused command prints (and its exit status 2)."""
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.startswith(label)]
    assert len(lines) == 1, result.output
    return str(lines[0])


def test_the_command_line_shows_players_errors_in_the_players_language() -> None:
    line = error_line(runner.invoke(app, ["play", "piramides", "--players", "3"]))
    assert line == "Error: piramides is a solitaire: one player, not 3"
    line = error_line(runner.invoke(app, ["simulate", "pyramideto", "--players", "1"]))
    assert line == "Error: pyramideto is played by 2 to 4 players, not 1"
    # rendered from the error's template through the catalog, not from str(err)
    czech = translator("cs")
    with pytest.raises(PlayersError) as err:
        pyramids.new_game("pyramido", players=9)
    assert czech.error(err.value) != str(err.value)
    result = runner.invoke(app, ["--lang", "cs", "play", "pyramido", "--players", "9"])
    label = czech.gettext("Error:")
    assert error_line(result, label) == f"{label} {czech.error(err.value)}"


def test_the_command_line_shows_agent_errors() -> None:
    play = ["play", "pyramideto", "--players", "2", "--bots", "1", "--agent", "nobody"]
    assert "unknown agent 'nobody'" in error_line(runner.invoke(app, play))
    cases = {
        "mcts:hard": "agent option 'hard' in 'mcts:hard' must look like name=value",
        "mcts:level=brutal": "mcts level must be one of easy, medium, hard, not 'brutal'",
        "greedy:depth=3": "agent 'greedy:depth=3' does not take the options depth",
        "child": "agent 'child' does not play piramides; agents for it: random, mcts, greedy",
    }
    for spec, message in cases.items():
        result = runner.invoke(app, ["arena", "piramides", "--agents", spec, "--games", "1"])
        assert error_line(result) == f"Error: {message}"


def test_the_command_line_counts_review_seats_from_one(tmp_path: Path) -> None:
    state = pyramids.new_game("pyramideto", players=2, seed=2)
    play_randomly(state, Rng(2), max_plies=4)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.record()), encoding="utf-8")
    result = runner.invoke(app, ["review", str(path), "--seat", "3", "--budget", "8"])
    assert error_line(result) == "Error: --seat 3: the game has 2 players"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({**state.record(), "format_version": None}), encoding="utf-8")
    result = runner.invoke(app, ["review", str(broken)])
    assert "format_version: " in error_line(result)  # the field, as replay names it


# -- import errors: third-party packages only ----------------------------------------------


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(
        isinstance(k, ast.Name) and k.id in ("ImportError", "ModuleNotFoundError") for k in kinds
    )


def _own_imports(body: list[ast.stmt]) -> list[str]:
    """What in ``body`` imports a module of ours (or any module chosen at run time)."""
    found = []
    for node in (n for stmt in body for n in ast.walk(stmt)):
        if isinstance(node, ast.ImportFrom) and (
            node.level or (node.module or "").startswith("pyramids")
        ):
            found.append(f"from {node.module} import ...")
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "pyramids"]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module":
            found.append("importlib.import_module(...)")
    return found


def test_import_errors_are_caught_around_third_party_imports_only() -> None:
    problems = []
    guarded = 0
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Try) and any(_catches_import_error(h) for h in node.handlers):
                guarded += 1
                for what in _own_imports(node.body):
                    problems.append(f"{path.relative_to(SRC)}:{node.lineno}: {what}")
    assert not problems, "\n".join(problems)
    assert guarded >= 5  # matplotlib, readline, pysol_cards, ray: the check sees them


def test_the_static_check_sees_an_own_import() -> None:
    tree = ast.parse(
        "try:\n    from pyramids.solver import hint\nexcept ImportError:\n    hint = None\n"
        "try:\n    import numpy\nexcept (ModuleNotFoundError, OSError):\n    numpy = None\n"
    )
    tries = [n for n in ast.walk(tree) if isinstance(n, ast.Try)]
    assert all(_catches_import_error(t.handlers[0]) for t in tries)
    assert [_own_imports(t.body) for t in tries] == [["from pyramids.solver import ..."], []]


def test_a_broken_hint_module_is_a_bug_not_a_server_without_hints(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pyramids.server.hints import hint_available

    assert hint_available("piramides")
    monkeypatch.setitem(sys.modules, "pyramids.solver.hint", None)  # importing it now fails
    with pytest.raises(ImportError):
        hint_available("piramides")


def test_a_broken_agent_module_is_a_bug_not_an_agent_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pyramids.server.bots import bot_choices

    assert "greedy" in [b["agent"] for b in bot_choices("piramides")]
    # the agent's own module is found (it exists) but fails to import, as a bug would make it
    # (here: one of its own imports is missing)
    monkeypatch.delitem(sys.modules, "pyramids.ai.greedy.piramides", raising=False)
    monkeypatch.setitem(sys.modules, "pyramids.games.piramides", None)
    with pytest.raises(ImportError, match=r"pyramids\.games\.piramides"):
        bot_choices("piramides")


def test_serve_names_the_missing_redis_but_not_a_broken_broker_module(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("redis")
    from pyramids.cli.cmd_serve import _check_broker

    with monkeypatch.context() as m:
        m.setitem(sys.modules, "pyramids.cluster.broker", None)
        with pytest.raises(ImportError):
            _check_broker("redis://127.0.0.1:1/0")
    with monkeypatch.context() as m:
        m.setitem(sys.modules, "redis", None)  # as if the extra were not installed
        with pytest.raises(typer.Exit) as exit_:
            _check_broker("redis://127.0.0.1:1/0")
    assert exit_.value.exit_code == 2
    assert "needs the redis package" in capsys.readouterr().err
