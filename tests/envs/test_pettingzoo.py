"""PettingZoo: the official API, seed and max-cycles tests for every game with a codec."""

from __future__ import annotations

import importlib
import types
from functools import partial
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the research adapters need numpy: pip install pyramids[rl]")
pytest.importorskip("pettingzoo", reason="pip install pyramids[rl]")

import numpy as np
from pettingzoo.test import api_test, max_cycles_test, render_test, seed_test

from pyramids.engine.registry import get_game
from pyramids.envs.pettingzoo_env import PyramidsAECEnv
from tests.envs.cases import CODEC_CASES, CODEC_GAMES, CODEC_IDS, short

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def module_of(game_id: str) -> Any:
    return importlib.import_module(f"pyramids.envs.{game_id.replace('-', '_')}_v0")


#: (render mode, turn order): both renderings in the default order; rendering
#: does not depend on the order, so "rotate" is checked with one of them
RENDER_ORDERS = [("ansi", "game"), ("rgb_array", "game"), ("ansi", "rotate")]


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
@pytest.mark.parametrize(("render_mode", "turn_order"), RENDER_ORDERS)
def test_api_test(game_id: str, players: int, render_mode: str, turn_order: str) -> None:
    env = module_of(game_id).env(players=players, render_mode=render_mode, turn_order=turn_order)
    api_test(env, num_cycles=60)
    env.reset(seed=1)
    assert env.render() is not None


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
@pytest.mark.parametrize("turn_order", ["game", "rotate"])
def test_seed_test(game_id: str, players: int, turn_order: str) -> None:
    seed_test(
        partial(module_of(game_id).env, players=players, turn_order=turn_order), num_cycles=40
    )


def sampled_module(game_id: str, **kwargs: Any) -> Any:
    """The module's ``env``/``parallel_env`` with ``kwargs`` bound, as max_cycles_test wants.

    The test samples actions without masks; with several seats only the
    "random" policy makes an illegal sample pass the turn as a real move would
    (see the module docstring), so it is bound there.
    """
    module = module_of(game_id)
    if get_game(game_id).max_players > 1:
        kwargs["illegal_action"] = "random"
    return types.SimpleNamespace(
        env=partial(module.env, **kwargs), parallel_env=partial(module.parallel_env, **kwargs)
    )


#: Games in which every move passes the turn, so that the default "game" order
#: selects every agent equally often, as max_cycles_test expects (max_cycles + 1
#: selections each). In pyramido (a turn is several steps) and the treasure hunt
#: (slides until a treasure shows) one seat is selected several times in a row;
#: turn_order="rotate" makes the test pass for every game.
ONE_MOVE_TURNS = [g for g in CODEC_GAMES if g in ("piramides", "pyramideto")]


@pytest.mark.parametrize("game_id", ONE_MOVE_TURNS)
def test_max_cycles_test(game_id: str) -> None:
    max_cycles_test(sampled_module(game_id))


@pytest.mark.parametrize("game_id", CODEC_GAMES)
def test_max_cycles_test_in_rotate_order(game_id: str) -> None:
    max_cycles_test(sampled_module(game_id, turn_order="rotate"))


