"""Choosing a language, and the faces rendering engine messages in it."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramids.i18n import (
    LANGUAGES,
    check_language,
    from_environment,
    negotiate,
    numbers,
    translator,
)


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("fi-FI,fi;q=0.9,en;q=0.5", "fi"),
        ("pt-BR", "pt"),
        ("de-DE,cs;q=0.4,es;q=0.8", "es"),
        ("de", "en"),
        ("", "en"),
        ("es;q=0,cs", "cs"),
        ("*", "en"),
    ],
)
def test_accept_language_picks_the_best_of_ours(header: str, lang: str) -> None:
    assert negotiate(header) == lang


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"LANG": "cs_CZ.UTF-8"}, "cs"),
        ({"LANG": "C"}, "en"),
        ({"LC_ALL": "es_ES.UTF-8", "LANG": "fi_FI.UTF-8"}, "es"),
        ({"LANGUAGE": "de:pt_BR", "LANG": "fi_FI"}, "pt"),
        ({"LC_MESSAGES": "fi_FI@euro"}, "fi"),
        ({}, "en"),
    ],
)
def test_terminal_language_from_the_environment(env: dict[str, str], lang: str) -> None:
    assert from_environment(env) == lang


def test_unknown_language_is_a_clear_error() -> None:
    assert check_language("pt-BR") == "pt"
    with pytest.raises(ValueError, match="en, pt, fi, cs, es"):
        check_language("klingon")


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_each_language_speaks_its_own_words(lang: str) -> None:
    web = translator(lang, "web")
    assert web.gettext("Your move") != "Your move"
    assert web.ngettext("{n} player", "{n} players", 3) != "3 players"
    assert translator(lang).name("treasure", "sacred-dog") != "sacred dog"


def test_numbers_and_places_are_formatted_for_the_locale() -> None:
    assert translator("cs").number(12345) == "12\xa0345"
    assert translator("en").number(12345) == "12,345"
    assert translator("es").percent(0.42).replace("\xa0", " ") == "42 %"
    assert translator("en").ordinal(1) == "#1"


def test_czech_plural_has_three_forms() -> None:
    tr = translator("cs", "web")
    one, few, many = (tr.ngettext("{n} player", "{n} players", n) for n in (1, 3, 7))
    assert len({one.split()[-1], few.split()[-1], many.split()[-1]}) == 3


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_illegal_move_reads_in_every_language(lang: str) -> None:
    import pyramids

    state = pyramids.new_game("piramides", seed=4242)
    with pytest.raises(pyramids.IllegalMove) as info:
        state.play(state.parse_move("A1"))  # the top card is covered
    err = info.value
    text = translator(lang).message(err.template, err.params)
    if lang == "en":
        assert text == str(err)
    else:
        assert text != str(err) and text


@pytest.mark.parametrize("lang", LANGUAGES)
@settings(max_examples=300, deadline=None)
@given(
    value=st.one_of(
        st.integers(-(10**12), 10**12),
        st.floats(-1e9, 1e9, allow_nan=False, allow_infinity=False),
        st.sampled_from([float("inf"), float("-inf"), float("nan")]),
        st.decimals(-(10**9), 10**9, places=4, allow_nan=False, allow_infinity=False),
    )
)
def test_numbers_are_written_as_babel_writes_them(lang: str, value: float) -> None:
    """Faces format without Babel (:mod:`pyramids.i18n.numbers`); Babel stays the reference."""
    from babel.numbers import format_decimal, format_percent

    tr = translator(lang)
    assert tr.number(value) == format_decimal(value, locale=lang)
    assert tr.percent(value / 1000) == format_percent(value / 1000, locale=lang)


@pytest.mark.parametrize("lang", LANGUAGES)
@settings(deadline=None)
@given(st.floats(-1e9, 1e9, allow_nan=False, allow_infinity=False))
def test_fixed_decimals_are_written_as_babel_writes_them(lang: str, value: float) -> None:
    """A column of means keeps one decimal ("12,0" beside "12,5"); no "-0,0"."""
    from babel.numbers import format_decimal

    text = numbers.fixed(value, lang)
    expected = format_decimal(value, format="#,##0.0", locale=lang)
    assert text == (
        expected.replace("-", "").replace("\u2212", "") if round(value, 1) == 0 else expected
    )


def test_halves_round_to_even_like_babel() -> None:
    assert translator("en").number(2.0005) == "2"  # a float by its repr: 2.0005, half to even
    assert translator("en").number(Decimal("2.0005")) == "2"
    assert translator("en").number(Decimal("2.0015")) == "2.002"
    assert translator("fi").percent(0.425) == "42\xa0%"
    assert translator("pt").percent(-0.125) == "-12%"
    assert translator("cs").number(-0.0001) == "-0"


def test_playing_needs_no_babel(tmp_path: Path) -> None:
    """A player's install has no Babel: the pages, catalogs and numbers work without it."""
    code = f"""
import sys
from fastapi.testclient import TestClient
from pyramids.server.app import create_app
from pyramids.i18n import translator
with TestClient(create_app("sqlite:///{tmp_path}/games.db", bot_delay=0)) as client:
    for lang in ("en", "pt", "fi", "cs", "es"):
        assert client.get(f"/api/i18n/{{lang}}").json()["plural_categories"]["one"] == 0
        assert client.get("/", headers={{"Accept-Language": lang}}).status_code == 200
        translator(lang).number(1234.5), translator(lang).percent(0.5)
print(sorted(m for m in sys.modules if m.split(".")[0] == "babel"))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_names_read_before_any_game_is_used() -> None:
    """A fresh program that translates a name first gets the name, not its bare id.

    Games register their names when imported, and the registry imports a game
    only when asked for one; in the suite some other test has always imported
    them already, so this runs in a fresh interpreter.
    """
    code = """
from pyramids.i18n import translator
print(translator("en").name("treasure", "sacred-dog"))
print(translator("pt").name("treasure", "sacred-dog"))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    english, portuguese = out.stdout.splitlines()
    assert english == "sacred dog"
    assert portuguese not in ("sacred dog", "sacred-dog")
