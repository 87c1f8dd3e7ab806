"""Research adapters: Gymnasium, PettingZoo and OpenSpiel (optional extras).

Install with ``pip install pyramids[rl]`` (Gymnasium, PettingZoo) or
``pip install pyramids[openspiel]``. Nothing in the rest of Pyramids imports
this package, so the engine never needs NumPy.

* ``pyramids.envs.encodings``: per-game action ids and observation vectors;
* ``pyramids.envs.gym_env``: ``gymnasium.make("pyramids/Piramides-v0")``,
  ``pyramids/Pyramido-v0``, ``pyramids/Pyramideto-v0`` and
  ``pyramids/PyramidoTreasure-v0`` (importing ``pyramids.envs`` registers
  them when Gymnasium is installed);
* ``pyramids.envs.vector_env``: N games of Pirámides stepped together,
  ``gymnasium.make_vec("pyramids/Piramides-vector-v0", num_envs=N)``;
* ``pyramids.envs.sb3``: that batch as a Stable-Baselines3 ``VecEnv``
  (``MaskablePPO`` included);
* ``pyramids.envs.defaults``: the research defaults (a bounded treasure hunt);
* ``pyramids.envs.<game>_v0``: PettingZoo AEC environments (``env()``,
  ``raw_env()``, ``parallel_env()``);
* ``pyramids.envs.openspiel_game``: ``pyspiel.load_game("pyramids_<game>")``.

See ``docs/adapters.md``.
"""

from __future__ import annotations

import importlib.util

if importlib.util.find_spec("gymnasium") is not None:
    from pyramids.envs import gym_env as _gym_env  # noqa: F401  (registers the env ids)
    from pyramids.envs import vector_env as _vector_env  # noqa: F401
