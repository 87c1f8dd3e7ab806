"""Names of the things inside games, and messages as data (templates with parameters).

Why: a face shows a message in the player's language, so the engine never
hands out finished sentences. A message is an English *template* with named
``{fields}`` (the gettext msgid) and *parameters*, JSON scalars. A parameter
whose key is a name kind (``treasure``) or a kind with a suffix
(``treasure_2``, ``colour_b``) holds an id (``"sacred-dog"``) and is shown
through the kind's name for that id; a ``seat`` parameter holds a seat number
and is shown as that player's name; an ``alternatives`` parameter holds
words separated by spaces (``"d4 e3 f4"``) and is shown as the language's
"or" list (``d4, e3, or f4``; ``d4, e3 nebo f4``). Names are catalog entries
keyed by kind and id, never by their English words.

Each game registers its names at import time from its own data
(:func:`register`); the engine knows no game. English is the default
rendering; a face passes its own ``name`` function (and gettext) to
:func:`render`.

Templates outside ``raise`` sites (news lines, tables) are marked with
:func:`N_` so that ``pybabel extract -k N_`` finds them.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping, Sequence

#: a message parameter: a JSON scalar
Param = str | int
#: ``name(kind, id) -> text``: how a face shows a name in its language
NameFunction = Callable[[str, str], str]

#: the parameter kind holding a seat number (rendered as the player's name)
SEAT = "seat"
#: the parameter kind holding alternatives separated by spaces (rendered as an "or" list)
ALTERNATIVES = "alternatives"

_KIND = re.compile(r"^[a-z]+$")
_NAMES: dict[str, dict[str, str]] = {}


def N_(template: str) -> str:
    """Mark a literal template for extraction (``pybabel extract -k N_``); returns it as is."""
    return template


def register(kind: str, names: Mapping[str, str]) -> None:
    """Add the English names of ``kind`` (``{id: name}``); a game calls it at import.

    ``kind`` is lower-case letters only, because a parameter key is the kind,
    optionally followed by ``_`` and a suffix. Registering an id again with
    the same name is harmless (modules may be reloaded); a different name is
    an error, since ids are meant to be stable.
    """
    if not _KIND.match(kind) or kind in (SEAT, ALTERNATIVES):
        raise ValueError(f"a name kind is lower-case letters (not 'seat'), not {kind!r}")
    table = _NAMES.setdefault(kind, {})
    for key, name in names.items():
        if not isinstance(key, str) or not key or not isinstance(name, str) or not name:
            raise ValueError(f"{kind} names must map non-empty ids to non-empty names")
        if table.get(key, name) != name:
            raise ValueError(f"{kind} {key!r} is already named {table[key]!r}, not {name!r}")
        table[key] = name


def english(kind: str, id: str) -> str:
    """The English name of ``id`` of ``kind``; an unknown id is shown as itself."""
    if kind == ALTERNATIVES:
        return english_or(id.split())
    return _NAMES.get(kind, {}).get(id, id)


def english_or(items: Sequence[str]) -> str:
    """``items`` joined as English's CLDR "or" list does (``a, b, or c``).

    The engine's own rendering, without the catalogs; a face renders the list
    in its language (:func:`pyramids.i18n.numbers.or_list`, which a test
    compares with this one for English).
    """
    if len(items) <= 2:
        return " or ".join(items)
    return ", ".join(items[:-1]) + ", or " + items[-1]


def all_names() -> dict[str, dict[str, str]]:
    """Every registered name, ``{kind: {id: english_name}}`` (a copy)."""
    return {kind: dict(table) for kind, table in _NAMES.items()}


def kind_of(key: str) -> str | None:
    """The name kind of a parameter key (``treasure_2`` -> ``treasure``), or None."""
    kind = key.split("_", 1)[0]
    if kind in (SEAT, ALTERNATIVES) or kind in _NAMES:
        return kind
    return None


def seat_name(seat: int, seats: Sequence[str] | None = None) -> str:
    """A seat's name: from ``seats`` when given, else the default ``Player N``."""
    if seats is not None and 0 <= seat < len(seats):
        return seats[seat]
    return f"Player {seat + 1}"


def render_params(
    params: Mapping[str, Param],
    name: NameFunction = english,
    seats: Sequence[str] | None = None,
) -> dict[str, Param]:
    """The parameters as shown: ids of name kinds through ``name``, seats as player names."""
    out: dict[str, Param] = {}
    for key, value in params.items():
        kind = kind_of(key)
        if kind == SEAT and isinstance(value, int):
            out[key] = seat_name(value, seats)
        elif kind is not None and kind != SEAT and isinstance(value, str):
            out[key] = name(kind, value)
        else:
            out[key] = value
    return out


def render(
    template: str,
    params: Mapping[str, Param],
    *,
    name: NameFunction = english,
    seats: Sequence[str] | None = None,
    translate: Callable[[str], str] | None = None,
) -> str:
    """A message as text: ``translate(template)`` (gettext) filled with the shown parameters."""
    text = template if translate is None else translate(template)
    return text.format_map(render_params(params, name, seats))


def fields_of(template: str) -> set[str]:
    """The ``{field}`` names a template uses (for checks and tests)."""
    return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}
