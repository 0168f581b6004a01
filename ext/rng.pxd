# cython: language_level=3
"""xoshiro256** random numbers for every engine, seeded through splitmix64.

Each block of games gets one 64-bit seed word from the Monte Carlo runner
(numpy SeedSequence(seed, spawn_key=(block,))); the engine expands it here.
All functions are inline C: no Python objects, no GIL needed.
"""

from libc.stdint cimport uint64_t, uint32_t


cdef struct Rng:
    uint64_t s0
    uint64_t s1
    uint64_t s2
    uint64_t s3


cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    cdef uint64_t x = seed
    r.s0 = splitmix64(&x)
    r.s1 = splitmix64(&x)
    r.s2 = splitmix64(&x)
    r.s3 = splitmix64(&x)


cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    cdef uint64_t result = rotl(r.s1 * 5, 7) * 9
    cdef uint64_t t = r.s1 << 17
    r.s2 ^= r.s0
    r.s3 ^= r.s1
    r.s1 ^= r.s2
    r.s0 ^= r.s3
    r.s2 ^= t
    r.s3 = rotl(r.s3, 45)
    return result


cdef inline uint32_t rng_below(Rng* r, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n) by Lemire's multiply-shift with rejection (n >= 1)."""
    cdef uint64_t x = rng_next(r) >> 32
    cdef uint64_t m = x * n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>(-n)) % n
        while low < threshold:
            x = rng_next(r) >> 32
            m = x * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline double rng_double(Rng* r) noexcept nogil:
    """Uniform double in [0, 1) with 53 random bits."""
    return (rng_next(r) >> 11) * (1.0 / 9007199254740992.0)


cdef inline void rng_shuffle_int(Rng* r, int* a, int n) noexcept nogil:
    """Fisher-Yates shuffle of a C int array in place."""
    cdef int i, j, t
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(r, <uint32_t>(i + 1))
        t = a[i]
        a[i] = a[j]
        a[j] = t
