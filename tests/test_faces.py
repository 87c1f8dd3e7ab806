"""Which faces each registered game has, found by the convention alone (``<face>/<game>``).

A face keeps what it knows of a game in a module (or file) named after it,
and serves a game without one by its generic behaviour. This file lists, for
every game of the registry, the faces it has and the ones it lacks: the four
games have them all, and the test game Nim none, which is how the generic
faces are shown to be enough (``tests/test_toygame.py``).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable

import pytest

from pyramids.ai.base import Agent
from pyramids.ai.policies import GamePolicy
from pyramids.ai.registry import agent_class, plays
from pyramids.engine.faces import face_path, has_face, module_name
from pyramids.engine.registry import game_ids
from pyramids.review.model import ReviewProfile

FOUR = ["piramides", "pyramido", "pyramideto", "pyramido-treasure"]


def _web_board(game_id: str) -> bool:
    from pyramids.server.routes.games import board_module

    return board_module(game_id) is not None


def _rules_page(game_id: str) -> bool:
    from pyramids.server.rules_pages import rules_page

    return rules_page(game_id, "en") is not None


def _pettingzoo_module(game_id: str) -> bool:
    return importlib.util.find_spec(f"pyramids.envs.{module_name(game_id)}_v0") is not None


#: face -> whether a game has it; each is the convention its face looks it up by
FACES: dict[str, Callable[[str], bool]] = {
    "text drawing (text)": lambda g: has_face("pyramids.text", g),
    "web board (web/boards)": _web_board,
    "rules page (web/rules/en)": _rules_page,
    "greedy agent (ai/greedy)": lambda g: plays("greedy", g),
    "playout policy (ai/policies)": lambda g: has_face("pyramids.ai.policies", g),
    "encoding (envs/encodings)": lambda g: has_face("pyramids.envs.encodings", g),
    "PettingZoo module (envs/<game>_v0)": _pettingzoo_module,
    "review profile (review/profiles)": lambda g: has_face("pyramids.review.profiles", g),
}


def faces_of(game_id: str) -> tuple[list[str], list[str]]:
    """The faces ``game_id`` has and the ones it lacks."""
    has = [face for face, found in FACES.items() if found(game_id)]
    return has, [face for face in FACES if face not in has]


def test_each_game_lists_the_faces_it_has_and_lacks(toygame: str) -> None:
    table = {g: faces_of(g) for g in game_ids()}
    for game_id, (has, lacks) in table.items():
        print(f"{game_id}: has {', '.join(has) or 'none'}; lacks {', '.join(lacks) or 'none'}")
    for game_id in FOUR:
        assert table[game_id][1] == [], f"{game_id} lacks {table[game_id][1]}"
    assert table[toygame][0] == [], "the test game has no face of its own"


@pytest.mark.parametrize("game_id", FOUR)
def test_each_face_module_holds_what_its_face_reads(game_id: str) -> None:
    """A module found by name must be the face's (not, say, a helper of the same name)."""
    render = importlib.import_module(face_path("pyramids.text", game_id))
    assert callable(render.render)
    policy = importlib.import_module(face_path("pyramids.ai.policies", game_id))
    assert isinstance(policy.POLICY, GamePolicy)
    codec = importlib.import_module(face_path("pyramids.envs.encodings", game_id))
    assert callable(codec.make_codec)
    profile = importlib.import_module(face_path("pyramids.review.profiles", game_id))
    assert isinstance(profile.PROFILE, ReviewProfile)
    greedy = agent_class("greedy", game_id)
    assert greedy is not None and issubclass(greedy, Agent) and greedy.name == "greedy"


def test_the_face_helpers_of_the_module_names() -> None:
    assert module_name("pyramido-treasure") == "pyramido_treasure"
    assert face_path("pyramids.text", "pyramido-treasure") == ("pyramids.text.pyramido_treasure")
