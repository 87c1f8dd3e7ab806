"""The terminal's face of each game: its text drawing plus what only terminal play does.

A game's drawing, help, events and summary are its text face
(:mod:`pyramids.text`, shared with the research adapters). What terminal play
adds is the module of this package named after the game
(:mod:`pyramids.engine.faces`: ``pyramids.cli.games.pyramido``), which may define:

* ``COMMANDS``: the game's own commands of terminal play, a tuple of
  :class:`~pyramids.cli.commands.Command` (name, aliases, arguments, summary
  marked ``N_``, handler), joined to the built-in ones in one table;
* ``solvable_deal(seed, variant) -> (state, deal numbers)``: how ``play
  --solvable`` deals a game that can be won (a game without it refuses the flag).

Whether hot-seat play clears the screen between turns is the game's own
:attr:`~pyramids.engine.state.Game.secret_seats`, not a hook.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from pyramids.text import TextFace, text_face

if TYPE_CHECKING:
    from pyramids.cli.commands import Command
    from pyramids.engine.state import State

#: ``play --solvable``: a winnable game from a seed, and the deal numbers it stands for
SolvableDeal = Callable[[int, Mapping[str, Any]], "tuple[State[Any], list[int]]"]


@dataclass(frozen=True)
class GameHooks(TextFace):
    """A game's text face and its terminal-only hooks (defaults where it defines none)."""

    commands: tuple[Command, ...] = ()
    solvable_deal: SolvableDeal | None = None
    hand_over: bool = True


def game_hooks(game_id: str) -> GameHooks:
    """The terminal hooks of ``game_id``: its text face and its module here, if any."""
    from pyramids.engine.faces import load_face
    from pyramids.engine.registry import get_game

    face = text_face(game_id)
    module = load_face(__name__, game_id)
    return GameHooks(
        **{f.name: getattr(face, f.name) for f in fields(TextFace)},
        commands=tuple(getattr(module, "COMMANDS", ())),
        solvable_deal=getattr(module, "solvable_deal", None),
        hand_over=get_game(game_id).secret_seats,
    )
