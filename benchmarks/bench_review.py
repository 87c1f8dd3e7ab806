"""Game review: CPU time per game at a budget, and how well two reviews agree on the grades.

For each game, two games are reviewed twice at the same budget with two
review seeds: one between ``greedy`` players (few errors to find) and one of
``greedy`` against ``random`` (many). Reported per game:
decisions reviewed, CPU seconds of one review (``time.process_time``, so that
other work on the machine does not count), the share of decisions on which the
two reviews give the same grade, and, among the decisions either review
flagged, the share both flagged (the harder figure: most decisions are good).

``python -m benchmarks.bench_review [BUDGET] [GAME...]`` (default ``normal``, every game).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from pyramids.ai.registry import make_agent
from pyramids.engine.registry import new_game
from pyramids.engine.rng import Rng
from pyramids.review import GOOD, review

GAMES = ("piramides", "pyramideto", "pyramido", "pyramido-treasure")
#: (deal seed, the players' agents); the solitaire's second player is ``random`` alone
TABLES: tuple[tuple[int, tuple[str, ...]], ...] = (
    (1, ("greedy", "greedy")),
    (2, ("greedy", "random")),
)


def typical_game(game_id: str, seed: int, agents_of: tuple[str, ...]) -> dict[str, Any]:
    """A whole game between these agents (memory agents observe every move)."""
    # the solitaire has one seat: the table's last agent plays it
    names = agents_of[-1:] if game_id == "piramides" else agents_of
    state = new_game(game_id, players=len(names), seed=seed)
    agents = [make_agent(n, game_id) for n in names]
    rng = Rng(seed)
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        move = agents[seat].choose(state, rng)
        state.play(move)
        for agent in agents:
            agent.observe(state, move, seat)
    return state.record()


def measure(game_id: str, budget: str) -> dict[str, float]:
    decisions = same = flagged = both = 0
    cpu: list[float] = []
    plies = 0
    for seed, agents_of in TABLES:
        record = typical_game(game_id, seed, agents_of)
        plies += len(record["moves"])
        runs = []
        for review_seed in (1, 2):
            t0 = time.process_time()
            runs.append(review(record, budget=budget, seed=review_seed))
            cpu.append(time.process_time() - t0)
        a, b = runs
        grades = {d.ply: d.grade for d in b.decisions}
        for d in a.decisions:
            other = grades.get(d.ply)
            if other is None:
                continue
            decisions += 1
            same += d.grade == other
            if d.grade != GOOD or other != GOOD:
                flagged += 1
                both += d.grade != GOOD and other != GOOD
    return {
        "games": len(TABLES),
        "plies/game": plies / len(TABLES),
        "decisions/game": decisions / len(TABLES),
        "cpu s/review mean": sum(cpu) / len(cpu),
        "cpu s/review max": max(cpu),
        "grade agreement": same / decisions if decisions else 1.0,
        "flags agreed": both / flagged if flagged else 1.0,
        "flagged": flagged,
    }


def main() -> None:
    args = sys.argv[1:] if __name__ == "__main__" else []
    budget = args[0] if args and args[0] not in GAMES else "normal"
    games = [a for a in args if a in GAMES] or list(GAMES)
    print(f"budget {budget}")
    for game_id in games:
        figures = measure(game_id, budget)
        shown = ", ".join(
            f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items()
        )
        print(f"{game_id}: {shown}", flush=True)


if __name__ == "__main__":
    main()
