"""What the server says to a seat, and the error objects it answers bad input with.

Every message to a seat is built here and only here, from ``view(seat)`` of
the state plus public facts about the room (seat names and kinds). Why one
place: the leak test can check this module's output against ``view`` for
every game and seat, and no handler can attach anything else by accident
(not the seed, not the setup, not the moves of other seats).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pyramids.engine.errors import PyramidsError
from pyramids.engine.state import State
from pyramids.i18n import Translator

# -- error codes ----------------------------------------------------------------

#: code -> HTTP status used by the REST endpoints (WebSocket errors carry the code only)
ERROR_STATUS: dict[str, int] = {
    "bad-json": 400,
    "bad-message": 400,
    "bad-request": 400,
    "not-found": 404,
    "method-not-allowed": 405,
    "request-timeout": 408,
    "too-large": 413,
    "headers-too-large": 431,
    "unknown-game": 404,
    "unknown-room": 404,
    "bad-token": 403,
    "spectator": 403,
    "not-your-turn": 409,
    "stale-version": 409,
    "illegal-move": 422,
    "game-over": 409,
    "left": 409,
    "undo-not-allowed": 409,
    "nothing-to-undo": 409,
    "not-finished": 409,
    "no-hint": 409,
    "rate-limited": 429,
    "internal": 500,
    "storage": 503,
}


class ProtocolError(Exception):
    """A request the server refuses; the game's state is unchanged.

    ``code`` is one of :data:`ERROR_STATUS`; ``template`` is the English sentence
    for a person, with ``{placeholders}`` filled from ``params`` (a literal at
    every call, so the catalogs find it: the reason reaches each client in its
    own language, see :meth:`to_dict`). A parameter may itself be an engine error
    (a bad variant, an illegal move): it is rendered in the same language.
    ``extra`` adds structured details (the rule of an illegal move).
    """

    def __init__(
        self,
        code: str,
        template: str,
        /,
        extra: dict[str, Any] | None = None,
        **params: Any,
    ) -> None:
        assert code in ERROR_STATUS, code
        self.code = code
        self.template = template
        self.params = params
        self.extra = extra or {}
        super().__init__(self.reason)

    @classmethod
    def from_engine(cls, code: str, err: PyramidsError, **extra: Any) -> ProtocolError:
        """The server's error for an engine error: its code, its template and parameters."""
        return cls(code, "{reason}", {"rule": getattr(err, "code", code), **extra}, reason=err)

    @property
    def reason(self) -> str:
        """The English sentence."""
        return self.render(None)

    def render(self, tr: Translator | None) -> str:
        """The sentence in ``tr``'s language (English without one)."""
        if self.template == "{reason}" and isinstance(self.params.get("reason"), PyramidsError):
            return _engine_text(self.params["reason"], tr)
        params = {
            k: _engine_text(v, tr) if isinstance(v, PyramidsError) else v
            for k, v in self.params.items()
        }
        if tr is None:
            return self.template.format(**params) if params else self.template
        return tr.gettext(self.template, **params)

    @property
    def status(self) -> int:
        """HTTP status for this error."""
        return ERROR_STATUS[self.code]

    def to_dict(self, tr: Translator | None = None) -> dict[str, Any]:
        """The error object sent to clients: ``{"code", "reason", "params", ...}``.

        ``params`` are the facts behind the reason (JSON scalars; for an engine
        error, the engine's own parameters and its code as ``rule``), for clients
        that word the reason themselves.
        """
        inner = self.params.get("reason")
        if self.template == "{reason}" and isinstance(inner, PyramidsError):
            params = _params_of(inner)
        else:
            params = {k: str(v) if isinstance(v, Exception) else v for k, v in self.params.items()}
        return {"code": self.code, "reason": self.render(tr), "params": params, **self.extra}


def _params_of(err: PyramidsError) -> dict[str, Any]:
    found = getattr(err, "params", None)
    return dict(found) if isinstance(found, dict) else {}


def _engine_text(err: PyramidsError, tr: Translator | None) -> str:
    """An engine error's sentence in a language (its English text without a translator)."""
    return str(err) if tr is None else tr.error(err)


# -- messages ----------------------------------------------------------------------


@dataclass(frozen=True)
class PublicSeat:
    """What everybody may know about a seat: its name and who plays it."""

    seat: int
    name: str
    kind: str
    agent: str | None
    level: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "seat": self.seat,
            "name": self.name,
            "kind": self.kind,
            "agent": self.agent,
            "level": self.level,
        }


def legal_for(state: State[Any], seat: int | None) -> list[str] | None:
    """The legal moves in notation, for the seat to move only (``None`` for anyone else)."""
    if seat is None or state.is_over or state.current_player != seat:
        return None
    return [state.move_to_str(m) for m in state.legal_moves()]


def seat_payload(state: State[Any], seat: int | None) -> dict[str, Any]:
    """The part of every state-carrying message that depends on the state: view and legal moves."""
    return {"view": state.view(seat), "legal": legal_for(state, seat)}


def snapshot_message(
    room_id: str,
    version: int,
    state: State[Any],
    seat: int | None,
    seats: list[PublicSeat],
    can_undo: bool,
    *,
    commitment: str | None = None,
    practice: bool = False,
) -> dict[str, Any]:
    """The full picture for one seat: sent on connect, on resync and with stale-move errors.

    ``commitment`` (the room's published hash of its deal) and ``practice`` (the
    creator may have chosen the deal) are public: every seat is shown them.
    """
    return {
        "type": "snapshot",
        "room": room_id,
        "game": state.game.id,
        "title": state.game.title,
        "version": version,
        "seat": seat,
        "seats": [s.to_dict() for s in seats],
        "can_undo": can_undo,
        "practice": practice,
        "commitment": commitment,
        **seat_payload(state, seat),
    }


