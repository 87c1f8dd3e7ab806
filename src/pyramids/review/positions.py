"""Every position of a record, each as the players met it.

Why not :func:`pyramids.replay` alone: it returns only the final state, and a
review needs the state before every move. Why the chance outcomes are cleared
from each position: a replay forces the record's mid-game chance (a card
drawn) on the state, and a search that copied such a state would be handed the
future outcomes, the one thing the seat could not know. Each position returned
here draws future chance from its own stream, as the real game did, and any
search replaces that stream through ``determinize`` anyway.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pyramids.engine.errors import RecordError
from pyramids.engine.records import replay
from pyramids.engine.state import State


def load_record(record: Mapping[str, Any] | str | Path) -> dict[str, Any]:
    """The record as a dict (a path or JSON text is read); :class:`RecordError` if it is not one."""
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


def positions(record: Mapping[str, Any]) -> list[State[Any]]:
    """The position before each move, then the final one (``len(moves) + 1`` states).

    The record is checked first by :func:`pyramids.replay` (every move and the
    result); a bad record raises its :class:`RecordError`.
    """
    final = replay(record)
    start = replay({**record, "moves": [], "chance": []}, check_result=False)
    start._forced = list(final.chance_outcomes())
    state = start
    out: list[State[Any]] = []
    for move in final.moves_played():
        out.append(_clean(state.copy()))
        state.play(move)
    out.append(_clean(state.copy()))
    return out


def _clean(state: State[Any]) -> State[Any]:
    state._forced = None
    return state