def play_masked_random(env: Any, rng: np.random.Generator, max_iter: int) -> dict[str, float]:
    """Play uniformly random legal actions to the end; each agent's reward total."""
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=max_iter):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert obs["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
def test_masked_random_play_reaches_the_end_with_rewards_adding_up(
    game_id: str, players: int
) -> None:
    env = module_of(game_id).env(players=players, **short(game_id))
    env.reset(seed=3)
    totals = play_masked_random(env, np.random.default_rng(3), 20_000)
    state = env.unwrapped.game_state
    assert state.is_over
    assert [totals[a] for a in env.possible_agents] == [float(s) for s in state.scores()]


def test_illegal_action_keeps_the_seat_and_the_state() -> None:
    env = module_of("piramides").raw_env(illegal_reward=-3.0)
    env.reset(seed=5)
    obs = env.observe("player_0")
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.game_state.view(0)
    env.step(illegal)
    assert env.agent_selection == "player_0"
    assert env.rewards["player_0"] == -3.0 and env.infos["player_0"]["illegal_action"]
    assert env.game_state.view(0) == before


def test_random_policy_plays_a_legal_move_for_an_illegal_action() -> None:
    env = module_of("pyramideto").raw_env(players=2, illegal_action="random")
    env.reset(seed=5)
    illegal = int(np.flatnonzero(env.observe("player_0")["action_mask"] == 0)[0])
    env.step(illegal)
    assert env.game_state.ply == 1 and env.agent_selection == "player_1"
    assert env.infos["player_0"]["illegal_action"]
    assert env.rewards["player_0"] == -1.0


def test_rank_rewards_are_zero_sum_at_the_end() -> None:
    env = module_of("pyramideto").env(players=3, reward="rank")
    env.reset(seed=4)
    totals = play_masked_random(env, np.random.default_rng(1), 5_000)
    assert abs(sum(totals.values())) < 1e-9
    state = env.unwrapped.game_state
    best = [f"player_{s}" for s in state.winners()]
    assert all(totals[a] == max(totals.values()) for a in best)


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
@pytest.mark.parametrize("turn_order", ["game", "rotate"])
def test_max_cycles_truncates_every_game(game_id: str, players: int, turn_order: str) -> None:
    env = module_of(game_id).raw_env(players=players, max_cycles=3, turn_order=turn_order)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    steps = 0
    while not any(env.truncations.values()):
        assert not env.game_state.is_over
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert steps == 3 * players
    assert all(env.truncations.values())


def test_max_cycles_truncates() -> None:
    env = module_of("piramides").raw_env(max_cycles=3)
    env.reset(seed=5)
    for _ in range(3):
        assert not env.truncations["player_0"]
        env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[0]))
    assert env.truncations["player_0"]


def test_parallel_env_plays_one_move_per_step() -> None:
    par = module_of("piramides").parallel_env()
    observations, _infos = par.reset(seed=2)
    mask = observations["player_0"]["action_mask"]
    _, rewards, terms, truncs, _ = par.step({"player_0": int(np.flatnonzero(mask)[0])})
    assert par.aec.game_state.ply == 1
    assert set(rewards) == set(terms) == set(truncs) == {"player_0"}
    with pytest.raises(ValueError, match="no action"):
        par.step({})


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        PyramidsAECEnv("piramides", render_mode="print")
    with pytest.raises(ValueError, match="reward"):
        PyramidsAECEnv("piramides", reward="points")
    with pytest.raises(ValueError, match="two players"):
        PyramidsAECEnv("piramides", reward="rank")
    with pytest.raises(ValueError, match="max_cycles"):
        PyramidsAECEnv("piramides", max_cycles=0)
    with pytest.raises(ValueError, match="illegal_action"):
        PyramidsAECEnv("piramides", illegal_action="ignore")
    for make in (module_of("pyramido").env, module_of("pyramido").parallel_env):
        with pytest.raises(ValueError, match="turn_order must be 'game' or 'rotate'"):
            make(turn_order="seat")


def test_module_names_follow_pettingzoo_conventions() -> None:
    for game_id in CODEC_GAMES:
        module = module_of(game_id)
        assert isinstance(module, types.ModuleType)
        raw = module.raw_env()
        assert raw.metadata["name"] == f"{game_id.replace('-', '_')}_v0"
        assert raw.possible_agents[0] == "player_0"


# -- turn_order="rotate" ----------------------------------------------------------------

#: games in which one seat moves several times in a row, so "rotate" order adds WAITs
#: between its moves (in the others WAIT is at most needed before the first move)
MULTI_STEP_TURNS = [g for g in CODEC_GAMES if g in ("pyramido", "pyramido-treasure")]


def wait_mask(env: PyramidsAECEnv) -> np.ndarray:
    """The mask of a waiting seat: WAIT and nothing else."""
    mask = np.zeros(env.codec.actions.num_actions + 1, dtype=np.int8)
    mask[env.codec.actions.num_actions] = 1
    return mask


