"""Treasure-hunt players with an explicit memory model (RULINGS.md §2).

Every reveal in the treasure hunt is public, so what separates players is what
they *remember*. These agents read only their seat's view, keep their own
memory of tokens (spot -> token), and either remember perfectly or forget
each remembered token with a fixed probability at the start of each of their
turns, as a child at the table would.

A searching agent turns its memory into a belief: where each treasure may lie
(a remembered spot; otherwise any spot of its field it does not remember, or,
with ``shuffle_fields``, any such spot of a field whose treasure it does not
know). It aims for the spot where the treasures it wants most likely lie and
moves the empty spot toward it along the cheapest sliding path, where
stepping onto a spot that may hide another treasure costs extra: revealing
the wrong treasure ends the search for this player.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pyramids.ai.base import Agent
from pyramids.ai.errors import AgentError
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.games.pyramido_treasure.board import (
    FIELD,
    FIELD_SPOTS,
    FIELDS,
    NEIGHBOURS,
    SPOTS,
    distance,
)
from pyramids.games.pyramido_treasure.moves import TreasureMove
from pyramids.games.pyramido_treasure.treasures import (
    CARD_BY_NAME,
    N_TREASURES,
    TOKEN_BY_NAME,
    card_points,
    card_treasure,
    parse_treasure,
)


@dataclass
class Memory:
    """What one seat remembers: internal spot -> token (0 blank, t + 1 treasure t)."""

    tokens: dict[int, int] = field(default_factory=dict)
    #: reveals up to this ply have been looked at
    seen_upto: int = -1
    #: ply of this seat's last decision (to tell a continued turn from a new one)
    last_ply: int = -2


class Belief:
    """Probabilities of treasures per spot, given a memory and the visible token."""

    def __init__(self, tokens: dict[int, int], shuffled: bool) -> None:
        #: chance[t][s] = probability that treasure t lies at spot s
        self.chance: list[list[float]] = [[0.0] * SPOTS for _ in range(N_TREASURES)]
        located = {tok - 1: s for s, tok in tokens.items() if tok}
        solved_fields = {FIELD[s] for s in located.values()}
        open_fields = [f for f in range(FIELDS) if f not in solved_fields]
        for t, s in located.items():
            self.chance[t][s] = 1.0
        for t in range(N_TREASURES):
            if t in located:
                continue
            fields = open_fields if shuffled else ([t] if t in open_fields else [])
            for f in fields:
                spots = [s for s in FIELD_SPOTS[f] if s not in tokens]
                for s in spots:
                    self.chance[t][s] = 1.0 / (len(fields) * len(spots))

        #: any[s] = probability that some treasure lies at spot s
        self.any: list[float] = [sum(col) for col in zip(*self.chance, strict=True)]

    def of(self, treasures: Iterable[int], spot: int) -> float:
        """Probability that one of ``treasures`` lies at ``spot``."""
        return sum(self.chance[t][spot] for t in treasures)


def reach_costs(start: int, step_cost: list[float]) -> list[float]:
    """Cheapest cost of moving the empty spot from ``start`` to every spot.

    Moving the empty spot onto spot ``s`` costs ``step_cost[s]`` (Dijkstra
    over the 48 spots; costs are positive).
    """
    best = [float("inf")] * SPOTS
    best[start] = 0.0
    heap = [(0.0, start)]
    while heap:
        d, s = heapq.heappop(heap)
        if d > best[s]:
            continue
        for n in NEIGHBOURS[s]:
            nd = d + step_cost[n]
            if nd < best[n]:
                best[n] = nd
                heapq.heappush(heap, (nd, n))
    return best


def costs_to(target: int, step_cost: list[float]) -> list[float]:
    """Cheapest cost of moving the empty spot from every spot to ``target``."""
    best = [float("inf")] * SPOTS
    best[target] = 0.0
    heap = [(0.0, target)]
    while heap:
        d, s = heapq.heappop(heap)
        if d > best[s]:
            continue
        nd = d + step_cost[s]  # the empty spot at a neighbour of s steps onto s
        for n in NEIGHBOURS[s]:
            if nd < best[n]:
                best[n] = nd
                heapq.heappush(heap, (nd, n))
    return best


class TreasureMemoryAgent(Agent):
    """Seeks treasures from what it remembers; ``forget`` = chance to lose a token per turn."""

    name = "greedy"
    summary = "perfect memory; slides the empty spot toward the likeliest treasure spot"

    def __init__(self, forget: float = 0.0, wrong_treasure_cost: float = 12.0) -> None:
        if not 0.0 <= forget <= 1.0:
            raise AgentError(
                "forget must be a probability from 0 to 1, not {value}",
                code="agent-option",
                value=repr(forget),
            )
        self.forget = float(forget)
        self.wrong_treasure_cost = float(wrong_treasure_cost)
        self._memory: dict[int, Memory] = {}

    # -- memory -----------------------------------------------------------------------

    def memory(self, seat: int) -> Memory:
        """The memory of ``seat`` (created empty on first use)."""
        return self._memory.setdefault(seat, Memory())

    def _recall(self, view: dict[str, Any], rng: Rng) -> Memory:
        """Update the seat's memory from its view: forget at a new turn, then learn."""
        seat = view["viewer"]
        ply = view["ply"]
        mem = self._memory.get(seat)
        if mem is None or ply < mem.seen_upto:  # a new game, or a take-back
            mem = self._memory[seat] = Memory()
        if self.forget and ply != mem.last_ply + 1:
            visible = view["visible"]["index"]
            for s in sorted(mem.tokens):
                if s != visible and rng.random() < self.forget:
                    del mem.tokens[s]
        for entry in view["revealed"]:
            if entry["ply"] > mem.seen_upto:
                mem.tokens[entry["index"]] = TOKEN_BY_NAME[entry["token"]]
        visible = view["visible"]
        mem.tokens[visible["index"]] = TOKEN_BY_NAME[visible["token"]]
        mem.seen_upto = ply
        mem.last_ply = ply
        return mem

    # -- choosing -----------------------------------------------------------------------

    def choose(self, state: State[Any], rng: Rng) -> Hashable:
        seat = state.current_player
        if seat is None:
            raise ValueError("no legal move: the game is over")
        view = state.view(seat)
        moves = state.legal_moves()
        mem = self._recall(view, rng)
        belief = Belief(mem.tokens, bool(view["variant"]["shuffle_fields"]))
        phase = view["phase"]
        if phase == "danger-name":
            return self._name_two(moves, view, belief, rng)
        if phase == "poker-name":
            return self._name_poker(moves, view, belief, rng)
        if phase.endswith("-give"):
            return self._give(moves, view, rng)
        return self._slide(moves, view, belief, self._wanted(view, seat), rng)

    def _wanted(self, view: dict[str, Any], seat: int) -> list[int]:
        """The treasures this seat wants to reveal now."""
        phase = view["phase"]
        search = view["search"] or {}
        event = view["event"] or {}
        if phase == "search":
            return [_treasure(search["treasure"])]
        if phase == "danger":
            named = [_treasure(n) for n in event["named"]]
            got = [_treasure(n) for n in event["revealed"]]
            return [t for t in named if t not in got] or named
        if phase == "mirage":
            return [card_treasure(CARD_BY_NAME[event["card"]])]
        if phase == "poker":
            return [_treasure(event["treasure"])]
        # gift: a treasure the others hold, the more holders the better
        counts = [0] * N_TREASURES
        for p, hand in enumerate(view["hands"]):
            if p != seat and not view["eliminated"][p]:
                for t in {card_treasure(CARD_BY_NAME[c]) for c in hand}:
                    counts[t] += 1
        best = max(counts)
        return [t for t in range(N_TREASURES) if counts[t] == best]

    def _step_costs(self, belief: Belief, wanted: list[int]) -> list[float]:
        cost = self.wrong_treasure_cost
        return [1.0 + cost * max(0.0, belief.any[s] - belief.of(wanted, s)) for s in range(SPOTS)]

    def _slide(
        self,
        moves: list[TreasureMove],
        view: dict[str, Any],
        belief: Belief,
        wanted: list[int],
        rng: Rng,
    ) -> Hashable:
        empty = view["visible"]["index"]
        costs = self._step_costs(belief, wanted)
        chance = [0.0 if s == empty else belief.of(wanted, s) for s in range(SPOTS)]
        top = max(chance)
        if top <= 0.0:
            move: Hashable = moves[rng.below(len(moves))]
            return move
        # the likeliest spots; among them the cheapest to reach
        likely = [s for s in range(SPOTS) if chance[s] >= top - 1e-12]
        reach = reach_costs(empty, costs)
        cheapest = min(reach[s] for s in likely)
        targets = [s for s in likely if reach[s] <= cheapest + 1e-9]
        target = targets[rng.below(len(targets))]
        to_target = costs_to(target, costs)
        by_spot = {m.spot: m for m in moves}
        scored = [(costs[n] + to_target[n], n) for n in NEIGHBOURS[empty] if n in by_spot]
        best = min(c for c, _ in scored)
        options = [n for c, n in scored if c <= best + 1e-9]
        chosen: Hashable = by_spot[options[rng.below(len(options))]]
        return chosen

    def _expected_distance(self, view: dict[str, Any], belief: Belief, t: int) -> float:
        empty = view["visible"]["index"]
        return sum(belief.chance[t][s] * distance(empty, s) for s in range(SPOTS))

    def _name_two(
        self, moves: list[TreasureMove], view: dict[str, Any], belief: Belief, rng: Rng
    ) -> Hashable:
        ease = {t: self._expected_distance(view, belief, t) for t in range(N_TREASURES)}
        scored = [(ease[m.treasure_a] + ease[m.treasure_b], rng.random(), m) for m in moves]
        move: Hashable = min(scored)[2]
        return move

    def _name_poker(
        self, moves: list[TreasureMove], view: dict[str, Any], belief: Belief, rng: Rng
    ) -> Hashable:
        scores = view["scores"]
        hard = {t: self._expected_distance(view, belief, t) for t in range(N_TREASURES)}
        scored = [(-scores[m.opponent], -hard[m.treasure], rng.random(), m) for m in moves]
        move: Hashable = min(scored)[3]
        return move

    def _give(self, moves: list[TreasureMove], view: dict[str, Any], rng: Rng) -> Hashable:
        scores = view["scores"]
        scored = [(card_points(m.card), scores[m.to], rng.random(), m) for m in moves]
        move: Hashable = min(scored)[3]
        return move


class ChildAgent(TreasureMemoryAgent):
    """A forgetful searcher: each remembered token is lost with probability 0.3 per turn."""

    name = "child"
    summary = "forgets each remembered token with probability 0.3 per turn"

    def __init__(self, forget: float = 0.3, wrong_treasure_cost: float = 12.0) -> None:
        super().__init__(forget=forget, wrong_treasure_cost=wrong_treasure_cost)


def _treasure(name: str) -> int:
    t = parse_treasure(name)
    if t is None:
        raise ValueError(f"unknown treasure {name!r}")
    return t


#: the class the registry finds by this module's name (pyramids.engine.faces)
AGENT = TreasureMemoryAgent
