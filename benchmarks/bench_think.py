"""How long ``mcts:level=hard`` thinks per move, in every game and seat count (bar: 2 s).

Positions come from greedy games (seeded, so every run asks the same
questions): every few plies of each game, the seat to move is asked by
``hard`` for its move, and the wall-clock and CPU seconds of that one
``choose`` are recorded. Positions with one legal move are skipped (``hard``
answers them at once). The arena logs (``benchmarks/arena_log.py``) give the
same figures over whole games; this one covers every seat count in minutes::

    python -m benchmarks.bench_think [--positions 10]

Wall time counts whatever else the machine was doing (the load average is
printed); CPU time is what the move cost a free core.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from typing import Any

from pyramids.ai.registry import make_agent
from pyramids.engine.registry import get_game, new_game
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.games.pyramido_treasure.phases import OVER, SLIDE_PHASES, Phase

#: every game at every seat count it allows
CASES = [
    (game_id, players)
    for game_id in ("piramides", "pyramido", "pyramideto", "pyramido-treasure")
    for players in range(get_game(game_id).min_players, get_game(game_id).max_players + 1)
]


#: the treasure hunt's choices other than slides, which ``hard`` settles by playing
#: every option out (``--events``): naming two treasures has up to 55 options
EVENT_PHASES = frozenset(p.label for p in Phase if p not in SLIDE_PHASES and p is not OVER)


def questions(game_id: str, players: int, count: int, events: bool = False) -> list[State[Any]]:
    """``count`` positions with a real choice, spread over greedy games of deals 0, 1, ...

    ``events``: only the treasure hunt's event choices, every one met.
    """
    greedy = make_agent("greedy", game_id)
    out: list[State[Any]] = []
    deal = 0
    while len(out) < count:
        state = new_game(game_id, players=players, seed=deal)
        rng = Rng(deal)
        step = 3 + deal % 5
        while not state.is_over and len(out) < count:
            moves = state.legal_moves()
            asked = state.view(None)["phase"] in EVENT_PHASES if events else state.ply % step == 0
            if asked and len(moves) > 1:
                out.append(state.copy())
            state.play(greedy.choose(state, rng))
        deal += 1
    return out


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10, help="positions per game and count")
    parser.add_argument(
        "--events",
        action="store_true",
        help="the treasure hunt's event choices only (its slowest decisions)",
    )
    args = parser.parse_args([] if argv is None else argv)
    count, events = args.positions, args.events
    print(f"   mcts:level=hard, {count} positions per case (wall s: mean / p99 / max; CPU s max)")
    overall: list[float] = []
    for game_id, players in CASES:
        if events and game_id != "pyramido-treasure":
            continue
        agent = make_agent("mcts", game_id, level="hard")
        load = os.getloadavg()[0]
        walls, cpus = [], []
        for k, state in enumerate(questions(game_id, players, count, events)):
            cpu, wall = time.process_time(), time.perf_counter()
            agent.choose(state, Rng(k))
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        overall += walls
        print(
            f"   {game_id + f' {players}p':<22} wall {statistics.mean(walls):.2f} / "
            f"{p99(walls):.2f} / {max(walls):.2f}   CPU max {max(cpus):.2f}   (load {load:.1f})"
        )
    print(f"   all {len(overall)} moves: p99 {p99(overall):.2f} s, max {max(overall):.2f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
