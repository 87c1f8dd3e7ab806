"""Errors of the engine: messages as data.

All of them subclass :class:`ValueError`, as python-chess does, so callers that
only care about "bad input" can catch one type. Each carries enough structure
for a face (terminal, server, web) to show a player what went wrong in the
player's language without parsing the message:

* ``code``: a stable identifier (``"not-free"``, ``"notation"``, ``"record"``);
* ``template``: the English text with named ``{fields}``; it is the gettext
  msgid, a string literal at the raise site so that ``pybabel extract`` finds
  it (``-k IllegalMove:2 -k NotationError:1 -k RecordError:2 -k
  VariantError:1 -k UnknownGame:1 -k PlayersError:1 -k SeatError:1``);
* ``params``: the fields' values, JSON scalars; keys naming a name kind hold
  ids (see :mod:`pyramids.engine.names`);
* ``message`` and ``str(err)``: the English rendering.

An error may wrap the error that caused it (``cause``): a record's move that
is illegal is a :class:`RecordError` caused by an :class:`IllegalMove`. Its
rendering is its own, then ``": "``, then the cause's.

>>> import pyramids
>>> try:
...     pyramids.new_game("piramides", players=3)
... except pyramids.PyramidsError as e:
...     err = e
>>> err.code, err.params["players"], str(err)
('player-count', 3, 'piramides is a solitaire: one player, not 3')
>>> err.render({err.template: "{game_id}: ne {players}"}.get)
'piramides: ne 3'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from pyramids.engine.names import NameFunction, Param, english, render

E = TypeVar("E", bound="PyramidsError")


class PyramidsError(ValueError):
    """Base class of every error the engine raises on bad input.

    ``PyramidsError(template, /, *, code=None, **params)``: ``code`` defaults
    to the class's :attr:`default_code`; a parameter cannot be called ``code``.
    """

    default_code: ClassVar[str] = "error"

    code: str
    template: str
    params: dict[str, Param]
    cause: PyramidsError | None
    message: str

    def __init__(self, template: str, /, *, code: str | None = None, **params: Param) -> None:
        self._init(code or self.default_code, template, params)

    def _init(self, code: str, template: str, params: dict[str, Param]) -> None:
        self.code = code
        self.template = template
        self.params = params
        self.cause = None
        self._refresh()

    def _refresh(self) -> None:
        self.message = self.render()
        self.args = (str(self),)

    def render(
        self, translate: Callable[[str], str] | None = None, name: NameFunction = english
    ) -> str:
        """The message in a face's language: ``translate`` is its gettext, ``name`` its names."""
        try:
            text = render(self.template, self.params, name=name, translate=translate)
        except (KeyError, IndexError, ValueError):
            # a template that does not fit its parameters (say a bad translation, or an
            # f-string passed as a template that holds braces): never fail while failing
            text = self.template
        if self.cause is not None:
            text += ": " + self.cause.render(translate, name)
        return text

    def caused_by(self: E, cause: PyramidsError) -> E:
        """Attach the error this one wraps (shown after it); returns ``self`` for ``raise``."""
        self.cause = cause
        self._refresh()
        return self

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form for the server and records tools."""
        out: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "template": self.template,
            "params": dict(self.params),
        }
        if self.cause is not None:
            out["cause"] = self.cause.to_dict()
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        # the constructors' signatures differ from ``args``: pickle the fields instead
        return (_restore, (type(self), self.__dict__.copy()))


def _restore(cls: type[PyramidsError], fields: dict[str, Any]) -> PyramidsError:
    err = cls.__new__(cls)
    err.__dict__.update(fields)
    err.args = (str(err),)
    return err


class IllegalMove(PyramidsError):
    """A move that the rules forbid in the current state.

    ``IllegalMove(rule, message, move=None, /, **params)``: ``rule`` is a short
    stable identifier of the rule broken (for programs and tests, e.g.
    ``"not-adjacent-rank"``), also :attr:`code`; ``message`` is the template of
    the sentence shown to a player ("{card} cannot go on {waste}: ..."),
    ``params`` its fields; ``move`` is the text of the move, when known. The
    arguments are positional-only, so a parameter may be called ``move``.
    The state is unchanged whenever this is raised.
    """

    default_code = "illegal-move"

    rule: str
    move: str | None

    def __init__(
        self, rule: str, message: str, move: str | None = None, /, **params: Param
    ) -> None:
        self.rule = rule
        self.move = move
        self._init(rule, message, params)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form: ``rule``, ``message``, ``move``, ``code``, ``template``, ``params``."""
        return {"rule": self.rule, "message": self.message, "move": self.move, **super().to_dict()}


class NotationError(IllegalMove):
    """Text that does not name any move of the game (a typo, not a rule): code ``notation``.

    ``NotationError(message, text, /, **params)``; ``text`` is what was typed
    (:attr:`move`); pass it as a parameter too when the template shows it.
    """

    default_code = "notation"

    def __init__(self, message: str, text: str, /, **params: Param) -> None:
        super().__init__("notation", message, text, **params)


class UnknownGame(PyramidsError):
    """A game id that the registry does not know: code ``unknown-game``."""

    default_code = "unknown-game"


class VariantError(PyramidsError):
    """A variant option that does not exist or has a bad value: codes ``variant-*``."""

    default_code = "variant"


class PlayersError(PyramidsError):
    """A bad player count or seat names: codes ``player-count``, ``player-names``.

    Also the base of :class:`SeatError`, so that "who plays" is one thing to catch.
    """

    default_code = "players"


class SeatError(PlayersError):
    """A seat number that the game does not have: code ``no-such-seat``.

    Raised wherever a caller names a seat (a view, a review, an adapter's
    ``seat=``); :func:`pyramids.engine.state.check_seat` is the one check.
    """

    default_code = "no-such-seat"


class RecordError(PyramidsError):
    """A malformed or tampered game record: code ``record``.

    ``RecordError(field, message, /, **params)``: ``field`` names the part of
    the record at fault (``"moves[12]"``, ``"setup.deals"``, ``"result"``) so
    that a person can find it; ``str(err)`` is ``"<field>: <message>"``.
    """

    default_code = "record"

    field: str

    def __init__(self, field: str, message: str, /, **params: Param) -> None:
        self.field = field
        self._init(self.default_code, message, params)

    @classmethod
    def wrapping(cls, field: str, err: PyramidsError) -> RecordError:
        """A record error at ``field`` that says what ``err`` says (same template and params)."""
        out = cls.__new__(cls)
        out.field = field
        out._init(cls.default_code, err.template, dict(err.params))
        if err.cause is not None:
            out.caused_by(err.cause)
        return out

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form: ``field`` and the common fields."""
        return {"field": self.field, **super().to_dict()}
