"""Rate limits: how often one connection and one client address may move, create, ask.

Each limit is a token bucket written ``COUNT/SECONDS``: a client may spend
COUNT actions at once, and gets them back evenly over SECONDS (``30/5`` is a
burst of 30, then six a second). Every action is checked against its
per-connection and its per-address bucket; either one empty refuses it with
``rate-limited`` (HTTP 429 with ``Retry-After``) and spends nothing, so a
refused request costs its sender time, never the others.

Why per address as well as per connection: opening another connection is
free, an address is not. IPv6 addresses are counted per /64 (one subscriber's
usual share), or one machine could spend a new address per request.

Over REST the "connection" of a move or a hint is the seat (room and token),
since a client may open a new HTTP connection for every request.

The defaults (:data:`DEFAULTS`, listed in ``docs/security.md``) are far above
what people playing need and well below what a flood needs;
``pyramids serve --rate-limit NAME=COUNT/SECONDS`` changes one,
``--rate-limit NAME=off`` or ``--rate-limit off`` lifts one or all.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pyramids.i18n import N_
from pyramids.server.protocol import ProtocolError


@dataclass(frozen=True)
class Rate:
    """``count`` actions at once, refilled evenly over ``seconds``."""

    count: int
    seconds: float

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """``"30/5"`` -> ``Rate(30, 5.0)``; ``"off"`` -> ``None``; ``ValueError`` otherwise."""
        if text.strip().lower() == "off":
            return None
        count_text, sep, seconds_text = text.partition("/")
        try:
            count, seconds = int(count_text), float(seconds_text)
        except ValueError:
            count, seconds = 0, 0.0
        if not sep or count < 1 or not 0 < seconds < 1e7:
            raise ValueError(f"a rate is COUNT/SECONDS, e.g. 30/5, or off; not {text!r}")
        return cls(count, seconds)

    def __str__(self) -> str:
        return f"{self.count}/{self.seconds:g}"


#: the actions that are limited, and what each covers
ACTIONS: dict[str, str] = {
    "moves": "moves and undos (WebSocket and REST)",
    "messages": "WebSocket messages of any type and REST request bodies, counted before "
    "they are read",
    "rooms": "new rooms (POST /api/rooms)",
    "hints": "hints (GET /api/rooms/{room}/hint)",
    "chat": "chat lines",
}

#: the default limits, ``<action>-per-connection`` and ``<action>-per-address``
DEFAULTS: dict[str, Rate] = {
    "moves-per-connection": Rate(30, 5),
    "moves-per-address": Rate(300, 10),
    "messages-per-connection": Rate(120, 10),
    "messages-per-address": Rate(600, 10),
    "rooms-per-address": Rate(30, 60),
    "hints-per-connection": Rate(5, 15),
    "hints-per-address": Rate(20, 60),
    # five lines per ten seconds, the chat's limit since it was added
    "chat-per-connection": Rate(5, 10),
    "chat-per-address": Rate(30, 10),
}

#: the reason of a refusal, per action (marked for the catalogs: the call site varies)
REASONS: dict[str, str] = {
    "moves": N_("too many moves: wait {seconds} s"),
    "messages": N_("too many messages: wait {seconds} s"),
    "rooms": N_("too many new games from your address: wait {seconds} s"),
    "hints": N_("too many hints: wait {seconds} s"),
    "chat": N_("too many chat lines: wait {seconds} s"),
}

#: hints computed at once, over the whole server: each takes up to 3 s of a core
HINTS_AT_ONCE = 2


def parse_rate_options(options: Iterable[str]) -> dict[str, Rate | None]:
    """The limits after ``--rate-limit`` options (``NAME=RATE``, ``NAME=off`` or ``off``)."""
    rates: dict[str, Rate | None] = dict(DEFAULTS)
    for option in options:
        if option.strip().lower() == "off":
            rates = dict.fromkeys(rates)
            continue
        name, sep, value = option.partition("=")
        name = name.strip()
        if not sep or name not in DEFAULTS:
            raise ValueError(
                f"--rate-limit takes NAME=COUNT/SECONDS, NAME=off or off; NAME is one of "
                f"{', '.join(DEFAULTS)}; not {option!r}"
            )
        rates[name] = Rate.parse(value)
    return rates


def address_key(host: str | None) -> str:
    """The key an address is limited under: the address, or its /64 for IPv6."""
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Bucket:
    """One token bucket: ``tokens`` left at ``stamp`` (monotonic seconds)."""

    __slots__ = ("stamp", "tokens")

    def __init__(self, rate: Rate, now: float) -> None:
        self.tokens = float(rate.count)
        self.stamp = now

    def wait(self, rate: Rate, now: float) -> float:
        """Refill up to ``now``; seconds until one token is there (0: one is there now)."""
        self.tokens = min(rate.count, self.tokens + (now - self.stamp) * rate.count / rate.seconds)
        self.stamp = now
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) * rate.seconds / rate.count

    def full(self, rate: Rate, now: float) -> bool:
        """Whether the bucket has refilled completely (then it can be forgotten)."""
        return self.tokens + (now - self.stamp) * rate.count / rate.seconds >= rate.count


class RateLimits:
    """Every limit of one server, with the buckets of addresses and REST seats.

    Per-connection buckets of WebSocket connections live on the connection
    (:meth:`check` takes them as ``own``) and go with it. The shared table is
    swept of full buckets when it grows past ``max_keys``, so a flood of
    addresses costs bounded memory.
    """

    def __init__(self, rates: Mapping[str, Rate | None] | None = None, max_keys: int = 50_000):
        self.rates: dict[str, Rate | None] = dict(DEFAULTS if rates is None else rates)
        self.max_keys = max_keys
        self._shared: dict[Hashable, tuple[Bucket, Rate]] = {}

    @classmethod
    def off(cls) -> RateLimits:
        """No limits at all (tests that drive the server faster than people, benchmarks)."""
        return cls(dict.fromkeys(DEFAULTS))

    def check(
        self,
        action: str,
        address: str | None,
        own: dict[str, Bucket] | None = None,
        seat_key: Hashable | None = None,
        now: float | None = None,
    ) -> None:
        """Spend one ``action`` of ``address`` and of the connection; ``rate-limited`` if spent.

        ``own`` holds a WebSocket connection's buckets; ``seat_key`` names a REST
        caller's seat instead. Nothing is spent when any bucket is empty.
        """
        now = time.monotonic() if now is None else now
        picked: list[tuple[Bucket, Rate]] = []
        conn_rate = self.rates.get(f"{action}-per-connection")
        if conn_rate is not None:
            if own is not None:
                bucket = own.get(action)
                if bucket is None:
                    bucket = own[action] = Bucket(conn_rate, now)
                picked.append((bucket, conn_rate))
            elif seat_key is not None:
                picked.append((self._bucket((action, "seat", seat_key), conn_rate, now), conn_rate))
        addr_rate = self.rates.get(f"{action}-per-address")
        if addr_rate is not None:
            key = (action, "address", address_key(address))
            picked.append((self._bucket(key, addr_rate, now), addr_rate))
        wait = max((b.wait(r, now) for b, r in picked), default=0.0)
        if wait > 0:
            raise limited(action, wait)
        for bucket, _ in picked:
            bucket.tokens -= 1

    def _bucket(self, key: Hashable, rate: Rate, now: float) -> Bucket:
        found = self._shared.get(key)
        if found is not None:
            return found[0]
        if len(self._shared) >= self.max_keys:
            self._sweep(now)
        bucket = Bucket(rate, now)
        self._shared[key] = (bucket, rate)
        return bucket

    def _sweep(self, now: float) -> None:
        """Forget full buckets; if a flood left none full, forget the oldest half."""
        kept = {k: v for k, v in self._shared.items() if not v[0].full(v[1], now)}
        if len(kept) >= self.max_keys:
            kept = dict(list(kept.items())[len(kept) // 2 :])
        self._shared = kept

    def describe(self) -> dict[str, Any]:
        """The limits in force, as text (for the start-up log line and the docs)."""
        return {name: str(rate) if rate else "off" for name, rate in self.rates.items()}


def limited(action: str, wait: float) -> ProtocolError:
    """The ``rate-limited`` error for ``action``, to be retried after ``wait`` seconds."""
    seconds = max(1, math.ceil(wait))
    return ProtocolError("rate-limited", REASONS[action], {"retry_after": seconds}, seconds=seconds)
