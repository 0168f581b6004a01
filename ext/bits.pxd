# cython: language_level=3
"""Bit scans and counts of 64-bit words, shared by every engine (bitboards, card sets).

Compiler intrinsics (MSVC and GCC/Clang), all inline C; with ``-mpopcnt`` (setup.py adds it
when the building CPU has the instruction) a count is one instruction.
"""


cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int ctz64(unsigned long long x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    static __inline int clz64(unsigned long long x) { unsigned long i; _BitScanReverse64(&i, x); return 63 - (int)i; }
    #define popcount64(x) ((int)__popcnt64(x))
    #else
    #define ctz64(x) __builtin_ctzll(x)
    #define clz64(x) __builtin_clzll(x)
    #define popcount64(x) __builtin_popcountll(x)
    #endif
    """
    int ctz64(unsigned long long x) nogil
    int clz64(unsigned long long x) nogil
    int popcount64(unsigned long long x) nogil
