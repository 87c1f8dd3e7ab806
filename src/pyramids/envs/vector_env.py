"""Pirámides as a ``gymnasium.vector.VectorEnv``: N games stepped together.

Why a vector environment of its own rather than ``SyncVectorEnv`` over N
:class:`~pyramids.envs.gym_env.PyramidsEnv`: training at scale steps
thousands of games, and ``SyncVectorEnv`` pays per game three wrappers, a
dict of infos merged key by key and a copy into its batch. Here the N engine
states sit in one list; a step notes, per game, only the positions its
move changed and writes them into the batch with one assignment
(:class:`~pyramids.envs.encodings.piramides.ObservationBatch`); it checks
each action against the mask it last reported (no second look at the
rules), and joins the masks of the whole batch from the codec's cached mask
bytes. ``python -m benchmarks vector`` measures it against ``SyncVectorEnv``.

It behaves as ``SyncVectorEnv([lambda: gymnasium.make("pyramids/Piramides-v0",
max_episode_steps=M)] * N)`` does, step for step (a test compares the two over
several episodes):

* **seeding**: ``reset(seed=s)`` seeds game *i* with ``s + i`` (a list gives
  each its own), and each game draws the deal number of every episode from
  its own generator, as ``PyramidsEnv.reset`` does; ``reset()`` without a
  seed goes on drawing from them. ``reset(options={"deals": [...]})`` fixes
  the next deal of each game;
* **actions** are an int array of shape ``(N,)``; ``info["action_mask"]`` is
  an ``(N, num_actions)`` int8 array after every ``reset`` and ``step``
  (``action_masks()`` returns the current one);
* **autoreset** is ``NEXT_STEP`` (Gymnasium's default): the step that ends a
  game returns its last observation with ``terminated`` (or ``truncated``)
  set; the next step ignores that game's action, deals its next game and
  returns the first observation with reward 0. ``autoreset_mode="same_step"``
  deals at once instead and reports the ended game in ``info["final_obs"]``
  and ``info["final_info"]``, as Gymnasium's ``SAME_STEP`` does (what
  Stable-Baselines3 expects, :mod:`pyramids.envs.sb3`);
* **rewards and illegal actions** are those of ``PyramidsEnv``: reward = the
  change of the score; an illegal id changes nothing, scores
  ``illegal_reward`` and sets ``info["illegal_action"]``;
* ``max_episode_steps`` truncates a game (default 2,000, as the registered
  single environment); ``render_mode`` ("ansi" or "rgb_array") makes
  ``render()`` return each game's picture, as ``SyncVectorEnv`` does.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from pyramids.engine.registry import get_game
from pyramids.envs.encodings import make_codec
from pyramids.envs.encodings.base import ImageArray
from pyramids.envs.encodings.piramides import ObservationBatch, PiramidesObservations
from pyramids.envs.encodings.raster import view_image
from pyramids.envs.text import view_text
from pyramids.games.piramides.game import PiramidesState

VECTOR_ENV_ID = "pyramids/Piramides-vector-v0"
#: how many move sets' masks a vector environment remembers (then it starts again)
_KNOWN_MASKS = 1 << 14
_MODES = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}


class PiramidesVectorEnv(VectorEnv):
    """``num_envs`` games of Pirámides (any variant) stepped as one batch."""

    metadata = {  # noqa: RUF012
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": ["ansi", "rgb_array"],
        "render_fps": 4,
    }

    def __init__(
        self,
        num_envs: int = 8,
        illegal_reward: float = -1.0,
        max_episode_steps: int = 2000,
        render_mode: str | None = None,
        autoreset_mode: str | AutoresetMode = "next_step",
        **variant: Any,
    ) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if max_episode_steps < 1:
            raise ValueError("max_episode_steps must be at least 1")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}"
            )
        mode = _MODES.get(str(autoreset_mode), autoreset_mode)
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise ValueError(
                f"autoreset_mode must be 'next_step' or 'same_step', not {autoreset_mode!r}"
            )
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        self.autoreset_mode = mode
        self.game = get_game("piramides")
        self.codec = make_codec("piramides", 1, variant)
        observations = self.codec.observations
        assert isinstance(observations, PiramidesObservations)
        self._observations = observations
        self.variant = dict(variant)
        self.num_envs = num_envs
        self.illegal_reward = float(illegal_reward)
        self.max_episode_steps = max_episode_steps
        self.render_mode = render_mode
        n_actions = self.codec.actions.num_actions
        self.single_action_space = gymnasium.spaces.Discrete(n_actions)
        self.single_observation_space = gymnasium.spaces.Box(
            0.0, 1.0, shape=observations.shape, dtype=np.float32
        )
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self._states: list[PiramidesState] = []
        #: per game, its generator of deal numbers (seeded as SyncVectorEnv seeds its envs)
        self._rngs: list[np.random.Generator | None] = [None] * num_envs
        self._batch = ObservationBatch(observations, num_envs)
        self._obs: Any = None  # the last observations returned (SAME_STEP's final_obs)
        self._masks: list[bytes] = []
        self._scores: list[int] = []
        self._steps: list[int] = []
        self._ended: list[bool] = []
        self._no_moves = bytes(n_actions)
        #: legal moves -> mask bytes: a few hundred move sets make up most positions
        self._known_masks: dict[tuple[Any, ...], bytes] = {}
        #: per action id, its move (Pirámides' ids name the same move in every state)
        sample = self.game.new(seed=0, **self.variant)
        self._moves: list[Any] = [self.codec.actions.decode(sample, a) for a in range(n_actions)]

    # -- helpers --------------------------------------------------------------

    def _rng(self, i: int) -> np.random.Generator:
        rng = self._rngs[i]
        if rng is None:
            rng = self._rngs[i] = seeding.np_random(None)[0]
        return rng

    def _deal(self, i: int, deal: int | None = None) -> None:
        """Deal game ``i`` anew (its next deal number, or ``deal``) and write its row."""
        if deal is None:
            deal = int(self._rng(i).integers(0, 2**32))
        state = self.game.new(seed=int(deal), **self.variant)
        assert isinstance(state, PiramidesState)
        self._states[i] = state
        self._batch.write(i, state)
        self._masks[i] = self.codec.actions.legal_bytes(state)
        self._scores[i] = state.scores()[0]
        self._steps[i] = 0
        self._ended[i] = False

    def _mask_array(self) -> Any:
        return np.frombuffer(b"".join(self._masks), dtype=np.int8).reshape(self.num_envs, -1).copy()

    # -- the VectorEnv API --------------------------------------------------------

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        n = self.num_envs
        seeds: list[int | None]
        if seed is None:
            seeds = [None] * n
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"a list of seeds needs {n} seeds, not {len(seeds)}")
        super().reset(seed=seeds[0])
        for i, s in enumerate(seeds):
            if s is not None:
                self._rngs[i] = seeding.np_random(s)[0]
        options = dict(options or {})
        deals = options.pop("deals", None)
        if options:
            raise ValueError(f"unknown reset option(s): {', '.join(sorted(options))}")
        if deals is not None and len(deals) != n:
            raise ValueError(f"options['deals'] needs {n} deal numbers")
        self._states = [None] * n  # type: ignore[list-item]  # each dealt below
        self._masks = [self._no_moves] * n
        self._scores = [0] * n
        self._steps = [0] * n
        self._ended = [False] * n
        for i in range(n):
            self._deal(i, None if deals is None else int(deals[i]))
        info = {
            "action_mask": self._mask_array(),
            "score": np.array(self._scores, dtype=np.int64),
            "illegal_action": np.zeros(n, dtype=np.bool_),
        }
        self._obs = self._batch.array()
        return self._obs, info

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        if not self._states:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        n = self.num_envs
        if actions.shape != (n,):
            raise ValueError(f"actions must have shape ({n},), not {actions.shape}")
        if not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be integer ids, not {actions.dtype}")
        same_step = self.autoreset_mode == AutoresetMode.SAME_STEP
        ids = actions.tolist()
        n_actions = self.codec.actions.num_actions
        moves = self._moves
        legal_bytes = self.codec.actions.legal_bytes
        known = self._known_masks
        write = self._batch.write
        masks, scores, steps, ended = self._masks, self._scores, self._steps, self._ended
        rewards = [0.0] * n
        terminated = [False] * n
        truncated = [False] * n
        illegal = [False] * n
        finals: list[int] = []
        limit = self.max_episode_steps
        for i in range(n):
            if ended[i]:
                self._deal(i)  # next-step autoreset: this game's action is ignored
                continue
            state = self._states[i]
            a = ids[i]
            steps[i] += 1
            if 0 <= a < n_actions and masks[i][a]:
                state.play(moves[a])
                score = state.scores()[0]
                rewards[i] = float(score - scores[i])
                scores[i] = score
                write(i, state)
                over = state.is_over
                if over:
                    masks[i] = self._no_moves
                else:
                    key = tuple(state.legal_moves())
                    mask = known.get(key)
                    if mask is None:
                        if len(known) >= _KNOWN_MASKS:
                            known.clear()
                        mask = known[key] = legal_bytes(state)
                    masks[i] = mask
            else:
                rewards[i] = self.illegal_reward
                illegal[i] = True
                over = False
            trunc = not over and steps[i] >= limit
            terminated[i], truncated[i] = over, trunc
            if over or trunc:
                ended[i] = True
                finals.append(i)
        info: dict[str, Any] = {}
        obs = self._batch.array()
        if same_step and finals:
            info.update(self._finals(finals, illegal, obs))
            for i in finals:
                self._deal(i)
            obs = self._batch.array()
        self._obs = obs
        info["action_mask"] = self._mask_array()
        info["score"] = np.array(scores, dtype=np.int64)
        info["illegal_action"] = np.array(illegal, dtype=np.bool_)
        return (
            obs,
            np.array(rewards, dtype=np.float64),
            np.array(terminated, dtype=np.bool_),
            np.array(truncated, dtype=np.bool_),
            info,
        )

    def _finals(self, rows: list[int], illegal: list[bool], obs: Any) -> dict[str, Any]:
        """``final_obs`` and ``final_info`` of the games that just ended (``SAME_STEP``)."""
        n = self.num_envs
        ended = np.zeros(n, dtype=np.bool_)
        ended[rows] = True
        final_obs = np.full(n, None, dtype=object)
        masks = np.zeros((n, self.codec.actions.num_actions), dtype=np.int8)
        scores = np.zeros(n, dtype=np.int64)
        flags = np.zeros(n, dtype=np.bool_)
        for i in rows:
            final_obs[i] = obs[i]
            scores[i] = self._scores[i]
            flags[i] = illegal[i]
            masks[i] = np.frombuffer(self._masks[i], dtype=np.int8)
        final_info = {
            "action_mask": masks,
            "_action_mask": ended,
            "score": scores,
            "_score": ended.copy(),
            "illegal_action": flags,
            "_illegal_action": ended.copy(),
        }
        return {
            "final_obs": final_obs,
            "_final_obs": ended,
            "final_info": final_info,
            "_final_info": ended.copy(),
        }

    def action_masks(self) -> Any:
        """The ``(N, num_actions)`` mask of the last ``reset`` or ``step`` (the info's)."""
        if not self._states:
            raise RuntimeError("call reset() before action_masks()")
        return self._mask_array()

    def render(self) -> tuple[str | ImageArray, ...] | None:
        """Each game's picture (``render_mode``), as ``SyncVectorEnv.render`` gives them."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        views = [state.view(0) for state in self.states]
        if self.render_mode == "ansi":
            return tuple(view_text(self.game.id, view) for view in views)
        return tuple(view_image(self.codec, view) for view in views)

    @property
    def states(self) -> list[PiramidesState]:
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
