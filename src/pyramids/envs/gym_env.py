"""Gymnasium: a game as a single-agent ``gymnasium.Env``.

Every game is registered with ``gymnasium.make`` (:data:`ENV_IDS`):
``pyramids/Piramides-v0`` is the solitaire; ``pyramids/Pyramido-v0``,
``pyramids/Pyramideto-v0`` and ``pyramids/PyramidoTreasure-v0`` play one seat
with our agents in the other seats (``players=``, ``opponents=``, ``seat=`` as
options: ``gymnasium.make("pyramids/Pyramido-v0", players=3,
opponents="greedy")``).

Choices, and why:

* **Actions** are the codec's ids (``Discrete(num_actions)``); which are legal
  is in ``info["action_mask"]`` after every ``reset`` and ``step``, the
  convention of Gymnasium's masked-action users (``sample(mask=...)``), and
  :meth:`PyramidsEnv.action_masks` returns the same mask, as sb3-contrib's
  ``MaskablePPO`` asks of an environment.
* **An illegal id** (not legal now, or out of the codec's range) changes
  nothing, returns ``illegal_reward`` (default ``-1``) and sets
  ``info["illegal_action"]``: raising would break generic training loops, and
  ending the episode would hide how often a policy tries illegal moves.
* **Reward**: ``reward="score"`` (default) is the change of the agent's
  seat's score over the step (opponents' moves included), so the return of
  an episode is the final score. Against opponents that is a poor target
  (losing 0-5 returns the same as drawing 0-0), so ``reward="result"`` gives
  0 until the end and then the result: win 1, draw 0, loss -1, and at 3-5
  players by rank (the pairwise utility of :mod:`pyramids.envs.utility`:
  first 1, last -1, evenly between).
* **Variant**: the game's options as keyword arguments, with the research
  defaults of :mod:`pyramids.envs.defaults` (the treasure hunt ends after
  500 slides unless ``slide_limit`` says otherwise).
* **Seeding**: ``reset(seed=s)`` seeds ``np_random``, from which each episode
  draws its deal number; ``reset(options={"deal": n})`` plays deal ``n``
  exactly (the same deal as ``pyramids play piramides --seed n``).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from pyramids.ai.base import Agent
from pyramids.ai.registry import make_agent
from pyramids.engine.registry import get_game
from pyramids.engine.rng import Rng
from pyramids.engine.state import State, check_seat
from pyramids.envs.defaults import research_variant
from pyramids.envs.encodings import make_codec
from pyramids.envs.encodings.base import FloatArray, ImageArray
from pyramids.envs.encodings.raster import view_image
from pyramids.envs.text import view_text
from pyramids.envs.utility import pairwise_utility

ENV_ID = "pyramids/Piramides-v0"
#: every registered id and its game
ENV_IDS = {
    ENV_ID: "piramides",
    "pyramids/Pyramido-v0": "pyramido",
    "pyramids/Pyramideto-v0": "pyramideto",
    "pyramids/PyramidoTreasure-v0": "pyramido-treasure",
}
#: the values of the ``reward`` argument (see the module docstring)
REWARDS = ("score", "result")


class PyramidsEnv(gymnasium.Env[FloatArray, np.int64]):
    """One seat of a game; other seats (if any) are played by ``opponents``."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game_id: str = "piramides",
        players: int | None = None,
        seat: int = 0,
        opponents: str = "random",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        reward: str = "score",
        **variant: Any,
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be 'score' or 'result', not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}"
            )
        self.game = get_game(game_id)
        variant = research_variant(self.game.id, variant)
        self.codec = make_codec(game_id, players, variant)
        self.players = self.codec.players
        if reward == "result" and self.players < 2:
            raise ValueError("reward='result' needs at least two players; use 'score'")
        self.seat = check_seat(seat, self.players)
        self.variant = dict(variant)
        self.reward_kind = reward
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self._opponents: Agent | None = make_agent(opponents, game_id) if self.players > 1 else None
        self.action_space = spaces.Discrete(self.codec.actions.num_actions)
        self.observation_space = spaces.Box(
            0.0, 1.0, shape=self.codec.observations.shape, dtype=np.float32
        )
        self._state: State[Any] | None = None
        self._agent_rng = Rng(0)
        self._no_moves = bytes(self.codec.actions.num_actions)
        self._score = 0

    # -- helpers --------------------------------------------------------------

    @property
    def state(self) -> State[Any]:
        """The engine state of the current episode (``reset`` first)."""
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal action ids now, as ``info["action_mask"]`` (sb3-contrib's ``MaskablePPO``).

        All zeros once the game is over: no action is legal then.
        """
        state = self.state
        if state.current_player == self.seat:
            return np.frombuffer(self.codec.actions.legal_bytes(state), dtype=np.int8).copy()
        return np.zeros(self.codec.actions.num_actions, dtype=np.int8)

    def _observe(self) -> FloatArray:
        return self.codec.observations.encode_state(self.state, self.seat)

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        state = self.state
        if state.current_player == self.seat:
            legal = self.codec.actions.legal_bytes(state)
        else:
            legal = self._no_moves
        #: the seat's score as this info reports it: the next step's reward starts from it
        self._score = state.scores()[self.seat]
        return {
            "action_mask": np.frombuffer(legal, dtype=np.int8).copy(),
            "score": self._score,
            "illegal_action": illegal,
        }

    def _play_opponents(self) -> None:
        state = self.state
        while not state.is_over and state.current_player != self.seat:
            assert self._opponents is not None
            state.play(self._opponents.choose(state, self._agent_rng))

    # -- the Gymnasium API -----------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        deal = options.pop("deal", None)
        if options:
            raise ValueError(f"unknown reset option(s): {', '.join(sorted(options))}")
        if deal is None:
            deal = int(self.np_random.integers(0, 2**32))
        self._state = self.game.new(players=self.players, seed=int(deal), **self.variant)
        self._agent_rng = Rng(int(deal) ^ 0x5EED)
        self._play_opponents()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[FloatArray, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state.is_over:
            raise RuntimeError("the episode is over: call reset()")
        before = self._score  # what the last info reported (reset or step)
        try:
            action = self.codec.actions.check_action(action)
            # the mask the last observation reported (the codec keeps it for this state)
            legal = self.codec.actions.legal_bytes(state)
            ok = state.current_player == self.seat and legal[action] == 1
        except ValueError:
            ok = False
        if not ok:
            return self._observe(), self.illegal_reward, False, False, self._info(illegal=True)
        state.play(self.codec.actions.decode(state, action))
        self._play_opponents()
        info = self._info()
        if self.reward_kind == "score":
            reward = float(info["score"] - before)
        elif state.is_over:
            reward = pairwise_utility(state.ranking())[self.seat]
        else:
            reward = 0.0
        return self._observe(), reward, state.is_over, False, info

    def render(self) -> str | ImageArray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        view = self.state.view(self.seat)
        if self.render_mode == "human":
            print(view_text(self.game.id, view))
            return None
        if self.render_mode == "ansi":
            return view_text(self.game.id, view)
        return view_image(self.codec, view)

    def close(self) -> None:
        self._state = None


def register() -> None:
    """Register every id of :data:`ENV_IDS` with Gymnasium (idempotent).

    Pirámides is truncated after 2,000 steps (a policy that only draws and
    turns the stock over could otherwise play on); the other games end by
    their own rules within a bounded number of moves (the treasure hunt
    through the research default slide limit).
    """
    for env_id, game_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="pyramids.envs.gym_env:PyramidsEnv",
                kwargs={"game_id": game_id},
                max_episode_steps=2000 if game_id == "piramides" else None,
            )


register()
