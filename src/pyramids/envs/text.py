"""The text view of a seat: the terminal renderer's picture as plain text.

The adapters' ``ansi`` rendering and OpenSpiel's observation strings use the
same drawing as terminal play (``pyramids.cli.render``), which reads only the
view, so what a research user prints is exactly what a player would see.
"""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from pyramids.cli.render import game_hooks


def view_text(game_id: str, view: dict[str, Any], width: int = 100) -> str:
    """``view`` drawn by the game's terminal renderer, without colour codes."""
    buffer = io.StringIO()
    console = Console(
        file=buffer, width=width, color_system=None, force_terminal=False, legacy_windows=False
    )
    console.print(game_hooks(game_id).render(view))
    return buffer.getvalue()
