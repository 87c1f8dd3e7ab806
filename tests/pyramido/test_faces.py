"""Terminal renderer and greedy agent: they run on real games and say what matters."""

from __future__ import annotations

from types import SimpleNamespace

from rich.console import Console

from pyramids.ai.base import RandomAgent
from pyramids.ai.registry import make_agent
from pyramids.cli.commands import CommandTable
from pyramids.cli.games import game_hooks
from pyramids.engine.rng import Rng
from tests.pyramido.helpers import new


def text_of(renderable: object) -> str:
    console = Console(width=140, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_render_labels_the_cells_the_player_can_build_on() -> None:
    hooks = game_hooks("pyramido")
    s = new(2, 5)
    first = text_of(hooks.render(s.view(0)))
    assert "e5" in first and "q1" in first and "stack 4 (21)" in first
    s.play(s.parse_move("q1 e5 f5"))
    while s.current_player == 0:
        s.play(s.legal_moves()[0])
    picture = text_of(hooks.render(s.view(1)))
    assert "Floor 1" in picture and "e5" in picture  # player 2 starts at e5 too
    assert "◆" in picture or "1 " in picture


def test_greedy_beats_random_and_summary_breaks_scores_down() -> None:
    greedy = make_agent("greedy", "pyramido")
    rand = RandomAgent()
    rng = Rng(2)
    s = new(2, 8)
    while not s.is_over:
        agent = greedy if s.current_player == 0 else rand
        move = agent.choose(s, rng)
        assert move in s.legal_moves()
        s.play(move)
    assert s.ranking()[0] == 1 and not s.is_out(0)
    summary = game_hooks("pyramido").summary
    assert summary is not None
    table = text_of(summary(s.view(None)))
    fs = s.floor_scores(0)[0]
    areas = " ".join(f"{'RYGBPO'[c]}{j}" for c, j in fs.areas)
    assert f"{fs.total} = {areas} +{fs.bonus}" in " ".join(table.split())
    assert str(s.scores()[0]) in table


def test_floors_command_draws_each_floor() -> None:
    greedy = make_agent("greedy", "pyramido")
    rng = Rng(4)
    s = new(2, 1)
    while s.floor < 3:
        s.play(greedy.choose(s, rng))
    console = Console(width=160, record=True, color_system=None)
    floors = CommandTable(game_hooks("pyramido").commands).find("floors")
    assert floors is not None and floors.usage == "floors [N]"
    floors.run(SimpleNamespace(state=s, console=console), "2")
    out = console.export_text()
    assert "Floor 1" in out and "Floor 2" in out and "Player 2" in out
    floors.run(SimpleNamespace(state=s, console=console), "7")
    assert "player number" in console.export_text()
