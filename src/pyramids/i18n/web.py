"""The web app's catalog as JSON: its own messages, the names of things inside the games,
and how the language's plural forms map onto the browser's ``Intl.PluralRules``.

Why the plural map: gettext numbers a language's plural forms by a C expression,
which a page could only evaluate with ``eval`` (forbidden by our Content-Security-
Policy); the browser already knows each language's CLDR plural categories, so we
send which gettext form each category means, checked against the expression when
``make i18n`` exports it (:func:`pyramids.i18n.build.plural_categories`).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from pyramids.i18n import DEFAULT, LANGUAGES, LOCALE_DIR, numbers, register_game_names, translator


def messages_path(lang: str) -> Path:
    """Where the build writes a language's web messages as JSON (beside its ``web.po``)."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / "web.json"


@cache
def catalog_json(lang: str) -> dict[str, Any]:
    """Everything the page needs to speak ``lang`` (English: names only, msgids are English).

    The messages are the ``web.po``'s, exported by ``make i18n`` as JSON (keys are
    msgids, ``context\u0004msgid`` with a context; plurals a list of forms).
    """
    if lang not in LANGUAGES:
        lang = DEFAULT
    messages: dict[str, str | list[str]] = {}
    if lang != DEFAULT:
        messages = json.loads(messages_path(lang).read_text(encoding="utf-8"))
    from pyramids.engine import names

    register_game_names()
    tr = translator(lang)
    return {
        "lang": lang,
        "messages": messages,
        "plural_categories": numbers.plural_categories(lang),
        "names": {
            kind: {ident: tr.name(kind, ident) for ident in table}
            for kind, table in names.all_names().items()
        },
    }
