"""Fixtures of the terminal tests: a pseudo-terminal per test, always closed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.cli.terminal import Terminal


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Callable[..., Terminal]]:
    """``terminal(*args)`` starts ``pyramids *args`` in ``tmp_path`` on a pseudo-terminal."""
    opened: list[Terminal] = []

    def start(*args: str, timeout: float = 15.0, env: dict[str, str] | None = None) -> Terminal:
        t = Terminal(tmp_path, *args, timeout=timeout, env=env)
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


@pytest.fixture(autouse=True)
def _language_restored() -> Iterator[None]:
    """A test that runs ``pyramids --lang fi`` leaves the next test in its own language."""
    from pyramids.text import language

    saved = list(language._language)
    yield
    language._language[:] = saved
