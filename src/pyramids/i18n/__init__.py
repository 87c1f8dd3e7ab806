"""The five languages of Pyramids: gettext catalogs (made with Babel) and what faces need.

Babel makes the catalogs (``make i18n``) but is not needed to read them: gettext is
the standard library's, and the numbers' symbols come from a small file the build
exports (:mod:`pyramids.i18n.numbers`), so that a player's install stays light.

Why gettext with English msgids: it is what the Python ecosystem and translators'
tools know (Babel extracts, updates and compiles the catalogs; Poedit and
Weblate edit them), and a message without a translation still reads as
English. The engine stays language-free (its errors carry a code and
parameters, see :mod:`pyramids.engine.errors`); only faces translate.

Two domains: ``pyramids`` for the Python faces (terminal, server messages,
engine reasons, names of things inside the games) and ``web`` for the
browser app, which reads it as JSON from the server
(:func:`pyramids.i18n.web.catalog_json`).

>>> translator("en").name("treasure", "sacred-dog")
'sacred dog'
>>> translator("es").name("treasure", "sacred-dog") != "sacred dog"
True
>>> negotiate("fi-FI,fi;q=0.9,en;q=0.5")
'fi'
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyramids.engine.errors import PyramidsError

#: the languages every face speaks, English first (the fallback)
LANGUAGES: tuple[str, ...] = ("en", "pt", "fi", "cs", "es")
DEFAULT = "en"
#: the region each catalog is written for, where it has one: the Portuguese catalog is
#: Brazilian (as the *Pyramido* rulebook is), so its id is ``pt`` (and ``pt-BR``), and a
#: reader asking for European Portuguese (``pt-PT``, ``pt_PT``) gets it on purpose: the
#: nearest catalog there is, until a ``pt_PT`` one is written
REGIONS: Mapping[str, str] = {"pt": "BR"}
#: where the catalogs live (package data, so an installed wheel has them)
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAINS = ("pyramids", "web")


def N_(message: str) -> str:
    """Mark a literal for extraction without translating it here (translated later)."""
    return message


@cache
def _translations(lang: str, domain: str) -> _gettext.NullTranslations:
    if lang == DEFAULT:
        return _gettext.NullTranslations()
    return _gettext.translation(domain, localedir=LOCALE_DIR, languages=[lang], fallback=True)


class Translator:
    """Messages of one language: gettext, ngettext, pgettext, names and numbers.

    A face holds one per player (a connection, a terminal session) rather
    than switching a process-wide language: the server speaks several
    languages at once.
    """

    def __init__(self, lang: str = DEFAULT, domain: str = "pyramids") -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT
        self.domain = domain
        self._t = _translations(self.lang, domain)

    def gettext(self, message: str, /, **params: Any) -> str:
        """The translation of ``message`` with its ``{placeholders}`` filled in."""
        text = self._t.gettext(message)
        return text.format(**params) if params else text

    def ngettext(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """The form for count ``n`` (``{n}`` is filled in, formatted for the language)."""
        text = self._t.ngettext(singular, plural, n)
        return text.format(n=self.number(n), **params)

    def pgettext(self, context: str, message: str, /, **params: Any) -> str:
        """A translation in a context: the same English word with two meanings."""
        text = self._t.pgettext(context, message)
        return text.format(**params) if params else text

    def lookup(self, context: str, english: str) -> str:
        """A text that lives in data (a game's title, an option's help) by its context.

        Unlike :meth:`pgettext` this is not an extraction keyword: the catalogs get
        these entries from the registries (:mod:`pyramids.i18n.build`).
        """
        return self._t.pgettext(context, english)

    def name(self, kind: str, ident: str) -> str:
        """The name of a thing inside a game (a treasure, a colour...) by kind and id."""
        from pyramids.engine import names

        if kind == names.ALTERNATIVES:
            from pyramids.i18n import numbers

            return numbers.or_list(ident.split(), self.lang)
        register_game_names()
        return self.lookup(name_context(kind, ident), names.english(kind, ident))

    def number(self, value: float) -> str:
        """A number as the language writes it (``1 234`` in Czech, ``1,234`` in English)."""
        from pyramids.i18n import numbers

        return numbers.decimal(value, self.lang)

    def fixed(self, value: float, digits: int = 1) -> str:
        """A number with exactly ``digits`` decimals, for a column (``12,0`` beside ``12,5``)."""
        from pyramids.i18n import numbers

        return numbers.fixed(value, self.lang, digits)

    def percent(self, fraction: float) -> str:
        """A share as a whole percentage (``42 %`` or ``42%``)."""
        from pyramids.i18n import numbers

        return numbers.percent(fraction, self.lang)

    def ordinal(self, n: int) -> str:
        """A place in a ranking: ``1st``, ``1.``, ``1º``."""
        return self.pgettext("ordinal", "#{n}", n=self.number(n))

    def message(
        self, template: str, params: Mapping[str, Any], seats: Sequence[str] | None = None
    ) -> str:
        """An engine message (template plus parameters) in this language.

        Names of things are translated, seat numbers become ``seats``' names; a
        translation whose fields do not fit falls back to the English template.
        """
        from pyramids.engine import names

        try:
            return names.render(
                template, params, name=self.name, seats=seats, translate=self._t.gettext
            )
        except (KeyError, IndexError, ValueError):
            return names.render(template, params, seats=seats)

    def error(self, err: PyramidsError) -> str:
        """An engine error's sentence in this language (with the error it wraps)."""
        return err.render(self._t.gettext, self.name)


