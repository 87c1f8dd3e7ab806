"""Our MCTS against OpenSpiel's Python ``MCTSBot``: iterations per second, side by side.

Like for like:

* the same positions (those of :mod:`benchmarks.bench_mcts`: deals 100, 101,
  102 after 0, 8 and 16 random plies), reached in OpenSpiel by replaying the
  same moves through our OpenSpiel adapter;
* the same playout kind: uniformly random moves to the end of the game on
  both sides (ours with ``playouts="random"``, which also turns off the
  games' shortlists; theirs ``RandomRolloutEvaluator`` with one rollout);
* iterations counted the same way: one iteration is one simulation from
  the root (ours: determinize, walk down, expand one child, play out, back
  up; theirs: walk down, expand, roll out, back up), a fixed budget on both
  sides, every one of them run (``solve=False``, so OpenSpiel never stops
  early on a solved root; we call the search itself, so no position is
  skipped as having one sensible move);
* alternating ours and theirs position by position, several rounds, and
  printing the median of the per-round ratios with their spread.

OpenSpiel's ``MCTSBot`` searches a clone of the true state (it sees the
hidden cards); ours searches determinizations, which costs it one
``determinize`` per iteration: that cost is in our figure.
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

from benchmarks.bench_mcts import positions
from pyramids.ai.mcts import SearchParams, search
from pyramids.engine.registry import all_games
from pyramids.engine.state import State

ITERATIONS = int(os.environ.get("SEARCH_BENCH_ITERATIONS", "200"))
ROUNDS = int(os.environ.get("SEARCH_BENCH_ROUNDS", "3"))


def ours(state: State[Any], iterations: int) -> float:
    """Seconds for ``iterations`` of our search with random playouts."""
    params = SearchParams(
        iterations=iterations,
        seconds=None,
        c=0.7,
        margin=0.1,
        widen_above=16,
        widen_k=2.0,
        widen_alpha=0.5,
        game_id=state.game.id,
        playouts="random",
    )
    seat = state.current_player
    assert seat is not None
    start = time.perf_counter()
    search(state, seat, 1, params)
    return time.perf_counter() - start


def spiel_state(state: State[Any]) -> tuple[Any, Any]:
    """The OpenSpiel game and state at the same position (same deal, same moves)."""
    import pyspiel

    from pyramids.envs.openspiel_game import register

    assert state.seed is not None
    game = pyspiel.load_game(
        register(state.game.id), {"players": state.players, "deal": state.seed}
    )
    spiel = game.new_initial_state()
    codec = game.codec
    replay = spiel.engine_state
    for move in state.moves_played():
        spiel.apply_action(codec.actions.encode(replay, move))
    assert spiel.engine_state.view(None) == state.view(None)
    return game, spiel


def theirs(game: Any, spiel: Any, iterations: int) -> float:
    """Seconds for ``iterations`` simulations of OpenSpiel's Python ``MCTSBot``."""
    import numpy as np
    from open_spiel.python.algorithms import mcts

    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=iterations,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        solve=False,
        random_state=np.random.RandomState(1),
    )
    start = time.perf_counter()
    bot.mcts_search(spiel)
    return time.perf_counter() - start


def compare(game_id: str, players: int) -> dict[str, list[float]]:
    """Per round: our and their iterations per second over the positions, and the ratio."""
    cases = [(s, *spiel_state(s)) for s in positions(game_id, players)]
    out: dict[str, list[float]] = {"ours": [], "theirs": [], "ratio": []}
    for _ in range(ROUNDS):
        mine = other = 0.0
        for state, game, spiel in cases:
            mine += ours(state, ITERATIONS)
            other += theirs(game, spiel, ITERATIONS)
        done = ITERATIONS * len(cases)
        out["ours"].append(done / mine)
        out["theirs"].append(done / other)
        out["ratio"].append(other / mine)
    return out


def main() -> None:
    print(
        f"   MCTS with random playouts, {ITERATIONS} iterations per position, 3 positions, "
        f"{ROUNDS} rounds (median; min-max of the ratio)"
    )
    for game in all_games():
        players = 1 if game.max_players == 1 else 2
        figures = compare(game.id, players)
        ratio = figures["ratio"]
        mine, other = statistics.median(figures["ours"]), statistics.median(figures["theirs"])
        print(
            f"   {game.id + f' {players}p':<22} ours {mine:>7,.0f} it/s"
            f"   OpenSpiel MCTSBot {other:>6,.0f} it/s"
            f"   ours {statistics.median(ratio):.1f}x ({min(ratio):.1f}-{max(ratio):.1f})"
        )


if __name__ == "__main__":
    main()
