"""Provably fair deals: a room's deal is committed to before anyone plays, revealed at the end.

When a room is created the server draws a 256-bit random *secret* for it and
publishes a commitment in the room's public summary. Once the game is over it
reveals what was committed, and anyone can recompute the hash (``pyramids
verify RECORD``, the web replay, or any SHA-256 tool): a match shows that the
deal was fixed when the room was created and not changed afterwards (to suit a
player who has seen some cards). Two schemes, one per kind of deal:

* **keyed** (``pyramids-deal-v2``), every room dealt at random: the deal *is*
  the secret's stream (:class:`~pyramids.engine.rng.KeyedRng`, HMAC-SHA256 in
  counter mode), and ``commitment = SHA-256(KEYED_PREFIX || secret)``. There is
  no seed: what a seat or spectator sees of the deal cannot be searched back
  to its source, as a 53-bit SplitMix64 seed can (``docs/security.md``).
* **seeded** (``pyramids-deal-v1``), a room whose creator chose the seed (a
  solitaire's deal number, a practice room) and rooms made before the keyed
  scheme: the deal is ``Rng(seed)`` and ``commitment = SHA-256(PREFIX ||
  seed || secret)``. Why the secret there: seeds are below 2**53, few enough to
  hash them all.

Why a prefix: the hash of one thing is never the hash of another.

Byte layouts (also in ``docs/server.md``)::

    v1, 57 bytes: b"pyramids-deal-v1" 0x00 (17) | seed, 8 bytes big-endian | secret (32)
    v2, 49 bytes: b"pyramids-deal-v2" 0x00 (17) | secret (32)

The secret travels as 64 lowercase hex digits.

>>> commitment(42, "00" * 32)
'039f24f08c20c86b37030afc9d7266682408efb5d69915eaeaac0d11e06aa939'
>>> check(42, "00" * 32, commitment(42, "00" * 32))
True
>>> check_keyed("00" * 32, keyed_commitment("00" * 32))
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pyramids.engine.rng import KeyedRng, Rng
from pyramids.i18n import N_

if TYPE_CHECKING:
    from pyramids.engine.state import State

#: the seeded scheme's name: the first bytes of every hashed message
SCHEME = "pyramids-deal-v1"
PREFIX = SCHEME.encode("ascii") + b"\x00"
#: the keyed scheme's name (the deal is the secret's stream: no seed)
KEYED_SCHEME = "pyramids-deal-v2"
KEYED_PREFIX = KEYED_SCHEME.encode("ascii") + b"\x00"
#: bytes in a room's secret
SECRET_BYTES = 32
#: what a keyed room's bots draw their own choices from (never the deal's stream)
_BOT_LABEL = b"pyramids-bots\x00"


def new_secret() -> str:
    """A fresh random secret for one room, as hex (never reused: one per room)."""
    return secrets.token_hex(SECRET_BYTES)


def _key(secret: str) -> bytes:
    """The secret's 32 bytes; :class:`ValueError` for anything else."""
    key = bytes.fromhex(secret)
    if len(key) != SECRET_BYTES:
        raise ValueError(f"a secret is {SECRET_BYTES} bytes, not {len(key)}")
    return key


def commitment(seed: int, secret: str) -> str:
    """The commitment to ``seed`` under ``secret`` (hex), as 64 lowercase hex digits.

    Raises :class:`ValueError` for a seed outside 0..2**64-1 or a secret that is
    not 32 bytes of hex, so a malformed record is refused rather than misread.
    """
    if not 0 <= seed < 2**64:
        raise ValueError(f"a seed is 0 to 2**64 - 1, not {seed}")
    return hashlib.sha256(PREFIX + seed.to_bytes(8, "big") + _key(secret)).hexdigest()


def keyed_commitment(secret: str) -> str:
    """The commitment to a keyed deal, the stream of ``secret`` (hex): 64 lowercase hex digits."""
    return hashlib.sha256(KEYED_PREFIX + _key(secret)).hexdigest()


