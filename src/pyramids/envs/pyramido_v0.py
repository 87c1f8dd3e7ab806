"""Pyramido as a PettingZoo AEC environment: one action per step of a turn.

2-4 agents: ``players=`` picks how many. A turn is several steps by the same
seat, so by default one agent is selected several times in a row;
``turn_order="rotate"`` selects the agents in seat order, one step each, the
others answering ``WAIT`` (see :mod:`pyramids.envs.pettingzoo_env`).

>>> from pyramids.envs import pyramido_v0
>>> env = pyramido_v0.env(players=3)
>>> env.reset(seed=1)
>>> env.possible_agents
['player_0', 'player_1', 'player_2']

Action ids and observation layout: :mod:`pyramids.envs.encodings.pyramido`.
"""

from __future__ import annotations

from pyramids.envs.pettingzoo_env import make_env_functions

env, raw_env, parallel_env = make_env_functions("pyramido")

__all__ = ["env", "parallel_env", "raw_env"]
