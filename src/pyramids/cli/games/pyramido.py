"""Pyramido's own commands of terminal play: ``floors``, each floor of a pyramid on its own.

The drawing is :mod:`pyramids.text.pyramido`; a command reads the live session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from pyramids.cli.commands import Command
from pyramids.cli.common import _
from pyramids.i18n import N_
from pyramids.text.pyramido import floor_layers

if TYPE_CHECKING:
    from pyramids.cli.play import Session


def floors_command(session: Session, argument: str) -> None:
    """floors [N]: draw each floor of player N's pyramid on its own (default: you)."""
    state = session.state
    view = state.view(state.current_player)
    seat = state.current_player or 0
    if argument.strip():
        try:
            seat = int(argument) - 1
        except ValueError:
            seat = -1
        if not 0 <= seat < view["players"]:
            message = _("floors takes a player number 1..{count}", count=view["players"])
            session.console.print(Text(message, style="red"))
            return
    session.console.print(Text(view["names"][seat], style="bold"))
    session.console.print(floor_layers(view["pyramids"][seat]))


#: the game's own commands of terminal play
COMMANDS = (
    Command(
        "floors",
        (),
        "[N]",
        N_("draw each floor of player N's pyramid on its own"),
        floors_command,
    ),
)
