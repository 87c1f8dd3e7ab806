"""Known-answer tests of the PRNG: a seed must mean the same numbers forever."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyramids.engine.rng import Rng


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
