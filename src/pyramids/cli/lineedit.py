"""Reading the player's lines: arrow keys, history and Tab completion through readline.

Why the standard library's ``readline`` and not prompt_toolkit (docs/cli.md has
the longer answer): it costs no dependency and no start-up time, so ``make
play`` stays light; it behaves as every other terminal program does (the
user's ``~/.inputrc``, vi or emacs keys); and it leaves the screen to Rich, so
a board drawn between two prompts is plain output a pseudo-terminal test can
read. Where Python has no readline (Windows without ``pyreadline3``) or input
is not a terminal, lines are read with plain :func:`input`.

Completion is generic: the session hands over every full line it would accept
now (its commands and the notation of each legal move), and the completer
offers the next word of those lines that start like what is typed. Words are
split on spaces only, so ``Mr>Lg``, ``mummy/2`` and ``q1`` complete whole.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from types import ModuleType


def next_words(typed: str, lines: Iterable[str]) -> list[str]:
    """The words that may follow ``typed``: completions of its last (partial) word.

    ``typed`` is the line up to the cursor. A candidate line matches when its
    earlier words equal the typed ones (case-insensitively) and its next word
    starts with the partial word; each distinct next word is offered once.

    >>> next_words("q1 e", ["q1 e5 f5", "q1 e5 d5", "q2 e5 f5", "moves"])
    ['e5']
    >>> next_words("m", ["moves", "mark e5", "Mr>Lg"])
    ['moves', 'mark', 'Mr>Lg']
    """
    done, _sep, partial = typed.rpartition(" ")
    before = done.lower().split()
    want = partial.lower()
    found: dict[str, None] = {}
    for line in lines:
        words = line.split()
        if len(words) <= len(before):
            continue
        if [w.lower() for w in words[: len(before)]] != before:
            continue
        word = words[len(before)]
        if word.lower().startswith(want):
            found.setdefault(word, None)
    return list(found)


class LineReader:
    """Reads one line at a time, with line editing where the terminal allows it.

    ``candidates`` is asked for the full lines to complete from, each time Tab
    is pressed (the legal moves change with every move). History lives for the
    session only: moves of one deal are of no use in the next, and a history
    file would be one more thing written to the player's home unasked.
    """

    def __init__(
        self,
        candidates: Callable[[], Iterable[str]] = tuple,
        *,
        interactive: bool | None = None,
    ) -> None:
        self.candidates = candidates
        tty = sys.stdin.isatty() if interactive is None else interactive
        self.readline: ModuleType | None = _load_readline() if tty else None
        self._matches: list[str] = []
        self._completing = True
        if self.readline is not None:
            self._install(self.readline)

    @property
    def editing(self) -> bool:
        """True when lines are read with editing, history and completion."""
        return self.readline is not None

    def _install(self, rl: ModuleType) -> None:
        rl.set_completer(self._complete)
        rl.set_completer_delims(" \t\n")
        if "libedit" in (rl.__doc__ or ""):  # macOS ships libedit under the same name
            rl.parse_and_bind("bind ^I rl_complete")
        else:
            rl.parse_and_bind("tab: complete")
        rl.clear_history()

    def _complete(self, text: str, index: int) -> str | None:
        """readline's completer: called with index 0, 1, ... until it returns None."""
        rl = self.readline
        if rl is None or not self._completing:
            return None
        if index == 0:
            typed = rl.get_line_buffer()[: rl.get_endidx()]
            try:
                self._matches = [w + " " for w in next_words(typed, self.candidates())]
            except Exception:  # a completer must never raise into readline
                self._matches = []
        return self._matches[index] if index < len(self._matches) else None

    def forget(self) -> None:
        """Empty the history: at a hot-seat hand-over the last player's lines are theirs
        (``x watermelon`` names a card of their secret hand)."""
        if self.readline is not None:
            self.readline.clear_history()

    def read(self, prompt: str, *, remember: bool = True) -> str:
        """One line without its newline; ``EOFError`` on Ctrl-D, ``KeyboardInterrupt`` on Ctrl-C.

        Only lines worth repeating stay in the history: not the same line twice
        in a row, and not answers to questions (``remember=False``: a ``y`` to
        "leave the game?" must not come back with the up arrow). Questions get
        no completion either: at a hot-seat hand-over the moves to complete are
        the next player's, whose hand the one still at the screen must not see.
        """
        self._completing = remember
        try:
            line = input(prompt)
        finally:
            self._completing = True
        rl = self.readline
        if rl is not None and line.strip():  # readline has just added it
            n = rl.get_current_history_length()
            if not remember or (n > 1 and rl.get_history_item(n - 1) == line):
                rl.remove_history_item(n - 1)
        return line


def _load_readline() -> ModuleType | None:
    """The readline module, or None where Python was built without one."""
    try:
        import readline
    except ImportError:  # Windows, or a Python built without it
        return None
    return readline
