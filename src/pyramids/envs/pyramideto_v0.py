"""Pyramideto as a PettingZoo AEC environment (2-4 agents, ``players=`` picks how many).

>>> from pyramids.envs import pyramideto_v0
>>> env = pyramideto_v0.env(players=3)
>>> env.reset(seed=1)
>>> env.possible_agents
['player_0', 'player_1', 'player_2']

Action ids and observation layout: :mod:`pyramids.envs.encodings.pyramideto`.
"""

from __future__ import annotations

from pyramids.envs.pettingzoo_env import make_env_functions

env, raw_env, parallel_env = make_env_functions("pyramideto")

__all__ = ["env", "parallel_env", "raw_env"]
