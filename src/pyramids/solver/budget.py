"""The node and time budget of a search, spent and checked the same way by every search.

Why one place: the depth-first searches of :mod:`.search` and the passes of
:mod:`.layers` all count nodes, read the clock only every so many nodes (a
clock read costs about as much as a node), and stop with the same exception,
which their callers turn into an ``unknown`` verdict. The count stays a local
of each search's loop, for speed; only the rare look at the clock is here::

    check_at = min(EVERY, max_nodes)
    ...
    nodes += 1
    if nodes >= check_at:
        check_at = next_check(nodes, max_nodes, deadline, EVERY)
"""

from __future__ import annotations

import time


class SearchLimit(Exception):
    """The node or time budget was spent before the answer was known (after ``nodes``)."""

    def __init__(self, nodes: int) -> None:
        super().__init__(f"limit reached after {nodes} nodes")
        self.nodes = nodes


def next_check(nodes: int, max_nodes: int, deadline: float, every: int) -> int:
    """The node count of the next look at the clock; raises :class:`SearchLimit` when spent.

    ``deadline`` is a :func:`time.perf_counter` value.
    """
    if nodes >= max_nodes or time.perf_counter() > deadline:
        raise SearchLimit(nodes)
    return min(nodes + every, max_nodes)
