"""Research adapters: the libraries' own bars, episode lengths, overheads and search speed.

First, the two bars on the adapters, side by side in one run
(:func:`library_bars`): each PettingZoo environment against PettingZoo's own
``connect_four_v3``, and OpenSpiel's ``rl_environment`` against the
PettingZoo environment of the same game. Then the treasure hunt's episode
lengths behind the adapters' research default (:func:`treasure_lengths`).
Then steps per second through each adapter against the bare engine: every
loop plays random legal moves on the same games (deal numbers 0, 1, 2,
...), so the ratio ``engine / adapter`` is the overhead of the adapter alone:
encoding observations and masks from the view, decoding action ids, and the
library's own bookkeeping. A second part compares search speed: iterations
per second of our ``mcts`` agent and of OpenSpiel's Python ``MCTSBot`` on the
same Pirámides deal with the same budget.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from benchmarks.common import report
from pyramids.engine.registry import get_game, new_game
from pyramids.engine.rng import Rng

SECONDS = 2.0


def _rate(loop: Callable[[int], int], seconds: float = SECONDS) -> float:
    """Steps per second of ``loop(game_number) -> steps`` run for about ``seconds``."""
    steps = 0
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += loop(games)
        games += 1
    return steps / (time.perf_counter() - start)


def engine_loop(game_id: str, players: int) -> Callable[[int], int]:
    uniform = random.Random(1).random

    from pyramids.envs.defaults import research_variant

    variant = research_variant(game_id)  # the game the adapters play (the treasure hunt's limit)

    def loop(deal: int) -> int:
        state = new_game(game_id, players=players, seed=deal, **variant)
        n = 0
        while not state.is_over:
            moves = state.legal_moves()
            state.play(moves[int(uniform() * len(moves))])
            n += 1
        return n

    return loop


def gym_loop(game_id: str, players: int) -> Callable[[int], int]:
    """Gymnasium from seat 0; other seats (if any) are our ``random`` agent, inside ``step``.

    Counts engine moves (the opponents' too), so that the rate compares with
    the bare engine's moves per second.
    """
    import numpy as np

    from pyramids.envs.gym_env import PyramidsEnv

    env = PyramidsEnv(game_id, players=players)
    uniform = random.Random(1).random

    def loop(deal: int) -> int:
        _, info = env.reset(options={"deal": deal})
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, _, done, _, info = env.step(int(legal[int(uniform() * len(legal))]))
        return env.state.ply

    return loop


def pettingzoo_loop(game_id: str, players: int) -> Callable[[int], int]:

    module = importlib.import_module(f"pyramids.envs.{game_id.replace('-', '_')}_v0")
    return aec_loop(module.env(players=players))


def aec_loop(env: Any) -> Callable[[int], int]:
    """``loop(deal) -> steps``: one game of random legal actions through a PettingZoo AEC env.

    The one loop of :func:`pettingzoo_loop` and :func:`pettingzoo_floor`, so that
    the floor measures exactly the machinery our adapter's figure goes through.
    """
    import numpy as np

    uniform = random.Random(1).random

    def loop(deal: int) -> int:
        env.reset(options={"deal": deal})
        n = 0
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(uniform() * len(legal))]))
            n += 1
        return n

    return loop


def openspiel_loop(game_id: str, players: int) -> Callable[[int], int]:
    import pyspiel

    from pyramids.envs.openspiel_game import register

    name = register(game_id)
    uniform = random.Random(1).random

    def loop(deal: int) -> int:
        game = pyspiel.load_game(name, {"players": players, "deal": deal})
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(uniform() * len(legal))])
            n += 1
        return n

    return loop


def pettingzoo_floor(seconds: float = SECONDS, wrapper: str = "ours") -> float:
    """Steps per second of PettingZoo's own machinery: a null AEC game, wrapped like ours.

    ``wrapper`` is ``"ours"`` (:class:`~pyramids.envs.order_enforcing.OrderEnforcer`,
    what ``env()`` returns), ``"pettingzoo"`` (its ``OrderEnforcingWrapper``,
    what ``env()`` returned before) or ``"none"`` (the raw environment).

    The game does nothing (one agent, a fixed observation and mask, an episode
    of 100 steps), so what this loop costs is PettingZoo's: ``agent_iter``,
    ``last``, the order-enforcing wrapper's attribute look-ups and ``step``.
    No adapter can step faster than this, whatever its game costs.
    """
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

    class Null(AECEnv):  # type: ignore[misc]
        metadata = {"name": "null_v0"}  # noqa: RUF012

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = ["player_0"]
            self._obs = {"observation": np.zeros(4, np.float32), "action_mask": np.ones(2, np.int8)}
            self._space = spaces.Discrete(2)

        def observation_space(self, agent: str) -> Any:
            return spaces.Box(0.0, 1.0, (4,))

        def action_space(self, agent: str) -> Any:
            return self._space

        def observe(self, agent: str) -> Any:
            return {k: v.copy() for k, v in self._obs.items()}

        def reset(self, seed: Any = None, options: Any = None) -> None:
            self.agents = list(self.possible_agents)
            self.rewards = {"player_0": 0.0}
            self._cumulative_rewards = {"player_0": 0.0}
            self.terminations = {"player_0": False}
            self.truncations = {"player_0": False}
            self.infos: dict[str, Any] = {"player_0": {}}
            self.agent_selection = "player_0"
            self._n = 0

        def step(self, action: Any) -> None:
            if self.terminations["player_0"]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards["player_0"] = 0.0
            self._n += 1
            if self._n >= 100:
                self.terminations = {"player_0": True}
            self._accumulate_rewards()

    from pyramids.envs.order_enforcing import OrderEnforcer

    wrap = {
        "ours": OrderEnforcer,
        "pettingzoo": wrappers.OrderEnforcingWrapper,
        "none": lambda env: env,
    }[wrapper]
    return _rate(aec_loop(wrap(Null())), seconds)


def adapter_overheads(rounds: int = 3) -> None:
    """Each adapter's rate against the bare engine's, alternating, ``rounds`` times.

    The overhead of each round is the engine's rate in that round over the
    adapter's; the median and the spread of the rounds are printed, because
    the machine is shared and a single pair of figures can mislead.
    """
    from pyramids.envs.encodings import codec_ids

    print("   random play, engine moves per second (overhead = engine rate / adapter rate)")
    for game_id in codec_ids():
        players = get_game(game_id).min_players
        label = f"{game_id} {players}p"
        loops: dict[str, Callable[[int], int]] = {
            "engine": engine_loop(game_id, players),
            "gymnasium": gym_loop(game_id, players),
            "pettingzoo": pettingzoo_loop(game_id, players),
            "openspiel": openspiel_loop(game_id, players),
        }
        rates: dict[str, list[float]] = {name: [] for name in loops}
        for _ in range(rounds):
            for name, loop in loops.items():
                rates[name].append(_rate(loop, SECONDS / rounds * 2))
        base = rates["engine"]
        report(f"{label} engine", {"steps/s": statistics.median(base)})
        for name in loops:
            if name == "engine":
                continue
            ratios = [b / r for b, r in zip(base, rates[name], strict=True)]
            report(
                f"{label} {name}",
                {
                    "steps/s": statistics.median(rates[name]),
                    "overhead x": statistics.median(ratios),
                    "min": min(ratios),
                    "max": max(ratios),
                },
            )


def mcts_rates(simulations: int = 300) -> None:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from pyramids.ai.registry import make_agent
    from pyramids.envs.openspiel_game import register

    print(f"   search on Pirámides deal 7, first move, {simulations} iterations, one core")
    state = new_game("piramides", seed=7)
    agent: Any = make_agent("mcts", "piramides", iterations=simulations, seconds=0)
    start = time.perf_counter()
    agent.choose(state, Rng(1))
    ours = simulations / (time.perf_counter() - start)
    report("our mcts (ISMCTS)", {"iterations/s": ours})

    game = pyspiel.load_game(register("piramides"), {"deal": 7})
    bot = mcts.MCTSBot(
        game,
        uct_c=60.0,
        max_simulations=simulations,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        random_state=np.random.RandomState(1),
    )
    spiel_state = game.new_initial_state()
    start = time.perf_counter()
    bot.step(spiel_state)
    theirs = simulations / (time.perf_counter() - start)
    report("OpenSpiel Python MCTSBot", {"iterations/s": theirs, "ours x": ours / theirs})


def connect_four() -> Any:
    """PettingZoo's own ``connect_four_v3`` AEC environment, the reference of the bar.

    Its module imports pygame at the top for its pictures, which this loop
    never draws; when pygame is not installed, an empty stand-in module takes
    its place (the game's rules and PettingZoo's machinery are what is timed).
    """
    import sys
    import types

    if importlib.util.find_spec("pygame") is None:
        sys.modules.setdefault("pygame", types.ModuleType("pygame"))
    from pettingzoo.classic import connect_four_v3  # type: ignore[import-untyped]

    return connect_four_v3.env()


def rl_environment_loop(game_id: str, players: int) -> Callable[[int], int]:
    """OpenSpiel's ``rl_environment`` (its RL agents' loop): one step per action.

    It observes every seat's information-state tensor after every step, as
    OpenSpiel's DQN, policy-gradient and NFSP agents read them.
    """
    import pyspiel
    from open_spiel.python import rl_environment

    from pyramids.envs.openspiel_game import register

    name = register(game_id)
    uniform = random.Random(1).random

    # one game and one environment, as a training run has: each reset deals the
    # next game of the game's seeded stream (loading a game per deal would time
    # building the codec, which a run does once)
    env = rl_environment.Environment(pyspiel.load_game(name, {"players": players}))

    return _random_rl_loop(env, uniform)


def _random_rl_loop(env: Any, uniform: Callable[[], float]) -> Callable[[int], int]:
    """A loop over one episode of ``env`` (an ``rl_environment``): uniform legal actions,
    the steps counted. The same loop for our games and for OpenSpiel's own floor."""

    def loop(deal: int) -> int:
        step = env.reset()
        n = 0
        while not step.last():
            seat = step.observations["current_player"]
            legal = step.observations["legal_actions"][seat]
            step = env.step([legal[int(uniform() * len(legal))]])
            n += 1
        return n

    return loop


