# cython: language_level=3
"""Card sets as two 64-bit words (cards 0..63 and 64..127), shared by The Game's engine and solver.

Bit scans and counts come from bits.pxd; all functions are inline C.
"""

from libc.stdint cimport uint64_t


from bits cimport clz64 as cs_clz64, ctz64 as cs_ctz64, popcount64 as cs_popcount64


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
