"""``python -m pyramids.i18n.build``: extract, update and compile every catalog (``make i18n``).

Three steps, all with Babel's own machinery:

1. **extract** the messages of the code into ``locale/<domain>.pot``: the Python faces
   and engine (``gettext``/``ngettext``/``pgettext`` calls, ``N_`` marks, and the
   templates of the engine's errors and the server's error objects) into
   ``pyramids``, the web app's ``t``/``tn``/``tc`` calls into ``web``; plus the
   names of things inside the games and the games' titles, summaries and option
   texts, read from the registries (they are data, not calls);
2. **update** each language's ``.po`` from the template (new messages appear
   untranslated, removed ones go; never fuzzy guesses, which translators would have
   to check one by one);
3. **compile** each ``.po`` into the ``.mo`` that gettext reads, and export what the
   faces read without Babel: each web catalog as JSON (``web.json``, for the page) and
   every language's number symbols, plural categories and "or" list patterns
   (``locales.json``, see :mod:`pyramids.i18n.numbers`).

``--check`` only reports what is missing and exits 1 if anything is.
"""

from __future__ import annotations

import argparse
import gettext
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from pyramids.i18n import DEFAULT, LANGUAGES, LOCALE_DIR, name_context, option_label
from pyramids.i18n.numbers import LOCALES_FILE
from pyramids.i18n.web import messages_path

SRC = Path(__file__).resolve().parents[1]

#: the message-carrying calls of the engine, the agents and the server: which argument
#: is the template (every ``PyramidsError`` subclass raised with a template is here)
PYTHON_KEYWORDS: dict[str, Any] = {
    **DEFAULT_KEYWORDS,
    "N_": None,
    "PyramidsError": (1,),
    "IllegalMove": (2,),
    "NotationError": (1,),
    "RecordError": (2,),
    "VariantError": (1,),
    "UnknownGame": (1,),
    "PlayersError": (1,),
    "SeatError": (1,),
    "AgentError": (1,),
    "UnknownAgent": (1,),
    "ProtocolError": (2,),
}
WEB_KEYWORDS: dict[str, Any] = {"t": None, "tn": (1, 2), "tc": ((1, "c"), 2)}


def _catalog(domain: str, lang: str | None = None) -> Catalog:
    return Catalog(
        locale=lang,
        domain=domain,
        project="Pyramids",
        msgid_bugs_address="",
        copyright_holder="the Pyramids authors",
    )


def _extract(method: str, pattern: str, keywords: dict[str, Any]) -> Iterator[Any]:
    yield from extract_from_dir(
        SRC,
        method_map=[(pattern, method)],
        keywords=keywords,
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    )


def _registry_messages() -> Iterator[tuple[str, str, str]]:
    """(context, English, where) for the names and game texts that live in data."""
    from pyramids.engine import names
    from pyramids.engine.registry import all_games

    games = all_games()  # first: each game registers its names when it is imported
    for kind, table in sorted(names.all_names().items()):
        for ident, english in sorted(table.items()):
            yield name_context(kind, ident), english, f"names:{kind}"
    for game in games:
        yield f"game:{game.id}", game.title, "registry"
        if game.summary:
            yield f"game-summary:{game.id}", game.summary, "registry"
        for option in game.options:
            yield f"option:{game.id}:{option.name}", option_label(option.name), "registry"
            yield f"option-doc:{game.id}:{option.name}", option.doc, "registry"


def template(domain: str) -> Catalog:
    """The domain's ``.pot``: every message the code and the registries use."""
    catalog = _catalog(domain)
    if domain == "web":
        found = _extract("javascript", "web/**.js", WEB_KEYWORDS)
    else:
        found = _extract("python", "**.py", PYTHON_KEYWORDS)
    for filename, lineno, message, comments, context in found:
        if domain == "pyramids" and filename.startswith("web/"):
            continue
        catalog.add(
            message,
            locations=[(filename, lineno)],
            auto_comments=comments,
            context=context,
            flags=("python-brace-format",) if _has_fields(message) else (),
        )
    if domain == "pyramids":
        for context, english, where in _registry_messages():
            catalog.add(english, locations=[(where, 0)], context=context)
    return catalog


def _has_fields(message: str | tuple[str, ...]) -> bool:
    texts = message if isinstance(message, tuple) else (message,)
    return any("{" in t for t in texts)


def po_path(lang: str, domain: str) -> Path:
    """Where a language's catalog of a domain lives."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def read_catalog(lang: str, domain: str) -> Catalog:
    """A language's ``.po`` (an empty catalog if it does not exist yet)."""
    path = po_path(lang, domain)
    if not path.exists():
        return _catalog(domain, lang)
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


def missing(catalog: Catalog) -> list[str]:
    """Messages of a catalog that are untranslated or fuzzy."""
    out = []
    for msg in catalog:
        if not msg.id:
            continue
        strings = msg.string if isinstance(msg.string, tuple | list) else (msg.string,)
        if msg.fuzzy or not all(strings):
            out.append(msg.id if isinstance(msg.id, str) else msg.id[0])
    return out


#: counts that reach every plural category of our languages (Portuguese and Spanish
#: have a form for exact millions)
_SAMPLES = [*range(0, 202), 1_000, 1_000_000, 2_000_000, 1_000_001]


