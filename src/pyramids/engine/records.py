"""Game records as JSON, and replay that re-validates every move.

A record is self-contained: it names the game and the rules version, every
variant option, the players, the explicit setup (so other tools can check it
without our PRNG), the moves in notation, every mid-game chance outcome, and
the result. The format is documented in ``docs/records.md`` and published as a
JSON Schema, :data:`SCHEMA_FILE` (``record.schema.json`` beside this module),
so that a tool of one's own can check a record's shape without this package.

:func:`replay` trusts nothing in a record: it rebuilds the game from the setup,
plays each move through the rules, and compares the result. Any problem is a
:class:`RecordError` naming the field or the move number.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyramids import __version__
from pyramids.engine.errors import IllegalMove, PyramidsError, RecordError
from pyramids.engine.rng import KeyedRng, Rng

if TYPE_CHECKING:
    from pyramids.engine.state import State

FORMAT = "pyramids-record"
FORMAT_VERSION = 1
#: the generators a record may name (``generator``): absent means ``seed``'s SplitMix64
GENERATORS = (Rng.generator, KeyedRng.generator)
#: the JSON Schema (draft 2020-12) of a record, each game's setup and variant included
SCHEMA_FILE = Path(__file__).with_name("record.schema.json")


def record_schema() -> dict[str, Any]:
    """The JSON Schema of a record (:data:`SCHEMA_FILE`), parsed.

    The schema checks a record's shape; :func:`replay` checks that its moves
    are legal and that its result follows from them.
    """
    schema: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return schema


def make_record(state: State[Any], *, undos: int = 0) -> dict[str, Any]:
    """The record of ``state`` (see :meth:`State.record`).

    ``undos`` is how many moves a face took back while the game was played.
    Why a record says so: a take-back shows what was hidden (the next stock
    card), so a score made with undo is not comparable with one made without.
    It is written only when non-zero, so records of games without undo stay
    exactly as before.
    """
    record: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": state.game.id,
        "rules_version": state.game.rules_version,
        "version": __version__,
        "variant": dict(state.variant),
        "players": list(state.names),
    }
    if state.seed is not None:
        record["seed"] = state.seed
    elif state._rng.generator != Rng.generator:
        # dealt by a keyed stream (a server room's secret): say so, for the seed is absent
        record["generator"] = state._rng.generator
    record["setup"] = state.setup()
    record["moves"] = state.notation_log()
    record["chance"] = [
        {"ply": ply, "choices": n, "outcome": v} for ply, n, v in state.chance_outcomes()
    ]
    record["result"] = {
        "over": state.is_over,
        "scores": state.scores(),
        "ranking": state.ranking() if state.is_over else None,
    }
    if undos:
        record["undos"] = undos
    return record


def _need(record: Mapping[str, Any], field: str, kind: type | tuple[type, ...]) -> Any:
    if field not in record:
        raise RecordError(field, "missing")
    value = record[field]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        want = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise RecordError(
            field, "must be {expected}, not {actual}", expected=want, actual=type(value).__name__
        )
    return value


def load_record(record: Mapping[str, Any] | str | Path) -> dict[str, Any]:
    """The record as a dict, read from a path or parsed from JSON text; nothing checked yet.

    What :func:`replay` does first, apart so that a face that needs the
    record itself (the review walks through every position) reads it the same
    way and fails with the same :class:`RecordError`.
    """
    if isinstance(record, Path):
        try:
            record = record.read_text(encoding="utf-8")
        except OSError as e:
            raise RecordError(
                "file", "cannot read {path}: {reason}", path=str(record), reason=str(e.strerror)
            ) from None
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as e:
            raise RecordError(
                "json", "not valid JSON ({reason} at line {line})", reason=e.msg, line=e.lineno
            ) from None
    if not isinstance(record, Mapping):
        raise RecordError("record", "must be a JSON object")
    return dict(record)


def replay(record: Mapping[str, Any] | str | Path, *, check_result: bool = True) -> State[Any]:
    """Rebuild a game from a record, re-validating every move.

    ``record`` is the parsed JSON, a JSON string, or a path to a file. Returns
    the final state. Raises :class:`RecordError` naming the field or move.
    """
    from pyramids.engine.registry import get_game

    record = load_record(record)
    if record.get("format") != FORMAT:
        raise RecordError("format", "must be '{format}'", format=FORMAT)
    fv = _need(record, "format_version", int)
    if fv != FORMAT_VERSION:
        raise RecordError(
            "format_version",
            "{version} is not supported (this version reads {supported})",
            version=fv,
            supported=FORMAT_VERSION,
        )
    game_id = _need(record, "game", str)
    try:
        game = get_game(game_id)
    except PyramidsError as e:
        raise RecordError.wrapping("game", e) from None
    rv = _need(record, "rules_version", int)
    if rv != game.rules_version:
        raise RecordError(
            "rules_version",
            "{version} differs from this version's rules ({supported})",
            version=rv,
            supported=game.rules_version,
        )
    variant_in = _need(record, "variant", dict)
    try:
        variant = game.resolve_variant(variant_in)
    except PyramidsError as e:
        raise RecordError.wrapping("variant", e) from None
    names = _need(record, "players", list)
    try:
        game.check_players(len(names))
    except PyramidsError as e:
        raise RecordError.wrapping("players", e) from None
    if not all(isinstance(n, str) and n for n in names):
        raise RecordError("players", "every player name must be non-empty text")
    setup = _need(record, "setup", dict)
    try:
        state = game.from_setup(setup, len(names), variant)
    except RecordError:
        raise
    except PyramidsError as e:
        raise RecordError.wrapping("setup", e) from None
    except (KeyError, TypeError, IndexError, ValueError) as e:
        raise RecordError("setup", "malformed ({detail})", detail=str(e)) from None
    state.names = tuple(names)
    if "generator" in record:
        generator = _need(record, "generator", str)
        if generator not in GENERATORS:
            raise RecordError(
                "generator",
                "'{generator}' is not one of {known}",
                generator=generator,
                known=", ".join(GENERATORS),
            )
        if "seed" in record and generator != Rng.generator:
            raise RecordError("generator", "a seed deals with {seeded} only", seeded=Rng.generator)
    if "seed" in record:
        seed = _need(record, "seed", int)
        rng = Rng(seed)
        if game.make_setup(len(names), variant, rng) != setup:
            raise RecordError("setup", "does not match the deal of seed {seed}", seed=seed)
        state._rng = rng
        state.seed = seed
    if "undos" in record and (_need(record, "undos", int) < 0):
        raise RecordError("undos", "must not be negative")
    chance = _need(record, "chance", list) if "chance" in record else []
    forced: list[tuple[int, int, int]] = []
    for i, entry in enumerate(chance):
        if not isinstance(entry, Mapping) or not all(
            isinstance(entry.get(k), int) for k in ("ply", "choices", "outcome")
        ):
            raise RecordError(
                f"chance[{i}]", "must be an object with integer ply, choices, outcome"
            )
        forced.append((entry["ply"], entry["choices"], entry["outcome"]))
    state._forced = forced
    moves = _need(record, "moves", list)
    for i, text in enumerate(moves):
        where = f"moves[{i}]"
        if not isinstance(text, str):
            raise RecordError(
                where, "move {number} must be text in the game's notation", number=i + 1
            )
        try:
            state.play(state.parse_move(text))
        except IllegalMove as e:
            raise RecordError(
                where, "move {number} '{text}' is illegal", number=i + 1, text=text
            ).caused_by(e) from None
        except RecordError as e:
            raise RecordError(e.field, "at move {number}", number=i + 1).caused_by(e) from None
    if state._forced:
        raise RecordError(
            "chance", "{count} chance outcome(s) were never used", count=len(state._forced)
        )
    state._forced = None
    if check_result and "result" in record:
        _check_result(state, record["result"])
    return state


def _check_result(state: State[Any], result: Any) -> None:
    if not isinstance(result, Mapping):
        raise RecordError("result", "must be an object")
    if result.get("over") != state.is_over:
        raise RecordError(
            "result.over",
            "record says over={recorded}, the moves give {actual}",
            recorded=str(result.get("over")),
            actual=str(state.is_over),
        )
    if result.get("scores") != state.scores():
        raise RecordError(
            "result.scores",
            "record says {recorded}, the moves give {actual}",
            recorded=str(result.get("scores")),
            actual=str(state.scores()),
        )
    if state.is_over and result.get("ranking") != state.ranking():
        raise RecordError(
            "result.ranking",
            "record says {recorded}, the moves give {actual}",
            recorded=str(result.get("ranking")),
            actual=str(state.ranking()),
        )


def save_record(state: State[Any], path: Path, *, undos: int = 0) -> None:
    """Write the record of ``state`` (with its ``undos``, see :func:`make_record`) as JSON."""
    record = make_record(state, undos=undos) if undos else state.record()
    path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
