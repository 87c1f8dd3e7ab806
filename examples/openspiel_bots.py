"""OpenSpiel's MCTSBot and ISMCTSBot against our own agents, on the same games.

* Pirámides (one round per deal, so each game is short): every player plays
  the same deals; we print the mean score. OpenSpiel's ``MCTSBot`` searches
  clones of the real state, so it sees the stock order (a cheating upper
  reference); ``ISMCTSBot`` resamples the hidden stock through our
  ``resample_from_infostate``, as our own ``mcts`` agent does.
* Pyramideto, two players: ``ISMCTSBot`` against our ``mcts`` agent, each
  side once in each seat.

Our agents play inside the OpenSpiel loop by reading the wrapped engine state
(``state.engine_state``) and turning their move into an action id with the
game's codec.

Run: ``.venv/bin/python examples/openspiel_bots.py`` (under a minute).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from pyramids.ai.registry import make_agent
from pyramids.engine.rng import Rng
from pyramids.envs.openspiel_game import PyramidsSpielGame, register_all

Chooser = Callable[[Any], int]


def our_agent(game: PyramidsSpielGame, name: str, seed: int, **options: Any) -> Chooser:
    """An OpenSpiel-style chooser around one of our agents."""
    agent = make_agent(name, game.pyramids_game.id, **options)
    rng = Rng(seed)

    def choose(state: Any) -> int:
        engine = state.engine_state
        return game.codec.actions.encode(engine, agent.choose(engine, rng))

    return choose


def spiel_bot(bot: Any) -> Chooser:
    return lambda state: int(bot.step(state))


def play(game: Any, seats: list[Chooser]) -> list[float]:
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(seats[state.current_player()](state))
    return list(state.returns())


def piramides(deals: range, simulations: int) -> None:
    print(f"Pirámides, one round, deals {deals.start}..{deals.stop - 1}, {simulations} simulations")
    players: dict[str, Callable[[Any], Chooser]] = {
        "our greedy": lambda g: our_agent(g, "greedy", 1),
        "our mcts (ISMCTS)": lambda g: our_agent(g, "mcts", 2, iterations=simulations, seconds=0),
        "OpenSpiel ISMCTSBot": lambda g: spiel_bot(
            ismcts.ISMCTSBot(
                g,
                mcts.RandomRolloutEvaluator(1, np.random.RandomState(3)),
                uct_c=60.0,
                max_simulations=simulations,
                random_state=np.random.RandomState(4),
                use_observation_string=True,
            )
        ),
        "OpenSpiel MCTSBot (sees stock)": lambda g: spiel_bot(
            mcts.MCTSBot(
                g,
                uct_c=60.0,
                max_simulations=simulations,
                evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(5)),
                random_state=np.random.RandomState(6),
            )
        ),
    }
    for label, make in players.items():
        start = time.perf_counter()
        scores = []
        for deal in deals:
            game = pyspiel.load_game("pyramids_piramides", {"deal": deal, "rounds": 1})
            scores.append(play(game, [make(game)])[0])
        print(
            f"  {label:<31} mean score {np.mean(scores):7.1f}   "
            f"({time.perf_counter() - start:4.1f} s)"
        )


def pyramideto(simulations: int, turn_limit: int) -> None:
    print(f"Pyramideto, 2 players, turn limit {turn_limit}: OpenSpiel ISMCTSBot vs our mcts")
    wins = {"ISMCTSBot": 0.0, "our mcts": 0.0}
    for game_no in range(2):
        game = pyspiel.load_game(
            "pyramids_pyramideto", {"players": 2, "deal": 10 + game_no, "turn_limit": turn_limit}
        )
        theirs = spiel_bot(
            ismcts.ISMCTSBot(
                game,
                mcts.RandomRolloutEvaluator(1, np.random.RandomState(game_no)),
                uct_c=1.4,
                max_simulations=simulations,
                random_state=np.random.RandomState(100 + game_no),
                use_observation_string=True,
            )
        )
        ours = our_agent(game, "mcts", game_no, iterations=simulations, seconds=0)
        seats, names = ([theirs, ours], ["ISMCTSBot", "our mcts"])
        if game_no == 1:
            seats, names = seats[::-1], names[::-1]
        returns = play(game, seats)
        for name, value in zip(names, returns, strict=True):
            wins[name] += (value + 1) / 2  # pairwise utility -> 1 win, 0.5 draw, 0 loss
        first, second = names
        print(
            f"  game {game_no + 1}: {first} (seat 0) {returns[0]:+.0f}, "
            f"{second} (seat 1) {returns[1]:+.0f}"
        )
    print(f"  points: {wins}")


def main() -> None:
    register_all()
    piramides(range(3), simulations=40)
    pyramideto(simulations=40, turn_limit=30)


if __name__ == "__main__":
    main()