def check(seed: int, secret: str, published: str) -> bool:
    """Whether ``published`` is the commitment to ``seed`` under ``secret``."""
    try:
        expected = commitment(seed, secret)
    except ValueError:
        return False
    return hmac.compare_digest(expected, published.lower())


def check_keyed(secret: str, published: str) -> bool:
    """Whether ``published`` is the commitment to the keyed deal of ``secret``."""
    try:
        expected = keyed_commitment(secret)
    except ValueError:
        return False
    return hmac.compare_digest(expected, published.lower())


# -- a room's deal -----------------------------------------------------------------------
#
# A room is seeded when it has a seed (chosen by its creator, or from before the keyed
# scheme), else keyed: dealt from its secret. These few functions are all a room needs.


def stream(secret: str) -> KeyedRng:
    """The keyed stream that deals a room of ``secret``."""
    return KeyedRng(_key(secret))


def deal(
    game_id: str,
    players: int,
    seed: int | None,
    secret: str | None,
    names: Sequence[str],
    variant: Mapping[str, Any],
) -> State[Any]:
    """A room's game before its first move: ``Rng(seed)``'s deal, or, with no seed, its secret's."""
    from pyramids.engine.registry import get_game

    game = get_game(game_id)
    if seed is not None:
        return game.new(players=players, seed=seed, names=list(names), **variant)
    if secret is None:
        raise ValueError("a room without a seed is dealt from its secret, and has none")
    return game.deal(players, stream(secret), names=list(names), **variant)


def published(seed: int | None, secret: str | None) -> str | None:
    """The commitment a room publishes (``None`` for a room made before commitments)."""
    if secret is None:
        return None
    return keyed_commitment(secret) if seed is None else commitment(seed, secret)


def reveal(seed: int | None, secret: str | None) -> dict[str, Any] | None:
    """What a finished room reveals: its secret (and its seed if seeded), with the scheme."""
    if secret is None:
        return None
    if seed is None:
        return {"secret": secret, "scheme": KEYED_SCHEME}
    return {"seed": seed, "secret": secret, "scheme": SCHEME}


def bot_seed(seed: int | None, secret: str | None, version: int) -> int:
    """The seed of a bot's own choices at ``version`` (of its searches, not of the deal).

    A seeded room keeps the formula it always had; a keyed room hashes its
    secret under another label than the deal's stream, so a bot's play tells
    nothing of the deal either.
    """
    if seed is not None:
        return (seed * 1_000_003 + version) % 2**63
    if secret is None:
        raise ValueError("a room without a seed is dealt from its secret, and has none")
    digest = hmac.digest(_key(secret), _BOT_LABEL + version.to_bytes(8, "big"), "sha256")
    return int.from_bytes(digest[:8], "big") >> 1


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
    2. **deal**: the setup and every mid-game chance outcome are dealt again
       from the revealed secret's stream (a keyed record, ``"generator":
       "hmac-sha256-ctr"``) or from the record's seed (``docs/rng.md``), not
       only consistent with the moves (a replay alone takes chance from the
       record);
    3. **commitment**: what the reveal names hashes to the commitment the
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
    if isinstance(seed, int) and not isinstance(seed, bool):
        found.append(_check_deal(record, seed, _SEEDED, {"seed": seed}))
        found.append(_check_commitment(record, seed, expected))
    elif record.get("generator") == KeyedRng.generator:
        reveal = record.get("reveal")
        secret = reveal.get("secret") if isinstance(reveal, Mapping) else None
        try:
            dealer = stream(secret) if isinstance(secret, str) else None
        except ValueError:
            dealer = None
        if dealer is None:
            found.append(
                Finding("deal", False, N_("the record reveals no secret to deal its game from"))
            )
        else:
            found.append(_check_deal(record, dealer, _KEYED, {}))
        found.append(_check_keyed_commitment(record, expected))
    else:
        found.append(
            Finding("deal", False, N_("the record has no seed: its deal cannot be checked"))
        )
        return found
    if record.get("practice"):
        found.append(
            Finding(
                "practice",
                True,
                N_("a practice room: its creator may have chosen the seed and known every card"),
            )
        )
    return found


