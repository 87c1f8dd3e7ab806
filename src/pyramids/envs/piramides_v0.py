"""Pirámides as a PettingZoo AEC environment (one agent, ``player_0``).

>>> from pyramids.envs import piramides_v0
>>> env = piramides_v0.env()
>>> env.reset(seed=1)
>>> env.agent_selection
'player_0'

Action ids and observation layout: :mod:`pyramids.envs.encodings.piramides`.
"""

from __future__ import annotations

from pyramids.envs.pettingzoo_env import make_env_functions

env, raw_env, parallel_env = make_env_functions("piramides")

__all__ = ["env", "parallel_env", "raw_env"]
