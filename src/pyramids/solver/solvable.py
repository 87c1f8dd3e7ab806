"""Dealing only winnable deals (``pyramids play piramides --solvable``).

Each round is dealt from the next deal number whose deal the exact solver
proves winnable (deal N = the first deal of seed N, as everywhere). The game
then starts from that explicit setup; its record carries the deals and replays
like any other, but it has no single seed that makes it again, so the record
leaves the seed out.
"""

from __future__ import annotations

from collections.abc import Mapping

from pyramids.engine.errors import PyramidsError
from pyramids.engine.rng import Rng
from pyramids.engine.variant import VariantValue
from pyramids.games.piramides import GAME, PiramidesState
from pyramids.games.piramides.game import rounds_of
from pyramids.solver.position import position_of
from pyramids.solver.search import DEFAULT_MAX_NODES, WIN, solve

MAX_TRIES = 500


def winnable(state: PiramidesState, max_nodes: int = DEFAULT_MAX_NODES) -> bool:
    """Whether the current round of ``state`` (all cards known) can be cleared."""
    return solve(position_of(state), "clear", max_nodes=max_nodes).verdict == WIN


def solvable_game(
    first: int, variant: Mapping[str, VariantValue]
) -> tuple[PiramidesState, list[int]]:
    """A game whose every round is a winnable deal, from deal numbers ``first`` upwards."""
    options = GAME.resolve_variant(variant)
    single = {**options, "rounds": 1}
    numbers: list[int] = []
    deals: list[list[str]] = []
    n = first
    for _ in range(rounds_of(options)):
        for _try in range(MAX_TRIES):
            candidate = GAME.from_setup(GAME.make_setup(1, single, Rng(n)), 1, single)
            n += 1
            if winnable(candidate):
                numbers.append(n - 1)
                deals.append(candidate.setup()["deals"][0])
                break
        else:
            raise PyramidsError(
                "no winnable deal among {tries} deals from {first}",
                code="no-winnable-deal",
                tries=MAX_TRIES,
                first=n - MAX_TRIES,
            )
    state = GAME.from_setup({"deals": deals}, 1, options)
    state._rng = Rng(first)
    state.seed = None
    return state, numbers
