"""The goal deck: its shape, its named cards, that every goal can be built, its pictures."""

from __future__ import annotations

import heapq
import json
from pathlib import Path

import pytest

from pyramids.games.pyramideto import (
    GAME,
    GOAL_BY_ID,
    GOALS,
    SIZE,
    PyramidetoMove,
    PyramidetoState,
    tower_stands,
)
from pyramids.games.pyramideto.goals import DeckError, _read, load_deck
from pyramids.games.pyramideto.svg import card_svg

PICTURES = Path(__file__).resolve().parents[2] / "src/pyramids/web/rules/img"


def test_thirty_cards_five_frames_of_six() -> None:
    assert len(GOALS) == 30
    for frame in range(5):
        assert sum(1 for g in GOALS if g.frame == frame) == 6


def test_each_card_is_three_distinct_pieces_never_growing_upward() -> None:
    for g in GOALS:
        a, b, c = g.tower
        assert len({a, b, c}) == 3, g.id
        assert SIZE[a] >= SIZE[b] >= SIZE[c], g.id


def test_no_two_cards_show_the_same_tower() -> None:
    assert len({g.tower for g in GOALS}) == len(GOALS)
    assert len({g.id for g in GOALS}) == len({g.name for g in GOALS}) == len(GOALS)


def test_the_cards_the_rulebook_names() -> None:
    assert GOAL_BY_ID["watermelon"].codes == ["Lg", "Lr", "Sk"]
    assert GOAL_BY_ID["watermelon"].name == "Watermelon"
    assert GOAL_BY_ID["spain"].name == "Flag of Spain"
    assert GOAL_BY_ID["doll"].name == "Doll"


def test_a_broken_deck_file_is_refused() -> None:
    data = _read()
    twin = json.loads(json.dumps(data))
    twin["goals"][1]["tower"] = list(twin["goals"][0]["tower"])
    with pytest.raises(DeckError, match="same tower"):
        load_deck(twin)
    growing = json.loads(json.dumps(data))
    growing["goals"][0]["tower"] = ["Sg", "Lr", "Sk"]
    with pytest.raises(DeckError, match="grow"):
        load_deck(growing)
    repeated = json.loads(json.dumps(data))
    repeated["goals"][0]["tower"] = ["Lg", "Lg", "Sk"]
    with pytest.raises(DeckError, match="distinct"):
        load_deck(repeated)


def _distance(state: PyramidetoState, goal: int) -> int:
    """How far the tower is from standing: missing links, plus pieces in the way."""
    above = state.above
    a, b, c = GOALS[goal].tower
    cost = 0
    for lower, upper in ((a, b), (b, c)):
        if above[lower] != upper:
            cost += 2
            x = above[lower]
            while x >= 0:  # whatever lies on ``lower`` must go first
                cost += 1
                x = above[x]
    return cost


def build(goal: int, limit: int = 20_000) -> list[PyramidetoMove] | None:
    """Best-first search with the engine's own moves from the start to the goal's tower."""
    start = GAME.new(players=2, seed=0, turn_limit=0)
    assert isinstance(start, PyramidetoState)
    frontier: list[tuple[int, int, int, PyramidetoState, list[PyramidetoMove]]] = [
        (_distance(start, goal), 0, 0, start, [])
    ]
    seen = set()
    tick = 0
    while frontier and tick < limit:
        _, _, _, state, path = heapq.heappop(frontier)
        if tower_stands(state.above, goal):
            return path
        key = (state.below, tuple(state.last_group()[:1]))
        if key in seen or state.is_over:
            continue
        seen.add(key)
        for move in state.legal_moves():
            if move.is_exchange:
                continue
            nxt = state.copy()
            nxt.play(move)
            tick += 1
            heapq.heappush(
                frontier, (_distance(nxt, goal), len(path) + 1, tick, nxt, [*path, move])
            )
    return None


@pytest.mark.parametrize("goal", [g.id for g in GOALS])
def test_every_goal_can_be_built_from_the_start(goal: str) -> None:
    index = GOAL_BY_ID[goal].number
    path = build(index)
    assert path is not None, f"no way found to build {goal}"
    # replay the found moves on a fresh game: every move legal, the tower stands
    state = GAME.new(players=2, seed=0, turn_limit=0)
    assert isinstance(state, PyramidetoState)
    for move in path:
        state.play(move)
    assert tower_stands(state.above, index)
    a, b, c = GOALS[index].codes
    assert any(s[i : i + 3] == [a, b, c] for s in state.view(None)["stacks"] for i in range(len(s)))


def test_pictures_of_the_rules_pages_match_the_deck() -> None:
    for g in GOALS:
        path = PICTURES / "pyramideto" / f"{g.id}.svg"
        assert path.read_text(encoding="utf-8") == card_svg(g), (
            f"{path} is stale: run python -m pyramids.games.pyramideto.svg"
        )
        assert g.name in card_svg(g)
