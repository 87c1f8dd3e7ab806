"""Everything the faces read at run time ships in the package (a non-editable install).

Why a test: a rules page, a catalog or a board stylesheet that works from a checkout
could be missing from the wheel a player installs. The test builds that wheel with the
project's own build backend (flit_core, as pip would) and compares it with the tree.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "pyramids"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[zipfile.ZipFile]:
    """A wheel built from this checkout."""
    from flit_core import buildapi

    out = tmp_path_factory.mktemp("wheel")
    here = Path.cwd()
    os.chdir(ROOT)  # the backend reads pyproject.toml from the working directory
    try:
        name = buildapi.build_wheel(str(out))
    finally:
        os.chdir(here)
    with zipfile.ZipFile(out / name) as whl:
        yield whl


@pytest.fixture(scope="module")
def wheel_names(wheel: zipfile.ZipFile) -> set[str]:
    return set(wheel.namelist())


def tracked_files() -> list[str]:
    """The package's files as a checkout has them (byte code and caches left out)."""
    return sorted(
        "pyramids/" + p.relative_to(PACKAGE).as_posix()
        for p in PACKAGE.rglob("*")
        if p.is_file() and p.suffix != ".pyc" and "__pycache__" not in p.parts
    )


def test_the_wheel_has_every_file_of_the_package(wheel_names: set[str]) -> None:
    missing = [f for f in tracked_files() if f not in wheel_names]
    assert not missing, f"not in the wheel: {missing}"


def test_the_wheel_has_no_byte_code_and_declares_the_command(
    wheel: zipfile.ZipFile, wheel_names: set[str]
) -> None:
    assert not [n for n in wheel_names if "__pycache__" in n or n.endswith(".pyc")]
    entry_points = next(n for n in wheel_names if n.endswith(".dist-info/entry_points.txt"))
    lines = wheel.read(entry_points).decode().splitlines()
    assert "pyramids=pyramids.cli.main:app" in [line.replace(" ", "") for line in lines]


def test_the_faces_data_is_there(wheel_names: set[str]) -> None:
    for lang in ("en", "pt", "fi", "cs", "es"):
        for game in ("piramides", "pyramideto", "pyramido", "pyramido-treasure"):
            assert f"pyramids/web/rules/{lang}/{game}.md" in wheel_names
    for lang in ("pt", "fi", "cs", "es"):
        for domain in ("pyramids", "web"):
            assert f"pyramids/locale/{lang}/LC_MESSAGES/{domain}.mo" in wheel_names
    assert "pyramids/py.typed" in wheel_names
