"""The six colours of Pyramido, in the set's order (most blocks first).

A module of its own so that both the data loader and the set's generator
script read the one list without importing each other.
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple", "orange")
