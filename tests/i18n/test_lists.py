"""Alternatives joined with each language's "or" (``a, b, or c``), as Babel joins them."""

from __future__ import annotations

import pytest

import pyramids
from pyramids.engine.errors import IllegalMove
from pyramids.engine.names import english_or
from pyramids.i18n import LANGUAGES, numbers, translator

ITEMS = ["b2", "c3", "d4", "e5", "f6"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("count", range(1, len(ITEMS) + 1))
def test_or_lists_are_written_as_babel_writes_them(lang: str, count: int) -> None:
    """Faces join lists without Babel (``locales.json``); Babel is the reference."""
    from babel.lists import format_list

    items = ITEMS[:count]
    assert numbers.or_list(items, lang) == format_list(items, style="or", locale=lang)


@pytest.mark.parametrize("count", range(1, len(ITEMS) + 1))
def test_the_engines_english_list_is_the_english_locales(count: int) -> None:
    assert english_or(ITEMS[:count]) == numbers.or_list(ITEMS[:count], "en")


def _refusal(state: pyramids.State, text: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        state.play(state.parse_move(text))
    return caught.value


@pytest.mark.parametrize(
    ("lang", "four", "two"),
    [
        ("en", "(from d4, e3, e5, or f4)", "from a2 or b1"),
        ("cs", "(z d4, e3, e5 nebo f4)", "z a2 nebo b1"),
        ("es", "(desde d4, e3, e5 o f4)", "desde a2 o b1"),
        ("fi", "(paikasta d4, e3, e5 tai f4)", "paikasta a2 tai b1"),
        ("pt", "(de d4, e3, e5 ou f4)", "de a2 ou b1"),
    ],
)
def test_a_refused_slide_names_the_spots_next_to_the_gap_in_the_players_language(
    lang: str, four: str, two: str
) -> None:
    """One message for every gap: two, three or four spots, joined by the language's "or"."""
    state = pyramids.new_game("pyramido-treasure", players=2, seed=1)
    tr = translator(lang)
    far = _refusal(state, "a1")  # the gap starts at e4, with four neighbours
    assert far.rule == "not-adjacent" and far.params["alternatives"] == "d4 e3 e5 f4"
    assert tr.error(far).endswith(four)
    for step in ("d4", "c4", "b4", "a4", "a3", "a2", "a1"):  # walk the gap to the corner
        state.play(state.parse_move(step))
    itself = _refusal(state, "a1")
    assert itself.params["alternatives"] == "a2 b1"
    assert tr.error(itself).endswith(two)
