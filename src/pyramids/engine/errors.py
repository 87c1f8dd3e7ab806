"""Errors of the engine.

All of them subclass :class:`ValueError`, as python-chess does, so callers that
only care about "bad input" can catch one type. Each carries enough structure
for a face (terminal, server, web) to show a player what went wrong without
parsing the message.
"""

from __future__ import annotations


class PyramidsError(ValueError):
    """Base class of every error the engine raises on bad input."""


class IllegalMove(PyramidsError):
    """A move that the rules forbid in the current state.

    ``rule`` is a short stable identifier of the rule broken (for programs and
    tests, e.g. ``"not-adjacent-rank"``); ``message`` is the sentence shown to
    a player ("a free card must be one rank above or below the waste card").
    The state is unchanged whenever this is raised.
    """

    def __init__(self, rule: str, message: str, move: str | None = None) -> None:
        self.rule = rule
        self.message = message
        self.move = move
        super().__init__(message)

    def to_dict(self) -> dict[str, str | None]:
        """JSON-able form for the server and records tools."""
        return {"rule": self.rule, "message": self.message, "move": self.move}


class NotationError(IllegalMove):
    """Text that does not name any move of the game (a typo, not a rule)."""

    def __init__(self, message: str, text: str) -> None:
        super().__init__("notation", message, text)


class UnknownGame(PyramidsError):
    """A game id that the registry does not know."""


class VariantError(PyramidsError):
    """A variant option that does not exist or has a bad value."""


class RecordError(PyramidsError):
    """A malformed or tampered game record.

    ``field`` names the part of the record at fault (``"moves[12]"``,
    ``"setup.deals"``, ``"result"``) so that a person can find it.
    """

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")
