"""Names for the items of a move tuple, read at the speed of a tuple field.

Moves of the Pyramido games are one NamedTuple per game whose few int items
mean different things in different kinds of move (a quarry slot in one, a
colour in another). Callers should read them by what they mean (``slot``,
``colour``), but a property written as a method costs a Python call, several
times a field's read, and search reads move items millions of times. An
:func:`item` is the very descriptor ``collections.namedtuple`` makes for a
field (C code), so reading it costs what reading the field costs. Declare
it with the item's type, on a subclass of the NamedTuple (a NamedTuple's own
body holds only fields)::

    class _Fields(NamedTuple):
        kind: str
        a: int = -1

    class Move(_Fields):
        __slots__ = ()
        slot: int = item(1, "``place``: the quarry slot")
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

try:  # the C descriptor of a NamedTuple's own fields, imported as collections imports it
    from _collections import _tuplegetter  # type: ignore[import-not-found]
except ImportError:  # other Pythons: what the standard library falls back to

    def _tuplegetter(index: int, doc: str) -> Any:
        return property(itemgetter(index), doc=doc)


def item(index: int, doc: str) -> Any:
    """A read-only property that returns ``self[index]``; ``doc`` says what it means."""
    return _tuplegetter(index, doc)
