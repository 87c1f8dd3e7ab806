"""The API's OpenAPI description: request bodies, and every error a route can answer.

Why by hand: the routes read their bodies through a dependency
(:func:`protocol.parse_json`, with its bounds, then their model in
:mod:`pyramids.server.inputs`), so FastAPI does not see their shape, and
FastAPI's own ``422`` validation entry describes a body
(``{"detail": [...]}``) the server never sends. Here each route declares the
statuses it may answer, all with the one error object, and
:func:`tidy_openapi` removes what FastAPI adds on its own. Schemathesis
checks the result against the live server (``tests/server/test_fuzz.py``).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from pyramids.server.protocol import ERROR_STATUS, MAX_BODY


class ErrorObject(BaseModel):
    """What went wrong: a stable ``code``, a ``reason`` for people, its ``params``."""

    model_config = ConfigDict(extra="allow")

    code: str = Field(description="stable identifier, see docs/server.md (Error codes)")
    reason: str = Field(description="a sentence for people, in the request's language")
    params: dict[str, Any] = Field(description="the facts the reason is made of")


class ErrorResponse(BaseModel):
    """Every error answer: ``{"error": {...}}``, with a ``snapshot`` where the state matters."""

    model_config = ConfigDict(extra="allow")

    error: ErrorObject


#: why each status is answered (the OpenAPI description of the response)
_STATUS_TEXT: dict[int, str] = {}
for _code, _status in ERROR_STATUS.items():
    _STATUS_TEXT.setdefault(_status, "")
    _STATUS_TEXT[_status] += ("" if not _STATUS_TEXT[_status] else ", ") + f"`{_code}`"

RETRY_AFTER = {
    "Retry-After": {
        "description": "whole seconds to wait before trying again",
        "schema": {"type": "integer", "minimum": 1},
    }
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route that may answer ``statuses`` (and 500, which is a bug)."""
    out: dict[int | str, dict[str, Any]] = {}
    for status in sorted({*statuses, 500}):
        entry: dict[str, Any] = {
            "model": ErrorResponse,
            "description": "error: " + _STATUS_TEXT.get(status, "").strip(),
        }
        if status == 429:
            entry["headers"] = RETRY_AFTER
        out[status] = entry
    return out


def body(schema: dict[str, Any], description: str) -> dict[str, Any]:
    """``openapi_extra`` documenting a JSON request body of ``schema``."""
    return {
        "requestBody": {
            "required": True,
            "description": f"{description} (at most {MAX_BODY} bytes; see docs/server.md)",
            "content": {"application/json": {"schema": schema}},
        }
    }


_VERSION = {"type": "integer", "description": "the version the client saw"}
_TOKEN = {"type": "string", "description": "the seat's secret token"}

SEAT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "kind": {"type": "string", "enum": ["human", "bot"]},
        "name": {"type": "string", "minLength": 1, "maxLength": 40},
        "agent": {"type": "string"},
        "level": {"type": "string"},
    },
}


def create_schema(games: list[str]) -> dict[str, Any]:
    """The body of ``POST /api/rooms``, its ``game`` one of ``games``."""
    schema = dict(CREATE_SCHEMA)
    schema["properties"] = {
        **CREATE_SCHEMA["properties"],
        "game": {"type": "string", "enum": games},
    }
    return schema


CREATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["game"],
    "additionalProperties": False,
    "properties": {
        "game": {"type": "string", "description": "a game id from GET /api/games"},
        "seats": {"type": "array", "items": SEAT_SCHEMA},
        "players": {"type": "integer", "minimum": 1, "maximum": 4},
        "variant": {
            "type": "object",
            "description": "options of the game by name (GET /api/games lists them)",
        },
        "seed": {
            "type": "integer",
            "minimum": 0,
            "maximum": 2**53 - 1,
            "description": "a chosen deal: solitaire, or rooms with practice: true",
        },
        "practice": {"type": "boolean"},
        "spectator_chat": {"type": "boolean"},
    },
}

MOVE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["token", "move", "version"],
    "properties": {"token": _TOKEN, "move": {"type": "string"}, "version": _VERSION},
    "additionalProperties": False,
}

UNDO_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["token", "version"],
    "properties": {"token": _TOKEN, "version": _VERSION},
    "additionalProperties": False,
}

TOKEN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["token"],
    "properties": {"token": _TOKEN},
}


#: operations a new room's answer leads to: OpenAPI links, for clients and for
#: schemathesis's stateful phase (which then plays in the rooms it created)
ROOM_LINKS: dict[str, dict[str, Any]] = {
    "summary": {"operationId": "room_summary", "parameters": {"room_id": "$response.body#/room"}},
    "state": {
        "operationId": "room_state",
        "parameters": {"room_id": "$response.body#/room", "token": "$response.body#/seats/0/token"},
    },
    "move": {
        "operationId": "post_move",
        "parameters": {"room_id": "$response.body#/room"},
        "requestBody": {"token": "$response.body#/seats/0/token", "move": "draw", "version": 0},
    },
    "undo": {
        "operationId": "post_undo",
        "parameters": {"room_id": "$response.body#/room"},
        "requestBody": {"token": "$response.body#/seats/0/token", "version": 1},
    },
    "rematch": {
        "operationId": "post_rematch",
        "parameters": {"room_id": "$response.body#/room"},
        "requestBody": {"token": "$response.body#/seats/0/token"},
    },
    "hint": {
        "operationId": "hint",
        "parameters": {"room_id": "$response.body#/room", "token": "$response.body#/seats/0/token"},
    },
    "replay": {"operationId": "replay", "parameters": {"room_id": "$response.body#/room"}},
    "record": {"operationId": "record", "parameters": {"room_id": "$response.body#/room"}},
}


def tidy_openapi(schema: dict[str, Any]) -> dict[str, Any]:
    """Drop FastAPI's own ``422`` validation entries and their components; add links.

    A parameter that fails validation is answered ``400 bad-request`` with the
    error object (the app's handler), so every route that has parameters gets
    400 documented instead. Operation ids are the route functions' names.
    """
    for path in schema.get("paths", {}).values():
        for operation in path.values():
            responses = operation.get("responses", {})
            entry = responses.get("422", {})
            ref = str(entry.get("content", {}).get("application/json", {}).get("schema", {}))
            if "HTTPValidationError" in ref:
                del responses["422"]
                responses.setdefault("400", _error_entry(400))
    created = schema.get("paths", {}).get("/api/rooms", {}).get("post", {})
    if "201" in created.get("responses", {}):
        created["responses"]["201"]["links"] = ROOM_LINKS
    components = schema.get("components", {}).get("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        components.pop(name, None)
    return schema


def _error_entry(status: int) -> dict[str, Any]:
    return {
        "description": "error: " + _STATUS_TEXT.get(status, "").strip(),
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}},
    }
