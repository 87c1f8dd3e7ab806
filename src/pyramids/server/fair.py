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
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pyramids.i18n import N_

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


# -- checking a record -----------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """One check of :func:`verify_record`: which, whether it held, and why (a template)."""

    check: str
    ok: bool
    template: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        """The English sentence (faces translate :attr:`template` themselves)."""
        return self.template.format(**self.params)


def verify_record(record: Mapping[str, Any], expected: str | None = None) -> list[Finding]:
    """Check a finished game's record from the server, everything a player can check.

    1. **moves**: the record replays (every move legal, the result as stated);
    2. **deal**: the setup and every mid-game chance outcome are those of its
       seed, dealt again with the documented PRNG (``docs/rng.md``), not only
       consistent with the moves (a replay alone takes chance from the record);
    3. **commitment**: the revealed seed and secret hash to the commitment the
       room published when it was created, and, given ``expected`` (the
       commitment a player noted at the start), to that one too;
    4. **practice**: whether the room was a practice room (its creator may
       have chosen the seed): reported, it is not a failure.

    Each finding's ``ok`` says whether it held; a record passes if all do.
    """
    from pyramids.engine.errors import PyramidsError
    from pyramids.engine.records import replay

    found: list[Finding] = []
    try:
        final = replay(record)
    except PyramidsError as e:
        found.append(
            Finding("moves", False, N_("the record does not replay: {error}"), {"error": str(e)})
        )
        return found
    found.append(
        Finding(
            "moves",
            True,
            N_("all {count} moves replay, with the stated result"),
            {"count": final.ply},
        )
    )
    seed = record.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        found.append(
            Finding("deal", False, N_("the record has no seed: its deal cannot be checked"))
        )
        return found
    found.append(_check_deal(record, seed))
    found.append(_check_commitment(record, seed, expected))
    if record.get("practice"):
        found.append(
            Finding(
                "practice",
                True,
                N_("a practice room: its creator may have chosen the seed and known every card"),
            )
        )
    return found


def _check_deal(record: Mapping[str, Any], seed: int) -> Finding:
    """The setup and chance outcomes of ``record`` against a fresh deal of ``seed``."""
    from pyramids.engine.errors import PyramidsError
    from pyramids.engine.registry import get_game

    game = get_game(record["game"])
    names = list(record["players"])
    try:
        fresh = game.new(players=len(names), seed=seed, names=names, **record["variant"])
        if fresh.setup() != record["setup"]:
            return Finding(
                "deal", False, N_("the deal is not the deal of seed {seed}"), {"seed": seed}
            )
        for text in record["moves"]:
            fresh.play(fresh.parse_move(text))
    except PyramidsError as e:
        return Finding("deal", False, N_("the seed's game differs: {error}"), {"error": str(e)})
    drawn = [{"ply": p, "choices": n, "outcome": v} for p, n, v in fresh.chance_outcomes()]
    if drawn != list(record.get("chance", [])):
        return Finding(
            "deal",
            False,
            N_("the chance outcomes are not those of seed {seed}"),
            {"seed": seed},
        )
    return Finding(
        "deal",
        True,
        N_("the deal and {count} chance outcomes are those of seed {seed}"),
        {"seed": seed, "count": len(drawn)},
    )


def _check_commitment(record: Mapping[str, Any], seed: int, expected: str | None) -> Finding:
    published = record.get("commitment")
    reveal = record.get("reveal")
    if not isinstance(published, str) or not isinstance(reveal, Mapping):
        return Finding(
            "commitment",
            False,
            N_("the record carries no commitment: nothing shows the deal was fixed in advance"),
        )
    secret = reveal.get("secret")
    if reveal.get("seed") != seed or not isinstance(secret, str):
        return Finding(
            "commitment", False, N_("the reveal does not name the record's seed and a secret")
        )
    if not check(seed, secret, published):
        return Finding(
            "commitment",
            False,
            N_("the seed and secret do not hash to the commitment {commitment}"),
            {"commitment": published},
        )
    if expected is not None and not hmac.compare_digest(expected.strip().lower(), published):
        return Finding(
            "commitment",
            False,
            N_("the record's commitment {commitment} is not the one you noted, {expected}"),
            {"commitment": published, "expected": expected},
        )
    return Finding(
        "commitment",
        True,
        N_("seed {seed} was committed to before the game began: {commitment}"),
        {"seed": seed, "commitment": published},
    )
