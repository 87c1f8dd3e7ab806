"""Numbers and lists as each of our languages writes them, from CLDR data exported by the build.

Why not Babel at run time: its locale data is 36 MB and about a thousand files,
nearly half of what a player's first ``make play`` installs, for the symbols of
five languages. ``make i18n`` (:mod:`pyramids.i18n.build`) reads them from
Babel's CLDR data into ``locale/locales.json``; this module applies them the
way Babel's ``format_decimal`` and ``format_percent`` do (the standard
patterns ``#,##0.###`` and ``#,##0%``, rounding half to even), and a test
compares the two on random numbers in every language. Lists of alternatives
(``B2, C3, or D4``) follow CLDR's "or" list patterns as Babel's
``format_list(style="or")`` applies them.

>>> decimal(1234567.8915, "cs")
'1\\xa0234\\xa0567,892'
>>> percent(0.425, "en")
'42%'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import ROUND_HALF_EVEN, Decimal
from functools import cache
from typing import Any

from pyramids.i18n import LOCALE_DIR

#: what the build writes: each language's number symbols, affixes, plural categories, lists
LOCALES_FILE = LOCALE_DIR / "locales.json"


@cache
def locale_data() -> dict[str, dict[str, Any]]:
    """Every language's entry of ``locales.json``."""
    data: dict[str, dict[str, Any]] = json.loads(LOCALES_FILE.read_text(encoding="utf-8"))
    return data


def _entry(lang: str) -> dict[str, Any]:
    data = locale_data()
    return data.get(lang) or data["en"]


def _as_decimal(value: float | Decimal) -> Decimal:
    # as Babel does: a float by its shortest repr, so 0.1 is 0.1 and not 0.1000000000000000055
    return value if isinstance(value, Decimal) else Decimal(str(value))


def _group(digits: str, separator: str, size: int = 3) -> str:
    head = len(digits) % size or size
    parts = [digits[:head]] + [digits[i : i + size] for i in range(head, len(digits), size)]
    return separator.join(parts)


def _render(
    value: Decimal, fraction_digits: int, entry: dict[str, Any], kind: str, keep: bool = False
) -> str:
    negative = value.is_signed()  # before rounding, as Babel: -0.0001 is "-0"
    if value.is_nan():
        number = "NaN"
    elif value.is_infinite():
        number = "∞"
    else:
        step = Decimal(1).scaleb(-fraction_digits)
        rounded = abs(value).quantize(step, rounding=ROUND_HALF_EVEN)
        whole, _, fraction = f"{rounded:f}".partition(".")
        number = _group(whole, entry["group"])
        if not keep:
            fraction = fraction.rstrip("0")
        if fraction:
            number += entry["decimal"] + fraction
    affixes = entry[f"{kind}_pattern"]
    prefix, suffix = affixes["prefix"][negative], affixes["suffix"][negative]
    return f"{prefix}{number}{suffix}"


def decimal(value: float | Decimal, lang: str) -> str:
    """``value`` with up to three decimals, grouped by thousands (``1 234,5`` in Czech)."""
    return _render(_as_decimal(value), 3, _entry(lang), "decimal")


def fixed(value: float | Decimal, lang: str, digits: int = 1) -> str:
    """``value`` with exactly ``digits`` decimals (``12,0`` and ``12,5`` in Czech).

    For figures shown in a column, where ``12`` beside ``12,5`` reads as a
    different kind of number. A value that rounds to zero is written without a
    sign (not ``-0,0``).
    """
    number = _as_decimal(value)
    if abs(number).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN) == 0:
        number = Decimal(0)
    return _render(number, digits, _entry(lang), "decimal", keep=True)


def percent(fraction: float | Decimal, lang: str) -> str:
    """``fraction`` as a whole percentage (``42 %`` in Finnish, ``42%`` in English)."""
    return _render(_as_decimal(fraction).scaleb(2), 0, _entry(lang), "percent")


def plural_categories(lang: str) -> dict[str, int]:
    """For each CLDR plural category of ``lang``, the gettext form it selects (built)."""
    categories: dict[str, int] = _entry(lang)["plural_categories"]
    return categories


def or_list(items: Sequence[str], lang: str) -> str:
    """``items`` as alternatives: ``B2 or C3``, ``B2, C3, or D4`` (``B2, C3 nebo D4`` in Czech).

    The way Babel's ``format_list(items, style="or")`` joins them, from the
    language's exported patterns (``2`` for two items; ``start``, ``middle``
    and ``end`` for more).
    """
    patterns: dict[str, str] = _entry(lang)["list_or"]
    if len(items) < 2:
        return "".join(items)
    if len(items) == 2:
        return patterns["2"].format(*items)
    text = patterns["start"].format(items[0], items[1])
    for item in items[2:-1]:
        text = patterns["middle"].format(text, item)
    return patterns["end"].format(text, items[-1])