def event_message(
    room_id: str,
    version: int,
    kind: str,
    mover: int | None,
    move_text: str | None,
    payload: dict[str, Any],
    seat: int | None,
    can_undo: bool,
    reply_to: Any = None,
) -> dict[str, Any]:
    """One accepted event as seen by ``seat``; ``payload`` is :func:`seat_payload` for it.

    The notation of the move is sent to the seat that made it only: for other
    seats a move may name something they cannot see (a card drawn), and what
    they may learn from it is already in their new view.
    """
    msg: dict[str, Any] = {
        "type": "event",
        "room": room_id,
        "version": version,
        "event": {
            "kind": kind,
            "seat": mover,
            "move": move_text if seat is not None and seat == mover else None,
        },
        "can_undo": can_undo,
        **payload,
    }
    if reply_to is not None:
        msg["reply_to"] = reply_to
    return msg


def error_message(
    err: ProtocolError, reply_to: Any = None, tr: Translator | None = None, **extra: Any
) -> dict[str, Any]:
    """An error as a WebSocket message, its reason in ``tr``'s language."""
    msg: dict[str, Any] = {"type": "error", "error": err.to_dict(tr), **extra}
    if reply_to is not None:
        msg["reply_to"] = reply_to
    return msg


# -- reading untrusted JSON ----------------------------------------------------------

#: the largest request body and WebSocket message the server reads, in bytes
MAX_BODY = 64 * 1024
#: how deeply arrays and objects may nest (the deepest real request, a room with
#: seats, nests three levels)
MAX_DEPTH = 8
#: the most characters one JSON number may have (2**63 has 19 digits)
MAX_NUMBER_LENGTH = 24
#: the most arrays, objects and items one request or message may hold, counted
#: before it is parsed (the largest real request, a room of five seats, holds ~40)
MAX_VALUES = 1024


class _Refused(Exception):
    """Raised inside the JSON decoder's hooks; turned into a :class:`ProtocolError`."""

    def __init__(self, error: ProtocolError) -> None:
        super().__init__(error.reason)
        self.error = error


def _number(text: str) -> str:
    if len(text) > MAX_NUMBER_LENGTH:
        raise _Refused(
            ProtocolError(
                "bad-json",
                "a number in the JSON has {length} characters; at most {limit} are read",
                length=len(text),
                limit=MAX_NUMBER_LENGTH,
            )
        )
    return text


def _int(text: str) -> int:
    return int(_number(text))


def _float(text: str) -> float:
    return float(_number(text))


def _constant(text: str) -> Any:
    raise _Refused(ProtocolError("bad-json", "{value} is not a JSON value", value=text))


def parse_json(raw: bytes | str) -> Any:
    """Decode a request body or WebSocket message within the documented bounds.

    Why not plain ``json.loads``: a 5,000-digit number costs a quadratic
    conversion (and past 4,300 digits raises ``ValueError``, a 500), deep
    nesting hits the interpreter's recursion limit, and a lone surrogate
    (``"\\ud800"``) decodes fine but cannot be encoded again, so any answer that
    quotes it (an error echoing a move, a seat name) would fail half-way. Each
    of these is refused here as ``bad-json``, before any domain code sees it.
    The size (:data:`MAX_BODY`) is checked by the callers, before reading.

    Before the decoder builds anything, the text must be UTF-8 (``json.loads``
    would take UTF-16 and UTF-32 bytes as well) and may hold at most
    :data:`MAX_VALUES` arrays, objects and separators, counted at C speed: a
    64 KiB array of small numbers is refused for a few microseconds instead of
    costing tens of milliseconds of the event loop to build.
    """
    if isinstance(raw, bytes | bytearray):
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad-json", "the request body is not UTF-8 text") from None
    values = raw.count(",") + raw.count("[") + raw.count("{")
    if values > MAX_VALUES:
        raise ProtocolError("bad-json", "the JSON holds more than {limit} values", limit=MAX_VALUES)
    try:
        value = json.loads(raw, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except _Refused as e:
        raise e.error from None
    except RecursionError:
        raise _too_deep() from None
    except json.JSONDecodeError as e:
        # the place, not the parser's English sentence: the reason is read in five languages
        raise ProtocolError(
            "bad-json",
            "the JSON is not valid: see line {line}, column {column}",
            line=e.lineno,
            column=e.colno,
        ) from None
    _check_tree(value)
    return value


def _too_deep() -> ProtocolError:
    return ProtocolError("bad-json", "the JSON nests deeper than {limit} levels", limit=MAX_DEPTH)


def _check_tree(value: Any) -> None:
    """Refuse nesting past :data:`MAX_DEPTH` and text that is not Unicode (lone surrogates)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item)
        elif isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise _too_deep()
            if isinstance(item, dict):
                for key, inner in item.items():
                    _check_text(key)
                    stack.append((inner, depth + 1))
            else:
                stack.extend((inner, depth + 1) for inner in item)


def _check_text(text: str) -> None:
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ProtocolError(
            "bad-json",
            "a text in the JSON holds a lone surrogate (\\u{codepoint}), which is not a character",
            codepoint=next(f"{ord(c):04x}" for c in text if 0xD800 <= ord(c) <= 0xDFFF),
        ) from None


def shown(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for quoting client input in a reason."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
