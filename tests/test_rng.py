"""The shared C generator (ext/rng.pxd) against a pure-Python xoshiro256** / splitmix64 reference."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from solver._ext import rngcheck

MASK = (1 << 64) - 1


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return x, z ^ (z >> 31)


def xoshiro_reference(seed, n):
    s = []
    x = seed
    for _ in range(4):
        x, z = splitmix64(x)
        s.append(z)

    def rotl(v, k):
        return ((v << k) | (v >> (64 - k))) & MASK

    out = []
    for _ in range(n):
        result = (rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        out.append(result)
    return out


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=0, max_value=MASK))
def test_xoshiro_matches_reference(seed):
    assert [int(v) for v in rngcheck.xoshiro_stream(seed, 20)] == xoshiro_reference(seed, 20)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=MASK), st.integers(min_value=1, max_value=2**31))
def test_below_stays_in_range(seed, bound):
    draws = rngcheck.below_stream(seed, bound, 200)
    assert draws.min() >= 0 and draws.max() < bound


def test_below_is_uniform():
    draws = rngcheck.below_stream(12345, 6, 600_000)
    counts = np.bincount(draws, minlength=6)
    expected = 100_000
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 25  # 5 degrees of freedom: p < 1e-4 for a correct generator


def test_double_in_unit_interval():
    d = rngcheck.double_stream(99, 100_000)
    assert d.min() >= 0.0 and d.max() < 1.0 and abs(d.mean() - 0.5) < 0.01
