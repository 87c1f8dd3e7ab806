"""The catalogs: complete in every language, placeholders kept, compiled files up to date."""

from __future__ import annotations

import io
import string
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from pyramids.i18n import LANGUAGES, LOCALE_DIR
from pyramids.i18n.build import (
    dump_json,
    locales,
    plural_categories,
    po_path,
    template,
    web_messages,
)
from pyramids.i18n.numbers import LOCALES_FILE
from pyramids.i18n.web import messages_path

OTHERS = LANGUAGES[1:]
DOMAINS = ("pyramids", "web")


@cache
def pot(domain: str) -> Catalog:
    return template(domain)


@cache
def po(lang: str, domain: str) -> Catalog:
    with po_path(lang, domain).open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def ids(msg: Message) -> tuple[str, ...]:
    return msg.id if isinstance(msg.id, tuple) else (msg.id,)


def strings(msg: Message) -> tuple[str, ...]:
    return tuple(msg.string) if isinstance(msg.string, tuple | list) else (msg.string,)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", OTHERS)
def test_every_message_of_the_code_is_translated(lang: str, domain: str) -> None:
    catalog = po(lang, domain)
    missing = []
    for msg in pot(domain):
        if not msg.id:
            continue
        found = catalog.get(msg.id, context=msg.context)
        if found is None or not all(strings(found)):
            missing.append((msg.context, ids(msg)[0]))
    assert not missing, f"{lang}/{domain}: {len(missing)} untranslated, e.g. {missing[:5]}"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", OTHERS)
def test_no_fuzzy_or_empty_entries_and_no_leftovers(lang: str, domain: str) -> None:
    catalog = po(lang, domain)
    for msg in catalog:
        if not msg.id:
            continue
        assert not msg.fuzzy, f"{lang}/{domain}: fuzzy {msg.id!r}"
        assert all(strings(msg)), f"{lang}/{domain}: empty {msg.id!r}"
    assert not catalog.obsolete, f"{lang}/{domain}: obsolete entries left"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", OTHERS)
def test_placeholders_match_between_languages(lang: str, domain: str) -> None:
    for msg in po(lang, domain):
        if not msg.id:
            continue
        source = ids(msg)
        allowed = set().union(*(fields(s) for s in source))
        forms = strings(msg)
        for form in forms:
            assert fields(form) <= allowed, (lang, msg.id, form)
        # the last form (English "other") must say everything the English plural says
        assert fields(forms[-1]) == fields(source[-1]) or (
            len(source) > 1 and fields(forms[-1]) | {"n"} >= fields(source[-1])
        ), (lang, msg.id, forms[-1])


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", OTHERS)
def test_compiled_catalogs_are_up_to_date(lang: str, domain: str) -> None:
    """``make i18n`` was run after the last edit of the .po (gettext reads the .mo)."""
    buf = io.BytesIO()
    write_mo(buf, po(lang, domain))
    mo = Path(po_path(lang, domain)).with_suffix(".mo")
    assert mo.read_bytes() == buf.getvalue(), f"run `make i18n`: {mo} is stale"


@pytest.mark.parametrize("lang", OTHERS)
def test_exported_web_messages_are_up_to_date(lang: str) -> None:
    """The page reads ``web.json``, not the ``.po``: ``make i18n`` wrote it from the last edit."""
    stored = messages_path(lang).read_text(encoding="utf-8")
    assert stored == dump_json(web_messages(po(lang, "web"))), f"run `make i18n`: {lang}"


def test_exported_locale_data_is_up_to_date() -> None:
    """``locales.json`` is what Babel's CLDR data and the catalogs' plural rules say now."""
    expected = dump_json(locales({lang: po(lang, "web") for lang in OTHERS}))
    assert LOCALES_FILE.read_text(encoding="utf-8") == expected, "run `make i18n`"


def test_templates_are_up_to_date() -> None:
    for domain in DOMAINS:
        with (LOCALE_DIR / f"{domain}.pot").open("rb") as f:
            stored = read_po(f)
        assert {(m.id, m.context) for m in stored if m.id} == {
            (m.id, m.context) for m in pot(domain) if m.id
        }, f"run `make i18n`: {domain}.pot is stale"


@pytest.mark.parametrize("lang", OTHERS)
def test_plural_forms_map_onto_the_browsers_categories(lang: str) -> None:
    expr = po(lang, "web").plural_expr
    categories = plural_categories(lang, expr)
    assert categories["one"] == 0
    assert len(set(categories.values())) == po(lang, "web").num_plurals
    if lang == "cs":
        assert set(categories) >= {"one", "few", "other"}


def test_plural_categories_disagreeing_with_the_expression_are_refused() -> None:
    with pytest.raises(ValueError, match="plural category"):
        # a Slavic-style rule (21 like 1) where English says "other" for both 2 and 21
        plural_categories("en", "(n % 10 == 1 ? 0 : 1)")


def test_registry_names_are_catalog_entries() -> None:
    from pyramids.engine import names

    entries = {m.context for m in pot("pyramids") if m.context}
    for kind, table in names.all_names().items():
        for ident in table:
            assert f"{kind}:{ident}" in entries
