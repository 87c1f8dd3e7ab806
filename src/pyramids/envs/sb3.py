"""Stable-Baselines3: the vector environment as an SB3 ``VecEnv``, masks included.

SB3 does not take a Gymnasium ``VectorEnv``: it has its own ``VecEnv``
interface (``reset() -> obs``, ``step_async``/``step_wait`` with a list of
info dicts, an ended game reset in the same step with its last observation
in ``info["terminal_observation"]``). sb3-contrib's ``MaskablePPO`` reads the
legal actions through ``env_method("action_masks")``. :class:`Sb3VecEnv`
gives both over :class:`~pyramids.envs.vector_env.PiramidesVectorEnv` in
``same_step`` autoreset mode, so the batch stays one batch (no
``DummyVecEnv`` of N single environments).

Stable-Baselines3 needs PyTorch, which Pyramids does not depend on, so this
module imports neither: :class:`Sb3VecEnv` implements the interface, and
:func:`make_sb3_vec_env` makes it an instance of SB3's own ``VecEnv`` class
(as SB3's ``isinstance`` checks want) when SB3 is installed. Its tests run
without SB3; ``examples/train_masked_ppo.py`` trains ``MaskablePPO`` with it.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from pyramids.envs.vector_env import PiramidesVectorEnv

_MASKS = "action_masks"


class Sb3VecEnv:
    """SB3's ``VecEnv`` methods over N games of Pirámides stepped as one batch."""

    def __init__(self, num_envs: int = 8, **kwargs: Any) -> None:
        kwargs["autoreset_mode"] = "same_step"
        self.venv = PiramidesVectorEnv(num_envs=num_envs, **kwargs)
        self.num_envs = num_envs
        self.observation_space = self.venv.single_observation_space
        self.action_space = self.venv.single_action_space
        self.render_mode = self.venv.render_mode
        self.metadata = {"render_modes": self.venv.metadata["render_modes"]}
        self.reset_infos: list[dict[str, Any]] = [{} for _ in range(num_envs)]
        self._seeds: list[int | None] = [None] * num_envs
        self._options: list[dict[str, Any]] = [{} for _ in range(num_envs)]
        self._actions: Any = None
        self._masks: Any = None

    # -- seeding and reset, as SB3's VecEnv --------------------------------------------

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seeds for the next ``reset``: game *i* gets ``seed + i`` (SB3's convention)."""
        if seed is None:
            seed = int(np.random.randint(0, 2**31 - 1))
        self._seeds = [seed + i for i in range(self.num_envs)]
        return list(self._seeds)

    def set_options(self, options: list[dict[str, Any]] | dict[str, Any] | None = None) -> None:
        """Options for the next ``reset`` (only ``{"deal": n}`` per game is understood)."""
        if options is None:
            options = {}
        self._options = list(options) if isinstance(options, list) else [options] * self.num_envs

    def reset(self) -> Any:
        deals = [o.get("deal") for o in self._options]
        unknown = {k for o in self._options for k in o if k != "deal"}
        if unknown:
            raise ValueError(f"unknown reset option(s): {', '.join(sorted(unknown))}")
        options = None
        if any(d is not None for d in deals):
            if not all(d is not None for d in deals):
                raise ValueError("give a deal to every game or to none")
            options = {"deals": deals}
        seed: Any = None if all(s is None for s in self._seeds) else list(self._seeds)
        obs, info = self.venv.reset(seed=seed, options=options)
        self._seeds = [None] * self.num_envs
        self._options = [{} for _ in range(self.num_envs)]
        self._masks = info["action_mask"]
        self.reset_infos = self._infos(info)
        return obs

    # -- stepping -------------------------------------------------------------------------

    def step_async(self, actions: Any) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> tuple[Any, Any, Any, list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_async() first")
        obs, rewards, terminated, truncated, info = self.venv.step(self._actions)
        self._actions = None
        self._masks = info["action_mask"]
        infos = self._infos(info)
        dones = terminated | truncated
        if dones.any():
            final_obs = info["final_obs"]
            for i in np.flatnonzero(dones):
                infos[i]["terminal_observation"] = final_obs[i]
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
                infos[i]["final_score"] = int(info["final_info"]["score"][i])
        return obs, rewards.astype(np.float32), dones, infos

    def step(self, actions: Any) -> tuple[Any, Any, Any, list[dict[str, Any]]]:
        self.step_async(actions)
        return self.step_wait()

    def _infos(self, info: dict[str, Any]) -> list[dict[str, Any]]:
        masks, scores, illegal = info["action_mask"], info["score"], info["illegal_action"]
        return [
            {"action_mask": masks[i], "score": int(scores[i]), "illegal_action": bool(illegal[i])}
            for i in range(self.num_envs)
        ]

    def action_masks(self) -> Any:
        """The ``(N, num_actions)`` legal actions now, as booleans."""
        if self._masks is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._masks.astype(np.bool_)

    # -- the rest of the VecEnv interface ------------------------------------------------

    def _indices(self, indices: int | Iterable[int] | None) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: int | Iterable[int] | None = None) -> list[Any]:
        """Per game: ``action_masks`` (the bound method) or an attribute of the batch env."""
        if attr_name == _MASKS:
            return [self.action_masks for _ in self._indices(indices)]
        value = getattr(self.venv, attr_name)
        return [value for _ in self._indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == _MASKS or hasattr(self.venv, attr_name)

    def set_attr(
        self, attr_name: str, value: Any, indices: int | Iterable[int] | None = None
    ) -> None:
        raise AttributeError(f"the batch of games has no per-game attribute {attr_name!r} to set")

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: int | Iterable[int] | None = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """``env_method("action_masks")``: each game's mask (what MaskablePPO calls)."""
        rows = self._indices(indices)
        if method_name == _MASKS:
            masks = self.action_masks()
            return [masks[i] for i in rows]
        raise AttributeError(f"no per-game method {method_name!r}: only {_MASKS!r}")

    def env_is_wrapped(
        self, wrapper_class: type, indices: int | Iterable[int] | None = None
    ) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[Any]:
        frames = self.venv.render() if self.render_mode == "rgb_array" else None
        return list(frames) if frames is not None else [None] * self.num_envs

    def render(self, mode: str | None = None) -> Any:
        return self.venv.render()

    def close(self) -> None:
        self.venv.close()

    @property
    def unwrapped(self) -> Sb3VecEnv:
        return self


def make_sb3_vec_env(num_envs: int = 8, **kwargs: Any) -> Any:
    """An :class:`Sb3VecEnv` that is also an SB3 ``VecEnv`` (SB3 must be installed).

    Keyword arguments are :class:`~pyramids.envs.vector_env.PiramidesVectorEnv`'s
    (``max_episode_steps``, ``illegal_reward``, variant options).
    """
    if importlib.util.find_spec("stable_baselines3") is None:
        raise ImportError("make_sb3_vec_env needs stable-baselines3: pip install sb3-contrib")
    from stable_baselines3.common.vec_env import VecEnv  # type: ignore[import-not-found,unused-ignore]

    cls = type("PiramidesSb3VecEnv", (Sb3VecEnv, VecEnv), {})
    return cls(num_envs, **kwargs)
