"""A golden full game between memory agents (4 players, seed 25).

The random-agent playthrough in ``tests/golden`` rarely leaves deck 1, so this
stored record pins a whole game instead: the box turning, every kind of event
decision, a mirage chance draw and an elimination in deck 3. Regenerate after
an intended rules or agent change with
``python -m tests.pyramido_treasure.test_golden_game`` and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyramids
from pyramids.ai.registry import make_agent
from pyramids.engine.rng import Rng

GOLDEN = Path(__file__).parent / "data" / "golden-4p-seed25.json"
SEED = 25


def play_golden() -> dict[str, Any]:
    """The record of the golden game, played again by the agents."""
    state = pyramids.new_game("pyramido-treasure", players=4, seed=SEED)
    agents = [make_agent("child" if p % 2 else "greedy", "pyramido-treasure") for p in range(4)]
    rng = Rng(SEED)
    while not state.is_over:
        p = state.current_player
        assert p is not None
        state.play(agents[p].choose(state, rng))
    record: dict[str, Any] = json.loads(json.dumps(state.record()))
    record.pop("version", None)
    return record


def test_golden_game_is_unchanged() -> None:
    stored = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert play_golden() == stored


def test_golden_game_covers_the_rules_it_is_meant_to_pin() -> None:
    stored = json.loads(GOLDEN.read_text(encoding="utf-8"))
    moves = stored["moves"]
    assert any("=" in m for m in moves), "slides on a turned box"
    assert any(m.startswith("name ") for m in moves)
    assert any(m.startswith("poker ") for m in moves)
    assert any(m.startswith("give ") for m in moves)
    assert stored["chance"], "a card taken at random"
    final = pyramids.replay(stored)
    assert sum(final.view(None)["eliminated"]) == 1
    assert final.view(None)["end"] == "game-over-card"


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(play_golden(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
