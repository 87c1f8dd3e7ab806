"""The players' rules pages: Markdown shipped with the package, rendered to HTML once.

Why on the server, with markdown-it-py: a well-kept CommonMark parser (it already
comes with Rich) instead of a hand-written one in the page, and the page gets
finished HTML with raw HTML in the sources disabled, so a rules file cannot
inject script. Pages live in ``web/rules/<lang>/<game>.md`` (package data); a
language without its own page gets the English one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from pyramids.i18n import DEFAULT

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

RULES_DIR = Path(__file__).resolve().parent.parent / "web" / "rules"


@dataclass(frozen=True)
class RulesPage:
    """A rendered page and the language it is really in (English when it fell back)."""

    lang: str
    html: str


def _renderer() -> MarkdownIt:
    # imported on the first page asked for, not at start-up (60 modules the server's
    # first start would otherwise compile before it answers)
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")

    def table_open(renderer, tokens, idx, options, env):  # type: ignore[no-untyped-def]
        # Wide tables scroll inside their own box, not the whole page on a phone.
        return '<div class="table-scroll" tabindex="0">' + renderer.renderToken(
            tokens, idx, options, env
        )

    def table_close(renderer, tokens, idx, options, env):  # type: ignore[no-untyped-def]
        return renderer.renderToken(tokens, idx, options, env) + "</div>"

    md.add_render_rule("table_open", table_open)
    md.add_render_rule("table_close", table_close)
    return md


@cache
def rules_page(game_id: str, lang: str) -> RulesPage | None:
    """The rules of ``game_id`` in ``lang`` (or English), or None if the game has no page."""
    for code in (lang, DEFAULT):
        path = RULES_DIR / code / f"{game_id}.md"
        if path.is_file() and path.resolve().parent.parent == RULES_DIR.resolve():
            return RulesPage(code, _renderer().render(path.read_text(encoding="utf-8")))
    return None
