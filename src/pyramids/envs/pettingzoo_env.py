"""PettingZoo: every game as a turn-based AEC environment (``pyramids.envs.<game>_v0``).

Agents are named ``player_0 .. player_{n-1}`` after the seats. Choices, and why:

* **Observations** are dicts ``{"observation": float32 vector, "action_mask":
  int8 vector}``, PettingZoo's convention for board and card games. The vector
  comes from ``view(seat)`` through the game's codec, so nothing hidden from
  the seat can leak. The mask marks the legal action ids of the seat to move;
  another seat's mask is all zeros (``WAIT`` only in ``"rotate"`` order).
* **Turn order**: ``turn_order="game"`` (default) selects the seat the game
  says is to move, so in Pyramido (a turn is several steps) and the treasure
  hunt (a turn is a run of slides) one agent is selected several times in a
  row. ``turn_order="rotate"`` selects the agents strictly in seat order,
  ``player_0 .. player_{n-1}`` and round again (from ``player_0`` whoever
  starts the game), one step each, in every game: the seat the game says is
  to move plays a real move, every other selected seat has one legal action,
  ``WAIT``, which changes nothing. ``WAIT`` is the extra action id
  ``num_actions`` (the action space grows to ``Discrete(num_actions + 1)``);
  the mask shows only ``WAIT`` to a waiting seat and never to the mover. This
  is the "every agent acts once per cycle" shape that PettingZoo's
  ``max_cycles_test`` and many multi-agent training loops assume. The game
  itself does not change: the movers' actions, played in ``"game"`` order
  from the same seed, give the same game.
* **Rewards**: ``reward="score"`` (default) gives every seat the change of
  its score at each step; ``reward="rank"`` gives 0 until the end and then the
  pairwise rank utility of :mod:`pyramids.envs.utility` (winning is what
  counts in a multiplayer game). A ``WAIT`` scores nothing, so the rewards of
  a game add up to the same totals in both turn orders.
* **An illegal action** (masked out) gets ``illegal_reward`` (default -1) and
  ``info["illegal_action"]``. With ``illegal_action="penalize"`` (default) it
  changes nothing and the same seat stays selected (in ``"rotate"`` order
  too: a waiting seat that sends a move is asked again until it sends
  ``WAIT``); with ``"random"`` a uniformly random legal action is taken in
  its place, so that a sampler that ignores masks (PettingZoo's
  ``max_cycles_test`` does) still sees the seats take turns as in a real
  game. For a waiting seat in ``"rotate"`` order the only legal action is
  ``WAIT``, so under ``"random"`` any other action it sends is penalized and
  counts as ``WAIT`` (the turn moves on, the game does not); for the mover,
  ``WAIT`` is illegal like any masked-out id.
* **max_cycles**: the game is truncated for everyone once ``max_cycles``
  steps per seat (``max_cycles * players`` steps in all, ``WAIT`` steps
  included) have been taken; in the parallel API, after ``max_cycles``
  parallel steps.
* **Rendering**: ``human`` prints the terminal picture of the spectator
  view (and returns ``None``, as PettingZoo's ``render_test`` expects);
  ``ansi`` returns that picture; ``rgb_array`` the codec's numpy raster of the
  same view (no SVG library is needed; see ``docs/adapters.md``).
* **Global state** (:meth:`PyramidsAECEnv.state`, for centralised critics):
  every seat's observation, seat 0's first, one after the other. It holds
  everything some seat knows (every hand) and nothing none does (the order
  of a stock or a deck), so a critic trained on it learns from the game as
  the players together see it; ``state_space`` is its ``Box``.
* **Variant**: the game's options as keyword arguments, with the research
  defaults of :mod:`pyramids.envs.defaults` (the treasure hunt ends after
  500 slides unless ``slide_limit`` says otherwise).
* **Parallel API**: :func:`parallel_env` plays one move per parallel step.
  In ``"game"`` order only the action of the seat to move is used; in
  ``"rotate"`` order every live agent must send one: the mover's is the move,
  every other seat's must be ``WAIT`` (checked like any action). A parallel
  step is not a whole AEC cycle because all its actions are chosen from the
  observations before it: a seat that became the mover halfway through a
  cycle would have chosen from a mask that offered it only ``WAIT``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]

from pyramids.engine.registry import get_game
from pyramids.engine.state import State
from pyramids.envs.defaults import research_variant
from pyramids.envs.encodings import make_codec
from pyramids.envs.encodings.base import FloatArray, ImageArray
from pyramids.envs.encodings.raster import view_image
from pyramids.envs.order_enforcing import OrderEnforcer
from pyramids.envs.text import view_text
from pyramids.envs.utility import pairwise_utility

Obs = dict[str, Any]


def agent_name(seat: int) -> str:
    """The PettingZoo agent name of a seat."""
    return f"player_{seat}"


#: the values of the ``turn_order`` option (see the module docstring)
TURN_ORDERS = ("game", "rotate")


class PyramidsAECEnv(AECEnv):  # type: ignore[misc]
    """A game of Pyramids as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (PettingZoo's convention)
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "pyramids_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        max_cycles: int = 100_000,
        reward: str = "score",
        illegal_reward: float = -1.0,
        illegal_action: str = "penalize",
        turn_order: str = "game",
        render_mode: str | None = None,
        **variant: Any,
    ) -> None:
        super().__init__()
        if illegal_action not in ("penalize", "random"):
            raise ValueError(
                f"illegal_action must be 'penalize' or 'random', not {illegal_action!r}"
            )
        if turn_order not in TURN_ORDERS:
            raise ValueError(f"turn_order must be 'game' or 'rotate', not {turn_order!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}"
            )
        if reward not in ("score", "rank"):
            raise ValueError(f"reward must be 'score' or 'rank', not {reward!r}")
        if reward == "rank" and (players or get_game(game_id).min_players) < 2:
            raise ValueError("reward='rank' needs at least two players; use 'score'")
        if max_cycles < 1:
            raise ValueError("max_cycles must be at least 1")
        self.game = get_game(game_id)
        variant = research_variant(self.game.id, variant)
        self.codec = make_codec(game_id, players, variant)
        self.variant = dict(variant)
        self.max_cycles = max_cycles
        self.illegal_action = illegal_action
        self.turn_order = turn_order
        self.reward_kind = reward
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"{game_id.replace('-', '_')}_v0"}
        self.possible_agents = [agent_name(s) for s in range(self.codec.players)]
        #: steps after which the game is truncated (the parallel API counts differently)
        self.step_limit = max_cycles * len(self.possible_agents)
        n = self.codec.actions.num_actions
        #: the id of ``WAIT`` in ``"rotate"`` order (one past the codec's ids), else None
        self.wait_action: int | None = n if turn_order == "rotate" else None
        size = n if self.wait_action is None else n + 1
        self._mask_size = size
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    0.0, 1.0, shape=self.codec.observations.shape, dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, shape=(size,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        obs_size = self.codec.observations.size
        self.state_space = spaces.Box(
            0.0, 1.0, shape=(obs_size * len(self.possible_agents),), dtype=np.float32
        )
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self._np_random, _ = seeding.np_random(None)
        self._state: State[Any] | None = None
        #: every seat's score after the last move (the next move's reward starts from it)
        self._scores: list[int] = []
        self._steps = 0
        #: the seat selected next in "rotate" order
        self._turn = 0

    # -- spaces -----------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- state -------------------------------------------------------------------------

    @property
    def game_state(self) -> State[Any]:
        """The engine state of the current game (``reset`` first)."""
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def _waiting(self, seat: int) -> bool:
        """Whether ``seat`` may only ``WAIT`` now ("rotate" order, game on, not its move)."""
        state = self.game_state
        return self.wait_action is not None and not state.is_over and state.current_player != seat

    def observe(self, agent: str) -> Obs:
        state = self.game_state
        seat = self._seat[agent]
        if state.current_player == seat:
            legal = self.codec.actions.legal_bytes(state)
            if self.wait_action is not None:
                legal += b"\0"  # the mover may not WAIT
            mask = np.frombuffer(legal, dtype=np.int8).copy()
        else:
            mask = np.zeros(self._mask_size, dtype=np.int8)
            if self.wait_action is not None and self._waiting(seat):
                mask[self.wait_action] = 1
        return {
            "observation": self.codec.observations.encode_state(state, seat),
            "action_mask": mask,
        }

    def state(self) -> FloatArray:
        """The global state: every seat's observation, seat 0's first (see the module docstring)."""
        state = self.game_state
        encode = self.codec.observations.encode_state
        return np.concatenate([encode(state, seat) for seat in range(self.codec.players)])

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        deal = (options or {}).get("deal")
        if deal is None:
            deal = int(self._np_random.integers(0, 2**32))
        self._state = self.game.new(players=self.codec.players, seed=int(deal), **self.variant)
        self._scores = self._state.scores()
        self._steps = 0
        self._turn = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select(passed=False)

    def _select(self, passed: bool) -> None:
        """Point ``agent_selection`` at the next agent to act.

        ``passed`` says whether the step just taken counts (a legal action, or
        an illegal one replaced under ``"random"``): in ``"rotate"`` order only
        then does the selection move on to the next seat.
        """
        if self.wait_action is not None:
            if passed:
                self._turn = (self._turn + 1) % len(self.possible_agents)
            self.agent_selection = self.possible_agents[self._turn]
            return
        player = self.game_state.current_player
        if player is not None:
            self.agent_selection = self.possible_agents[player]

    def _is_wait(self, action: Any) -> bool:
        """Whether ``action`` is the ``WAIT`` id (an integer, as the codecs require)."""
        if isinstance(action, np.integer):
            action = int(action)
        return (
            self.wait_action is not None
            and isinstance(action, int)
            and not isinstance(action, bool)
            and action == self.wait_action
        )

    def _act(self, seat: int, action: Any) -> bool:
        """Take ``action`` for ``seat``, adding what it earns to ``self.rewards``.

        Returns whether the action counts as taken (legal, or replaced under the
        ``"random"`` policy). Touches neither the selection nor the step count,
        so the AEC :meth:`step` and the parallel API can share it.
        """
        state = self.game_state
        agent = self.possible_agents[seat]
        if self._waiting(seat):
            # the only legal action is WAIT, which changes nothing; "random"
            # takes the one legal action in place of an illegal one: WAIT again
            legal = self._is_wait(action)
        else:
            legal = False  # WAIT, or an id the codec cannot read, or an illegal move
            if not self._is_wait(action):
                try:
                    action = self.codec.actions.check_action(action)
                    legal = self.codec.actions.legal_bytes(state)[action] == 1
                    move = self.codec.actions.decode(state, action)
                except ValueError:
                    pass
            if not legal and self.illegal_action == "random":
                moves = state.legal_moves()
                move = moves[int(self._np_random.integers(len(moves)))]
            if legal or self.illegal_action == "random":
                self._play(move)
        if not legal:
            self.rewards[agent] += self.illegal_reward
            self.infos[agent] = {"illegal_action": True}
        return legal or self.illegal_action == "random"

    def _play(self, move: Any) -> None:
        """Play a legal ``move`` and add the rewards it brings to ``self.rewards``."""
        state = self.game_state
        state.play(move)
        if self.reward_kind == "score":
            # the scores after the last move are this move's "before" (the engine
            # state changes only here), so each move asks the game for them once
            before = self._scores
            self._scores = after = state.scores()
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] += float(after[s] - before[s])
        if state.is_over:
            if self.reward_kind == "rank":
                for a, u in zip(
                    self.possible_agents, pairwise_utility(state.ranking()), strict=True
                ):
                    self.rewards[a] += u
            self.terminations = dict.fromkeys(self.agents, True)

    def _begin_step(self) -> None:
        """Clear the rewards and infos of the last step and count this one."""
        rewards = self.rewards
        for a in rewards:
            rewards[a] = 0.0
        self._steps += 1
        infos = self.infos
        for a in self.agents:
            infos[a] = {"illegal_action": False}

    def _check_truncation(self) -> None:
        if self._steps >= self.step_limit and not self.game_state.is_over:
            self.truncations = dict.fromkeys(self.agents, True)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._begin_step()
        passed = self._act(self._seat[agent], action)
        self._check_truncation()
        self._select(passed)
        self._accumulate_rewards()

    def step_all(self, actions: dict[str, Any]) -> None:
        """One parallel step in ``"rotate"`` order: every live agent's action at once.

        The waiting seats' actions are checked first (only ``WAIT`` is legal,
        and it changes nothing), then the mover's action is taken, so every
        action is judged against the state its agent observed. Counts as one
        step towards ``step_limit``; the AEC selection is not used.
        """
        if self.wait_action is None:
            raise RuntimeError("step_all is for turn_order='rotate'")
        live = [a for a in self.agents if not (self.terminations[a] or self.truncations[a])]
        if not live:
            raise ValueError("the game has ended: call reset() first")
        missing = [a for a in live if a not in actions]
        if missing:
            raise ValueError(
                f"turn_order='rotate': every live agent acts each step; no action from {missing}"
            )
        self._begin_step()
        waiting = [a for a in live if self._waiting(self._seat[a])]
        for a in waiting:
            self._act(self._seat[a], actions[a])
        for a in live:
            if a not in waiting:
                self._act(self._seat[a], actions[a])
        self._check_truncation()
        self._accumulate_rewards()

    def render(self) -> str | ImageArray | None:
        if self.render_mode is None:
            return None
        view = self.game_state.view(None)
        if self.render_mode == "human":
            print(view_text(self.game.id, view))
            return None
        if self.render_mode == "ansi":
            return view_text(self.game.id, view)
        return view_image(self.codec, view)

    def close(self) -> None:
        self._state = None


