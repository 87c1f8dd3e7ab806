"""Known-answer tests of the PRNGs: a seed (or a key) must mean the same numbers forever."""

from __future__ import annotations

import hashlib
import hmac
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramids.engine.registry import GAMES, get_game
from pyramids.engine.rng import STREAM_LABEL, KeyedRng, Rng


def test_splitmix64_published_values() -> None:
    # First outputs of SplitMix64 from seed 0 and 1234567, as published with the algorithm.
    r = Rng(0)
    assert [r.next_u64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]
    r = Rng(1234567)
    assert [r.next_u64() for _ in range(3)] == [
        0x599ED017FB08FC85,
        0x2C73F08458540FA5,
        0x883EBCE5A3F27C77,
    ]


def test_below_and_shuffle_known_answers() -> None:
    r = Rng(42)
    assert [r.below(10) for _ in range(10)] == [3, 1, 8, 4, 0, 2, 5, 8, 5, 4]
    items = list(range(10))
    Rng(42).shuffle(items)
    assert items == [0, 9, 5, 8, 6, 4, 7, 2, 1, 3]


@given(seed=st.integers(min_value=0, max_value=2**64 - 1), n=st.integers(1, 60))
def test_inlined_shuffle_matches_documented_fisher_yates(seed: int, n: int) -> None:
    a = list(range(n))
    Rng(seed).shuffle(a)
    b = list(range(n))
    r = Rng(seed)
    for i in range(n - 1, 0, -1):
        j = r.below(i + 1)
        b[i], b[j] = b[j], b[i]
    assert a == b


@given(seed=st.integers(min_value=0, max_value=2**64 - 1), n=st.integers(1, 10**12))
def test_below_is_in_range_and_copy_resumes(seed: int, n: int) -> None:
    r = Rng(seed)
    twin = r.copy()
    assert 0 <= r.below(n) < n
    assert twin.below(n) == Rng.from_state(Rng(seed).state).below(n)
    assert 0.0 <= r.random() < 1.0


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        Rng(1).below(0)
    with pytest.raises(TypeError):
        Rng("7")  # type: ignore[arg-type]
    with pytest.raises(IndexError):
        Rng(1).choice([])


def test_fork_is_independent_of_later_draws() -> None:
    a = Rng(9)
    child = a.fork()
    first = [child.next_u64() for _ in range(3)]
    b = Rng(9)
    assert [b.fork().next_u64() for _ in range(1)] == first[:1]
    assert first != [Rng(9).next_u64() for _ in range(3)]


# -- the keyed stream (a server room's deal) -----------------------------------------------


def test_keyed_stream_known_answers() -> None:
    # pinned in docs/rng.md; the first block is also what
    # `printf 'pyramids-stream-v1\0\0\0\0\0\0\0\0\0' | openssl dgst -sha256 -mac HMAC
    #  -macopt hexkey:00…00` prints
    r = KeyedRng(bytes(32))
    assert [r.next_u64() for _ in range(5)] == [
        0x556AB8AE5C8A4C8E,
        0x647EC5531EC14781,
        0x47E33CC3BF5C36C9,
        0x84A515CF82C2E463,
        0x6748A8F3609BCF7B,
    ]
    r = KeyedRng(bytes(range(32)))
    assert [r.next_u64() for _ in range(2)] == [0xAF1E576038F5E31B, 0xA09283B9F5E13A99]
    r = KeyedRng(bytes(32))
    assert [r.below(10) for _ in range(10)] == [2, 9, 1, 1, 7, 6, 4, 5, 7, 0]
    items = list(range(10))
    KeyedRng(bytes(32)).shuffle(items)
    assert items == [6, 9, 4, 0, 7, 3, 5, 1, 8, 2]


@settings(max_examples=50)
@given(key=st.binary(min_size=16, max_size=64), count=st.integers(0, 40))
def test_keyed_stream_is_hmac_sha256_in_counter_mode(key: bytes, count: int) -> None:
    """Output ``i`` is word ``i % 4`` (big-endian) of HMAC-SHA256(key, label || ``i // 4``)."""
    r = KeyedRng(key)
    got = [r.next_u64() for _ in range(count)]
    expected = []
    for i in range(count):
        block = hmac.new(key, STREAM_LABEL + (i // 4).to_bytes(8, "big"), hashlib.sha256)
        word = block.digest()[8 * (i % 4) : 8 * (i % 4) + 8]
        expected.append(int.from_bytes(word, "big"))
    assert got == expected


@settings(max_examples=50)
@given(key=st.binary(min_size=16, max_size=32), skip=st.integers(0, 9), n=st.integers(1, 60))
def test_keyed_stream_copies_forks_pickles_and_shuffles_as_documented(
    key: bytes, skip: int, n: int
) -> None:
    r = KeyedRng(key)
    for _ in range(skip):
        r.next_u64()
    twin, pickled = r.copy(), pickle.loads(pickle.dumps(r))
    ahead = [r.next_u64() for _ in range(6)]
    assert [twin.next_u64() for _ in range(6)] == ahead
    assert [pickled.next_u64() for _ in range(6)] == ahead
    a, b = list(range(n)), list(range(n))
    r.copy().shuffle(a)
    for i in range(n - 1, 0, -1):  # Fisher-Yates from the end, with below()
        j = r.below(i + 1)
        b[i], b[j] = b[j], b[i]
    assert a == b
    parent = KeyedRng(key)
    child = parent.fork()
    words = KeyedRng(key)
    child_key = b"".join(words.next_u64().to_bytes(8, "big") for _ in range(4))
    assert child.next_u64() == KeyedRng(child_key).next_u64()
    assert parent.next_u64() == words.next_u64()


def test_keyed_stream_refuses_short_keys_and_keeps_its_key_out_of_sight() -> None:
    with pytest.raises(ValueError, match="at least 16 bytes"):
        KeyedRng(bytes(15))
    with pytest.raises(TypeError):
        KeyedRng("00" * 32)  # type: ignore[arg-type]
    key = bytes(range(100, 132))
    r = KeyedRng(key)
    assert key.hex() not in repr(r) and str(int.from_bytes(key, "big")) not in repr(r)
    with pytest.raises(TypeError):
        _ = r.state
    with pytest.raises(TypeError):
        KeyedRng.from_state(5)
    assert KeyedRng.generator == "hmac-sha256-ctr" and Rng.generator == "splitmix64"


@pytest.mark.parametrize("game_id", sorted(GAMES))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**53 - 1), key=st.binary(min_size=32, max_size=32))
def test_a_game_deals_from_any_stream_as_from_its_seed(game_id: str, seed: int, key: bytes) -> None:
    """``Game.deal`` with ``Rng(seed)`` is ``Game.new(seed)``; with a key, a deal of its own."""
    game = get_game(game_id)
    players = game.max_players
    seeded = game.new(players=players, seed=seed)
    again = game.deal(players, Rng(seed))
    assert again.setup() == seeded.setup() and again.seed is None
    keyed = game.deal(players, KeyedRng(key))
    assert keyed.setup() == game.deal(players, KeyedRng(key)).setup()
    assert keyed.record()["generator"] == "hmac-sha256-ctr" and "seed" not in keyed.record()
    assert "generator" not in seeded.record()
