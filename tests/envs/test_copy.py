"""Every environment deep-copies and pickles at any point and then plays on as the original.

A copy is taken after a random number of random legal steps (before the
first reset, right after it, mid-game, or after the end), and then the copy
and its uncopied twin are given the same actions: observations, masks,
rewards and endings must agree at every step, and so must the next episodes
the twins deal themselves. Wrong data after a copy is silent, which is why
this is a property test over every game and seat count.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the research adapters need numpy: pip install pyramids[rl]")
pytest.importorskip("gymnasium", reason="pip install pyramids[rl]")
pytest.importorskip("pettingzoo", reason="pip install pyramids[rl]")

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from pyramids.envs.gym_env import PyramidsEnv
from pyramids.envs.pettingzoo_env import make_env_functions
from pyramids.envs.vector_env import PiramidesVectorEnv
from tests.envs.cases import CODEC_CASES, short

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _pickled(x: Any) -> Any:
    return pickle.loads(pickle.dumps(x))


COPIERS: dict[str, Callable[[Any], Any]] = {"deepcopy": copy.deepcopy, "pickle": _pickled}

cases = st.sampled_from(CODEC_CASES)
copiers = st.sampled_from(sorted(COPIERS))
#: steps before the copy: -1 copies a fresh environment before its first reset
befores = st.integers(-1, 60)


def pick(rng: np.random.Generator, mask: Any) -> int:
    """A uniformly random legal id of ``mask``."""
    return int(rng.choice(np.flatnonzero(mask)))


def same(a: Any, b: Any) -> None:
    """Two results (arrays, numbers, or tuples and dicts of them) are equal."""
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            same(a[key], b[key])
    elif isinstance(a, tuple | list):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            same(x, y)
    else:
        assert np.array_equal(np.asarray(a), np.asarray(b))


# -- Gymnasium ------------------------------------------------------------------------------


def gym_step(env: PyramidsEnv, action: int) -> tuple[Any, ...]:
    obs, reward, term, trunc, info = env.step(action)
    return obs, reward, term, trunc, info["action_mask"], info["score"]


@given(case=cases, how=copiers, before=befores, seed=st.integers(0, 2**16))
def test_gym_env_copies_play_on_as_the_original(
    case: tuple[str, int], how: str, before: int, seed: int
) -> None:
    game_id, players = case
    env = PyramidsEnv(game_id, players=players, opponents="random", **short(game_id))
    rng = np.random.default_rng(seed)
    twin = COPIERS[how](env) if before < 0 else None
    obs, info = env.reset(seed=seed)
    if twin is not None:
        same(twin.reset(seed=seed), (obs, info))
    steps, done = 0, False
    while twin is None:
        if steps >= before or done:
            twin = COPIERS[how](env)
            break
        obs, _, term, trunc, info = env.step(pick(rng, info["action_mask"]))
        done, steps = term or trunc, steps + 1
    for _ in range(3):  # this episode's rest and the next ones, dealt from np_random
        for _ in range(40):
            if done:
                break
            action = pick(rng, info["action_mask"])
            ours = gym_step(env, action)
            same(ours, gym_step(twin, action))
            info, done = {"action_mask": ours[4]}, ours[2] or ours[3]
        obs, info = env.reset()
        same(twin.reset(), (obs, info))
        done = False


# -- PettingZoo -----------------------------------------------------------------------------


def aec_last(env: Any) -> tuple[Any, ...]:
    agent = env.agent_selection
    obs, reward, term, trunc, info = env.last()
    return agent, obs, reward, term, trunc, dict(env.rewards), info.get("illegal_action")


@given(
    case=cases,
    how=copiers,
    before=befores,
    seed=st.integers(0, 2**16),
    wrapped=st.booleans(),
    order=st.sampled_from(["game", "rotate"]),
)
def test_pettingzoo_aec_copies_play_on_as_the_original(
    case: tuple[str, int], how: str, before: int, seed: int, wrapped: bool, order: str
) -> None:
    game_id, players = case
    env_fn, raw_fn, _ = make_env_functions(game_id)
    make = env_fn if wrapped else raw_fn
    env = make(players=players, turn_order=order, **short(game_id))
    rng = np.random.default_rng(seed)
    twin = COPIERS[how](env) if before < 0 else None
    env.reset(seed=seed)
    if twin is not None:
        twin.reset(seed=seed)
    steps = 0
    while twin is None:
        if steps >= before or not env.agents:
            twin = COPIERS[how](env)
            break
        _, obs, _, term, trunc, _, _ = aec_last(env)
        env.step(None if term or trunc else pick(rng, obs["action_mask"]))
        steps += 1
    for _ in range(2):  # this game's rest, then a game dealt from the seeded stream
        for _ in range(80):
            if not env.agents:
                break
            ours = aec_last(env)
            same(ours[1], aec_last(twin)[1])
            assert ours[0::2] == aec_last(twin)[0::2]
            action = None if ours[3] or ours[4] else pick(rng, ours[1]["action_mask"])
            env.step(action)
            twin.step(action)
        env.reset()
        twin.reset()


@given(case=cases, how=copiers, before=st.integers(0, 40), seed=st.integers(0, 2**16))
def test_pettingzoo_parallel_copies_play_on_as_the_original(
    case: tuple[str, int], how: str, before: int, seed: int
) -> None:
    game_id, players = case
    _, _, parallel_fn = make_env_functions(game_id)
    env = parallel_fn(players=players, turn_order="rotate", **short(game_id))
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)

    def actions() -> dict[str, int]:
        return {a: pick(rng, observations[a]["action_mask"]) for a in env.agents}

    for _ in range(before):
        if not env.agents:
            break
        observations = env.step(actions())[0]
    twin = COPIERS[how](env)
    for _ in range(60):
        if not env.agents:
            break
        chosen = actions()
        ours = env.step(chosen)
        same(ours, twin.step(chosen))
        observations = ours[0]
    assert env.agents == twin.agents


# -- the vector environment -------------------------------------------------------------------


@given(how=copiers, before=st.integers(-1, 80), seed=st.integers(0, 2**16))
def test_vector_env_copies_play_on_as_the_original(how: str, before: int, seed: int) -> None:
    """Short episodes, so the twins autoreset (deals from ``np_random``) after the copy."""
    env = PiramidesVectorEnv(num_envs=3, max_episode_steps=25)
    rng = np.random.default_rng(seed)
    twin = COPIERS[how](env) if before < 0 else None
    obs, info = env.reset(seed=seed)
    if twin is not None:
        same(twin.reset(seed=seed), (obs, info))

    def actions(mask: Any) -> Any:
        return (rng.random(mask.shape) * mask).argmax(axis=1)

    for _ in range(max(before, 0)):
        info = env.step(actions(info["action_mask"]))[4]
    if twin is None:
        twin = COPIERS[how](env)
    for _ in range(80):
        chosen = actions(info["action_mask"])
        ours = env.step(chosen)
        same(ours, twin.step(chosen))
        info = ours[4]


# -- OpenSpiel --------------------------------------------------------------------------------


def spiel_facts(state: Any, players: int) -> tuple[Any, ...]:
    terminal = state.is_terminal()
    return (
        state.current_player(),
        terminal,
        state.returns(),
        [] if terminal else state.legal_actions(),
        [state.observation_tensor(p) for p in range(players)],
        [state.information_state_string(p) for p in range(players)],
        str(state),
    )


@given(
    case=cases,
    how=st.sampled_from(["deepcopy", "pickle", "clone"]),
    before=st.integers(0, 60),
    seed=st.integers(0, 2**16),
)
def test_openspiel_state_copies_play_on_as_the_original(
    case: tuple[str, int], how: str, before: int, seed: int
) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="pip install pyramids[openspiel]")
    from pyramids.envs.openspiel_game import register, short_name

    game_id, players = case
    register(game_id)
    game = pyspiel.load_game(
        short_name(game_id), {"players": players, "seed": seed, **short(game_id)}
    )
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    for _ in range(before):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    twin = state.clone() if how == "clone" else COPIERS[how](state)
    for _ in range(60):
        facts = spiel_facts(state, players)
        assert facts == spiel_facts(twin, players)
        if state.is_terminal():
            break
        action = int(rng.choice(facts[3]))
        state.apply_action(action)
        twin.apply_action(action)
