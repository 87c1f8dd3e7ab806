"""The command table of terminal play: what each command is called, takes, says and does.

Why one table: the loop, ``help`` and Tab completion must agree on what the
player can type. When each keeps its own list, a command can work without
being listed, or be listed and completed without working. Here the built-in
commands and a game's own (its terminal face exports them as ``COMMANDS``)
are :class:`Command` entries of one :class:`CommandTable`, and the loop
dispatches, ``help`` lists and Tab completes from that table alone.

Command words are English in every language (a typed ``save`` must mean the
same in a Czech session and in its saved transcript); only the summaries are
translated, so each is a message id marked with ``N_``.

>>> table = CommandTable([Command("save", ("s",), "FILE", "save", print)])
>>> table.find("S").name, table.find("load")
('save', None)
>>> Command("hint", (), "[N] [score]", "hint", print).keywords
('score',)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from pyramids.cli.play import Session

Handler = Callable[["Session", str], None]
"""What a command does: called with the session and the rest of the line, stripped."""

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


class Command(NamedTuple):
    """One command of terminal play."""

    name: str
    """The word that runs it (English in every language)."""
    aliases: tuple[str, ...]
    """Other words that run it (``m`` for ``moves``)."""
    args: str
    """The arguments as help shows them: an upper-case word is a value the player
    gives (``FILE``, ``N``), a lower-case word is typed as it is (``score``), and
    brackets mark what may be left out; ``""`` for none."""
    summary: str
    """What it does: a message id marked with ``N_``, translated when shown."""
    run: Handler

    @property
    def names(self) -> tuple[str, ...]:
        """Every word that runs the command, its name first."""
        return (self.name, *self.aliases)

    @property
    def usage(self) -> str:
        """The command as typed, with its arguments: ``save FILE``."""
        return f"{self.name} {self.args}" if self.args else self.name

    @property
    def keywords(self) -> tuple[str, ...]:
        """The words of ``args`` typed as they are (``score`` in ``[N] [score]``)."""
        return tuple(w for w in _WORD.findall(self.args) if w.islower())


class CommandTable:
    """The commands of one session, in the order help lists them.

    A word may name one command only: a game command that took a built-in
    word would silently never run, so the table refuses it when it is built.
    """

    def __init__(self, *groups: Iterable[Command]) -> None:
        self._commands = [cmd for group in groups for cmd in group]
        self._by_word: dict[str, Command] = {}
        for cmd in self._commands:
            for word in cmd.names:
                key = word.lower()
                if key in self._by_word:
                    taken = self._by_word[key].name
                    raise ValueError(f"{cmd.name!r}: the word {word!r} already runs {taken!r}")
                self._by_word[key] = cmd

    def __iter__(self) -> Iterator[Command]:
        return iter(self._commands)

    def __len__(self) -> int:
        return len(self._commands)

    def find(self, word: str) -> Command | None:
        """The command ``word`` runs (any case), or None: the line is then a move."""
        return self._by_word.get(word.lower())

    def completions(self) -> list[str]:
        """The lines Tab completes to: each command word of more than one letter, and
        each command followed by one of its keywords (``hint score``)."""
        lines = [w for cmd in self for w in cmd.names if len(w) > 1 and w.isalpha()]
        lines += [f"{cmd.name} {k}" for cmd in self for k in cmd.keywords]
        return lines
