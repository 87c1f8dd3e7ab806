"""Pirámides as a ``gymnasium.vector.VectorEnv``: N games stepped together.

Why a vector environment of its own rather than ``SyncVectorEnv`` over N
:class:`~pyramids.envs.gym_env.PyramidsEnv`: training at scale steps
thousands of games, and ``SyncVectorEnv`` pays per game a wrapper call, a
dict of infos and a copy into its batch. Here the N engine states sit in one
list, each step writes its observation and mask straight into the batch
arrays, and the rules are the same calls as the single environment's, so an
episode is the same game in both (a test checks it deal by deal).

Conventions, as Gymnasium's vector environments have them:

* actions are an int array of shape ``(N,)``; ``info["action_mask"]`` is an
  ``(N, num_actions)`` int8 array after every ``reset`` and ``step``;
* **autoreset** is ``NEXT_STEP`` (Gymnasium's default): when a game ends, the
  step that ended it returns its last observation with ``terminated`` (or
  ``truncated``) set; the *next* step ignores that game's action, deals its
  next game and returns the first observation with reward 0;
* rewards, illegal actions and deals are those of ``PyramidsEnv``: reward =
  change of the score; an illegal id changes nothing, scores
  ``illegal_reward`` and sets ``info["illegal_action"]``; each new game draws
  its deal number from ``np_random`` (seeded by ``reset(seed=...)``), or
  ``reset(options={"deals": [...]})`` fixes the first deal of each game;
* ``max_episode_steps`` truncates a game (default 2,000, as the registered
  single environment).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from pyramids.engine.registry import get_game
from pyramids.engine.state import State
from pyramids.envs.encodings import make_codec

VECTOR_ENV_ID = "pyramids/Piramides-vector-v0"


class PiramidesVectorEnv(VectorEnv):
    """``num_envs`` games of Pirámides (any variant) stepped as one batch."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 8,
        illegal_reward: float = -1.0,
        max_episode_steps: int = 2000,
        **variant: Any,
    ) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if max_episode_steps < 1:
            raise ValueError("max_episode_steps must be at least 1")
        self.game = get_game("piramides")
        self.codec = make_codec("piramides", 1, variant)
        self.variant = dict(variant)
        self.num_envs = num_envs
        self.illegal_reward = float(illegal_reward)
        self.max_episode_steps = max_episode_steps
        n_actions = self.codec.actions.num_actions
        self.single_action_space = gymnasium.spaces.Discrete(n_actions)
        self.single_observation_space = gymnasium.spaces.Box(
            0.0, 1.0, shape=self.codec.observations.shape, dtype=np.float32
        )
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self._states: list[State[Any]] = []
        self._steps = np.zeros(num_envs, dtype=np.int64)
        self._ended = np.zeros(num_envs, dtype=np.bool_)

    # -- helpers --------------------------------------------------------------

    def _deal(self, i: int, deal: int | None = None) -> None:
        if deal is None:
            deal = int(self.np_random.integers(0, 2**32))
        state = self.game.new(seed=int(deal), **self.variant)
        if i < len(self._states):
            self._states[i] = state
        else:
            self._states.append(state)
        self._steps[i] = 0
        self._ended[i] = False

    def _observe(self) -> tuple[Any, Any]:
        """The batch of observations (one array operation per field) and of masks."""
        obs = self.codec.observations.encode_states(self._states, 0)
        mask = np.zeros((self.num_envs, self.codec.actions.num_actions), dtype=np.int8)
        legal_ids = self.codec.actions.legal_ids
        for i, state in enumerate(self._states):
            if not state.is_over:
                ids = legal_ids(state)
                if ids:
                    mask[i, ids] = 1
        return obs, mask

    # -- the VectorEnv API --------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        deals = options.pop("deals", None)
        if options:
            raise ValueError(f"unknown reset option(s): {', '.join(sorted(options))}")
        if deals is not None and len(deals) != self.num_envs:
            raise ValueError(f"options['deals'] needs {self.num_envs} deal numbers")
        self._states = []
        for i in range(self.num_envs):
            self._deal(i, None if deals is None else int(deals[i]))
        obs, mask = self._observe()
        info = {
            "action_mask": mask,
            "score": np.array([s.scores()[0] for s in self._states], dtype=np.int64),
            "illegal_action": np.zeros(self.num_envs, dtype=np.bool_),
        }
        return obs, info

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        if not self._states:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {actions.shape}")
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=np.bool_)
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        illegal = np.zeros(self.num_envs, dtype=np.bool_)
        scores = np.zeros(self.num_envs, dtype=np.int64)
        decode = self.codec.actions.decode
        for i in range(self.num_envs):
            if self._ended[i]:
                self._deal(i)  # next-step autoreset: this game's action is ignored
            else:
                state = self._states[i]
                before = state.scores()[0]
                try:
                    move = decode(state, int(actions[i]))
                    legal = move in state.legal_moves()
                except ValueError:
                    legal = False
                if legal:
                    state.play(move)
                    rewards[i] = state.scores()[0] - before
                else:
                    rewards[i] = self.illegal_reward
                    illegal[i] = True
                self._steps[i] += 1
                terminated[i] = state.is_over
                truncated[i] = not terminated[i] and self._steps[i] >= self.max_episode_steps
                self._ended[i] = terminated[i] or truncated[i]
            scores[i] = self._states[i].scores()[0]
        obs, mask = self._observe()
        info = {"action_mask": mask, "score": scores, "illegal_action": illegal}
        return obs, rewards, terminated, truncated, info

    @property
    def states(self) -> list[State[Any]]:
        """The engine state of each game (``reset`` first)."""
        return list(self._states)

    def close_extras(self, **kwargs: Any) -> None:
        self._states = []


def register() -> None:
    """Register ``pyramids/Piramides-vector-v0`` for ``gymnasium.make_vec`` (idempotent)."""
    if VECTOR_ENV_ID not in gymnasium.registry:
        gymnasium.register(
            id=VECTOR_ENV_ID,
            vector_entry_point="pyramids.envs.vector_env:PiramidesVectorEnv",
        )


register()