def openspiel_floor_loop() -> Callable[[int], int]:
    """``rl_environment`` over OpenSpiel's own Python tic-tac-toe: its machinery's floor.

    OpenSpiel runs a Python game's observer through C++, and builds a new
    initial state each time it needs a tensor's size (at every tensor), so
    the loop costs this much whatever the game does; no Python game steps
    much faster through ``rl_environment``.
    """
    import pyspiel
    from open_spiel.python import rl_environment
    from open_spiel.python.games import tic_tac_toe  # noqa: F401  (registers the game)

    env = rl_environment.Environment(pyspiel.load_game("python_tic_tac_toe"))
    uniform = random.Random(1).random

    return _random_rl_loop(env, uniform)


def library_bars(rounds: int = 3) -> None:
    """The two bars on the adapters, measured side by side in one run, ``rounds`` times.

    * every PettingZoo environment steps at least as fast as PettingZoo's own
      ``connect_four_v3`` with the same random masked policy
      (``pettingzoo / connect_four`` >= 1);
    * OpenSpiel's ``rl_environment`` steps at least half as fast as the
      PettingZoo environment of the same game (``openspiel / pettingzoo``
      >= 0.5).

    Steps are agent actions. The rates alternate within each round, and the
    median and the spread of each round's ratio are printed.
    """
    import importlib as _importlib

    from pyramids.envs.encodings import codec_ids

    print("   random masked play, agent steps per second; ratios taken round by round")
    floor = _rate(openspiel_floor_loop())
    report("OpenSpiel python_tic_tac_toe", {"rl_env steps/s": floor})
    reference = aec_loop(connect_four())
    for game_id in codec_ids():
        players = get_game(game_id).min_players
        module = _importlib.import_module(f"pyramids.envs.{game_id.replace('-', '_')}_v0")
        ours = aec_loop(module.env(players=players))
        spiel = rl_environment_loop(game_id, players)
        rates: dict[str, list[float]] = {"connect_four": [], "pettingzoo": [], "openspiel": []}
        for _ in range(rounds):
            rates["connect_four"].append(_rate(reference, SECONDS / 2))
            rates["pettingzoo"].append(_rate(ours, SECONDS / 2))
            rates["openspiel"].append(_rate(spiel, SECONDS / 2))
        label = f"{game_id} {players}p"
        versus_c4 = [p / c for p, c in zip(rates["pettingzoo"], rates["connect_four"], strict=True)]
        versus_pz = [o / p for o, p in zip(rates["openspiel"], rates["pettingzoo"], strict=True)]
        report(f"{label} connect_four_v3", {"steps/s": statistics.median(rates["connect_four"])})
        report(
            f"{label} pettingzoo",
            {
                "steps/s": statistics.median(rates["pettingzoo"]),
                "/ connect_four x": statistics.median(versus_c4),
                "min": min(versus_c4),
                "max": max(versus_c4),
            },
        )
        report(
            f"{label} openspiel rl_env",
            {
                "steps/s": statistics.median(rates["openspiel"]),
                "/ pettingzoo x": statistics.median(versus_pz),
                "min": min(versus_pz),
                "max": max(versus_pz),
            },
        )


