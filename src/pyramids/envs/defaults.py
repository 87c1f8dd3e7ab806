"""The research adapters' defaults for variant options, where they differ from the game's.

The rulebook's treasure hunt has no slide limit: a game ends only when the
treasures are found, and random play (what exploration, random rollouts, MCTS
and OpenSpiel's own tests run) slides for thousands of plies before it does.
The agents finish in a few hundred slides (``python -m benchmarks adapters``
prints both), so the adapters end a hunt after :data:`TREASURE_SLIDE_LIMIT`
slides unless told otherwise: an episode stays bounded, and a game that
players would finish is almost never cut. ``slide_limit=0`` asks for the
rulebook's unbounded game.

Every adapter (Gymnasium, PettingZoo, OpenSpiel) fills its variant through
:func:`research_variant`, so the same options mean the same game in all three.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: slides after which the adapters' treasure hunt ends (see the module docstring)
TREASURE_SLIDE_LIMIT = 500

#: per game, the options the adapters set unless the caller gives them
RESEARCH_DEFAULTS: Mapping[str, Mapping[str, Any]] = {
    "pyramido-treasure": {"slide_limit": TREASURE_SLIDE_LIMIT},
}


def research_variant(game_id: str, variant: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``variant`` with the research defaults of ``game_id`` filled in where not given."""
    return {**RESEARCH_DEFAULTS.get(game_id, {}), **dict(variant or {})}
