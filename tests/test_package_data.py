"""Everything the faces read at run time ships in the package (a non-editable install).

Why a test: a rules page, a catalog or a board stylesheet that no package-data
pattern matches works from a checkout and is silently missing from a wheel.
"""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "pyramids"


def patterns() -> list[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found: list[str] = data["tool"]["setuptools"]["package-data"]["pyramids"]
    return found


def matched(path: str, globs: list[str]) -> bool:
    for g in globs:
        if g.startswith("**/"):
            if fnmatch.fnmatch(path, g[3:]) or fnmatch.fnmatch(path, g):
                return True
        elif fnmatch.fnmatch(path, g) and path.count("/") == g.count("/"):
            return True
    return False


def test_every_data_file_of_the_package_is_package_data() -> None:
    globs = patterns()
    missing = []
    for path in sorted(PACKAGE.rglob("*")):
        if path.is_dir() or path.suffix in (".py", ".pyc") or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(PACKAGE).as_posix()
        if not matched(rel, globs):
            missing.append(rel)
    assert not missing, f"not in [tool.setuptools.package-data]: {missing}"


def test_the_faces_data_is_there() -> None:
    for lang in ("en", "pt", "fi", "cs", "es"):
        for game in ("piramides", "pyramideto", "pyramido", "pyramido-treasure"):
            assert (PACKAGE / "web" / "rules" / lang / f"{game}.md").is_file()
    for lang in ("pt", "fi", "cs", "es"):
        for domain in ("pyramids", "web"):
            assert (PACKAGE / "locale" / lang / "LC_MESSAGES" / f"{domain}.mo").is_file()
