"""Keep the garbage collector's pauses out of move latency.

A full (generation 2) collection walks every object the process holds. After
start-up that is mostly modules, classes and functions (about 100,000
objects) that live as long as the server, so each full collection cost
≈ 100 ms of CPU with the event loop stopped: under load every move in flight
waited for it, and these pauses were the server's slowest moves. Importing
everything the server will use up front and then freezing the heap
(:func:`gc.freeze`) takes those objects out of every later collection; only
what the games in play allocate is walked.

What the games in play hold (states kept for resyncs, connections) still
takes tens of milliseconds to walk, so full collections are also made ten
times rarer than Python's default (see :data:`FULL_COLLECTION_EVERY`): the
garbage they find is a few reference cycles (exceptions, finished tasks),
which can wait some seconds longer.
"""

from __future__ import annotations

import gc

from pyramids.ai.registry import AGENTS, agent_class, agent_games
from pyramids.engine.registry import all_games
from pyramids.server.hints import hint_available


def import_everything() -> None:
    """Load every game, agent and hint module now rather than on the first request needing it."""
    all_games()
    for name in AGENTS:
        for game_id in agent_games(name):
            agent_class(name, game_id)
    hint_available("piramides")  # loads the solver, when it is installed


#: a full collection is considered after this many middle-generation ones (Python: 10)
FULL_COLLECTION_EVERY = 100


def freeze_long_lived_heap() -> int:
    """Import what the server uses, collect, and freeze what remains; returns the frozen count.

    Also spaces full collections out (:data:`FULL_COLLECTION_EVERY`).
    """
    import_everything()
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
    return gc.get_freeze_count()
