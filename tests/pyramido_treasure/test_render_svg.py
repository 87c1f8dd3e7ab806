"""Terminal drawing (from views only) and the treasure pictures."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import pyramids
from pyramids.cli.games import game_hooks
from pyramids.cli.main import app
from pyramids.games.pyramido_treasure.svg import main as svg_main
from pyramids.games.pyramido_treasure.svg import treasure_svg, write_pictures
from pyramids.games.pyramido_treasure.treasures import TREASURES
from pyramids.text.pyramido_treasure import render, stats, summary
from tests.pyramido_treasure.helpers import arrange, setup, slide_to, start

DOCS = Path(__file__).resolve().parents[2] / "src/pyramids/web/rules/img/pyramido-treasure"


def text_of(renderable: object, width: int = 100) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_render_shows_pyramids_the_one_visible_token_and_the_search() -> None:
    state = start(3, setup({"mummy": "C2"}))
    slide_to(state, "C2")
    out = text_of(render(state.view(1)))
    assert out.count("▲") == 47
    assert "MU" in out, "the visible mummy is drawn in the gap"
    assert "Player 2 seeks the sphinx" in out
    assert "Player 1 reveals the mummy, not the sphinx" in out
    assert "c2 mummy (Player 1)" in out


def test_render_draws_the_turned_box_with_eight_rows() -> None:
    state = start(2)
    arrange(state, deck=2, cards=["sphinx/2", "mummy/2"])
    slide_to(state, "B1", "A1")
    out = text_of(render(state.view(1)))
    assert "turned 90°" in out
    assert "  8 " in out and "  7 " in out
    assert " a  b   c  d   e  f" in out and " g " not in out
    assert "sphinx (2)" in out


def test_render_of_events_and_the_end() -> None:
    state = start(3)
    arrange(state, deck=2, cards=["danger", "parrot/2"], hands={0: ["crown/1", "vase/1"]})
    assert "Danger: name two treasures" in text_of(render(state.view(0)))
    state.play(state.parse_move("name parrot lamp"))
    assert "named parrot and lamp" in text_of(render(state.view(0)))
    arrange(state, deck=3, cards=["game-over"], hands={1: ["mummy/4"]})
    final = state.view(None)
    shown = text_of(render(final))
    assert "The game-over card was drawn." in shown and "game-over-card" not in shown
    table = text_of(summary(final))
    assert "game-over-card" not in table
    assert "Player 2" in table and "4" in table
    assert stats(final)["points taken"] == 6.0


def test_hooks_are_registered() -> None:
    hooks = game_hooks("pyramido-treasure")
    view = pyramids.new_game("pyramido-treasure", players=2, seed=1).view(0)
    assert text_of(hooks.render(view)) == text_of(render(view))  # built when printed
    assert hooks.summary is summary and hooks.stats is stats


def test_terminal_play_with_bots() -> None:
    runner = CliRunner()
    result = runner.invoke(
        app,
        ["play", "pyramido-treasure", "--players", "3", "--bots", "2", "--seed", "4"],
        input="zz\ng6\nmoves\nq\n",
    )
    assert result.exit_code == 0, result.output
    assert "Player 1 seeks the cat" in result.output
    assert "'zz' is not a spot" in result.output


@pytest.mark.parametrize("index", range(len(TREASURES)))
def test_every_treasure_picture_is_valid_svg_with_a_title(index: int) -> None:
    root = ET.fromstring(treasure_svg(index, size=48))
    assert root.tag.endswith("svg") and root.get("width") == "48"
    title = root.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text == TREASURES[index].label
    assert treasure_svg(TREASURES[index].name) == treasure_svg(index)
    assert len(root) > 2


def test_unknown_treasure_has_no_picture() -> None:
    with pytest.raises(ValueError):
        treasure_svg("dragon")


def test_docs_pictures_are_the_generated_ones(tmp_path: Path) -> None:
    for path in write_pictures(tmp_path):
        assert (DOCS / path.name).read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
    assert svg_main([]) == 2
