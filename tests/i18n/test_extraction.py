"""Every translated text can be found by Babel's extractors: literal arguments only.

A call of ``_()`` inside an f-string, or of ``t()`` inside a JavaScript template
literal, is skipped by the extractors without a word, so its text would stay
English in every language: these tests name each such place.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "pyramids"
PY_KEYWORDS = {"_", "gettext", "ngettext", "pgettext", "N_"}


def _called(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Name):
            return f.id
        if isinstance(f, ast.Attribute):
            return f.attr
    return None


def test_no_translation_call_hides_inside_an_f_string() -> None:
    problems = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.JoinedStr):
                continue
            for inner in ast.walk(node):
                name = _called(inner)
                if name in PY_KEYWORDS:
                    problems.append(f"{path.relative_to(SRC)}:{inner.lineno}: {name}() in f-string")
    assert not problems, "\n".join(problems)


def test_translation_calls_take_literal_messages() -> None:
    problems = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if _called(node) not in ("_", "ngettext", "N_") or not isinstance(node, ast.Call):
                continue
            first = node.args[0] if node.args else None
            if isinstance(first, ast.JoinedStr):
                problems.append(f"{path.relative_to(SRC)}:{node.lineno}: f-string message")
    assert not problems, "\n".join(problems)


#: t("..."), tn("...", ...), tc("...", ...) inside ${...} of a template literal
_JS_IN_TEMPLATE = re.compile(r"`[^`]*\$\{[^`}]*\b(?:t|tn|tc)\([^`]*`")


def test_no_web_translation_call_hides_inside_a_template_literal() -> None:
    problems = []
    for path in sorted((SRC / "web").rglob("*.js")):
        text = path.read_text(encoding="utf-8")
        for m in _JS_IN_TEMPLATE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            problems.append(f"{path.relative_to(SRC)}:{line}: {m.group(0)[:80]}")
    assert not problems, "\n".join(problems)


#: t("msg"), tn("msg", ...), tc("context", "msg"): the literal arguments of a web call
_JS_CALL = re.compile(
    r'(?<![\w.$])(t|tn|tc)\(\s*"((?:[^"\\]|\\.)*)"(?:\s*,\s*"((?:[^"\\]|\\.)*)")?'
)


def test_every_web_translation_call_reaches_the_template() -> None:
    """Babel's JavaScript extractor skips a call inside another call's arguments
    (``t("{a}", { a: tn("{n} jewel", ...) })``) without a word; a plain scan of the
    sources finds every call, and each must be in ``web.pot``."""
    from babel.messages.pofile import read_po

    with (SRC / "locale" / "web.pot").open("rb") as f:
        template = read_po(f)
    known = {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in template if m.id}
    missing = []
    for path in sorted((SRC / "web").rglob("*.js")):
        text = path.read_text(encoding="utf-8")
        for m in _JS_CALL.finditer(text):
            line_start = text.rfind("\n", 0, m.start()) + 1
            if text[line_start : m.start()].lstrip().startswith("//"):
                continue  # an example in a comment
            kind, first, second = m.groups()
            if kind == "tc" and second is None:
                continue
            key = (first, second) if kind == "tc" else (None, first)
            if key not in known:
                line = text.count("\n", 0, m.start()) + 1
                missing.append(f"{path.relative_to(SRC)}:{line}: {kind}({first!r})")
    assert not missing, "\n".join(missing)