@cache
def register_game_names() -> None:
    """Import every game once, so that their names are registered (:mod:`pyramids.engine.names`).

    Why: a game registers its names when its module is imported, and the
    registry imports a game only when it is first asked for. A program that
    translates a name before touching that game (a script, this module's own
    example) would otherwise get the bare id (``sacred-dog``).
    """
    from pyramids.engine.registry import all_games

    all_games()


def name_context(kind: str, ident: str) -> str:
    """The gettext context of a name: its kind and id, so that two things with the same
    English name (a lamp treasure and a lamp goal card) are translated apart."""
    return f"{kind}:{ident}"


@cache
def translator(lang: str = DEFAULT, domain: str = "pyramids") -> Translator:
    """The (shared) :class:`Translator` of a language; unknown languages get English."""
    return Translator(lang, domain)


def negotiate(preferred: str | Iterable[str] | None) -> str:
    """The best of :data:`LANGUAGES` for an ``Accept-Language`` header or a list of tags."""
    if not preferred:
        return DEFAULT
    if isinstance(preferred, str):
        tags = _parse_accept_language(preferred)
    else:
        tags = [t for t in preferred if t]
    # the first tag we have, or whose language we have: "pt-BR" is "pt"; so is "pt-PT",
    # which reads the Brazilian catalog (see REGIONS)
    for tag in tags:
        tag = tag.replace("_", "-").lower()
        for candidate in (tag, tag.split("-")[0]):
            if candidate in LANGUAGES:
                return candidate
    return DEFAULT


def _parse_accept_language(header: str) -> list[str]:
    """Tags of an ``Accept-Language`` header, best first (``q`` weights honoured)."""
    weighted: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, _, rest = part.strip().partition(";")
        tag = tag.strip()
        if not tag or tag == "*":
            continue
        q = 1.0
        rest = rest.strip()
        if rest.startswith("q="):
            try:
                q = float(rest[2:])
            except ValueError:
                q = 0.0
        if q > 0:
            weighted.append((-q, i, tag))
    return [tag for _, _, tag in sorted(weighted)]


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language of a terminal: ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``.

    As gettext reads them: the first one set wins; ``LANGUAGE`` may list several
    (``fi:en``), and ``C``/``POSIX`` mean English.
    """
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        tags = [v.split(".")[0].split("@")[0] for v in value.split(":") if v]
        tags = [t for t in tags if t not in ("C", "POSIX")]
        if tags:
            return negotiate(tags)
        return DEFAULT
    return DEFAULT


def check_language(lang: str) -> str:
    """``lang`` if it is one of :data:`LANGUAGES` (also as ``pt-BR`` or ``pt_BR``)."""
    base = lang.replace("-", "_").split("_")[0].lower()
    if base in LANGUAGES:
        return base
    raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")


def option_label(name: str) -> str:
    """The English label of a variant option (``face_down`` -> ``Face down``).

    Here, not in :mod:`pyramids.i18n.build`, because the server labels options
    at run time and the build module imports Babel's extraction machinery.
    """
    words = name.replace("_", " ").replace("-", " ")
    return words[:1].upper() + words[1:]
