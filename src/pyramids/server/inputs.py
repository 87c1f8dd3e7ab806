"""What clients send, as typed objects: request bodies and WebSocket messages.

Every body and message is read in two steps before any domain code sees it:
:func:`protocol.parse_json` (the bounds of untrusted JSON: size, depth, long
numbers, lone surrogates, answered ``bad-json``), then one of the pydantic
models here (the shape: which fields, of which JSON types). Rooms, moves and
chat then work on these objects and never on raw JSON.

Why strict models: a JSON ``"3"`` is not the number 3, ``true`` is not 1 and
``2.0`` is not a whole number, as before. Why not pydantic's own messages:
every refusal is a :class:`ProtocolError` with a stable code and a sentence
the catalogs translate, so each model maps its first problem
(:meth:`Input.refusal`) onto the sentences the server has always used.
Where a request holds several problems, the one named is the first in the
order of the old hand checks: the body's type, unknown fields, missing
fields, then the fields as declared.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import ErrorDetails, PydanticCustomError

from pyramids.engine.errors import PlayersError, PyramidsError, VariantError
from pyramids.engine.player_names import (
    NAME_MAX_LENGTH,
    check_name,
    clean_text,
    has_control_characters,
)
from pyramids.engine.registry import get_game
from pyramids.engine.variant import Option
from pyramids.i18n import N_
from pyramids.server.protocol import MAX_BODY, ProtocolError, parse_json, shown

#: seeds a room may be dealt from: 0 to 2**53 - 1, so that every client, JavaScript
#: included, reads a revealed seed exactly (as message ids, :data:`MessageId`)
SEED_LIMIT = 2**53
#: the longest move text a client may send (notation is a few characters)
MAX_MOVE_LENGTH = 64
#: the longest text a client may use as a message ``id``
MAX_ID_LENGTH = 64
__all__ = ["NAME_MAX_LENGTH", "has_control_characters"]  # the rule's, for the server


class Input(BaseModel):
    """A typed request: strict JSON types, unknown fields ignored, immutable once read."""

    model_config = ConfigDict(strict=True, frozen=True, extra="ignore")

    @classmethod
    def parse(cls, value: Any) -> Self:
        """``value`` (decoded JSON) as this model; :class:`ProtocolError` if it is not one."""
        try:
            return cls.model_validate(value)
        except ValidationError as e:
            raise cls.refusal(_first(e.errors(include_url=False))) from None

    @classmethod
    def refusal(cls, problem: ErrorDetails) -> ProtocolError:
        """The error the server answers for ``problem`` (one of pydantic's)."""
        raise NotImplementedError

    @classmethod
    def shape_refusal(cls, problem: ErrorDetails, code: str, unknown: str) -> ProtocolError | None:
        """The refusal of a body of the wrong shape, or ``None`` when ``problem`` is another.

        The wrong shape: not a JSON object, or a field this model does not take
        (``unknown`` names it and lists the ones it takes: an ``N_`` mark, so
        that each request keeps its own translated sentence).
        """
        field, kind = _field(problem), problem["type"]
        if kind == "model_type" and not field:
            return ProtocolError(code, "the request body must be a JSON object")
        if kind == "extra_forbidden":
            fields = ", ".join(sorted(cls.model_fields))
            return ProtocolError(code, unknown, field=shown(field), fields=fields)
        return None


def _first(problems: list[ErrorDetails]) -> ErrorDetails:
    """The problem to name: see the module's docstring (``min`` keeps the first of equals)."""

    def rank(problem: ErrorDetails) -> tuple[int, str]:
        kind = problem["type"]
        if kind == "model_type" and not problem["loc"]:
            return (0, "")
        if kind == "extra_forbidden":
            return (1, str(problem["loc"][0]))
        return (2, "") if kind == "missing" else (3, "")

    return min(problems, key=rank)


def _field(problem: ErrorDetails) -> str:
    return str(problem["loc"][0]) if problem["loc"] else ""


def _seat_name(name: str) -> str:
    """A seat's name, normalized by the one rule of names (:mod:`.player_names`)."""
    try:
        return check_name(name, person=False)
    except PlayersError as e:
        raise _name_refused(e) from None


def _name_refused(err: PlayersError) -> PydanticCustomError:
    return PydanticCustomError("name_refused", "{reason}", {"reason": str(err), "error": err})


def _echoable(ident: int | str | None) -> int | str | None:
    """An ``id`` that comes back unchanged as ``reply_to`` in every client's JSON.

    Why: a larger integer is a float to JavaScript (and to our decoder past
    64 bits), and a deep structure could not be encoded back at all, so the
    client would never recognise its answer.
    """
    if isinstance(ident, int) and abs(ident) > 2**53:
        raise PydanticCustomError("id_range", "an id is at most 2**53 either way")
    return ident


SeatName = Annotated[str, AfterValidator(_seat_name)]
MoveText = Annotated[str, Field(max_length=MAX_MOVE_LENGTH)]
Seed = Annotated[int, Field(ge=0, lt=SEED_LIMIT)]
#: the largest version a client may name. Why bounded: a refusal names the client's
#: version back ("your move was made at version ..."), and a number past 64 bits
#: cannot be encoded as JSON by orjson, which ended the connection (found by the
#: fuzz test); a room never gets near 2**53 events, the largest integer JavaScript
#: holds exactly.
MAX_VERSION = 2**53
Version = Annotated[int, Field(ge=0, le=MAX_VERSION)]
MessageId = Annotated[
    int | Annotated[str, Field(max_length=MAX_ID_LENGTH)] | None, AfterValidator(_echoable)
]


def _move_refusal(problem: ErrorDetails) -> ProtocolError:
    if problem["type"] == "string_too_long":
        return ProtocolError(
            "bad-message", "a move is at most {limit} characters", limit=MAX_MOVE_LENGTH
        )
    return ProtocolError("bad-message", "'move' must be the move's notation as text")


def _version_refusal() -> ProtocolError:
    return ProtocolError(
        "bad-message", "'version' must be a whole number from 0 to {maximum}", maximum=MAX_VERSION
    )


# -- REST bodies ---------------------------------------------------------------------


class SeatRequest(Input):
    """One seat of a new room: ``{"kind": "human", "name": "Ana"}`` or a bot with its agent.

    A seat that names an ``agent`` but no ``kind`` is a bot; a human seat
    ignores ``agent`` and ``level`` whatever they hold.
    """

    name: SeatName | None = None
    kind: Literal["human", "bot"]
    agent: str = "random"
    level: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _kind_from_agent(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        if "kind" not in data:
            data = {**data, "kind": "bot" if "agent" in data else "human"}
        if data["kind"] == "human":
            data = {k: v for k, v in data.items() if k not in ("agent", "level")}
        return data

    @model_validator(mode="after")
    def _person_not_a_bot(self) -> Self:
        """A person's name may not pass for a bot's (the rule's ``person``)."""
        if self.kind == "human" and self.name is not None:
            try:
                check_name(self.name, person=True)
            except PlayersError as e:
                raise _name_refused(e) from None
        return self


class NewRoom(Input):
    """``POST /api/rooms``: the game, its seats (or a number of human seats) and options.

    Only the shape is checked here; what depends on the game (its player
    counts, its options, its agents) is checked by
    :meth:`pyramids.server.rooms.RoomManager.create`.
    """

    model_config = ConfigDict(extra="forbid")

    game: str
    seats: list[SeatRequest] | None = None
    players: int | None = None
    variant: dict[str, Any] = Field(default_factory=dict)
    practice: bool = False
    seed: Seed | None = None
    spectator_chat: bool = False
    #: the time control (:func:`pyramids.server.clocks.parse_control`); untimed without one
    clock: dict[str, Any] | None = None

    @classmethod
    def parse(cls, value: Any) -> Self:
        """The shape, then each variant value's JSON type (see :func:`strict_variant`)."""
        room = super().parse(value)
        strict_variant(room.game, room.variant)
        return room

    @classmethod
    def refusal(cls, problem: ErrorDetails) -> ProtocolError:
        unknown = N_("unknown field {field}; a new room takes {fields}")
        shape = cls.shape_refusal(problem, "bad-request", unknown)
        if shape is not None:
            return shape
        field = _field(problem)
        if field == "seats" and len(problem["loc"]) > 1:
            return _seat_refusal(problem, int(problem["loc"][1]))
        return _NEW_ROOM_REFUSALS[field]()


def _seat_refusal(problem: ErrorDetails, seat: int) -> ProtocolError:
    loc = problem["loc"]
    if problem["type"] == "name_refused":
        err: PlayersError = problem.get("ctx", {})["error"]
        return ProtocolError(
            "bad-request", "seat {seat}: {reason}", {"rule": err.code}, seat=seat, reason=err
        )
    if len(loc) == 2:
        return ProtocolError("bad-request", "seat {seat} must be an object", seat=seat)
    if loc[2] == "name":
        return ProtocolError(
            "bad-request",
            "seat {seat}: a name is 1 to {limit} characters",
            {"rule": "player-names"},
            seat=seat,
            limit=NAME_MAX_LENGTH,
        )
    if loc[2] == "kind":
        return ProtocolError(
            "bad-request", "seat {seat}: 'kind' must be 'human' or 'bot'", seat=seat
        )
    return ProtocolError("bad-request", "seat {seat}: 'agent' and 'level' are text", seat=seat)


def strict_variant(game_id: str, variant: dict[str, Any]) -> None:
    """Refuse a variant value of the wrong JSON type: ``"3"`` is not 3, ``"yes"`` not true.

    Why here: the engine reads options from the command line too, where every
    value is text and ``"yes"`` means true; a JSON client says what it means.
    An unknown game or option is left to the room's own checks.
    """
    try:
        options = {o.name: o for o in get_game(game_id).options}
    except PyramidsError:
        return
    for name, value in variant.items():
        option = options.get(name)
        if option is not None and not _json_type_fits(option, value):
            raise ProtocolError.from_engine("bad-request", _wrong_type(option, value))


def _json_type_fits(option: Option, value: Any) -> bool:
    if isinstance(value, str) and value in option.also:
        return True
    if option.kind is bool:
        return isinstance(value, bool)
    if option.kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, str)


def _wrong_type(option: Option, value: Any) -> VariantError:
    """The engine's own refusal of ``value`` for ``option`` (same codes and sentences)."""
    if option.kind is bool:
        return VariantError(
            "option '{option}' must be true or false, not {value}",
            code="variant-not-bool",
            option=option.name,
            value=shown(value),
        )
    if option.kind is int:
        return VariantError(
            "option '{option}' must be a whole number, not {value}",
            code="variant-not-int",
            option=option.name,
            value=shown(value),
        )
    return VariantError(
        "option '{option}' must be text, not {value}",
        code="variant-not-text",
        option=option.name,
        value=shown(value),
    )


_NEW_ROOM_REFUSALS = {
    "game": lambda: ProtocolError("bad-request", "'game' must name a game, e.g. 'piramides'"),
    "seats": lambda: ProtocolError("bad-request", "'seats' must be a list of seat objects"),
    "players": lambda: ProtocolError(
        "bad-request", "the parameter {name} must be a whole number", name="'players'"
    ),
    "variant": lambda: ProtocolError("bad-request", "'variant' must be an object of options"),
    "practice": lambda: ProtocolError("bad-request", "'practice' must be true or false"),
    "seed": lambda: ProtocolError(
        "bad-request",
        "'seed' must be a whole number from 0 to {maximum}",
        maximum=SEED_LIMIT - 1,
    ),
    "spectator_chat": lambda: ProtocolError(
        "bad-request", "'spectator_chat' must be true or false"
    ),
    "clock": lambda: ProtocolError("bad-request", "'clock' must be an object"),
}


class _SeatBody(Input):
    """A body that acts for a seat: its secret ``token`` (``null``: a spectator).

    Unknown fields are refused, as a new room's are: a client that sends a field
    the server does not know learns it at once, instead of it being dropped.
    """

    model_config = ConfigDict(extra="forbid")

    token: str | None

    @classmethod
    def refusal(cls, problem: ErrorDetails) -> ProtocolError:
        unknown = N_("unknown field {field}; this request takes {fields}")
        shape = cls.shape_refusal(problem, "bad-message", unknown)
        if shape is not None:
            return shape
        field, kind = _field(problem), problem["type"]
        if kind == "missing":
            return ProtocolError("bad-message", "the request needs {key}", key=repr(field))
        if field == "version":
            return _version_refusal()
        if field == "move":
            return _move_refusal(problem)
        return ProtocolError("bad-message", "'token' must be text")


class MoveRequest(_SeatBody):
    """``POST /api/rooms/{room}/moves``: ``{token, move, version}``."""

    move: MoveText
    version: Version


class UndoRequest(_SeatBody):
    """``POST /api/rooms/{room}/undo``: ``{token, version}``."""

    version: Version


class RematchRequest(Input):
    """``POST /api/rooms/{room}/rematch``: ``{token}`` of a seat (a spectator cannot ask)."""

    token: str

    @classmethod
    def refusal(cls, problem: ErrorDetails) -> ProtocolError:
        return ProtocolError("bad-message", "the request needs the seat's 'token'")


# -- WebSocket messages --------------------------------------------------------------


class ClientMessage(Input):
    """A message on a room's WebSocket; ``id``, if any, comes back as ``reply_to``."""

    #: the message's ``type``
    kind: ClassVar[str]

    id: MessageId = None

    @classmethod
    def refusal(cls, problem: ErrorDetails) -> ProtocolError:
        field = _field(problem)
        if problem["type"] == "missing":
            return ProtocolError(
                "bad-message", "a {kind} message needs {key}", kind=repr(cls.kind), key=repr(field)
            )
        if field == "version":
            return _version_refusal()
        if field == "move":
            return _move_refusal(problem)
        if field == "text":
            return ProtocolError("bad-message", "'text' must be the chat line as text")
        if field == "state":
            return ProtocolError("bad-message", "'state' must be 'online' or 'away'")
        return ProtocolError(
            "bad-message",
            "'id' must be a whole number (at most 2**53 either way) or a text of at most "
            "{limit} characters: it comes back as 'reply_to'",
            limit=MAX_ID_LENGTH,
        )


class MoveMessage(ClientMessage):
    """``{"type": "move", "move", "version"}``: play a move seen at ``version``."""

    kind = "move"
    move: MoveText
    version: Version


class UndoMessage(ClientMessage):
    """``{"type": "undo", "version"}``: take back the last move (solitaire)."""

    kind = "undo"
    version: Version


class SyncMessage(ClientMessage):
    """``{"type": "sync", "version"}``: send what came after ``version``."""

    kind = "sync"
    version: Version


class ChatMessage(ClientMessage):
    """``{"type": "chat", "text"}``: a line for the table (its content: ``RoomManager.chat``)."""

    kind = "chat"
    #: without direction controls (:func:`.player_names.clean_text`)
    text: Annotated[str, AfterValidator(clean_text)]


class PresenceMessage(ClientMessage):
    """``{"type": "presence", "state": "online" | "away"}``: the page was shown or hidden."""

    kind = "presence"
    state: Literal["online", "away"]


class PingMessage(ClientMessage):
    """``{"type": "ping"}``: answered ``pong`` with the room's version."""

    kind = "ping"


#: every message a client may send, by its ``type``
CLIENT_MESSAGES: dict[str, type[ClientMessage]] = {
    m.kind: m
    for m in (MoveMessage, UndoMessage, SyncMessage, ChatMessage, PingMessage, PresenceMessage)
}


def parse_client_message(raw: str | bytes) -> ClientMessage:
    """A client's WebSocket message as its typed object; :class:`ProtocolError` if malformed.

    Every shape is checked before anything is looked up: a ``type`` that is a
    list or an object (unhashable) is a ``bad-message`` like an unknown name,
    never an exception that would end the connection.
    """
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_BODY:
        raise ProtocolError(
            "too-large",
            "the message has {size} bytes; at most {limit} are read",
            size=size,
            limit=MAX_BODY,
        )
    msg = parse_json(raw)
    if not isinstance(msg, dict):
        raise ProtocolError("bad-message", "a message must be a JSON object")
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_MESSAGES:
        raise ProtocolError(
            "bad-message",
            "unknown message type {kind}; expected one of {expected}",
            kind=shown(kind),
            expected=", ".join(CLIENT_MESSAGES),
        )
    return CLIENT_MESSAGES[kind].parse(msg)
