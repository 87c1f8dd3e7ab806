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

from collections.abc import Mapping
from typing import Any

from pyramids.engine.records import replay
from pyramids.engine.state import State


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
