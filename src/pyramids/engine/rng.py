"""The project's own pseudo-random number generator.

Why our own: a seed or a deal number must mean the same game in every future
version of Pyramids and on every Python. Python's :mod:`random` makes no such
promise across versions for ``shuffle``/``randrange``, so every random choice
of every game comes from this small, fully specified generator instead.

The generator is SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit state that
advances by the constant ``0x9E3779B97F4A7C15`` and is passed through a fixed
mixing function. The derived operations are specified here too, because they
are part of what a seed means:

* :meth:`Rng.below` draws an integer in ``[0, n)`` by rejection: take the next
  64-bit output ``x``; reject it while ``x >= 2**64 - (2**64 % n)``; answer
  ``x % n``. No modulo bias.
* :meth:`Rng.shuffle` is Fisher-Yates from the end: for ``i`` from
  ``len-1`` down to ``1``, swap item ``i`` with item ``below(i + 1)``.
* :meth:`Rng.fork` derives an independent generator from the next output, for
  sub-streams (for example one per round) that must not shift when another
  stream draws more numbers.

See ``docs/rng.md`` for the known-answer values that the tests pin.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64 stream. Cheap to copy; equal seeds give equal streams forever."""

    __slots__ = ("_state",)

    def __init__(self, seed: int = 0) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int, not {type(seed).__name__}")
        self._state = seed & MASK64

    @property
    def state(self) -> int:
        """The 64-bit internal state (enough to resume the stream exactly)."""
        return self._state

    @classmethod
    def from_state(cls, state: int) -> Rng:
        """Resume a stream from :attr:`state`."""
        return cls(state)

    def copy(self) -> Rng:
        """An independent generator at the same point of the stream."""
        return Rng(self._state)

    def next_u64(self) -> int:
        """The next 64-bit output."""
        self._state = z = (self._state + GOLDEN_GAMMA) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``; ``n`` must be at least 1."""
        if n <= 0:
            raise ValueError(f"below() needs n >= 1, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """A float in ``[0, 1)`` with 53 random bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: Sequence[T]) -> T:
        """A uniformly chosen item of a non-empty sequence."""
        if not items:
            raise IndexError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates from the end, as documented above).

        The generator is inlined here (same numbers as :meth:`below`) because
        dealing is on the hot path of simulations and solvers.
        """
        state = self._state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = (1 << 64) - ((1 << 64) % n)
            while True:
                state = z = (state + GOLDEN_GAMMA) & MASK64
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self._state = state

    def fork(self) -> Rng:
        """A new generator seeded from this stream's next output."""
        return Rng(self.next_u64())

    def __repr__(self) -> str:
        return f"Rng(state=0x{self._state:016x})"
