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

A second kind of stream, :class:`KeyedRng`, deals the games of online rooms:
SplitMix64's 64-bit state can be searched from a few outputs (a board seen by a
spectator fixes a 53-bit seed), so a room's deal comes instead from HMAC-SHA256
in counter mode under the room's 256-bit secret, which no output gives away.
Its derived operations are the same ones, so a game draws from either alike.

See ``docs/rng.md`` for the known-answer values that the tests pin.
"""

from __future__ import annotations

import hmac
import struct
from collections.abc import MutableSequence, Sequence
from typing import ClassVar, TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64 stream. Cheap to copy; equal seeds give equal streams forever."""

    __slots__ = ("_state",)

    #: the generator's name, as records write it (``docs/records.md``)
    generator: ClassVar[str] = "splitmix64"

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


#: bytes hashed before a block's number: the stream's name, then one zero byte
STREAM_LABEL = b"pyramids-stream-v1\x00"
#: the shortest key a keyed stream takes: 128 bits (a room's secret has 256)
MIN_KEY_BYTES = 16
_BLOCK = struct.Struct(">4Q")


class KeyedRng(Rng):
    """HMAC-SHA256 in counter mode: a stream whose outputs do not give its key away.

    Why: anyone who sees part of a SplitMix64 deal can try seeds until one
    deals the same, and then knows every hidden card. Here block ``i`` is
    ``HMAC-SHA256(key, STREAM_LABEL || i as 8 bytes big-endian)`` and gives
    four outputs, its bytes read as big-endian 64-bit words in order; finding
    the key from outputs would break HMAC-SHA256. ``below``, ``random``,
    ``choice`` and ``shuffle`` are the documented operations on these outputs;
    :meth:`fork` keys a child stream with the next four outputs.
    """

    __slots__ = ("_at", "_block", "_key", "_words")

    generator: ClassVar[str] = "hmac-sha256-ctr"

    def __init__(self, key: bytes) -> None:
        if not isinstance(key, bytes):
            raise TypeError(f"a key must be bytes, not {type(key).__name__}")
        if len(key) < MIN_KEY_BYTES:
            raise ValueError(f"a key is at least {MIN_KEY_BYTES} bytes, not {len(key)}")
        self._key = key
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._at = 0

    @property
    def state(self) -> int:
        """Not available: a keyed stream's position is its key and a counter (use :meth:`copy`)."""
        raise TypeError("a keyed stream has no 64-bit state: copy() it to resume")

    @classmethod
    def from_state(cls, state: int) -> Rng:
        """Not available (see :attr:`state`): a keyed stream starts from its key."""
        raise TypeError("a keyed stream is made from its key, not from a state")

    def copy(self) -> KeyedRng:
        """An independent stream at the same point (sharing the immutable key and block)."""
        twin = KeyedRng.__new__(KeyedRng)
        twin._key = self._key
        twin._block = self._block
        twin._words = self._words
        twin._at = self._at
        return twin

    def next_u64(self) -> int:
        """The next 64-bit output (a new HMAC block every four outputs)."""
        at = self._at
        if at >= len(self._words):
            message = STREAM_LABEL + self._block.to_bytes(8, "big")
            self._words = _BLOCK.unpack(hmac.digest(self._key, message, "sha256"))
            self._block += 1
            at = 0
        self._at = at + 1
        return self._words[at]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place: Fisher-Yates from the end with :meth:`below`, as for SplitMix64."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self) -> KeyedRng:
        """A new keyed stream whose key is this stream's next four outputs (32 bytes)."""
        return KeyedRng(b"".join(self.next_u64().to_bytes(8, "big") for _ in range(4)))

    def __repr__(self) -> str:
        # never the key: a repr ends up in logs and tracebacks
        return f"KeyedRng(block={self._block}, at={self._at})"