class TurnParallelEnv(ParallelEnv):  # type: ignore[misc]
    """The parallel API over a turn-based game: one move per parallel step.

    In ``"game"`` order every live agent may send an action; only the one of
    the seat to move is played (the others are ignored, since it is not their
    turn), which keeps the parallel and AEC views of a game step for step the
    same. In ``"rotate"`` order every live agent must send an action: the
    mover's is played, the others must be ``WAIT`` (see
    :meth:`PyramidsAECEnv.step_all`). Either way the game is truncated after
    ``max_cycles`` parallel steps.
    """

    def __init__(self, aec: PyramidsAECEnv) -> None:
        self.aec = aec
        aec.step_limit = aec.max_cycles
        self.metadata = {**aec.metadata, "is_parallelizable": True}
        self.possible_agents = list(aec.possible_agents)
        self.render_mode = aec.render_mode
        self.state_space = aec.state_space

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        return {a: self.aec.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, Obs],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        if self.aec.wait_action is not None:
            self.aec.step_all(actions)
        else:
            mover = self.aec.agent_selection
            if mover not in actions:
                raise ValueError(f"{mover} is to move but sent no action")
            self.aec.step(actions[mover])
        agents = list(self.agents)
        observations = {a: self.aec.observe(a) for a in agents}
        rewards = {a: float(self.aec.rewards[a]) for a in agents}
        terminations = {a: bool(self.aec.terminations[a]) for a in agents}
        truncations = {a: bool(self.aec.truncations[a]) for a in agents}
        infos = {a: dict(self.aec.infos[a]) for a in agents}
        self.agents = [a for a in agents if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def state(self) -> FloatArray:
        """The global state of :meth:`PyramidsAECEnv.state`."""
        return self.aec.state()

    def render(self) -> str | ImageArray | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def make_env_functions(
    game_id: str,
) -> tuple[Callable[..., Any], Callable[..., PyramidsAECEnv], Callable[..., TurnParallelEnv]]:
    """``env``, ``raw_env`` and ``parallel_env`` for a per-game module (``piramides_v0``).

    All three take the keyword arguments of :class:`PyramidsAECEnv`
    (``players``, ``max_cycles``, ``reward``, ``illegal_reward``,
    ``illegal_action``, ``turn_order``, ``render_mode`` and variant options).
    """

    def raw_env(**kwargs: Any) -> PyramidsAECEnv:
        """The bare AEC environment (keyword arguments as :class:`PyramidsAECEnv`)."""
        return PyramidsAECEnv(game_id, **kwargs)

    def env(**kwargs: Any) -> Any:
        """The AEC environment with PettingZoo's order-enforcing checks (:class:`OrderEnforcer`)."""
        return OrderEnforcer(raw_env(**kwargs))

    def parallel_env(**kwargs: Any) -> TurnParallelEnv:
        """The parallel API: one move per step (see :class:`TurnParallelEnv`)."""
        return TurnParallelEnv(raw_env(**kwargs))

    return env, raw_env, parallel_env
