"""The domino set against every published figure (RULINGS.md §1), read from the data file."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from pyramids.games.pyramido import CARD_SIDES, COLOURS, DOMINOES
from pyramids.games.pyramido import make_dominoes as gen

DATA = Path(gen.__file__).with_name("dominoes.json")
RAW = json.loads(DATA.read_text(encoding="utf-8"))


def test_generator_reproduces_the_file_byte_for_byte() -> None:
    assert gen.to_json(gen.generate()) == DATA.read_text(encoding="utf-8")
    assert gen.main(["--check"]) == 0


def test_ninety_numbered_dominoes_of_two_blocks() -> None:
    assert len(RAW) == len(DOMINOES) == 90
    assert [d["id"] for d in RAW] == list(range(1, 91))
    assert all(len(d["blocks"]) == 2 for d in RAW)


def test_blocks_per_colour() -> None:
    counts = Counter(b["colour"] for d in RAW for b in d["blocks"])
    assert [counts[c] for c in COLOURS] == [37, 34, 31, 29, 26, 23]
    assert sum(counts.values()) == 180


def test_eighteen_one_colour_dominoes() -> None:
    assert sum(1 for d in RAW if d["blocks"][0]["colour"] == d["blocks"][1]["colour"]) == 18


def test_two_jewels_per_domino_split_55_and_35() -> None:
    layouts = Counter(tuple(sorted(len(b["jewels"]) for b in d["blocks"])) for d in RAW)
    assert layouts == Counter({(1, 1): 55, (0, 2): 35})


def test_each_jewel_in_its_own_quarter() -> None:
    for d in RAW:
        for b in d["blocks"]:
            assert all(q in (0, 1, 2, 3) for q in b["jewels"])
            assert len(set(b["jewels"])) == len(b["jewels"])


def test_dominoes_are_unique_even_turned_round() -> None:
    shapes = {gen.canonical(d) for d in DOMINOES}
    assert len(shapes) == 90
    assert all(gen.canonical(d) == d for d in DOMINOES)


def test_cards_show_the_six_colours_in_set_order() -> None:
    assert [c for pair in CARD_SIDES for c in pair] == list(range(6))
