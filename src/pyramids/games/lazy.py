"""A setup written out only when someone reads it.

Why: ``determinize`` must give a full state, setup included (a guess can be
recorded and replayed like any game), but search makes thousands of guesses
a second and never reads their setups; writing every card name of one was a
large part of a determinization. A :class:`LazySetup` holds a function that
builds the setup and calls it once, on first reading. A game whose states
may hold one overrides :meth:`~pyramids.engine.state.State.setup` to return
:meth:`LazySetup.materialize`, so records always get a plain dict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any


class LazySetup(Mapping[str, Any]):
    """A read-only mapping that builds its dict on first access."""

    __slots__ = ("_build", "_value")

    def __init__(self, build: Callable[[], dict[str, Any]]) -> None:
        self._build: Callable[[], dict[str, Any]] | None = build
        self._value: dict[str, Any] | None = None

    def materialize(self) -> dict[str, Any]:
        """The setup as a plain dict (built once; the builder is dropped afterwards)."""
        if self._value is None:
            assert self._build is not None
            self._value = self._build()
            self._build = None
        return self._value

    def __getitem__(self, key: str) -> Any:
        return self.materialize()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.materialize())

    def __len__(self) -> int:
        return len(self.materialize())


def plain_setup(setup: Mapping[str, Any]) -> Mapping[str, Any]:
    """``setup`` itself, or the dict a :class:`LazySetup` stands for."""
    return setup.materialize() if isinstance(setup, LazySetup) else setup
