"""A view's ``recent`` and ``news`` stay bounded, keeping the newest entries."""

from __future__ import annotations

import random
from typing import Any

import pytest

import pyramids.games.pyramido_treasure.game as treasure
from pyramids.engine.registry import new_game


def _views(seed: int, limit: int, monkeypatch: pytest.MonkeyPatch) -> list[list[dict[str, Any]]]:
    monkeypatch.setattr(treasure, "RECENT_LIMIT", limit)
    rng = random.Random(seed)
    state = new_game("pyramido-treasure", players=4, seed=seed)
    out = []
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
        # the spectator's view and one seat's, the seat turning with the ply: every
        # seat is looked at all game long, at a fraction of five views a ply (with
        # no limit a view lists the whole history, so views are most of this test)
        out.append([state.view(p) for p in (None, state.ply % 4)])
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_recent_and_news_keep_only_the_newest_entries(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    full = _views(seed, 10**9, monkeypatch)
    capped = _views(seed, 3, monkeypatch)
    cut = 0
    for whole_row, capped_row in zip(full, capped, strict=True):
        for whole, short in zip(whole_row, capped_row, strict=True):
            # the newest three reveals, or all of them when there are fewer
            assert short["recent"] == whole["recent"][-3:]
            # news lines run over the same (possibly shortened) window: a tail, at most three
            assert len(short["news"]) <= 3
            assert short["news"] == whole["news"][-len(short["news"]) :] or not short["news"]
            cut += len(whole["recent"]) > 3
            # everything else in the view is untouched by the limit
            rest = {k: v for k, v in whole.items() if k not in ("recent", "news")}
            assert rest == {k: v for k, v in short.items() if k not in ("recent", "news")}
    assert cut > 0  # the games did exceed the limit, so the cut was exercised
