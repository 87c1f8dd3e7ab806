"""A greedy Pyramideto player that decides on what its seat may know.

It looks one move ahead at the public stacks, its own hand and the displayed
cards, never at other hands or the deck. Why these weights: a goal that stands
is displayed at once, so completing one of ours dominates everything; a tower
of a card we have not seen (not ours, not displayed) might sit in an
opponent's hand, so completing it may hand them a goal; links of our goals
already in place and pieces of our goals lying free to move are progress.
An exchange is only worth a turn when every piece move would help the others.
Repeating its own previous move is penalised: two greedy players otherwise
loop, each rebuilding the link the other just broke.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from pyramids.ai.base import Agent
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.games.pyramideto import GOALS, PyramidetoMove, PyramidetoState, tower_stands

OWN_GOAL = 100.0
GIFT = 40.0
LINK = 6.0
FREE_PIECE = 1.0
REPEAT = 2 * LINK


def _value(above: Sequence[int], hand: Sequence[int]) -> float:
    value = 0.0
    for g in hand:
        a, b, c = GOALS[g].tower
        if above[a] == b and above[b] == c:
            value += OWN_GOAL
            continue
        value += LINK * ((above[a] == b) + (above[b] == c))
        value += FREE_PIECE * ((above[b] < 0 or above[b] == c) + (above[c] < 0))
    return value


class GreedyPyramideto(Agent):
    """Completes its own goals when it can; avoids building towers others may hold."""

    name = "greedy"
    summary = "completes its goals, avoids completing unseen cards, else builds links"

    def choose(self, state: State[Any], rng: Rng) -> Hashable:
        assert isinstance(state, PyramidetoState)
        seat = state.current_player
        assert seat is not None
        hand = state.hand(seat)
        seen = set(hand)
        for p in range(state.players):
            seen.update(state.displayed(p))
        unseen = [g for g in range(len(GOALS)) if g not in seen]
        above = list(state.above)
        below = state.below
        base = _value(above, hand)
        standing = {g for g in unseen if tower_stands(above, g)}
        # the move this seat played last turn (public history): repeating it
        # is how greedy players fall into a loop, each undoing the other
        played = state.moves_played()
        previous = played[-state.players] if len(played) >= state.players else None
        best: list[PyramidetoMove] = []
        best_value = float("-inf")
        exchanges: list[PyramidetoMove] = []
        for move in state.legal_moves():
            if move.is_exchange:
                exchanges.append(move)
                continue
            p, u, _ = move
            after = above[:]
            q = below[p]
            if q >= 0:
                after[q] = -1
            if u >= 0:
                after[u] = p
            gifts = sum(1 for g in unseen if g not in standing and tower_stands(after, g))
            value = _value(after, hand) - GIFT * gifts
            if move == previous:
                value -= REPEAT
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        if exchanges and best_value < base:
            # every move helps someone else: swap the card we are furthest from
            def progress(m: PyramidetoMove) -> float:
                return _value(above, [m.card])

            low = min(progress(m) for m in exchanges)
            pick = [m for m in exchanges if progress(m) == low]
            return pick[rng.below(len(pick))]
        return best[rng.below(len(best))]


#: the class the registry finds by this module's name (pyramids.engine.faces)
AGENT = GreedyPyramideto
