"""Provably fair deals: a room's seed is committed to before anyone plays, revealed at the end.

When a room is created the server draws a 256-bit random *secret* for it and
publishes ``commitment = SHA-256(PREFIX || seed || secret)`` in the room's
public summary. Once the game is over it reveals the seed and the secret, and
anyone can recompute the hash (``pyramids verify RECORD``, the web replay, or
any SHA-256 tool): a match shows that the deal was fixed when the room was
created and not changed afterwards (to suit a player who has seen some cards).

Why the secret: random seeds are below 2**53, few enough to hash them all; a
bare ``SHA-256(seed)`` would give the seed, and so every hidden card, away to
anyone willing to try them. Why a prefix: the hash of one thing is never the
hash of another (a future scheme gets another prefix).

Byte layout, 57 bytes in all (also in ``docs/server.md``)::

    b"pyramids-deal-v1" 0x00   17 bytes, ASCII, then one zero byte
    seed                        8 bytes, unsigned, big-endian
    secret                     32 bytes (sent as 64 lowercase hex digits)

>>> commitment(42, "00" * 32)
'039f24f08c20c86b37030afc9d7266682408efb5d69915eaeaac0d11e06aa939'
>>> check(42, "00" * 32, commitment(42, "00" * 32))
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

#: the scheme's name: the first bytes of every hashed message
SCHEME = "pyramids-deal-v1"
PREFIX = SCHEME.encode("ascii") + b"\x00"
#: bytes in a room's secret
SECRET_BYTES = 32


def new_secret() -> str:
    """A fresh random secret for one room, as hex (never reused: one per room)."""
    return secrets.token_hex(SECRET_BYTES)


def commitment(seed: int, secret: str) -> str:
    """The commitment to ``seed`` under ``secret`` (hex), as 64 lowercase hex digits.

    Raises :class:`ValueError` for a seed outside 0..2**64-1 or a secret that is
    not 32 bytes of hex, so a malformed record is refused rather than misread.
    """
    if not 0 <= seed < 2**64:
        raise ValueError(f"a seed is 0 to 2**64 - 1, not {seed}")
    key = bytes.fromhex(secret)
    if len(key) != SECRET_BYTES:
        raise ValueError(f"a secret is {SECRET_BYTES} bytes, not {len(key)}")
    return hashlib.sha256(PREFIX + seed.to_bytes(8, "big") + key).hexdigest()


def check(seed: int, secret: str, published: str) -> bool:
    """Whether ``published`` is the commitment to ``seed`` under ``secret``."""
    try:
        expected = commitment(seed, secret)
    except ValueError:
        return False
    return hmac.compare_digest(expected, published.lower())
