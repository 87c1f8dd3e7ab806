"""The language of the text faces: what ``_`` and ``tr`` of every text drawing translate into.

One setting per process, shared by the terminal (``pyramids --lang``) and by
the research adapters' text renderings, which draw with the same modules.
Nothing heavy is imported here: ``pyramids --help`` imports this module, and
Babel loads only when a message is first translated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyramids.i18n import Translator

_language: list[str] = []


def set_language(lang: str | None) -> str:
    """Choose the language: ``lang`` if given, else ``LANGUAGE``, ``LC_ALL`` and friends."""
    from pyramids import i18n

    chosen = i18n.check_language(lang) if lang else i18n.from_environment()
    _language[:] = [chosen]
    return chosen


def tr() -> Translator:
    """The translator of this process (from the environment until set)."""
    from pyramids import i18n

    if not _language:
        _language.append(i18n.from_environment())
    return i18n.translator(_language[0])


def _(message: str, /, **params: Any) -> str:
    """``message`` in the chosen language, its ``{placeholders}`` filled in."""
    return tr().gettext(message, **params)


def help_text(english: str) -> str:
    """A ``--help`` text in the chosen language, without formatting its braces.

    Command help is read before any game loads, so English is returned at once
    (no catalog opened) and other languages read only the compiled catalog.
    """
    from pyramids import i18n

    if not _language:
        _language.append(i18n.from_environment())
    if _language[0] == i18n.DEFAULT:
        return english
    return tr()._t.gettext(english)