def play_rotate(
    game_id: str, players: int, seed: int, reward: str
) -> tuple[PyramidsAECEnv, list[int], dict[str, float], int]:
    """A whole game in "rotate" order with masked random actions, checking every step.

    Returns the env, the action ids of the real moves in order, every agent's
    reward total and the number of WAIT steps.
    """
    env = module_of(game_id).raw_env(
        players=players, turn_order="rotate", reward=reward, **short(game_id)
    )
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    wait = env.codec.actions.num_actions
    assert env.wait_action == wait and env.action_space("player_0").n == wait + 1
    moves: list[int] = []
    totals = dict.fromkeys(env.possible_agents, 0.0)
    waits = 0
    for step, agent in enumerate(env.agent_iter(max_iter=20_000)):
        obs, reward_, term, trunc, _ = env.last()
        totals[agent] += reward_
        if term or trunc:
            env.step(None)
            continue
        assert agent == f"player_{step % players}"  # strictly in seat order, one step each
        state = env.game_state
        for other in env.possible_agents:  # every seat's mask, selected or not
            mask = env.observe(other)["action_mask"]
            if env._seat[other] == state.current_player:
                assert mask[wait] == 0 and mask[:wait].any()
                assert (mask[:wait] == env.codec.actions.mask(state)).all()
            else:
                assert (mask == wait_mask(env)).all()
        if env._seat[agent] == state.current_player:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            moves.append(action)
        else:
            action, ply = wait, state.ply
            waits += 1
        env.step(action)
        assert not env.infos[agent]["illegal_action"]
        if action == wait:
            assert env.game_state.ply == ply
            assert all(r == 0.0 for r in env.rewards.values())  # WAIT earns nothing
    assert env.game_state.is_over
    return env, moves, totals, waits


def play_game_order(
    game_id: str, players: int, seed: int, reward: str, actions: list[int]
) -> tuple[PyramidsAECEnv, dict[str, float]]:
    """The same deal in the default order, playing ``actions`` one per step."""
    env = module_of(game_id).raw_env(players=players, reward=reward, **short(game_id))
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    todo = iter(actions)
    for agent in env.agent_iter(max_iter=20_000):
        _, reward_, term, trunc, _ = env.last()
        totals[agent] += reward_
        env.step(None if term or trunc else next(todo))
    assert next(todo, None) is None
    return env, totals


@pytest.mark.parametrize("game_id", MULTI_STEP_TURNS)
@pytest.mark.parametrize("reward", ["score", "rank"])
def test_rotate_order_selects_each_agent_once_per_cycle_and_plays_the_same_game(
    game_id: str, reward: str
) -> None:
    players = 3
    rotate, moves, totals, waits = play_rotate(game_id, players, seed=7, reward=reward)
    # WAITs really happen between one seat's moves (not only before the first move)
    assert waits > players
    state = rotate.game_state
    same, same_totals = play_game_order(game_id, players, seed=7, reward=reward, actions=moves)
    assert same.game_state.moves_played() == state.moves_played()
    assert same.game_state.scores() == state.scores()
    assert totals == same_totals
    if reward == "score":
        assert [totals[a] for a in rotate.possible_agents] == [float(s) for s in state.scores()]
    else:
        assert abs(sum(totals.values())) < 1e-9
        assert all(totals[f"player_{s}"] == max(totals.values()) for s in state.winners())


def rotate_env_at_a_wait(illegal_action: str) -> PyramidsAECEnv:
    """A 2-player pyramido env in "rotate" order whose selected seat must WAIT."""
    env = module_of("pyramido").raw_env(
        players=2, turn_order="rotate", illegal_action=illegal_action, illegal_reward=-2.0
    )
    env.reset(seed=11)
    while env._seat[env.agent_selection] == env.game_state.current_player:
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    return env


@pytest.mark.parametrize("illegal_action", ["penalize", "random"])
def test_rotate_order_a_waiting_seat_that_moves_is_penalized_and_changes_nothing(
    illegal_action: str,
) -> None:
    env = rotate_env_at_a_wait(illegal_action)
    waiter = env.agent_selection
    view, ply = env.game_state.view(None), env.game_state.ply
    env.step(0)  # a real move's id, but not this seat's turn
    assert env.rewards[waiter] == -2.0 and env.infos[waiter]["illegal_action"]
    assert env.game_state.view(None) == view and env.game_state.ply == ply
    if illegal_action == "penalize":
        assert env.agent_selection == waiter  # it must still WAIT
        env.step(env.wait_action)
        assert env.rewards[waiter] == 0.0 and not env.infos[waiter]["illegal_action"]
    # "random" took the only legal action, WAIT, in its place: the turn moved on
    assert env.agent_selection != waiter
    assert env.game_state.view(None) == view


