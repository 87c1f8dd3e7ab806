"""The six colours of Pyramido, in the set's order (most blocks first).

A module of its own so that both the data loader and the set's generator
script read the one list without importing each other.
"""

from __future__ import annotations

from pyramids.engine import names

COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple", "orange")

#: the colours as players see them (name kind ``colour``, keyed by the ids above)
names.register("colour", {c: c for c in COLOURS})
