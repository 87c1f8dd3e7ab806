"""The web app's catalog as JSON: its own messages, the names of things inside the games,
and how the language's plural forms map onto the browser's ``Intl.PluralRules``.

Why the plural map: gettext numbers a language's plural forms by a C expression,
which a page could only evaluate with ``eval`` (forbidden by our Content-Security-
Policy); the browser already knows each language's CLDR plural categories, so we
send which gettext form each category means, checked against the expression.
"""

from __future__ import annotations

import gettext as _gettext
from functools import cache
from typing import Any

from babel import Locale
from babel.messages.pofile import read_po

from pyramids.i18n import DEFAULT, LANGUAGES, LOCALE_DIR, translator

#: counts that reach every plural category of our languages (Portuguese and Spanish
#: have a form for exact millions)
_SAMPLES = [*range(0, 202), 1_000, 1_000_000, 2_000_000, 1_000_001]


def plural_categories(lang: str, expression: str) -> dict[str, int]:
    """For each CLDR plural category of ``lang``, the gettext form index it selects."""
    choose = _gettext.c2py(expression)
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


@cache
def catalog_json(lang: str) -> dict[str, Any]:
    """Everything the page needs to speak ``lang`` (English: names only, msgids are English)."""
    if lang not in LANGUAGES:
        lang = DEFAULT
    messages: dict[str, str | list[str]] = {}
    categories = {"one": 0, "other": 1}
    if lang != DEFAULT:
        path = LOCALE_DIR / lang / "LC_MESSAGES" / "web.po"
        with path.open("rb") as f:
            catalog = read_po(f, locale=lang)
        for msg in catalog:
            if not msg.id or not msg.string or msg.fuzzy:
                continue
            key_id = msg.id[0] if isinstance(msg.id, tuple | list) else msg.id
            key = f"{msg.context}\u0004{key_id}" if msg.context else key_id
            messages[key] = list(msg.string) if isinstance(msg.string, tuple | list) else msg.string
        categories = plural_categories(lang, catalog.plural_expr)
    from pyramids.engine import names
    from pyramids.engine.registry import all_games

    all_games()  # each game registers its names when it is imported
    tr = translator(lang)
    return {
        "lang": lang,
        "messages": messages,
        "plural_categories": categories,
        "names": {
            kind: {ident: tr.name(kind, ident) for ident in table}
            for kind, table in names.all_names().items()
        },
    }