#: the deal check's words for a seeded record: not its deal, not its chance, both its
#: own, a move that its game refuses
_SEEDED = (
    N_("the deal is not the deal of seed {seed}"),
    N_("the chance outcomes are not those of seed {seed}"),
    N_("the deal and {count} chance outcomes are those of seed {seed}"),
    N_("the seed's game differs: {error}"),
)
#: the same for a keyed record (dealt from the revealed secret)
_KEYED = (
    N_("the deal is not the deal of the revealed secret"),
    N_("the chance outcomes are not those of the revealed secret"),
    N_("the deal and {count} chance outcomes are those of the revealed secret"),
    N_("the secret's game differs: {error}"),
)


def _check_deal(
    record: Mapping[str, Any],
    source: int | Rng,
    words: tuple[str, str, str, str],
    params: dict[str, Any],
) -> Finding:
    """The setup and chance outcomes of ``record`` against a fresh deal of ``source``.

    ``source`` is a seed (dealt as :meth:`Game.new` deals it) or a keyed stream.
    """
    from pyramids.engine.errors import PyramidsError
    from pyramids.engine.registry import get_game

    game = get_game(record["game"])
    names = list(record["players"])
    not_setup, not_chance, holds, differs = words
    variant = record["variant"]
    try:
        if isinstance(source, int):
            fresh = game.new(players=len(names), seed=source, names=names, **variant)
        else:
            fresh = game.deal(len(names), source, names=names, **variant)
        if fresh.setup() != record["setup"]:
            return Finding("deal", False, not_setup, params)
        for text in record["moves"]:
            fresh.play(fresh.parse_move(text))
    except PyramidsError as e:
        return Finding("deal", False, differs, {**params, "error": str(e)})
    drawn = [{"ply": p, "choices": n, "outcome": v} for p, n, v in fresh.chance_outcomes()]
    if drawn != list(record.get("chance", [])):
        return Finding("deal", False, not_chance, params)
    return Finding("deal", True, holds, {**params, "count": len(drawn)})


def _commitment_of(record: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]] | Finding:
    """The record's published commitment and its reveal, or the finding that it has none."""
    published = record.get("commitment")
    reveal = record.get("reveal")
    if not isinstance(published, str) or not isinstance(reveal, Mapping):
        return Finding(
            "commitment",
            False,
            N_("the record carries no commitment: nothing shows the deal was fixed in advance"),
        )
    return published, reveal


def _noted(published: str, expected: str | None) -> Finding | None:
    """The finding that ``published`` is not the commitment a player noted, if it is not."""
    if expected is not None and not hmac.compare_digest(expected.strip().lower(), published):
        return Finding(
            "commitment",
            False,
            N_("the record's commitment {commitment} is not the one you noted, {expected}"),
            {"commitment": published, "expected": expected},
        )
    return None


def _check_commitment(record: Mapping[str, Any], seed: int, expected: str | None) -> Finding:
    got = _commitment_of(record)
    if isinstance(got, Finding):
        return got
    published, reveal = got
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
    return _noted(published, expected) or Finding(
        "commitment",
        True,
        N_("seed {seed} was committed to before the game began: {commitment}"),
        {"seed": seed, "commitment": published},
    )


def _check_keyed_commitment(record: Mapping[str, Any], expected: str | None) -> Finding:
    got = _commitment_of(record)
    if isinstance(got, Finding):
        return got
    published, reveal = got
    secret = reveal.get("secret")
    if reveal.get("scheme") != KEYED_SCHEME or not isinstance(secret, str):
        return Finding(
            "commitment",
            False,
            N_("the reveal does not name the keyed scheme {scheme} and a secret"),
            {"scheme": KEYED_SCHEME},
        )
    if not check_keyed(secret, published):
        return Finding(
            "commitment",
            False,
            N_("the secret does not hash to the commitment {commitment}"),
            {"commitment": published},
        )
    return _noted(published, expected) or Finding(
        "commitment",
        True,
        N_("the deal was committed to before the game began: {commitment}"),
        {"commitment": published},
    )
