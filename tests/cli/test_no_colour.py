"""Without colour (``NO_COLOR``, a file, a pipe) the board still says what colour says.

Pyramido's blocks show their colour letters (R Y G B P O) and Pirámides'
free cards a ``*``; a colour terminal shows neither, the colours do.
"""

from __future__ import annotations

import io
import re

from rich.console import Console

import pyramids
from pyramids.cli.games import game_hooks
from pyramids.envs.text import view_text

LETTERED = re.compile(r"[RYGBPO][◆● 2-4]")


def _printed(renderable: object, *, colour: bool) -> str:
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=120,
        force_terminal=colour,
        color_system="truecolor" if colour else None,
        no_color=not colour,
    )
    console.print(renderable)
    return re.sub(r"\x1b\[[0-9;]*m", "", buffer.getvalue())


def test_pyramido_blocks_carry_their_colour_letters_without_colour() -> None:
    state = pyramids.new_game("pyramido", players=2, seed=3)
    view = state.view(0)
    hooks = game_hooks("pyramido")
    plain = _printed(hooks.draw(view), colour=False)
    coloured = _printed(hooks.draw(view), colour=True)
    quarry = [line for line in plain.splitlines() if "◆" in line]
    assert quarry and all(LETTERED.search(line) for line in quarry), plain
    assert not any(LETTERED.search(line) for line in coloured.splitlines() if "◆" in line)


def test_piramides_free_cards_are_marked_without_colour() -> None:
    state = pyramids.new_game("piramides", seed=3)
    view = state.view(0)
    free = sum(1 for c in view["pyramid"] if c["free"])
    hooks = game_hooks("piramides")
    plain = _printed(hooks.draw(view), colour=False)
    assert plain.count("*") == free == 7, plain
    assert "*" not in _printed(hooks.draw(view), colour=True)


def test_the_adapters_text_is_unchanged() -> None:
    view = pyramids.new_game("piramides", seed=3).view(0)
    assert "*" not in view_text("piramides", view)
