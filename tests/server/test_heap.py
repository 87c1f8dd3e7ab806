"""``pyramids serve`` freezes its long-lived heap so full collections stay short and rare."""

from __future__ import annotations

import json
import subprocess
import sys

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
