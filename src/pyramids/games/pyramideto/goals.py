"""The goal deck: 30 cards read from ``goals.json`` and checked at import.

Why a data file: the deck is our own design (the published list is not
available), and keeping it as data lets the SVG pictures, the docs, the web
app and the engine all read the same cards. The file is checked strictly when
loaded, so a bad edit fails at import, not in the middle of a game.

Card number ``i`` is the ``i``-th goal in the file; records name cards by ``id``.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, NamedTuple

from pyramids.engine import names
from pyramids.games.pyramideto.pieces import CODES, SIZE, parse_piece

FRAME_COUNT = 5
CARDS_PER_FRAME = 6


class Frame(NamedTuple):
    """A frame colour of the deck (a group of six cards sharing a theme)."""

    id: str
    theme: str
    rgb: str


class Goal(NamedTuple):
    """A goal card: a named tower of 3 distinct pieces, bottom to top."""

    number: int
    id: str
    name: str
    frame: int
    tower: tuple[int, int, int]
    about: str

    @property
    def codes(self) -> list[str]:
        """The tower as piece codes, bottom to top."""
        return [CODES[p] for p in self.tower]

    def to_json(self, frames: tuple[Frame, ...]) -> dict[str, Any]:
        """The card as views and the web app show it."""
        return {
            "id": self.id,
            "name": self.name,
            "frame": frames[self.frame].id,
            "tower": self.codes,
        }


class DeckError(ValueError):
    """``goals.json`` breaks a rule of the deck."""


def load_deck(data: dict[str, Any]) -> tuple[tuple[Frame, ...], tuple[Goal, ...]]:
    """Frames and goals from parsed ``goals.json`` data, checked against the rules."""
    frames = tuple(Frame(f["id"], f["theme"], f["rgb"]) for f in data["frames"])
    frame_index = {f.id: i for i, f in enumerate(frames)}
    if len(frame_index) != FRAME_COUNT:
        raise DeckError(f"the deck needs {FRAME_COUNT} distinct frame colours")
    goals: list[Goal] = []
    for i, g in enumerate(data["goals"]):
        codes = g["tower"]
        tower = tuple(parse_piece(c) for c in codes)
        if len(tower) != 3 or any(p is None for p in tower):
            raise DeckError(f"goal {g['id']!r}: tower must be 3 piece codes, not {codes}")
        a, b, c = (p for p in tower if p is not None)
        if len({a, b, c}) != 3:
            raise DeckError(f"goal {g['id']!r}: the 3 pieces must be distinct")
        if not SIZE[a] >= SIZE[b] >= SIZE[c]:
            raise DeckError(f"goal {g['id']!r}: sizes must never grow upward")
        if g["frame"] not in frame_index:
            raise DeckError(f"goal {g['id']!r}: unknown frame {g['frame']!r}")
        goals.append(Goal(i, g["id"], g["name"], frame_index[g["frame"]], (a, b, c), g["about"]))
    if len({g.id for g in goals}) != len(goals):
        raise DeckError("goal ids must be unique")
    if len({g.tower for g in goals}) != len(goals):
        raise DeckError("no two cards may show the same tower")
    for f in range(FRAME_COUNT):
        if sum(1 for g in goals if g.frame == f) != CARDS_PER_FRAME:
            raise DeckError(f"frame {frames[f].id!r} must have {CARDS_PER_FRAME} cards")
    return frames, tuple(goals)


def _read() -> dict[str, Any]:
    text = resources.files("pyramids.games.pyramideto").joinpath("goals.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


FRAMES, GOALS = load_deck(_read())
GOAL_COUNT = len(GOALS)
GOAL_BY_ID: dict[str, Goal] = {g.id: g for g in GOALS}

#: names players see (kinds ``goal`` by card id, ``frame`` by frame id: its theme)
names.register("goal", {g.id: g.name for g in GOALS})
names.register("frame", {f.id: f.theme for f in FRAMES})
