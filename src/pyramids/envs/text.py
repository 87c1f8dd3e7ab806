"""The text view of a seat for the adapters: the terminal's picture as plain text.

The adapters' ``ansi`` rendering and OpenSpiel's observation strings use the
same drawing as terminal play (:mod:`pyramids.text`, which reads only the
view), so what a research user prints is exactly what a player would see.
"""

from __future__ import annotations

from pyramids.text import view_text

__all__ = ["view_text"]
