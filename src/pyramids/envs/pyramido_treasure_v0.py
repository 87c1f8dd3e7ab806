"""The treasure hunt (``pyramido-treasure``) as a PettingZoo AEC environment.

2-5 agents: ``players=`` picks how many. A turn is a run of slides by the same
seat, so by default one agent is selected several times in a row;
``turn_order="rotate"`` selects the agents in seat order, one step each, the
others answering ``WAIT`` (see :mod:`pyramids.envs.pettingzoo_env`).

>>> from pyramids.envs import pyramido_treasure_v0
>>> env = pyramido_treasure_v0.env(players=3)
>>> env.reset(seed=1)
>>> env.possible_agents
['player_0', 'player_1', 'player_2']

Action ids and observation layout: :mod:`pyramids.envs.encodings.pyramido_treasure`.
"""

from __future__ import annotations

from pyramids.envs.pettingzoo_env import make_env_functions

env, raw_env, parallel_env = make_env_functions("pyramido-treasure")

__all__ = ["env", "parallel_env", "raw_env"]