@pytest.mark.parametrize("illegal_action", ["penalize", "random"])
def test_rotate_order_the_mover_may_not_wait(illegal_action: str) -> None:
    env = rotate_env_at_a_wait(illegal_action)
    env.step(env.wait_action)
    mover = env.agent_selection
    assert env._seat[mover] == env.game_state.current_player
    seat, ply, before = env._seat[mover], env.game_state.ply, env.game_state.scores()
    env.step(env.wait_action)
    gain = env.game_state.scores()[seat] - before[seat]  # from the move played instead
    assert env.rewards[mover] == -2.0 + gain and env.infos[mover]["illegal_action"]
    if illegal_action == "penalize":
        assert env.agent_selection == mover and env.game_state.ply == ply
    else:  # a random legal move was played instead
        assert env.game_state.ply == ply + 1


def test_rotate_order_parallel_env_plays_one_move_per_step_to_the_end() -> None:
    game_id, players = "pyramido-treasure", 3
    par = module_of(game_id).parallel_env(players=players, turn_order="rotate", **short(game_id))
    observations, _ = par.reset(seed=4)
    aec = par.aec
    wait = aec.wait_action
    rng = np.random.default_rng(4)
    totals = dict.fromkeys(par.possible_agents, 0.0)
    with pytest.raises(ValueError, match="every live agent"):
        par.step({a: wait for a in par.agents if a != "player_2"})
    for _ in range(2_000):
        if not par.agents:
            break
        ply = aec.game_state.ply
        actions = {
            a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in par.agents
        }
        assert sum(action != wait for action in actions.values()) == 1  # one mover
        observations, rewards, _, _, infos = par.step(actions)
        assert aec.game_state.ply == ply + 1
        assert not any(info["illegal_action"] for info in infos.values())
        for a, r in rewards.items():
            totals[a] += r
    state = aec.game_state
    assert state.is_over
    assert [totals[a] for a in par.possible_agents] == [float(s) for s in state.scores()]


def test_rotate_order_parallel_env_judges_every_action() -> None:
    par = module_of("pyramido").parallel_env(players=2, turn_order="rotate")
    observations, _ = par.reset(seed=3)
    aec = par.aec
    mover = f"player_{aec.game_state.current_player}"
    waiter = next(a for a in par.agents if a != mover)
    move = int(np.flatnonzero(observations[mover]["action_mask"])[0])
    _, rewards, _, _, infos = par.step({mover: move, waiter: move})
    assert aec.game_state.ply == 1  # the mover's move stands
    assert infos[waiter]["illegal_action"] and rewards[waiter] == -1.0
    assert not infos[mover]["illegal_action"]


def test_rotate_order_parallel_env_truncates_after_max_cycles_steps() -> None:
    par = module_of("pyramido").parallel_env(players=3, max_cycles=3, turn_order="rotate")
    observations, _ = par.reset(seed=8)
    for step in range(3):
        actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}
        observations, _, _, truncations, _ = par.step(actions)
        assert all(truncations.values()) == (step == 2)
    assert par.agents == []


@pytest.mark.parametrize("game_id", CODEC_GAMES)
def test_pettingzoos_render_test(game_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's own check of the conventional modes: human, ansi and rgb_array."""
    render_test(partial(module_of(game_id).env, **short(game_id)))
    assert capsys.readouterr().out  # "human" printed the table


@pytest.mark.parametrize(("game_id", "players"), CODEC_CASES, ids=CODEC_IDS)
def test_global_state_is_every_seats_observation(game_id: str, players: int) -> None:
    env = module_of(game_id).env(players=players, **short(game_id))
    par = module_of(game_id).parallel_env(players=players, **short(game_id))
    env.reset(seed=3)
    par.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(30):
        if not env.agents:
            break
        state = env.state()
        assert env.unwrapped.state_space.contains(state)
        expected = [env.observe(a)["observation"] for a in env.possible_agents]
        assert np.array_equal(state, np.concatenate(expected))
        assert np.array_equal(par.state(), state)
        mover = env.agent_selection
        action = int(rng.choice(np.flatnonzero(env.observe(mover)["action_mask"])))
        env.step(action)
        par.step({mover: action})
