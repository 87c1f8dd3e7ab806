"""Gymnasium: the official checker, registration, masks, rewards and illegal actions."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the research adapters need numpy: pip install pyramids[rl]")
pytest.importorskip("gymnasium", reason="pip install pyramids[rl]")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

import pyramids
from pyramids.envs.gym_env import ENV_ID, ENV_IDS, PyramidsEnv
from tests.envs.cases import short

# check_env warns that an env made without gymnasium.make has no spec to re-make it from
pytestmark = pytest.mark.filterwarnings("ignore:.*not having a spec")


@pytest.mark.parametrize("render_mode", ["ansi", "rgb_array"])
def test_passes_gymnasiums_env_checker(render_mode: str) -> None:
    env = gymnasium.make(ENV_ID, render_mode=render_mode)
    check_env(env.unwrapped)


def test_registered_id_is_importable_by_module_path() -> None:
    env = gymnasium.make(f"pyramids.envs:{ENV_ID}")
    obs, info = env.reset(seed=3)
    assert obs.shape == (466,)
    assert env.action_space.n == 30
    assert info["action_mask"].dtype == np.int8


def test_episode_return_is_the_final_score_and_masks_are_the_legal_moves() -> None:
    env = PyramidsEnv()
    _obs, info = env.reset(seed=11)
    rng = np.random.default_rng(0)
    total = 0.0
    done = False
    while not done:
        mask = info["action_mask"]
        legal = env.codec.actions.legal_actions(env.state)
        assert np.flatnonzero(mask).tolist() == legal
        action = int(rng.choice(np.flatnonzero(mask)))
        _, reward, done, truncated, info = env.step(action)
        assert not truncated and not info["illegal_action"]
        total += reward
    assert total == env.state.scores()[0]
    assert info["action_mask"].sum() == 0
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_reset_plays_the_requested_deal() -> None:
    env = PyramidsEnv()
    env.reset(options={"deal": 42})
    assert env.state.view(0) == pyramids.new_game("piramides", seed=42).view(0)
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"deel": 1})


def test_same_seed_same_episodes() -> None:
    a, b = PyramidsEnv(), PyramidsEnv()
    oa, _ = a.reset(seed=5)
    ob, _ = b.reset(seed=5)
    assert np.array_equal(oa, ob)
    assert a.state.setup() == b.state.setup()


def test_illegal_action_changes_nothing_and_is_penalised() -> None:
    env = PyramidsEnv(illegal_reward=-2.0)
    obs, info = env.reset(seed=8)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.state.view(0)
    obs2, reward, done, _, info2 = env.step(illegal)
    assert reward == -2.0 and info2["illegal_action"] and not done
    assert np.array_equal(obs, obs2) and env.state.view(0) == before
    for bad in (-1, 30, 99):
        assert env.step(bad)[4]["illegal_action"]


def test_bad_constructor_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        PyramidsEnv(render_mode="print")
    with pytest.raises(ValueError, match="seat"):
        PyramidsEnv(seat=1)
    with pytest.raises(pyramids.VariantError):
        PyramidsEnv(jokers=3)


def test_rendering_shows_the_table() -> None:
    env = PyramidsEnv(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "Stock 23" in text and "G1..G7" in text
    env = PyramidsEnv(render_mode="rgb_array")
    env.reset(seed=1)
    image = env.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8 and image.shape[2] == 3


def test_a_multiplayer_game_from_one_seat_with_our_agents_opposite() -> None:
    env = PyramidsEnv("pyramideto", players=3, seat=1, opponents="random", render_mode="rgb_array")
    check_env(env)
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    done, steps = False, 0
    while not done and steps < 300:
        assert env.state.current_player == 1
        legal = np.flatnonzero(info["action_mask"])
        _, _, done, _, info = env.step(int(rng.choice(legal)))
        steps += 1
    assert done or env.state.current_player == 1


def test_unknown_games_are_refused() -> None:
    with pytest.raises(pyramids.UnknownGame):
        PyramidsEnv("chess")


@pytest.mark.parametrize("layout", ["tripeaks", "golf"])
def test_other_layouts_get_their_own_action_space(layout: str) -> None:
    env = PyramidsEnv(layout=layout, render_mode="rgb_array")
    check_env(env)
    positions = len(pyramids.new_game("piramides", layout=layout).view(0)["pyramid"])
    assert env.action_space.n == positions + 2


@pytest.mark.parametrize(("env_id", "game_id"), sorted(ENV_IDS.items()))
def test_every_game_is_registered_with_players_and_opponents_as_options(
    env_id: str, game_id: str
) -> None:
    game = pyramids.get_game(game_id)
    players = min(3, game.max_players)
    env = gymnasium.make(env_id, players=players, opponents="greedy")
    check_env(env.unwrapped)
    inner = env.unwrapped
    assert isinstance(inner, PyramidsEnv)
    assert inner.game.id == game_id and inner.players == players
    assert inner._opponents is None or inner._opponents.name == "greedy"
    _, info = env.reset(seed=4)
    assert inner.state.current_player == 0 and info["action_mask"].any()


def play_out(env: PyramidsEnv, seed: int) -> list[float]:
    """Random legal actions to the end of an episode; the rewards."""
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards, done = [], False
    while not done:
        assert np.array_equal(env.action_masks(), info["action_mask"])
        _, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        rewards.append(reward)
    assert np.array_equal(env.action_masks(), info["action_mask"]) and not info["action_mask"].any()
    return rewards


@pytest.mark.parametrize("players", [2, 3, 4])
def test_result_reward_is_win_draw_loss_or_the_rank(players: int) -> None:
    """0 until the end, then 1 / 0 / -1 at two players and evenly by rank beyond."""
    env = PyramidsEnv("pyramido", players=players, opponents="random", reward="result")
    outcomes = set()
    for seed in range(6):
        rewards = play_out(env, seed)
        assert all(r == 0 for r in rewards[:-1])
        ranking = env.state.ranking()
        beaten = sum(r > ranking[0] for r in ranking) - sum(r < ranking[0] for r in ranking)
        assert rewards[-1] == beaten / (players - 1)
        outcomes.add(rewards[-1])
        if players == 2:
            assert rewards[-1] in (1.0, 0.0, -1.0)
    assert len(outcomes) > 1  # wins and losses return different amounts
    with pytest.raises(ValueError, match="two players"):
        PyramidsEnv(reward="result")
    with pytest.raises(ValueError, match="reward"):
        PyramidsEnv(reward="points")


@pytest.mark.parametrize("game_id", ["piramides", "pyramido", "pyramido-treasure"])
def test_action_masks_are_the_info_masks_of_every_step(game_id: str) -> None:
    """What sb3-contrib's MaskablePPO reads (``action_masks()``) is the info's mask."""
    env = PyramidsEnv(game_id, opponents="random", **short(game_id))
    env.reset(seed=0)
    assert env.action_masks().dtype == np.int8
    assert env.action_masks().shape == (env.action_space.n,)
    play_out(env, 3)


def test_human_rendering_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    env = PyramidsEnv(render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    assert "Stock 23" in capsys.readouterr().out