def plural_categories(lang: str, expression: str) -> dict[str, int]:
    """For each CLDR plural category of ``lang``, the gettext form index it selects.

    Refused (``ValueError``) if a category would need two forms: the catalog's
    ``Plural-Forms`` expression and CLDR disagree, and the page would say it wrong.
    """
    choose = gettext.c2py(expression)
    locale = Locale.parse(lang)
    found: dict[str, int] = {}
    for n in _SAMPLES:
        category = locale.plural_form(n)
        index = choose(n)
        if found.setdefault(category, index) != index:
            raise ValueError(
                f"{lang}: plural category {category!r} means forms {found[category]} and {index}"
            )
    return found


def _affixes(pattern: Any) -> dict[str, list[str]]:
    return {"prefix": list(pattern.prefix), "suffix": list(pattern.suffix)}


def locale_entry(lang: str, plural_expr: str) -> dict[str, Any]:
    """A language's entry of ``locales.json``: what :mod:`pyramids.i18n.numbers` applies.

    Only the standard patterns are supported (groups of three, up to three decimals,
    whole percentages); a language with others is refused here, not misformatted.
    """
    locale = Locale.parse(lang)
    symbols = locale.number_symbols["latn"]
    dec, pct = locale.decimal_formats[None], locale.percent_formats[None]
    shapes = (dec.grouping, dec.frac_prec, dec.scale, pct.grouping, pct.frac_prec, pct.scale)
    if shapes != ((3, 3), (0, 3), 0, (3, 3), (0, 0), 2) or dec.exp_prec or pct.exp_prec:
        raise ValueError(f"{lang}: number patterns {dec.pattern!r}, {pct.pattern!r} unsupported")
    return {
        "decimal": symbols["decimal"],
        "group": symbols["group"],
        "decimal_pattern": _affixes(dec),
        "percent_pattern": _affixes(pct),
        "plural_categories": plural_categories(lang, plural_expr),
        # how alternatives are joined ("a, b, or c"): numbers.or_list applies them
        "list_or": {k: locale.list_patterns["or"][k] for k in ("2", "start", "middle", "end")},
    }


def locales(catalogs: dict[str, Catalog]) -> dict[str, dict[str, Any]]:
    """``locales.json``: every language's entry (English's plural rule is gettext's own)."""
    exprs = {DEFAULT: "(n != 1)"} | {lang: c.plural_expr for lang, c in catalogs.items()}
    return {lang: locale_entry(lang, exprs[lang]) for lang in LANGUAGES}


def web_messages(catalog: Catalog) -> dict[str, str | list[str]]:
    """A web catalog as the page reads it: msgid (``context\u0004msgid``) to its forms."""
    messages: dict[str, str | list[str]] = {}
    for msg in catalog:
        if not msg.id or not msg.string or msg.fuzzy:
            continue
        key_id = msg.id[0] if isinstance(msg.id, tuple | list) else msg.id
        key = f"{msg.context}\u0004{key_id}" if msg.context else key_id
        messages[key] = list(msg.string) if isinstance(msg.string, tuple | list) else msg.string
    return dict(sorted(messages.items()))


def dump_json(data: Any) -> str:
    """How the exported files are written (sorted, one entry a line: readable diffs)."""
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def build(check: bool = False, languages: tuple[str, ...] = LANGUAGES[1:]) -> int:
    """Run the three steps (or, with ``check``, only report); 1 if anything is missing.

    ``languages`` limits the update to some catalogs (translators working on two
    languages at once must not rewrite each other's files).
    """
    gaps = 0
    web: dict[str, Catalog] = {}  # the web catalogs as just updated (locales.json reads them)
    for domain in ("pyramids", "web"):
        pot = template(domain)
        if not check:
            LOCALE_DIR.mkdir(parents=True, exist_ok=True)
            with (LOCALE_DIR / f"{domain}.pot").open("wb") as f:
                write_po(f, pot, width=100, omit_header=False, sort_output=True)
        for lang in languages:
            catalog = read_catalog(lang, domain)
            catalog.update(pot, no_fuzzy_matching=True, update_header_comment=False)
            catalog.obsolete.clear()
            todo = missing(catalog)
            gaps += len(todo)
            print(f"{lang}/{domain}: {len(catalog)} messages, {len(todo)} to translate")
            if check:
                continue
            path = po_path(lang, domain)
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as f:
                write_po(f, catalog, width=100, sort_output=True, include_previous=False)
            with path.with_suffix(".mo").open("wb") as f:
                write_mo(f, catalog)
            if domain == "web":
                web[lang] = catalog
                messages_path(lang).write_text(dump_json(web_messages(catalog)), encoding="utf-8")
    if not check:
        # languages left out of this update (``--lang``) keep their catalogs on disk
        catalogs = {lang: web.get(lang) or read_catalog(lang, "web") for lang in LANGUAGES[1:]}
        LOCALES_FILE.write_text(dump_json(locales(catalogs)), encoding="utf-8")
    return 1 if check and gaps else 0


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m pyramids.i18n.build", description=__doc__)
    parser.add_argument("--check", action="store_true", help="only report missing translations")
    parser.add_argument(
        "--lang",
        action="append",
        choices=LANGUAGES[1:],
        help="update only this language (repeatable; default: all)",
    )
    args = parser.parse_args(argv)
    return build(check=args.check, languages=tuple(args.lang or LANGUAGES[1:]))


if __name__ == "__main__":
    sys.exit(main())
