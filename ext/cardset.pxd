# cython: language_level=3
"""Card sets as two 64-bit words (cards 0..63 and 64..127), shared by The Game's engine and solver.

Bit scans and counts are compiler intrinsics (MSVC and GCC/Clang); all functions are inline C.
"""

from libc.stdint cimport uint64_t


cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int cs_ctz64(unsigned long long x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    static __inline int cs_clz64(unsigned long long x) { unsigned long i; _BitScanReverse64(&i, x); return 63 - (int)i; }
    #define cs_popcount64(x) ((int)__popcnt64(x))
    #else
    #define cs_ctz64(x) __builtin_ctzll(x)
    #define cs_clz64(x) __builtin_clzll(x)
    #define cs_popcount64(x) __builtin_popcountll(x)
    #endif
    """
    int cs_ctz64(unsigned long long x) nogil
    int cs_clz64(unsigned long long x) nogil
    int cs_popcount64(unsigned long long x) nogil


cdef inline int set_cards(uint64_t lo, uint64_t hi, int* out) noexcept nogil:
    """The cards of the set in ascending order into ``out``; returns how many."""
    cdef int n = 0
    while lo:
        out[n] = cs_ctz64(lo)
        n += 1
        lo &= lo - 1
    while hi:
        out[n] = 64 + cs_ctz64(hi)
        n += 1
        hi &= hi - 1
    return n
