"""The examples still run (small budgets here; each runs in under a minute in full)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("gymnasium", reason="pip install pyramids[rl]")
pytest.importorskip("pettingzoo", reason="pip install pyramids[rl]")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_gym_random_loop(capsys: pytest.CaptureFixture[str]) -> None:
    mean = example("gym_random").main(episodes=2)
    assert "mean score" in capsys.readouterr().out
    assert isinstance(mean, float)


def test_pettingzoo_random_loop() -> None:
    totals = example("pettingzoo_random").play("pyramideto", 2, seed=1)
    assert set(totals) == {"player_0", "player_1"}


def test_training_example_learns_something() -> None:
    module = example("train_piramides")
    from pyramids.envs.gym_env import PyramidsEnv

    env = PyramidsEnv(rounds=1)
    weights = module.train(env, iterations=2, population=6, elite=2)
    deals = range(900, 910)
    assert module.mean_score(env, deals, weights) > module.mean_score(env, deals, None)


def test_openspiel_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel", reason="pip install pyramids[openspiel]")
    example("openspiel_random").main()
    out = capsys.readouterr().out
    assert "pyramids_piramides" in out
    bots = example("openspiel_bots")
    import pyspiel

    game = pyspiel.load_game("pyramids_piramides", {"deal": 3, "rounds": 1})
    returns = bots.play(game, [bots.our_agent(game, "greedy", 1)])
    assert game.min_utility() <= returns[0] <= game.max_utility()


def test_maskable_ppo_example_says_what_it_needs_or_trains(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Without sb3-contrib the example stops with a clear message (no traceback)."""
    module = example("train_masked_ppo")
    if importlib.util.find_spec("sb3_contrib") is None:
        assert module.main() == {}
        assert "pip install sb3-contrib" in capsys.readouterr().out
        pytest.skip("sb3-contrib is not installed: the training run is skipped")
    result = module.main(timesteps=2048, num_envs=4, deals=range(10_000, 10_004))
    assert set(result) == {"random", "maskable_ppo"}
