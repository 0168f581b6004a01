"""Expose the shared C random generator to Python so tests can check it against a reference."""

from libc.stdint cimport uint64_t
from rng cimport Rng, rng_seed, rng_next, rng_below, rng_double

import numpy as np


def xoshiro_stream(uint64_t seed, int n):
    """First n outputs of xoshiro256** seeded with splitmix64(seed), as uint64 numpy array."""
    cdef Rng r
    rng_seed(&r, seed)
    out = np.empty(n, dtype=np.uint64)
    cdef uint64_t[::1] o = out
    cdef int i
    for i in range(n):
        o[i] = rng_next(&r)
    return out


def below_stream(uint64_t seed, unsigned int bound, int n):
    """n draws of rng_below(bound): used to check uniformity."""
    cdef Rng r
    rng_seed(&r, seed)
    out = np.empty(n, dtype=np.int64)
    cdef long long[::1] o = out
    cdef int i
    for i in range(n):
        o[i] = rng_below(&r, bound)
    return out


def double_stream(uint64_t seed, int n):
    """n draws of rng_double."""
    cdef Rng r
    rng_seed(&r, seed)
    out = np.empty(n, dtype=np.float64)
    cdef double[::1] o = out
    cdef int i
    for i in range(n):
        o[i] = rng_double(&r)
    return out
