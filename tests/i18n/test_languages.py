"""Choosing a language, and the faces rendering engine messages in it."""

from __future__ import annotations

import pytest

from pyramids.i18n import (
    LANGUAGES,
    check_language,
    from_environment,
    negotiate,
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
