"""``pyramids serve`` freezes its long-lived heap so full collections stay short and rare."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pyramids.engine.registry import GAMES

PROBE = """
import gc, json, sys
from pyramids.server.heap import FULL_COLLECTION_EVERY, freeze_long_lived_heap
frozen = freeze_long_lived_heap()
print(json.dumps({"frozen": frozen, "threshold": gc.get_threshold(),
                  "every": FULL_COLLECTION_EVERY, "modules": sorted(sys.modules)}))
"""


def test_the_heap_is_imported_frozen_and_full_collections_are_spaced_out() -> None:
    # in a fresh interpreter: freezing is a whole-process decision, not one for pytest's
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    facts = json.loads(out)
    # every game's module is loaded before the freeze, not on the first request
    for target in GAMES.values():
        assert target.partition(":")[0] in facts["modules"]
    assert "pyramids.ai.mcts" in facts["modules"]
    assert facts["frozen"] > 10_000  # modules, classes, functions: out of every collection
    assert facts["threshold"][2] == facts["every"] > 10


def test_pyramids_serve_freezes_and_an_embedded_app_does_not(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uvicorn
    from typer.testing import CliRunner

    import pyramids.server.app as server_app
    from pyramids.cli.main import app as cli

    calls: list[str] = []
    monkeypatch.setattr(server_app, "freeze_long_lived_heap", lambda: calls.append("x") or 0)
    url = f"sqlite:///{tmp_path / 'h.db'}"

    async def start_and_stop(app: Any) -> None:
        async with app.router.lifespan_context(app):
            pass

    asyncio.run(start_and_stop(server_app.create_app(url)))
    assert calls == []  # a host program's collector is left alone by default
    asyncio.run(start_and_stop(server_app.create_app(url, freeze_heap=True)))
    assert calls == ["x"]

    made: list[dict[str, Any]] = []
    real_create = server_app.create_app

    def recording_create(*args: Any, **kwargs: Any) -> Any:
        made.append(kwargs)
        return real_create(*args, **kwargs)

    monkeypatch.setattr(server_app, "create_app", recording_create)
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: None)
    result = CliRunner().invoke(cli, ["serve", "--database-url", url])
    assert result.exit_code == 0, result.output
    assert made and made[0].get("freeze_heap") is True
