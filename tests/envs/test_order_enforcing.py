"""``env()``'s order enforcer behaves as PettingZoo's ``OrderEnforcingWrapper``, step for step.

:class:`~pyramids.envs.order_enforcing.OrderEnforcer` exists only to make the
per-step reads direct; these tests hold it to the original's behaviour: the
same refusals before ``reset()`` with the same messages, the same values
after it, and the same game through ``agent_iter`` / ``last`` / ``step``.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="pip install pyramids[rl]")

import numpy as np
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from pyramids.envs import piramides_v0, pyramido_treasure_v0, pyramido_v0
from pyramids.envs.order_enforcing import OrderEnforcer

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

ATTRIBUTES = (
    "agents",
    "agent_selection",
    "rewards",
    "terminations",
    "truncations",
    "infos",
    "num_agents",
)


def both() -> tuple[Any, Any]:
    ours = pyramido_v0.env(players=2)
    assert isinstance(ours, OrderEnforcer)
    return ours, OrderEnforcingWrapper(pyramido_v0.raw_env(players=2))


@pytest.mark.parametrize("name", ATTRIBUTES)
def test_reads_before_reset_are_refused_with_pettingzoo_s_message(name: str) -> None:
    messages = []
    for env in both():
        with pytest.raises(AttributeError) as caught:
            getattr(env, name)
        messages.append(str(caught.value))
    assert messages[0] == messages[1] == f"{name} cannot be accessed before reset"


def test_last_and_calls_before_reset_fail_as_in_pettingzoo() -> None:
    for env in both():
        with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
            env.last()
    for call in ("step", "observe", "agent_iter"):
        errors = []
        for env in both():
            args = () if call == "agent_iter" else ("player_0",)
            with pytest.raises(Exception) as caught:
                result = getattr(env, call)(*args)
                iter(result).__next__()  # agent_iter: PettingZoo refuses on use
            errors.append((type(caught.value), str(caught.value)))
        assert errors[0] == errors[1], call


def test_the_name_and_writes_through_the_wrapper() -> None:
    ours, theirs = both()
    assert str(ours) == str(theirs) == "pyramido_v0"
    ours.reset(seed=1)
    mover = ours.agent_selection
    other = next(a for a in ours.agents if a != mover)
    ours.agent_selection = other  # a write reaches the environment, never shadows it
    assert ours.unwrapped.agent_selection == other == ours.agent_selection
    mask = ours.last()[0]["action_mask"]  # the waiting seat's: all zeros, not the mover's
    assert not mask.any() and ours.unwrapped.observe(mover)["action_mask"].any()


def test_private_attributes_stay_hidden() -> None:
    env = piramides_v0.env()
    env.reset(seed=1)
    with pytest.raises(AttributeError, match="private attribute"):
        _ = env._state


def test_agent_iter_demands_a_step_in_every_iteration() -> None:
    env = piramides_v0.env()
    env.reset(seed=1)
    it = iter(env.agent_iter())
    next(it)
    with pytest.raises(AssertionError, match="need to call step"):
        next(it)


def test_agent_iter_stops_at_max_iter_and_at_the_end() -> None:
    env = piramides_v0.env()
    env.reset(seed=1)
    taken = 0
    for _ in env.agent_iter(max_iter=3):
        env.step(0)  # legal or not (then penalized), a step is taken
        taken += 1
    assert taken == 3 and env.agents
    env.reset(seed=1)
    steps = 0
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps > 0 and not env.agents


@pytest.mark.parametrize("module", [piramides_v0, pyramido_v0, pyramido_treasure_v0])
def test_a_game_through_ours_is_the_game_through_pettingzoo_s(module: Any) -> None:
    """Same deal, same chooser: every selection, observation, reward and flag agree."""
    players = 1 if module is piramides_v0 else 2
    ours = module.env(players=players)
    theirs = OrderEnforcingWrapper(module.raw_env(players=players))
    for env in (ours, theirs):
        env.reset(options={"deal": 11})
    rng = np.random.default_rng(5)
    pairs = zip(ours.agent_iter(max_iter=400), theirs.agent_iter(max_iter=400), strict=True)
    for a, b in pairs:
        assert a == b
        last_a, last_b = ours.last(), theirs.last()
        for key in ("observation", "action_mask"):
            assert np.array_equal(last_a[0][key], last_b[0][key])
        assert last_a[1:] == last_b[1:]
        assert ours.rewards == theirs.rewards and ours._cumulative_rewards == dict(
            theirs._cumulative_rewards
        )
        if last_a[2] or last_a[3]:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(last_a[0]["action_mask"])))
        ours.step(action)
        theirs.step(action)
    assert ours.agents == theirs.agents
