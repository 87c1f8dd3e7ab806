"""The one rule for the names people give themselves (seats now, accounts later).

A name is shown to every player, so it must read as what it is:

* **normalized**: NFKC (full-width ``Ａｎａ`` is ``Ana``), invisible and
  direction-control characters removed (``Ana\\u200b`` is ``Ana``; a
  right-to-left override cannot turn the text around it), runs of spaces made
  one, spaces around it dropped. Two names that look the same are the same;
* **printable**: no control characters (refused, not removed: a name with a
  bell or a NUL in it is a mistake, not a style);
* **1 to** :data:`NAME_MAX_LENGTH` **characters** once normalized, with at
  least one visible character (a name of zero-width spaces is no name);
* **a person's name does not pass for a bot's**: it may not start with the
  word "bot" ("Bot 2 (mcts hard)" is how the server names its bots).

Refusals are :class:`PlayersError` with code ``player-names``.
"""

from __future__ import annotations

import re
import unicodedata

from pyramids.engine.errors import PlayersError

#: the longest name, in characters, once normalized
NAME_MAX_LENGTH = 40

#: Unicode categories a name may not hold: control, surrogate, private use, unassigned
CONTROL_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn"})

#: characters that show nothing, yet are letters or symbols to Unicode (Hangul
#: fillers, the Braille blank, the Mongolian vowel separator): removed like the
#: format characters (category Cf: zero-width spaces and joiners, direction
#: marks and overrides, soft hyphens)
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")

#: the direction controls (marks, embeddings, overrides, isolates): removed from chat
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)

_SPACES = re.compile(r"\s+")
_BOT_LIKE = re.compile(r"bots?\b")


def has_control_characters(text: str) -> bool:
    """Whether ``text`` holds a character that is not printable text."""
    return any(unicodedata.category(c) in CONTROL_CATEGORIES for c in text)


def _invisible(c: str) -> bool:
    return c in BLANKS or unicodedata.category(c) == "Cf"


def normalize_name(text: str) -> str:
    """``text`` as the name it shows: NFKC, no invisible characters, single spaces."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(c for c in text if not _invisible(c))
    return _SPACES.sub(" ", text).strip()


def check_name(text: str, *, person: bool = True) -> str:
    """``text`` normalized, or :class:`PlayersError` if it is not a name (see the module).

    ``person``: the name of a person, which may not look like a bot's.
    """
    if has_control_characters(text):
        raise PlayersError("a name cannot hold control characters", code="player-names")
    name = normalize_name(text)
    if not name and text.strip():
        raise PlayersError("a name needs at least one visible character", code="player-names")
    if not 0 < len(name) <= NAME_MAX_LENGTH:
        raise PlayersError(
            "a name is 1 to {limit} characters", code="player-names", limit=NAME_MAX_LENGTH
        )
    if person and looks_like_a_bot(name):
        raise PlayersError(
            "a person's name cannot look like a bot's: {name}", code="player-names", name=name
        )
    return name


def looks_like_a_bot(name: str) -> bool:
    """Whether ``name`` (normalized) starts with the word "bot", as the server's bots do."""
    return _BOT_LIKE.match(name.casefold()) is not None


def clean_text(text: str) -> str:
    """``text`` (a chat line) without direction controls, which could reverse what follows."""
    return "".join(c for c in text if c not in BIDI_CONTROLS)
