/* Four 64-bit words handled as one value (``lanes4``), for the Blokus move listing (scan in
 * blokus.pyx): one shift-and-AND step tests four groups of anchor rows at once.
 *
 * With GCC or Clang a lanes4 is a vector type (one AVX2 register when the build enables it,
 * two SSE2 registers otherwise); other compilers (or -DSOLVER_LANES_PLAIN) get a plain array of
 * four words.  Every operation is a lane-by-lane integer operation, so all three give the same
 * results.
 */
#ifndef SOLVER_LANES_H
#define SOLVER_LANES_H

#include <stdint.h>

#if (defined(__GNUC__) || defined(__clang__)) && !defined(SOLVER_LANES_PLAIN)

typedef uint64_t lanes4 __attribute__((vector_size(32)));

static inline lanes4 lanes_set(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    lanes4 r = {a, b, c, d};
    return r;
}
static inline lanes4 lanes_and(lanes4 a, lanes4 b) { return a & b; }
static inline lanes4 lanes_or(lanes4 a, lanes4 b) { return a | b; }
static inline lanes4 lanes_shr(lanes4 a, int n) { return a >> (uint64_t)n; }
static inline void lanes_store(uint64_t* out, lanes4 a) { __builtin_memcpy(out, &a, sizeof a); }
#if defined(__AVX2__)
#include <immintrin.h>
/* bit i set: lane i is not zero (one compare and one mask move) */
static inline int lanes_nonzero(lanes4 a)
{
    __m256i zero = _mm256_cmpeq_epi64((__m256i)a, _mm256_setzero_si256());
    return ~_mm256_movemask_pd(_mm256_castsi256_pd(zero)) & 15;
}
#else
static inline int lanes_nonzero(lanes4 a)
{
    return (a[0] != 0) | (a[1] != 0) << 1 | (a[2] != 0) << 2 | (a[3] != 0) << 3;
}
#endif

#else

typedef struct { uint64_t w[4]; } lanes4;

static __inline lanes4 lanes_set(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    lanes4 r;
    r.w[0] = a; r.w[1] = b; r.w[2] = c; r.w[3] = d;
    return r;
}
static __inline lanes4 lanes_and(lanes4 a, lanes4 b)
{
    int i;
    for (i = 0; i < 4; i++) a.w[i] &= b.w[i];
    return a;
}
static __inline lanes4 lanes_or(lanes4 a, lanes4 b)
{
    int i;
    for (i = 0; i < 4; i++) a.w[i] |= b.w[i];
    return a;
}
static __inline lanes4 lanes_shr(lanes4 a, int n)
{
    int i;
    for (i = 0; i < 4; i++) a.w[i] >>= n;
    return a;
}
static __inline void lanes_store(uint64_t* out, lanes4 a)
{
    int i;
    for (i = 0; i < 4; i++) out[i] = a.w[i];
}
static __inline int lanes_nonzero(lanes4 a)
{
    return (a.w[0] != 0) | (a.w[1] != 0) << 1 | (a.w[2] != 0) << 2 | (a.w[3] != 0) << 3;
}

#endif

#endif