def treasure_lengths(games: int = 12) -> None:
    """Slides per treasure hunt: random play with and without the research limit, and agents.

    The figures behind the adapters' research default
    (:data:`pyramids.envs.defaults.TREASURE_SLIDE_LIMIT`): how long random
    play runs when nothing bounds it, and how many slides the agents need
    to finish a game, so that the limit cuts the first and not the second.
    """
    from pyramids.ai.registry import make_agent
    from pyramids.envs.defaults import TREASURE_SLIDE_LIMIT

    def slides(agent: str, players: int, limit: int) -> list[int]:
        player = make_agent(agent, "pyramido-treasure")
        out = []
        for deal in range(games):
            state = new_game("pyramido-treasure", players=players, seed=deal, slide_limit=limit)
            rng = Rng(deal)
            while not state.is_over:
                state.play(player.choose(state, rng))
            out.append(state.slides)  # type: ignore[attr-defined]  # a TreasureState
        return sorted(out)

    print(f"   treasure hunt, slides per game over {games} deals (min / median / max)")
    for agent, players, limit in (
        ("random", 2, 0),
        ("random", 4, 0),
        ("greedy", 2, 0),
        ("greedy", 4, 0),
        ("child", 2, 0),
        ("child", 4, 0),
        ("random", 2, TREASURE_SLIDE_LIMIT),
    ):
        counts = slides(agent, players, limit)
        label = f"{agent} {players}p slide_limit={limit}"
        report(label, {"min": counts[0], "median": statistics.median(counts), "max": counts[-1]})


def main() -> None:
    for wrapper in ("pettingzoo", "ours", "none"):
        floor = pettingzoo_floor(wrapper=wrapper)
        report(
            f"PettingZoo machinery alone, wrapper {wrapper}",
            {"steps/s": floor, "us/step": 1e6 / floor},
        )
    library_bars()
    treasure_lengths()
    adapter_overheads()
    mcts_rates()


if __name__ == "__main__":
    main()
