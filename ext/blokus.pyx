# cython: language_level=3
"""Blokus move generation on bitboards, playouts and self-play, all in C, for every board.

The engine knows no board shape: a board is a rectangular frame of up to 62 columns and 24 rows
(one 64-bit word per row, bit x = column x, rows from the bottom) with a mask of the cells on the
board, and a *piece set* whose orientation tables (cells, edge halo, corner cells, row shapes)
are computed by the geometry layer (:mod:`solver.blokus.geometry`) and copied into C arrays at
import.  Square boards and Trigon's hexagon of triangles are two such boards; on a triangle
lattice an orientation fits only at offsets of the right parity (``o_par``, ``board_parity``).

Per colour the engine keeps three bitboards:

* ``free``: cells where a piece of this colour may lie (on the board, empty, not edge-adjacent to
  this colour, and under the corners-only rule not beside a straight side of it);
* ``attach``: free cells corner-adjacent to this colour (before its first move: its start cells);
* ``own``: the cells it covers (the corners-only rule looks at them).

A placement is an orientation ``o`` anchored with its lowest-leftmost bounding box corner at
column ``c``, row ``r``; it is legal iff every cell is free and at least one is an attach cell.
For one orientation and one anchor row the set of legal columns is computed for all columns at
once::

    legal = AND over cells (free[r + dy] >> dx)  &  OR over cells (attach[r + dy] >> dx)

Only rows within reach of an attach cell are looked at, pieces already placed are skipped.  A
move is the integer ``code = (o * height + r) * width + c`` (``move_t``, 32 bits: Trigon has
155 orientations on a 35 x 18 frame).
"""

from libc.stdint cimport uint64_t, uint32_t, int32_t, int64_t, int16_t, int8_t, uint8_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, realloc, free as cfree
from cpython.exc cimport PyErr_Clear
from bits cimport clz64, ctz64, popcount64
from rng cimport Rng, rng_seed, rng_next, rng_below

import threading

import numpy as np

from solver.blokus.pieces import PIECE_SETS


cdef extern from "lanes.h":
    # four 64-bit words as one vector value (see lanes.h); only these operations touch it
    ctypedef struct lanes4:
        pass
    lanes4 lanes_set(uint64_t a, uint64_t b, uint64_t c, uint64_t d) noexcept nogil
    lanes4 lanes_and(lanes4 a, lanes4 b) noexcept nogil
    lanes4 lanes_or(lanes4 a, lanes4 b) noexcept nogil
    lanes4 lanes_shr(lanes4 a, int n) noexcept nogil
    void lanes_store(uint64_t* out, lanes4 a) noexcept nogil   # the four words, lane 0 first
    int lanes_nonzero(lanes4 a) noexcept nogil   # bit i: lane i is not zero


cdef extern from "Python.h":
    # declared without Cython's exception check: the caller looks at the result itself
    int check_signals "PyErr_CheckSignals" ()


DEF MAXROWS = 32
DEF MAXPIECES = 24
DEF MAXORIENT = 160
DEF MAXCELLS = 6
DEF MAXH = 5          # rows an orientation may span (the scan is unrolled up to this)
DEF MAXW = 8          # columns an orientation may span
DEF MAXPAT = 12       # row shapes of one piece set
DEF MAXSETS = 2
DEF PAD = 2           # halo and corner rows are stored shifted by PAD bits (cells left of the anchor)
DEF MAXCOLOURS = 4
DEF MAXLIST = 32768
DEF MAXWIDTH = 62
DEF MAXHEIGHT = 24
DEF MAXCHUNK = (MAXHEIGHT + 3) // 4   # scan's lanes4 chunks: four groups of at least one row each

DEF MAXPLIES = 128
DEF REACH_STEPS = 4    # edge steps of the reach features
DEF NFEAT = 20         # move evaluation features (EVAL_FEATURES)
DEF KOMI_EVERY = 256   # simulations between two adjustments of the dynamic komi
DEF MAXPARAMS = 48     # room for the mcts parameters (SEARCH_PARAMS, checked at import)
DEF EVEN_COLS = 0x5555555555555555

ctypedef uint32_t move_t

DEF RECORD_SHIFT = 24
#: a recorded move is ``colour << RECORD_COLOUR_SHIFT | code`` (simulate_block's ``record``)
RECORD_COLOUR_SHIFT = RECORD_SHIFT

# ---------------------------------------------------------------- orientation tables


cdef struct PieceTables:
    int32_t n_orient
    int32_t n_pieces
    int32_t n_pat
    int32_t total_cells
    int32_t max_size                          # cells of the set's largest piece
    uint32_t at_least[MAXCELLS + 1]           # size n: bit mask of the pieces with at least n cells
    int32_t monomino
    int32_t p_size[MAXPIECES]
    int32_t p_first[MAXPIECES]
    int32_t p_count[MAXPIECES]
    int32_t o_piece[MAXORIENT]
    int32_t o_ncells[MAXORIENT]
    int32_t o_w[MAXORIENT]
    int32_t o_h[MAXORIENT]
    int32_t o_par[MAXORIENT]                  # parity of the shape (triangles; squares: 0)
    int32_t o_dx[MAXORIENT][MAXCELLS]
    int32_t o_dy[MAXORIENT][MAXCELLS]
    uint64_t o_rows[MAXORIENT][MAXH]          # cell rows, bit dx
    int32_t o_prow[MAXORIENT][MAXH]           # row i: pattern * MAXH + i (see scan)
    int32_t o_rsh[MAXORIENT][MAXH]            # row i: column of its leftmost cell
    uint64_t o_halo[MAXORIENT][MAXH + 2]      # cells + edge neighbours, rows -1..h, bit dx + PAD
    uint64_t o_diag[MAXORIENT][MAXH + 2]      # corner-only neighbours, rows -1..h, bit dx + PAD
    uint64_t o_opp[MAXORIENT][MAXH + 2]       # corners-only rule: cells beside a straight side
    int32_t o_nopp[MAXORIENT]                 # ... their number, and the cells themselves
    int32_t o_oppx[MAXORIENT][16]
    int32_t o_oppy[MAXORIENT][16]
    int32_t pat_parent[MAXPAT]                # row shape p = shape pat_parent[p] plus one cell ...
    int32_t pat_shift[MAXPAT]                 # ... at column pat_shift[p] (shape 0 is one cell)
    int32_t parity_matters                    # 1 on a lattice whose cells come in two kinds
    int32_t nb_n[2]                           # edge neighbours of a board cell of kind q ...
    int32_t nb_dx[2][4]                       # ... at these offsets (the lattice's, per kind)
    int32_t nb_dy[2][4]
    int32_t side_rows                         # 1: one cell kind whose neighbours are the cells
                                              # left, right, above and below it (squares)


cdef PieceTables TABLES[MAXSETS]

#: names of the piece sets in engine order (a Position's ``piece_set`` indexes this)
SET_NAMES = tuple(PIECE_SETS)

#: Python view of the orientation tables: per piece set, (piece index, cells, parity) per orientation
ORIENTATIONS = {}

#: per piece set, the row shapes of its orientations, leftmost cell at 0 (scan precomputes each)
ROW_PATTERNS = {}


def _build_tables(int set_id, piece_set):
    """Copy one piece set's orientation tables (computed by the geometry layer) into C."""
    cdef PieceTables* T = &TABLES[set_id]
    cdef int o = 0, i, x, y, pi
    lattice = piece_set.lattice
    memset(T, 0, sizeof(PieceTables))
    orients = []
    patterns = [(0,)]
    for piece in piece_set.pieces:
        for shape, parity in piece.forms:
            for row in range(max(c[1] for c in shape) + 1):
                xs = sorted(x for (x, y) in shape if y == row)
                pattern = tuple(x - xs[0] for x in xs)
                for n in range(1, len(pattern) + 1):       # every prefix too: built incrementally
                    if pattern[:n] not in patterns:
                        patterns.append(pattern[:n])
    patterns.sort(key=lambda p: (len(p), p))
    if len(patterns) > MAXPAT or len(piece_set.pieces) > MAXPIECES:
        raise ValueError("piece set too large for the engine's tables")
    T.n_pat = len(patterns)
    T.parity_matters = 1 if lattice.shift_parity(0, 1) != 0 else 0
    for pi, pattern in enumerate(patterns):
        # (the module is compiled without negative indexing)
        T.pat_parent[pi] = patterns.index(pattern[:len(pattern) - 1]) if len(pattern) > 1 else 0
        T.pat_shift[pi] = pattern[len(pattern) - 1]
    for q in range(2):
        edge, _ = lattice.neighbours((0, 0), q)
        T.nb_n[q] = len(edge)
        for i, (x, y) in enumerate(edge):
            T.nb_dx[q][i] = x
            T.nb_dy[q][i] = y
    T.side_rows = 1 if (not T.parity_matters and T.nb_n[0] == 4 and
                        {(T.nb_dx[0][i], T.nb_dy[0][i]) for i in range(4)} == {(1, 0), (-1, 0), (0, 1), (0, -1)}) else 0
    T.n_pieces = len(piece_set.pieces)
    T.total_cells = piece_set.cells
    T.max_size = max(piece.size for piece in piece_set.pieces)
    for n in range(MAXCELLS + 1):
        T.at_least[n] = sum(1 << piece.index for piece in piece_set.pieces if piece.size >= n)
    T.monomino = piece_set.monomino
    for piece in piece_set.pieces:
        T.p_size[piece.index] = piece.size
        T.p_first[piece.index] = o
        T.p_count[piece.index] = len(piece.forms)
        for shape, parity in piece.forms:
            if o >= MAXORIENT or len(shape) > MAXCELLS:
                raise ValueError("piece set too large for the engine's tables")
            cells = set(shape)
            T.o_piece[o] = piece.index
            T.o_ncells[o] = len(shape)
            T.o_par[o] = parity
            T.o_w[o] = max(c[0] for c in shape) + 1
            T.o_h[o] = max(c[1] for c in shape) + 1
            if T.o_h[o] > MAXH or T.o_w[o] > MAXW:
                raise ValueError("piece too large for the engine's tables")
            for i, (x, y) in enumerate(shape):
                T.o_dx[o][i] = x
                T.o_dy[o][i] = y
                T.o_rows[o][y] |= (<uint64_t>1) << x
            for i in range(T.o_h[o]):
                xs = sorted(x for (x, y) in shape if y == i)
                T.o_prow[o][i] = patterns.index(tuple(x - xs[0] for x in xs)) * MAXH + i
                T.o_rsh[o][i] = xs[0]
            for i in range(T.o_h[o], MAXH):
                T.o_prow[o][i] = T.o_prow[o][0]   # unused rows repeat row 0
                T.o_rsh[o][i] = T.o_rsh[o][0]
            halo = set(cells)
            corner = set()
            for cell in cells:
                edge, diag = lattice.neighbours(cell, parity)
                halo.update(edge)
                corner.update(diag)
            corner -= halo
            opp = lattice.straight_sides(shape, parity) - halo
            for (a, b) in halo:
                T.o_halo[o][b + 1] |= (<uint64_t>1) << (a + PAD)
            for (a, b) in corner:
                T.o_diag[o][b + 1] |= (<uint64_t>1) << (a + PAD)
            for i, (a, b) in enumerate(sorted(opp)):
                T.o_opp[o][b + 1] |= (<uint64_t>1) << (a + PAD)
                T.o_oppx[o][i] = a
                T.o_oppy[o][i] = b
            T.o_nopp[o] = len(opp)
            orients.append((piece.index, tuple(shape), parity))
            o += 1
    T.n_orient = o
    ORIENTATIONS[set_id] = orients
    ROW_PATTERNS[set_id] = tuple(patterns)


for _i, _name in enumerate(SET_NAMES):
    _build_tables(_i, PIECE_SETS[_name])

# ---------------------------------------------------------------- game state


cdef struct ColourState:
    uint64_t free[MAXROWS]
    uint64_t attach[MAXROWS]
    uint64_t own[MAXROWS]
    uint32_t left          # bit p set: piece p not yet placed
    int32_t placed         # pieces placed
    int32_t squares_left   # cells of the pieces not yet placed
    int32_t last_piece     # index of the piece placed last (-1: none)
    int32_t out            # 1 once the colour is known to have no move (it never gets one again)


cdef struct State:
    ColourState c[MAXCOLOURS]
    int32_t n_colours
    int32_t width
    int32_t height
    int32_t piece_set      # index into TABLES
    int32_t board_parity   # parity of the board's lattice (triangles; squares: 0)
    int32_t corners_only   # 1: same-coloured pieces may meet only corner to corner (no straight side)
    int32_t to_play        # colour whose turn it is (it may have to pass)
    int32_t n_out
    int32_t rot_count      # placements by the rotating colour (classic-3's green)
    int32_t n_placed
    int32_t recent_colour[3]   # the last three placements (slot n % 3 holds the n-th), for the
    int32_t recent_code[3]     # playouts' local replies (``local_pick``)
    # scan constants of the board (set once by state_init)
    int32_t per            # board rows packed into one 64-bit word
    uint64_t valid[MAXW + 1]   # valid[w]: anchor columns c <= width - w of each packed row
    uint64_t pm[2]         # pm[q]: packed anchors with (c + j + q) even (all of them on squares)
    uint64_t board[MAXROWS]    # the board's cells (bit x of row y)
    uint64_t hw_magic      # (n * hw_magic) >> 40 == n // (height * width) for every move code n
    uint64_t w_magic       # ... and n // width (``div_magic``: no division in the hot loops)


cdef inline const PieceTables* tables(const State* s) noexcept nogil:
    return &TABLES[s.piece_set]


cdef inline uint64_t div_magic(int d) noexcept nogil:
    """Multiplier m with (n * m) >> 40 == n // d for 0 <= n < 2 ** 18 and 1 <= d < 2 ** 18:
    m = 2 ** 40 // d + 1 exceeds 2 ** 40 / d by at most 1, so n * m / 2 ** 40 exceeds n / d by
    less than 2 ** -22, too little to reach the next integer (n / d falls at least 1 / d short)."""
    return ((<uint64_t>1) << 40) // <uint64_t>d + 1


cdef inline int orientation_of(const State* s, int code) noexcept nogil:
    """The orientation of move ``code`` (``code // (height * width)``)."""
    return <int>((<uint64_t>code * s.hw_magic) >> 40)


cdef inline void decode(const State* s, int code, int* o, int* r, int* c) noexcept nogil:
    cdef int hw = s.height * s.width
    o[0] = orientation_of(s, code)
    cdef int rem = code - o[0] * hw
    r[0] = <int>((<uint64_t>rem * s.w_magic) >> 40)
    c[0] = rem - r[0] * s.width


cdef inline int code_space(const State* s) noexcept nogil:
    """Number of possible move codes on this board (codes are 0 .. code_space - 1)."""
    return tables(s).n_orient * s.height * s.width


cdef inline int opp_clear(const State* s, int k, int o, int r, int c) noexcept nogil:
    """Corners-only rule: 1 if none of the cells beside a straight side of placement (o, r, c)
    is already covered by colour k."""
    cdef const PieceTables* T = tables(s)
    cdef int i, x, y
    for i in range(T.o_nopp[o]):
        x = c + T.o_oppx[o][i]
        y = r + T.o_oppy[o][i]
        if 0 <= x < 64 and 0 <= y < MAXROWS and (s.c[k].own[y] >> x) & 1:
            return 0
    return 1


cdef int scan(const State* s, int k, move_t* out, int stop_at_first, uint32_t pieces=0xFFFFFFFF,
              const uint64_t* only=NULL, int32_t* ends=NULL) noexcept nogil:
    """Legal placements of colour k written to ``out`` (their number); with ``stop_at_first``
    only whether there is one (0 or 1, nothing written).  Only pieces in the bit mask ``pieces``
    are tried, and with ``only`` (a cell mask per board row) only placements covering one of
    its cells are listed: the playouts ask for the moves near the opponents' last moves this
    way, which is much cheaper than listing all moves and filtering them.  With ``ends``, entry
    p gets the end of piece p's block of moves in ``out`` for every piece tried (the pieces of
    ``pieces`` colour k has left, in ascending order; each block starts where the previous one
    ends): ``size_pick`` draws by piece size from these blocks without looking at the moves.

    Rows are packed ``per`` to a 64-bit word with stride ``width`` (3 rows of 20, 4 of 14), so
    one shift-and-AND tests ``per`` anchor rows at once (a *group*: anchor rows ``per * g`` ..
    ``per * g + per - 1``); a bit's position in the word is then exactly the move code's offset
    from ``(o * height + per * g) * width``.  Four groups travel together as one ``lanes4``
    (``lanes.h``: one vector register), so an orientation costs one vector step per row for up
    to 4 * per anchor rows -- the whole of Duo's board.  Anchors whose piece would stick out on
    the right read the next packed row, so a per-width mask keeps only columns
    ``c <= width - w`` (and, on a triangle lattice, only anchors of the orientation's parity).
    Every row of every orientation is one of a few shapes (``ROW_PATTERNS``), so "all cells of
    this row free" / "some cell of it an attach cell" are precomputed per shape and board row,
    and an orientation costs one shift per row instead of one per cell.  Moves come out by
    piece, orientation and ascending code.
    """
    cdef const ColourState* cs = &s.c[k]
    cdef const PieceTables* T = tables(s)
    cdef int H = s.height, W = s.width
    cdef int per = s.per
    cdef int n_groups = (H + per - 1) // per
    cdef int n_chunks = (n_groups + 3) // 4
    cdef uint32_t ar = 0
    cdef int r, j, h, p, o, oend, base, r0, nrows, b, q, sh, i, v, l, g
    cdef int f0, f1, f2, f3, f4, s0, s1, s2, s3, s4
    cdef uint64_t a, x, ob, vm0, vm1
    cdef uint64_t word[4]
    cdef uint64_t aword[4]
    cdef uint64_t oword[4]
    cdef lanes4 fv[MAXPAT * MAXH * MAXCHUNK]    # [pattern, orientation row i, chunk]: lane l of
    cdef lanes4 av[MAXPAT * MAXH * MAXCHUNK]    # chunk v packs rows per * (4 v + l) + i onwards
    cdef lanes4 lv[MAXPAT * MAXH * MAXCHUNK]
    cdef lanes4 A, L, vmv
    cdef uint32_t rm[MAXH + 1]
    cdef uint32_t cm[MAXH + 1]                   # chunks holding an anchor row of rm[h]
    cdef uint32_t left, lr = 0, lm, chunks, used = 0, chunk_rows, nz
    cdef move_t* w = out
    cdef int nb
    cdef int checks_opp = s.corners_only
    cdef uint64_t top = (<uint64_t>1) << 63
    for r in range(H):
        if cs.attach[r]:
            ar |= (<uint32_t>1) << r
    if ar == 0:
        return 0
    if only != NULL:
        for r in range(H):
            if only[r]:
                lr |= (<uint32_t>1) << r
        if lr == 0:
            return 0
    rm[0] = 0
    rm[1] = ar
    for h in range(2, MAXH + 1):
        rm[h] = rm[h - 1] | (ar >> (h - 1))
    if only != NULL:   # anchor rows whose piece also reaches a row of ``only``
        lm = lr
        for h in range(1, MAXH + 1):
            rm[h] &= lm
            lm |= lr >> h
    chunk_rows = ((<uint32_t>1) << (4 * per)) - 1   # anchor rows of one chunk (per <= 4)
    for h in range(1, MAXH + 1):
        rm[h] &= ((<uint32_t>1) << (H - h + 1)) - 1 if H >= h else 0
        cm[h] = 0
        for v in range(n_chunks):
            if (rm[h] >> (4 * per * v)) & chunk_rows:
                cm[h] |= (<uint32_t>1) << v
        used |= cm[h]
    if used == 0:
        return 0
    # one-cell shape: lane l of chunk v, orientation row i packs board rows per * (4 v + l) + i
    # onwards; each longer row shape from its parent shape (one shift and AND/OR per vector)
    chunks = used
    while chunks:
        v = ctz64(chunks)
        chunks &= chunks - 1
        for i in range(MAXH):
            for l in range(4):
                r = per * (4 * v + l) + i
                x = 0
                a = 0
                ob = 0
                for j in range(per):
                    if r + j < H:
                        x |= cs.free[r + j] << (j * W)
                        a |= cs.attach[r + j] << (j * W)
                        if only != NULL:   # packed like the attach cells: "some cell in only"
                            ob |= only[r + j] << (j * W)
                word[l] = x
                aword[l] = a
                oword[l] = ob
            fv[i * MAXCHUNK + v] = lanes_set(word[0], word[1], word[2], word[3])
            av[i * MAXCHUNK + v] = lanes_set(aword[0], aword[1], aword[2], aword[3])
            lv[i * MAXCHUNK + v] = lanes_set(oword[0], oword[1], oword[2], oword[3])
        for p in range(1, T.n_pat):
            sh = T.pat_shift[p]
            for i in range(MAXH):
                g = (p * MAXH + i) * MAXCHUNK + v
                j = (T.pat_parent[p] * MAXH + i) * MAXCHUNK + v
                fv[g] = lanes_and(fv[j], lanes_shr(fv[i * MAXCHUNK + v], sh))
                av[g] = lanes_or(av[j], lanes_shr(av[i * MAXCHUNK + v], sh))
                if only != NULL:
                    lv[g] = lanes_or(lv[j], lanes_shr(lv[i * MAXCHUNK + v], sh))
    left = cs.left & pieces
    while left:
        p = ctz64(left)
        left &= left - 1
        o = T.p_first[p]
        oend = o + T.p_count[p]
        while o < oend:
            nrows = T.o_h[o]
            chunks = cm[nrows]
            f0 = T.o_prow[o][0] * MAXCHUNK
            f1 = T.o_prow[o][1] * MAXCHUNK
            f2 = T.o_prow[o][2] * MAXCHUNK
            f3 = T.o_prow[o][3] * MAXCHUNK
            f4 = T.o_prow[o][4] * MAXCHUNK
            s0 = T.o_rsh[o][0]
            s1 = T.o_rsh[o][1]
            s2 = T.o_rsh[o][2]
            s3 = T.o_rsh[o][3]
            s4 = T.o_rsh[o][4]
            q = (T.o_par[o] + s.board_parity) & 1
            vm0 = s.valid[T.o_w[o]] & s.pm[q]          # anchor rows even
            vm1 = s.valid[T.o_w[o]] & s.pm[q ^ 1]      # anchor rows odd (per odd: lanes 1, 3)
            vmv = lanes_set(vm0, vm1, vm0, vm1) if per & 1 else lanes_set(vm0, vm0, vm0, vm0)
            while chunks:
                v = ctz64(chunks)
                chunks &= chunks - 1
                if nrows == 1:
                    A = lanes_and(lanes_shr(av[f0 + v], s0), lanes_shr(fv[f0 + v], s0))
                elif nrows == 2:
                    A = lanes_and(lanes_and(lanes_or(lanes_shr(av[f0 + v], s0), lanes_shr(av[f1 + v], s1)),
                                            lanes_shr(fv[f0 + v], s0)),
                                  lanes_shr(fv[f1 + v], s1))
                elif nrows == 3:
                    A = lanes_and(lanes_and(lanes_or(lanes_or(lanes_shr(av[f0 + v], s0), lanes_shr(av[f1 + v], s1)),
                                                     lanes_shr(av[f2 + v], s2)),
                                            lanes_and(lanes_shr(fv[f0 + v], s0), lanes_shr(fv[f1 + v], s1))),
                                  lanes_shr(fv[f2 + v], s2))
                elif nrows == 4:
                    A = lanes_and(lanes_and(lanes_or(lanes_or(lanes_shr(av[f0 + v], s0), lanes_shr(av[f1 + v], s1)),
                                                     lanes_or(lanes_shr(av[f2 + v], s2), lanes_shr(av[f3 + v], s3))),
                                            lanes_and(lanes_shr(fv[f0 + v], s0), lanes_shr(fv[f1 + v], s1))),
                                  lanes_and(lanes_shr(fv[f2 + v], s2), lanes_shr(fv[f3 + v], s3)))
                else:
                    A = lanes_and(lanes_and(lanes_or(lanes_or(lanes_shr(av[f0 + v], s0), lanes_shr(av[f1 + v], s1)),
                                                     lanes_or(lanes_or(lanes_shr(av[f2 + v], s2), lanes_shr(av[f3 + v], s3)),
                                                              lanes_shr(av[f4 + v], s4))),
                                            lanes_and(lanes_shr(fv[f0 + v], s0), lanes_shr(fv[f1 + v], s1))),
                                  lanes_and(lanes_and(lanes_shr(fv[f2 + v], s2), lanes_shr(fv[f3 + v], s3)),
                                            lanes_shr(fv[f4 + v], s4)))
                A = lanes_and(A, vmv)
                if only != NULL:
                    L = lanes_shr(lv[f0 + v], s0)
                    if nrows > 1:
                        L = lanes_or(L, lanes_shr(lv[f1 + v], s1))
                    if nrows > 2:
                        L = lanes_or(L, lanes_shr(lv[f2 + v], s2))
                    if nrows > 3:
                        L = lanes_or(L, lanes_shr(lv[f3 + v], s3))
                    if nrows > 4:
                        L = lanes_or(L, lanes_shr(lv[f4 + v], s4))
                    A = lanes_and(A, L)
                nz = lanes_nonzero(A)
                if nz == 0:
                    continue
                lanes_store(word, A)
                while nz:
                    l = ctz64(nz)
                    nz &= nz - 1
                    a = word[l]
                    r0 = per * (4 * v + l)
                    base = (o * H + r0) * W
                    if checks_opp and T.o_nopp[o]:
                        # corners-only: drop anchors whose straight sides meet this colour's cells
                        x = a
                        while x:
                            b = ctz64(x)
                            x &= x - 1
                            if not opp_clear(s, k, o, r0 + b // W, b % W):
                                a &= ~((<uint64_t>1) << b)
                    if stop_at_first:
                        if a:
                            return 1
                        continue
                    # branch-free listing of up to four moves (garbage past the count is overwritten)
                    nb = popcount64(a)
                    w[0] = <move_t>(base + ctz64(a | top))
                    a &= a - 1
                    w[1] = <move_t>(base + ctz64(a | top))
                    a &= a - 1
                    w[2] = <move_t>(base + ctz64(a | top))
                    a &= a - 1
                    w[3] = <move_t>(base + ctz64(a | top))
                    a &= a - 1
                    if nb > 4:
                        w += 4
                        while a:
                            w[0] = <move_t>(base + ctz64(a))
                            w += 1
                            a &= a - 1
                    else:
                        w += nb
            o += 1
        if ends != NULL:
            ends[p] = <int32_t>(w - out)
    return <int>(w - out)


cdef inline int gen_moves(const State* s, int k, move_t* out) noexcept nogil:
    """All legal placements of colour k, written to out; returns their number."""
    return scan(s, k, out, 0)


cdef inline int has_move(const State* s, int k) noexcept nogil:
    """1 if colour k has a legal placement (stops at the first one found)."""
    return scan(s, k, NULL, 1)


cdef int fits(const State* s, int code) noexcept nogil:
    """1 if ``code`` names an orientation lying inside the frame at an offset of its parity."""
    cdef const PieceTables* T = tables(s)
    cdef int o, r, c
    if code < 0 or code >= code_space(s):
        return 0
    decode(s, code, &o, &r, &c)
    if r + T.o_h[o] > s.height or c + T.o_w[o] > s.width:
        return 0
    if T.parity_matters and (c + r + T.o_par[o] + s.board_parity) & 1:
        return 0
    return 1


cdef int is_legal(const State* s, int k, int code) noexcept nogil:
    """1 if placement ``code`` is legal for colour k."""
    cdef const PieceTables* T = tables(s)
    cdef int o, r, c, i, hit = 0
    if not fits(s, code):
        return 0
    decode(s, code, &o, &r, &c)
    if not (s.c[k].left >> T.o_piece[o]) & 1:
        return 0
    for i in range(T.o_ncells[o]):
        if not (s.c[k].free[r + T.o_dy[o][i]] >> (c + T.o_dx[o][i])) & 1:
            return 0
        if (s.c[k].attach[r + T.o_dy[o][i]] >> (c + T.o_dx[o][i])) & 1:
            hit = 1
    if hit and s.corners_only and not opp_clear(s, k, o, r, c):
        return 0
    return hit


cdef inline uint64_t shifted(uint64_t pattern, int c) noexcept nogil:
    """A halo/corner row (bit dx + PAD) moved to anchor column c."""
    return (pattern << c) >> PAD


cdef void play(State* s, int k, int code) noexcept nogil:
    """Place ``code`` for colour k (assumed legal) and update every colour's bitboards."""
    cdef const PieceTables* T = tables(s)
    cdef int o, r, c, i, j, row, h
    cdef uint64_t m, block
    cdef ColourState* cs = &s.c[k]
    decode(s, code, &o, &r, &c)
    h = T.o_h[o]
    if cs.placed == 0:
        memset(cs.attach, 0, sizeof(cs.attach))
    for i in range(h):
        cs.own[r + i] |= T.o_rows[o][i] << c
        m = ~(T.o_rows[o][i] << c)
        for j in range(s.n_colours):
            s.c[j].free[r + i] &= m
            s.c[j].attach[r + i] &= m
    for i in range(h + 2):
        row = r - 1 + i
        if row < 0:
            continue
        block = T.o_halo[o][i]
        if s.corners_only:
            block |= T.o_opp[o][i]
        cs.free[row] &= ~shifted(block, c)
        cs.attach[row] = (cs.attach[row] | shifted(T.o_diag[o][i], c)) & cs.free[row]
    cs.left &= ~((<uint32_t>1) << T.o_piece[o])
    cs.placed += 1
    cs.squares_left -= T.o_ncells[o]
    cs.last_piece = T.o_piece[o]
    s.recent_colour[s.n_placed % 3] = k
    s.recent_code[s.n_placed % 3] = code
    s.n_placed += 1


cdef void state_init(State* s, int piece_set, int width, int height, int parity, const uint64_t* rows,
                     int n_colours, int corners_only) noexcept nogil:
    cdef const PieceTables* T = &TABLES[piece_set]
    cdef int k, r, j, w
    cdef uint64_t rowmask
    memset(s, 0, sizeof(State))
    s.width = width
    s.height = height
    s.per = 64 // width if 64 // width < 4 else 4
    s.hw_magic = div_magic(width * height)
    s.w_magic = div_magic(width)
    for w in range(1, MAXW + 1):
        rowmask = ((<uint64_t>1) << (width - w + 1)) - 1 if width >= w else 0
        for j in range(s.per):
            s.valid[w] |= rowmask << (j * width)
    for j in range(s.per):
        for r in range(width):
            s.pm[(r + j) & 1] |= (<uint64_t>1) << (j * width + r)
    if not T.parity_matters:
        s.pm[0] = s.pm[0] | s.pm[1]
        s.pm[1] = s.pm[0]
    s.n_colours = n_colours
    s.piece_set = piece_set
    s.board_parity = parity
    s.corners_only = corners_only
    for k in range(n_colours):
        for r in range(height):
            s.c[k].free[r] = rows[r]
            s.board[r] = rows[r]
        s.c[k].left = ((<uint32_t>1) << T.n_pieces) - 1
        s.c[k].squares_left = T.total_cells
        s.c[k].last_piece = -1


cdef inline int colour_score(const State* s, int k) noexcept nogil:
    """Blokus score: minus the cells left; +15 for placing all, +20 if the monomino came last."""
    cdef const ColourState* cs = &s.c[k]
    if cs.left == 0:
        return 20 if cs.last_piece == tables(s).monomino else 15
    return -cs.squares_left


cdef inline void advance(State* s) noexcept nogil:
    s.to_play += 1
    if s.to_play == s.n_colours:
        s.to_play = 0


# ---------------------------------------------------------------- Python API


cdef void _rounds_from(rounds, int32_t* out) except *:
    """The three round counts of ``opening_min_size`` from a Python sequence; None: the mcts
    defaults (``SEARCH_PARAMS``' big_rounds, big1_rounds, big2_rounds)."""
    if rounds is None:
        defaults = dict(SEARCH_PARAMS)
        rounds = [defaults[key] for key in ("big_rounds", "big1_rounds", "big2_rounds")]
    if len(rounds) != 3 or any(x != int(x) or not 0 <= x < 1_000_000 for x in rounds):
        raise ValueError("rounds must be three whole numbers, none negative")
    for i in range(3):
        out[i] = int(rounds[i])


cdef class Position:
    """A Blokus position: bitboards of every colour, whose turn it is, pieces left.

    Low-level: moves are integer codes and colours indices.  ``solver.blokus.game.Game`` wraps
    it with names, history and the turn rules.
    """

    cdef State s

    def __init__(self, int piece_set, int width, int height, int parity, rows, int n_colours,
                 first_cells, bint corners_only=False):
        """A start position: piece set index (``SET_NAMES``), the frame, the board's lattice
        parity, ``rows[y]`` the cells on the board (bit x), and ``first_cells[k]`` the cells
        (x, y) one of which colour k's first piece must cover."""
        cdef uint64_t masks[MAXROWS]
        if not (0 <= piece_set < len(SET_NAMES)):
            raise ValueError("unknown piece set")
        if not (5 <= width <= MAXWIDTH and 1 <= height <= MAXHEIGHT and 1 <= n_colours <= MAXCOLOURS):
            raise ValueError("board from 5 to 62 columns, up to 24 rows and 1..4 colours")
        if len(rows) != height:
            raise ValueError("one row mask per row expected")
        memset(masks, 0, sizeof(masks))
        for y in range(height):
            masks[y] = (<uint64_t>rows[y]) & ((((<uint64_t>1) << width) - 1))
        state_init(&self.s, piece_set, width, height, parity & 1, masks, n_colours, 1 if corners_only else 0)
        for k in range(n_colours):
            for (x, y) in first_cells[k]:
                self.s.c[k].attach[y] |= ((<uint64_t>1) << x) & masks[y]

    def copy(self) -> Position:
        cdef Position p = Position.__new__(Position)
        memcpy(&p.s, &self.s, sizeof(State))
        return p

    def __reduce__(self):
        return (_position_from_bytes, (self.to_bytes(),))

    def to_bytes(self) -> bytes:
        return (<char*>&self.s)[:sizeof(State)]

    def load_bytes(self, bytes data):
        if len(data) != sizeof(State):
            raise ValueError("wrong state size")
        memcpy(&self.s, <char*>data, sizeof(State))

    @property
    def width(self) -> int:
        return self.s.width

    @property
    def height(self) -> int:
        return self.s.height

    @property
    def n_colours(self) -> int:
        return self.s.n_colours

    @property
    def piece_set(self) -> int:
        return self.s.piece_set

    @property
    def corners_only(self) -> bool:
        return bool(self.s.corners_only)

    @property
    def code_space(self) -> int:
        """Number of possible move codes on this board."""
        return code_space(&self.s)

    property to_play:
        """Colour whose turn it is (it may have no move and then passes)."""
        def __get__(self):
            return self.s.to_play

        def __set__(self, int k):
            if not 0 <= k < self.s.n_colours:
                raise ValueError("colour out of range")
            self.s.to_play = k

    @property
    def rot_count(self) -> int:
        return self.s.rot_count

    def note_rotating_move(self):
        self.s.rot_count += 1

    def legal_codes(self, int colour, pieces=None, covering=None) -> np.ndarray:
        """Codes of every legal placement of ``colour`` (int32 numpy array, generation order);
        only of the piece indexes in ``pieces`` and only those covering one of the board cells
        ``covering`` ((x, y) pairs) if given -- the playouts' filtered listing (``scan``)."""
        self._check_colour(colour)
        cdef uint64_t only[MAXROWS]
        cdef uint32_t mask = ~(<uint32_t>0)
        cdef int n, i, x, y
        cdef int32_t[::1] view
        if pieces is not None:
            mask = 0
            for i in pieces:
                if not 0 <= i < tables(&self.s).n_pieces:
                    raise ValueError(f"piece index {i} out of range")
                mask |= (<uint32_t>1) << i
        if covering is not None:
            for y in range(MAXROWS):
                only[y] = 0
            for x, y in covering:
                if not (0 <= x < self.s.width and 0 <= y < self.s.height):
                    raise ValueError(f"cell {(x, y)} is off the board")
                only[y] |= (<uint64_t>1) << x
        cdef move_t* buf = <move_t*>malloc(MAXLIST * sizeof(move_t))
        try:
            n = scan(&self.s, colour, buf, 0, mask, only if covering is not None else NULL)
            out = np.empty(n, dtype=np.int32)
            view = out
            for i in range(n):
                view[i] = buf[i]
        finally:
            cfree(buf)
        return out

    def local_scores(self, int colour, codes, uint32_t others) -> np.ndarray:
        """The playouts' ``local_score`` (int32 array) of ``colour``'s legal placements
        ``codes`` against the colours in bit mask ``others``."""
        self._check_colour(colour)
        cdef int32_t[::1] cv = self._legal_codes(colour, codes)
        cdef int n = cv.shape[0], i, lo, hi, found
        cdef uint64_t loc[MAXROWS]
        cdef uint64_t mine[MAXROWS]
        found = local_planes(&self.s, colour, others, loc, mine, &lo, &hi)
        out = np.zeros(n, dtype=np.int32)
        for i in range(n):
            out[i] = local_score(&self.s, cv[i], loc, mine, lo, hi) if found else 0
        return out

    def local_pick(self, int colour, uint32_t others, int base, uint64_t seed,
                   rounds=None, int cramped=0, int cap=0) -> int:
        """The code the ``local`` playout policy (weight ``base`` ** size among equals, local
        scores above ``cap`` counting as ``cap`` if it is > 0, the
        opening's big pieces for ``rounds`` as in ``opening_min_size``, a cramped colour as the
        mcts parameter ``cramped`` says) plays for ``colour`` here against the colours in bit
        mask ``others``, with generator seed ``seed`` (the playouts' own code, ``local_move``);
        -1 if it has no move."""
        self._check_colour(colour)
        if not 1 <= base <= 10:
            raise ValueError("base must be from 1 to 10 (the mcts parameter local)")
        if not 0 <= cramped <= 2:
            raise ValueError("cramped must be 0, 1 or 2")
        if not 0 <= cap <= 20:
            raise ValueError("cap must be from 0 to 20 (the mcts parameter local_cap)")
        cdef int32_t r[3]
        _rounds_from(rounds, r)
        cdef move_t* buf = <move_t*>malloc(MAXLIST * sizeof(move_t))
        cdef Rng rng
        cdef int code
        cdef int64_t listed = 0
        rng_seed(&rng, seed)
        try:
            code = local_move(&self.s, colour, others, base, cap, r, cramped, buf, &rng, &listed)
        finally:
            cfree(buf)
        return code

    def opening_min_size(self, int colour, rounds=None) -> int:
        """Smallest piece the playouts consider for ``colour`` here: ``opening_min_size`` with
        the rounds of big pieces ``rounds`` (the mcts parameters big_rounds, big1_rounds and
        big2_rounds; None: their defaults), or 1 if no piece that large can be placed."""
        self._check_colour(colour)
        cdef int32_t r[3]
        _rounds_from(rounds, r)
        cdef int size = opening_min_size(&self.s, r)
        return size if scan(&self.s, colour, NULL, 1, pieces_of_size(&self.s, size), NULL) else 1

    def _legal_codes(self, int colour, codes):
        cdef int32_t[::1] cv = np.ascontiguousarray(codes, dtype=np.int32)
        cdef int i
        for i in range(cv.shape[0]):
            if not 0 <= cv[i] < code_space(&self.s) or not is_legal(&self.s, colour, cv[i]):
                raise ValueError(f"code {cv[i]} is not a legal move of colour {colour}")
        return cv

    def move_features(self, int colour, codes, uint32_t others) -> np.ndarray:
        """The ``EVAL_FEATURES`` counts (int32 array, one row per code) of ``colour``'s legal
        placements ``codes``, against the colours in bit mask ``others``."""
        self._check_colour(colour)
        cdef int32_t[::1] cv = self._legal_codes(colour, codes)
        cdef int n = cv.shape[0], i
        out = np.zeros((n, NFEAT), dtype=np.int32)
        cdef int32_t[:, ::1] ov = out
        cdef EvalCtx e
        eval_ctx_init(&self.s, colour, others, &e)
        for i in range(n):
            move_features(&self.s, colour, cv[i], &e, &ov[i, 0])
        return out

    def count_moves(self, int colour) -> int:
        self._check_colour(colour)
        cdef move_t* buf = <move_t*>malloc(MAXLIST * sizeof(move_t))
        cdef int n
        n = gen_moves(&self.s, colour, buf)
        cfree(buf)
        return n

    def has_move(self, int colour) -> bool:
        self._check_colour(colour)
        return bool(has_move(&self.s, colour))

    def is_legal(self, int colour, int code) -> bool:
        self._check_colour(colour)
        return bool(is_legal(&self.s, colour, code))

    def play(self, int colour, int code):
        """Place ``code`` for ``colour``; ValueError if it is not legal."""
        self._check_colour(colour)
        if not is_legal(&self.s, colour, code):
            raise ValueError("illegal move")
        play(&self.s, colour, code)

    def place_setup(self, int colour, int code):
        """Put a piece on the board as a setup (SGF ``AB``/``A1``...): one the colour has not
        placed, on the board; the corner and edge rules do not apply and the caller checks that
        its cells are empty (the C state keeps no occupancy board)."""
        self._check_colour(colour)
        cdef int o, r, c
        if not fits(&self.s, code):
            raise ValueError("the piece does not fit on the board")
        decode(&self.s, code, &o, &r, &c)
        if not (self.s.c[colour].left >> tables(&self.s).o_piece[o]) & 1:
            raise ValueError("piece already placed")
        play(&self.s, colour, code)

    def pieces_left(self, int colour) -> list:
        """Indices of the pieces ``colour`` has not placed yet."""
        self._check_colour(colour)
        return [p for p in range(tables(&self.s).n_pieces) if (self.s.c[colour].left >> p) & 1]

    def score(self, int colour) -> int:
        self._check_colour(colour)
        return colour_score(&self.s, colour)

    def squares_left(self, int colour) -> int:
        self._check_colour(colour)
        return self.s.c[colour].squares_left

    def last_piece(self, int colour) -> int:
        self._check_colour(colour)
        return self.s.c[colour].last_piece

    def bitboards(self, int colour) -> tuple:
        """(free, attach) rows of ``colour`` as Python ints (row 0 first), for tests and pictures."""
        self._check_colour(colour)
        return ([int(self.s.c[colour].free[r]) for r in range(self.s.height)],
                [int(self.s.c[colour].attach[r]) for r in range(self.s.height)])

    def _check_colour(self, int colour):
        if not 0 <= colour < self.s.n_colours:
            raise ValueError(f"colour {colour} out of range")

    def perft(self, int depth) -> list:
        """Number of move sequences of each length 1..depth from here (a forced pass is a move)."""
        if depth < 0:
            raise ValueError("depth must be >= 0")
        counts = np.zeros(depth + 1, dtype=np.int64)
        cdef int64_t[::1] cv = counts
        cdef move_t* buf = <move_t*>malloc((depth + 1) * MAXLIST * sizeof(move_t))
        cdef int stopped = 0
        try:
            with nogil:
                _perft(&self.s, depth, 0, buf, &cv[0], &stopped)
        finally:
            cfree(buf)
        if stopped:
            raise KeyboardInterrupt
        return [int(x) for x in counts[1:]]


def _position_from_bytes(bytes data) -> Position:
    cdef Position p = Position.__new__(Position)
    p.load_bytes(data)
    return p


cdef int any_move(const State* s) noexcept nogil:
    cdef int k
    for k in range(s.n_colours):
        if has_move(s, k):
            return 1
    return 0


cdef int interrupted() noexcept nogil:
    """1 if a signal handler (Ctrl-C) has asked to stop (checked with the GIL held briefly)."""
    with gil:
        if check_signals() != 0:
            PyErr_Clear()          # perft raises KeyboardInterrupt itself once the search unwinds
            return 1
        return 0


cdef void _perft(const State* s, int depth, int ply, move_t* buf, int64_t* counts, int* stopped) noexcept nogil:
    """Count move sequences; near the root (where subtrees are large) it looks for Ctrl-C before
    each child and sets ``stopped``."""
    if ply == depth or stopped[0]:
        return
    cdef move_t* moves = buf + ply * MAXLIST
    cdef int n = gen_moves(s, s.to_play, moves)
    cdef int i
    cdef State child
    if n == 0:
        if not any_move(s):
            return
        counts[ply + 1] += 1
        memcpy(&child, s, sizeof(State))
        advance(&child)
        _perft(&child, depth, ply + 1, buf, counts, stopped)
        return
    counts[ply + 1] += n
    if ply + 1 == depth:
        return
    for i in range(n):
        if depth - ply >= 3 and ply <= 1 and interrupted():
            stopped[0] = 1
        if stopped[0]:
            return
        memcpy(&child, s, sizeof(State))
        play(&child, s.to_play, moves[i])
        advance(&child)
        _perft(&child, depth, ply + 1, buf, counts, stopped)


def placement_count(Position empty) -> int:
    """Number of ways to put any orientation of any piece on the board of ``empty`` (all its
    cells on the board; the position's pieces and colours play no part)."""
    cdef const State* s = &empty.s
    cdef const PieceTables* T = tables(s)
    cdef uint64_t board[MAXROWS]
    cdef int o, r, c, i, ok, total = 0
    cdef int k
    memset(board, 0, sizeof(board))
    for r in range(s.height):
        for k in range(s.n_colours):
            board[r] |= s.c[k].free[r] | s.c[k].own[r]
    for code in range(code_space(s)):
        if not fits(s, code):
            continue
        decode(s, code, &o, &r, &c)
        ok = 1
        for i in range(T.o_ncells[o]):
            if not (board[r + T.o_dy[o][i]] >> (c + T.o_dx[o][i])) & 1:
                ok = 0
                break
        total += ok
    return total


def orientation_count(int piece_set=0) -> int:
    return TABLES[piece_set].n_orient


def code_info(int code, int width, int height) -> tuple:
    """(orientation, row, column) of a move code on a width x height board."""
    cdef int hw = width * height
    o = code // hw
    rem = code - o * hw
    return o, rem // width, rem % width


def encode(int o, int r, int c, int width, int height) -> int:
    return (o * height + r) * width + c


# ---------------------------------------------------------------- playouts and self-play

DEF STRAT_RANDOM = 0
DEF STRAT_GREEDY = 1
DEF STRAT_MC = 2
DEF STRAT_MCTS = 3

#: strategy names; a strategy's kind number is its index here (the one table both sides read)
STRATEGY_NAMES = ("random", "greedy", "mc", "mcts")


cdef struct SearchParams:
    double explore        # UCT exploration constant
    double prior_n        # virtual visits given to the prior value
    double prior_lo       # prior value of the worst child ...
    double prior_hi       # ... and of the best one (linear in the evaluation between them)
    double rave_k         # RAVE: the blend weight halves at about this many real visits
    double score_weight   # weight of the score margin in a simulation's value
    double score_scale    # margin that counts as about half of the margin term
    double widen_base     # children looked at: widen_base + widen * sqrt(visits)
    double widen
    int32_t playout_k     # moves drawn per playout ply, the best by search_key played (1: uniform)
    int32_t expand_after  # visits of a leaf before it is expanded
    double w_own          # a move's evaluation: size + w_own x own attach cells gained
    double w_taken        #   + w_taken x opponents' attach cells taken (both 0: greedy's order)
    int32_t learned       # 1: evaluate moves by the weights ``ew`` of EVAL_FEATURES instead
    int32_t local         # > 0: playouts answer the opponents' last moves (``local_pick``),
                          #   choosing among equals by local ** piece size; 0: ``playout_k``
    int32_t centre_moves  # > 0: while fewer placements are on the board, the tree looks only at
    double centre_radius  #   moves reaching as close to the board's centre (``Config.centre``)
    double centre_slack   #   as any move does -- or within centre_radius of it, where all count
                          #   as equal -- give or take centre_slack
    int32_t connect_moves # > 0: while fewer placements are on the board and some move touches a
                          #   partner colour (same side) along an edge, the tree looks only at those
    int32_t lgr           # 1: playouts first try the last good reply to the last two moves (LGRF-2)
    int32_t big_rounds[3] # playouts: rounds with pieces at most 0 / 1 / 2 cells below the largest
    int32_t cramped       # playouts' opening, none of those pieces fits: 0 any piece; 1 a local
                          #   reply with any piece, else the colour is out; 2 the colour is out
    double expand_inc     # a leaf at tree depth d is expanded after expand_after + expand_inc * d visits
    double stop_early     # > 0, time budgets only: stop when the most visited root child leads
                          #   every other by more than stop_early x the simulations time allows
    double endgame        # > 0: share of a move's budget for the exact endgame search ...
    int32_t endgame_moves #   ... tried once all colours together have at most this many moves
    double prior_rel      # > 0: a new child's prior value is the mover's mean value in this search
                          #   times exp(prior_rel x (its evaluation - the best's)); 0: prior_lo..hi
    int32_t quality       # 1: the margin term measures a playout's margin against this search's
                          #   margins so far (running mean and spread) instead of 0 and score_scale
    int32_t local_cap     # > 0: playouts count local scores above this as this (``local_pick``)
    double length_weight  # > 0: a win is worth up to length_weight / 2 less (a loss more) the longer
                          #   its game against this search's playouts (placements, running mean, spread)
    double komi           # > 0, two sides: dynamic komi (``komi_adjust``), points per adjustment ...
    double komi_max       #   ... up to this many points for the searching side ...
    double komi_lo        #   ... raised while its win share is below komi_lo, lowered above komi_lo + 0.1
    double komi_min       #   ... down to this many (< 0: a side well ahead plays to win by more)
    double puct           # > 0: selection adds puct x P x sqrt(N) x log(N + 1) / n (``select_child``)
    double rave_dist      # RAVE update weight 1 - rave_dist x (distance to the move) / (plies left)
    double rave_parent_max  # > 0: no RAVE updates below a node with more visits than this ...
    double rave_child_max   #   ... nor to a child with more real visits than this
    double extend         # > 0, time budgets only: while the most visited root child is not the best
                          #   valued one (``choice_unsettled``) no early stop, and at the end of the
                          #   time search on for up to extend x the budget more, once
    double ew[NFEAT + MAXPIECES]   # EVAL_FEATURES weights, then one weight per piece (0 if not given)


cdef struct Config:
    int32_t n_players
    int32_t n_sides
    int32_t player_of[MAXCOLOURS]       # -1: the players take turns with this colour
    int32_t counted[MAXCOLOURS]
    int32_t side_of[MAXCOLOURS]         # side of each player
    int32_t kind[MAXCOLOURS]            # strategy of each player
    int32_t cand[MAXCOLOURS]            # mc: candidate moves looked at
    int32_t sims[MAXCOLOURS]            # mc: playouts per candidate; mcts: playouts per move
    double seconds[MAXCOLOURS]          # mcts: time per move (0: playout budget only)
    SearchParams sp[MAXCOLOURS]         # mcts: search parameters
    float centre[MAXHEIGHT * 64]        # distance of cell (x, y) (index y * 64 + x) to the board's
                                        #   centre (filled only if a player uses centre_moves)


cdef inline int mover_of(const Config* cfg, const State* s, int k) noexcept nogil:
    cdef int p = cfg.player_of[k]
    if p < 0:
        p = s.rot_count % cfg.n_players
    return p


cdef inline void do_move(const Config* cfg, State* s, int k, int code) noexcept nogil:
    play(s, k, code)
    if cfg.player_of[k] < 0:
        s.rot_count += 1


cdef void side_scores(const Config* cfg, const State* s, int* out) noexcept nogil:
    cdef int k, p
    for p in range(cfg.n_sides):
        out[p] = 0
    for k in range(s.n_colours):
        p = cfg.player_of[k]
        if p >= 0 and cfg.counted[k]:
            out[cfg.side_of[p]] += colour_score(s, k)


cdef int64_t random_playout(const Config* cfg, State* s, Rng* rng, move_t* buf) noexcept nogil:
    """Uniform-random moves (full list at every ply) until no colour can move; returns moves listed."""
    cdef int k, n
    cdef int64_t listed = 0
    while s.n_out < s.n_colours:
        k = s.to_play
        if not s.c[k].out:
            n = gen_moves(s, k, buf)
            if n == 0:
                s.c[k].out = 1
                s.n_out += 1
            else:
                listed += n
                do_move(cfg, s, k, buf[rng_below(rng, <uint32_t>n)])
        advance(s)
    return listed


cdef uint32_t opponents(const Config* cfg, const State* s, int k) noexcept nogil:
    """Bit j set: colour j is not on the side of the player moving colour k (a shared colour,
    classic-3's green, counts as an opponent)."""
    cdef int j, q, me = cfg.side_of[mover_of(cfg, s, k)]
    cdef uint32_t mask = 0
    for j in range(s.n_colours):
        q = cfg.player_of[j]
        if j != k and (q < 0 or cfg.side_of[q] != me):
            mask |= (<uint32_t>1) << j
    return mask


cdef void move_terms(const State* s, int k, int code, uint32_t others, int64_t* out) noexcept nogil:
    """The evaluation terms of a move of colour k: ``out[0]`` its size, ``out[1]`` new own attach
    cells, ``out[2]`` attach cells taken from the opponents' colours (bit j of ``others``)."""
    cdef const PieceTables* T = tables(s)
    cdef int o, r, c, i, j, row
    cdef int64_t own = 0, taken = 0
    cdef uint64_t m, fr, d
    cdef const ColourState* cs = &s.c[k]
    decode(s, code, &o, &r, &c)
    for i in range(T.o_h[o] + 2):
        row = r - 1 + i
        if row < 0:
            continue
        fr = cs.free[row] & ~shifted(T.o_halo[o][i], c)
        d = shifted(T.o_diag[o][i], c) & fr & ~cs.attach[row]
        own += popcount64(d)
    for i in range(T.o_h[o]):
        m = T.o_rows[o][i] << c
        for j in range(s.n_colours):
            if (others >> j) & 1:
                taken += popcount64(s.c[j].attach[r + i] & m)
    out[0] = T.o_ncells[o]
    out[1] = own
    out[2] = taken


# ---------------------------------------------------------------- learned move evaluation
#
# A richer one-ply evaluation than ``move_terms``: counts, per move, how its cells, its edge
# halo and its new corners sit among the colours' bitboards.  The search weighs them with a
# weight per feature that ``solver/blokus/evaluation.py`` fits to the moves of strong searches
# (a log-linear move model, as Pentobi's prior knowledge is).  Every feature is a count that
# follows from the rules alone; ``tests/evaluation_reference.py`` recomputes them cell by cell.

#: names of the evaluation features, in the order of ``move_features``' output (the one table)
EVAL_FEATURES = (
    "size1", "size2", "size3", "size4", "size5", "size6",
    "hot",              # cells covered that are an opponent's attach cell or a free edge neighbour of one
    "taken",            # cells covered that are an opponent's attach cell
    "halo_own_attach",  # own attach cells the move's edge halo forbids
    "halo_open",        # other cells of the halo that were free for the mover (now forbidden)
    "halo_closed",      # cells of the halo on the board that were already not free for the mover
    "new_attach",       # new own attach cells (corner cells of the move, free after it)
    "new_attach_2",     # ... of them with at least 2, 3, 4 edge neighbours free for the mover
    "new_attach_3",
    "new_attach_4",
    "corner_own_attach",  # corner cells of the move that were already own attach cells
    "partner_touch",    # cells of the halo a partner colour covers (a colour of the mover's own
                        #   side, as classic-2's blue and red: the move joins its two colours)
    "partner_attach",   # cells covered that are a partner colour's attach cell (taken from it)
    "reach_own",        # after the move: cells free for the mover within REACH_STEPS edge steps of
                        #   its attach cells, through cells free for it (the room it can grow into)
    "reach_opp",        # the same for the opponents, taken as one: from any opponent's attach
                        #   cells through cells free for any opponent, the move's cells removed
)
# the first MAXCELLS features are one-hot piece sizes (``learned_eval`` counts on it)
assert len(EVAL_FEATURES) == NFEAT and EVAL_FEATURES[:MAXCELLS] == tuple(f"size{i + 1}" for i in range(MAXCELLS))
# the reach features come last (the search skips them where both weights are 0)
assert EVAL_FEATURES[NFEAT - 2:] == ("reach_own", "reach_opp")


cdef struct EvalCtx:
    uint64_t hot[MAXROWS]
    uint64_t opp_attach[MAXROWS]
    uint64_t ge2[MAXROWS]        # cells with at least 2, 3, 4 edge neighbours free for the mover
    uint64_t ge3[MAXROWS]
    uint64_t ge4[MAXROWS]
    uint64_t partner_own[MAXROWS]     # cells the partner colours cover ...
    uint64_t partner_attach[MAXROWS]  # ... and their attach cells
    uint64_t opp_free[MAXROWS]        # cells free for some opponent colour
    uint64_t opp_reach[MAXROWS]       # the opponents' reach (``reach_opp``) before the move ...
    int32_t opp_reach_n               # ... and its count
    int32_t partners                  # 0: the mover has no partner colour (the two planes unused)
    int32_t reach                     # 0: leave ``reach_own`` and ``reach_opp`` at 0 (their
                                      #   weights are 0: the search skips the cost)


cdef inline uint64_t shift_cols(uint64_t v, int dx) noexcept nogil:
    """Bit x of the result is bit x + dx of v."""
    return v >> dx if dx >= 0 else v << (-dx)


cdef inline uint64_t row_at(const uint64_t* src, int y, int height, int dx, int dy) noexcept nogil:
    """Bit x: cell (x + dx, y + dy) is set in ``src`` (0 off the board's rows)."""
    cdef int yy = y + dy
    if yy < 0 or yy >= height:
        return 0
    return shift_cols(src[yy], dx)


cdef inline void neighbour_counts(const State* s, const uint64_t* src, uint64_t* ge1, uint64_t* ge2,
                                  uint64_t* ge3, uint64_t* ge4) noexcept nogil:
    """Per row y, the cells with at least 1, 2, 3, 4 edge neighbours set in ``src`` (any output
    may be NULL).  The neighbours are the lattice's, per cell kind (``nb_dx``/``nb_dy``)."""
    neighbour_counts_rows(s, src, ge1, ge2, ge3, ge4, 0, s.height)


cdef inline void store_counts(const uint64_t* w, int y, uint64_t* ge1, uint64_t* ge2, uint64_t* ge3,
                              uint64_t* ge4) noexcept nogil:
    """Row y of the cells set in at least 1, 2, 3, 4 of the four neighbour rows ``w``."""
    cdef uint64_t abo = w[0] | w[1], aba = w[0] & w[1], cdo = w[2] | w[3], cda = w[2] & w[3]
    if ge1 != NULL:
        ge1[y] = abo | cdo
    if ge2 != NULL:
        ge2[y] = aba | cda | (abo & cdo)
    if ge3 != NULL:
        ge3[y] = (aba & cdo) | (cda & abo)
    if ge4 != NULL:
        ge4[y] = aba & cda


cdef void neighbour_counts_rows(const State* s, const uint64_t* src, uint64_t* ge1, uint64_t* ge2,
                                uint64_t* ge3, uint64_t* ge4, int y0, int y1) noexcept nogil:
    """``neighbour_counts`` for the rows y0 <= y < y1 only (the other output rows are left
    as they are)."""
    cdef const PieceTables* T = tables(s)
    cdef int y, i, q, h = s.height, kinds = 2 if T.parity_matters else 1
    cdef int n[2]
    cdef int dx[2][4]
    cdef int dy[2][4]
    cdef uint64_t w[4]
    cdef uint64_t m[2]
    if y0 < 0:
        y0 = 0
    if y1 > h:
        y1 = h
    if T.side_rows:   # squares: the same four neighbour rows without the offset tables, the
        for y in range(y0, y1):   # playouts' commonest case (``local_planes``, ``can_reach``)
            w[0] = src[y] << 1
            w[1] = src[y] >> 1
            w[2] = src[y - 1] if y > 0 else 0
            w[3] = src[y + 1] if y + 1 < h else 0
            store_counts(w, y, ge1, ge2, ge3, ge4)
        return
    for q in range(2):
        n[q] = T.nb_n[q]
        for i in range(4):
            dx[q][i] = T.nb_dx[q][i] if i < n[q] else 0
            dy[q][i] = T.nb_dy[q][i] if i < n[q] else 0
    for y in range(y0, y1):
        if kinds == 1:
            for i in range(4):
                w[i] = row_at(src, y, h, dx[0][i], dy[0][i]) if i < n[0] else 0
        else:
            # cells of kind q in row y: (x + y + board parity) % 2 == q
            m[0] = EVEN_COLS if ((y + s.board_parity) & 1) == 0 else ~(<uint64_t>EVEN_COLS)
            m[1] = ~m[0]
            for i in range(4):
                w[i] = 0
                for q in range(2):
                    if i < n[q]:
                        w[i] |= row_at(src, y, h, dx[q][i], dy[q][i]) & m[q]
        store_counts(w, y, ge1, ge2, ge3, ge4)


cdef void eval_ctx_init(const State* s, int k, uint32_t others, EvalCtx* e) noexcept nogil:
    """The per-position planes ``move_features`` reads, for colour k against ``others``; the
    colours that are neither k nor in ``others`` are k's partners (its side's other colours)."""
    cdef uint64_t dil[MAXROWS]
    cdef int y, j
    cdef uint32_t partners = (((<uint32_t>1) << s.n_colours) - 1) & ~others & ~((<uint32_t>1) << k)
    neighbour_counts(s, s.c[k].free, NULL, e.ge2, e.ge3, e.ge4)
    for y in range(s.height):
        e.hot[y] = 0
        e.opp_attach[y] = 0
        e.partner_own[y] = 0
        e.partner_attach[y] = 0
        e.opp_free[y] = 0
    e.partners = partners != 0
    e.reach = 1
    for j in range(s.n_colours):
        if (partners >> j) & 1:
            for y in range(s.height):
                e.partner_own[y] |= s.c[j].own[y]
                e.partner_attach[y] |= s.c[j].attach[y]
        if not (others >> j) & 1:
            continue
        neighbour_counts(s, s.c[j].attach, dil, NULL, NULL, NULL)
        for y in range(s.height):
            e.opp_attach[y] |= s.c[j].attach[y]
            e.opp_free[y] |= s.c[j].free[y]
            e.hot[y] |= s.c[j].attach[y] | (dil[y] & s.c[j].free[y])
    cdef uint64_t a[MAXROWS + 2]
    cdef uint64_t b[MAXROWS + 2]
    a[0] = a[s.height + 1] = b[0] = b[s.height + 1] = 0
    for y in range(s.height):
        a[y + 1] = e.opp_attach[y]
    e.opp_reach_n = reach_count(s, a, b, e.opp_free, e.opp_reach)


cdef int reach_count(const State* s, uint64_t* a, uint64_t* b, const uint64_t* free,
                     uint64_t* keep) noexcept nogil:
    """Grows the cells in ``a`` (a subset of ``free``) by REACH_STEPS edge steps over cells of
    ``free`` and counts them: the cells within that many steps (stored in ``keep`` unless it is
    NULL, row y at index y).  ``a`` and ``b`` (scratch) hold
    row y at index y + 1, with rows 0 and height + 1 empty (so the square loop reads its
    neighbour rows without a test and the compiler vectorises it)."""
    cdef uint64_t dil[MAXROWS]
    cdef uint64_t* t
    cdef int i, y, h = s.height, n = 0
    for i in range(REACH_STEPS):
        if tables(s).side_rows:   # squares: the edge neighbours are the row's shifts and the rows
            for y in range(1, h + 1):   # above and below
                b[y] = (a[y] | (a[y] << 1) | (a[y] >> 1) | a[y - 1] | a[y + 1]) & free[y - 1]
        else:
            neighbour_counts_rows(s, a + 1, dil, NULL, NULL, NULL, 0, h)
            for y in range(h):
                b[y + 1] = (a[y + 1] | dil[y]) & free[y]
        t = a
        a = b
        b = t
    for y in range(1, h + 1):
        n += popcount64(a[y])
        if keep != NULL:
            keep[y - 1] = a[y]
    return n


cdef void move_features(const State* s, int k, int code, const EvalCtx* e,
                        int32_t* out) noexcept nogil:
    """The ``EVAL_FEATURES`` counts of move ``code`` of colour k (see ``eval_ctx_init``)."""
    cdef const PieceTables* T = tables(s)
    cdef const ColourState* cs = &s.c[k]
    cdef int o, r, c, i, row, h
    cdef uint64_t m, halo, ring, fr, dg, new
    cdef uint64_t own_free[MAXROWS]
    cdef uint64_t opp_free[MAXROWS]
    cdef uint64_t a[MAXROWS + 2]   # reach_count's rows (one row of margin above and below)
    cdef uint64_t b[MAXROWS + 2]
    cdef int hits = 0
    memset(out, 0, NFEAT * sizeof(int32_t))
    decode(s, code, &o, &r, &c)
    h = T.o_h[o]
    out[T.o_ncells[o] - 1] = 1
    for i in range(h):
        m = T.o_rows[o][i] << c
        out[6] += popcount64(m & e.hot[r + i])
        out[7] += popcount64(m & e.opp_attach[r + i])
        if e.partners:
            out[17] += popcount64(m & e.partner_attach[r + i])
    for i in range(h + 2):
        row = r - 1 + i
        if row < 0 or row >= s.height:
            continue
        halo = shifted(T.o_halo[o][i], c)
        ring = halo
        if 1 <= i <= h:
            ring = halo & ~(T.o_rows[o][i - 1] << c)
        out[8] += popcount64(ring & cs.attach[row])
        out[9] += popcount64(ring & cs.free[row] & ~cs.attach[row])
        out[10] += popcount64(ring & s.board[row] & ~cs.free[row])
        if e.partners:
            out[16] += popcount64(ring & e.partner_own[row])
        fr = cs.free[row] & ~halo
        dg = shifted(T.o_diag[o][i], c) & fr
        new = dg & ~cs.attach[row]
        out[11] += popcount64(new)
        out[12] += popcount64(new & e.ge2[row])
        out[13] += popcount64(new & e.ge3[row])
        out[14] += popcount64(new & e.ge4[row])
        out[15] += popcount64(dg & cs.attach[row])
    if not e.reach:
        return
    # the opponents' reach changes only if the move covers a cell of it (a shorter path than
    # REACH_STEPS to a cell runs through reached cells only)
    for i in range(h):
        if (T.o_rows[o][i] << c) & e.opp_reach[r + i]:
            hits = 1
            break
    a[0] = a[s.height + 1] = b[0] = b[s.height + 1] = 0
    if hits:
        for i in range(s.height):
            a[i + 1] = e.opp_attach[i]
            opp_free[i] = e.opp_free[i]
        for i in range(h):
            m = T.o_rows[o][i] << c
            a[r + i + 1] &= ~m
            opp_free[r + i] &= ~m
        out[19] = reach_count(s, a, b, opp_free, NULL)
    else:
        out[19] = e.opp_reach_n
    for i in range(s.height):
        a[i + 1] = cs.attach[i] if cs.placed else 0   # a first piece: the start cells go
        own_free[i] = cs.free[i]
    for i in range(h):
        own_free[r + i] &= ~(T.o_rows[o][i] << c)
    for i in range(h + 2):
        row = r - 1 + i
        if row < 0 or row >= s.height:
            continue
        halo = shifted(T.o_halo[o][i], c)
        own_free[row] &= ~halo
        a[row + 1] = (a[row + 1] & ~halo) | (shifted(T.o_diag[o][i], c) & own_free[row])
    out[18] = reach_count(s, a, b, own_free, NULL)


cdef inline double learned_eval(const double* w, const State* s, int k, int code,
                                const EvalCtx* e) noexcept nogil:
    """Weighted sum of the move's features, plus its piece's own weight.  Of the one-hot size
    features only the piece's own is 1 (the others add exactly nothing), so the sum starts
    with its weight and goes on in feature order after them: the same sum, term for term."""
    cdef int32_t f[NFEAT]
    cdef int o = orientation_of(s, code)
    cdef double v = w[NFEAT + tables(s).o_piece[o]] + w[tables(s).o_ncells[o] - 1]
    cdef int i
    move_features(s, k, code, e, f)
    for i in range(MAXCELLS, NFEAT):
        v += w[i] * f[i]
    return v


cdef int64_t greedy_key(const State* s, int k, int code, uint32_t others) noexcept nogil:
    """Piece size, then new own attach cells, then attach cells taken from the opponents'
    colours (bit j of ``others``)."""
    cdef int64_t t[3]
    move_terms(s, k, code, others, t)
    return (t[0] << 32) + (t[1] << 16) + t[2]


cdef int choose_greedy(const Config* cfg, const State* s, int k, move_t* moves, int n,
                       Rng* rng) noexcept nogil:
    cdef int i, best = 0, ties = 0
    cdef uint32_t others = opponents(cfg, s, k)
    cdef int64_t key, best_key = -1
    cdef int maxsize = 0, sz
    cdef const PieceTables* T = tables(s)
    for i in range(n):
        sz = T.o_ncells[orientation_of(s, moves[i])]
        if sz > maxsize:
            maxsize = sz
    for i in range(n):
        if T.o_ncells[orientation_of(s, moves[i])] != maxsize:
            continue
        key = greedy_key(s, k, moves[i], others)
        if key > best_key:
            best_key = key
            best = i
            ties = 1
        elif key == best_key:
            ties += 1
            if rng_below(rng, <uint32_t>ties) == 0:
                best = i
    return best


cdef int choose_mc(const Config* cfg, const State* s, int k, move_t* moves, int n, Rng* rng,
                   move_t* buf, int64_t* keys) noexcept nogil:
    """Flat Monte Carlo: the greedy-best ``cand`` moves, ``sims`` random playouts each; best mean
    of (score margin over the best other side + 10 x win share) for the mover's side."""
    cdef int p = mover_of(cfg, s, k)
    cdef int me = cfg.side_of[p]
    cdef int ncand = cfg.cand[p], nsims = cfg.sims[p]
    cdef int i, j, t, best = 0, bi, nwin, other
    cdef int64_t kmax
    cdef double value, best_value = -1e300
    cdef int sc[MAXCOLOURS]
    cdef State child
    cdef uint32_t others = opponents(cfg, s, k)
    for i in range(n):
        keys[i] = greedy_key(s, k, moves[i], others) * 64 + rng_below(rng, 64)
    if ncand > n:
        ncand = n
    for j in range(ncand):
        # selection of the j-th best key
        bi = j
        kmax = keys[j]
        for i in range(j + 1, n):
            if keys[i] > kmax:
                kmax = keys[i]
                bi = i
        keys[bi] = keys[j]
        keys[j] = kmax
        t = moves[bi]
        moves[bi] = moves[j]
        moves[j] = <move_t>t
        value = 0.0
        for t in range(nsims):
            memcpy(&child, s, sizeof(State))
            do_move(cfg, &child, k, moves[j])
            advance(&child)
            random_playout(cfg, &child, rng, buf)
            side_scores(cfg, &child, sc)
            other = -1000000
            nwin = 1
            for i in range(cfg.n_sides):
                if i != me:
                    if sc[i] > other:
                        other = sc[i]
            for i in range(cfg.n_sides):
                if i != me and sc[i] == sc[me]:
                    nwin += 1
            value += sc[me] - other
            if sc[me] >= other:
                value += 10.0 / nwin
        if value > best_value:
            best_value = value
            best = j
    return best


def random_playouts(Position start, uint64_t seed, int n_games) -> tuple:
    """Uniform-random playouts from ``start`` (full move list at every ply, one drawn uniformly).

    Returns (games, moves played, legal moves listed); used by the benchmarks.
    """
    cdef Config cfg
    cdef State s
    cdef Rng rng
    cdef int g, k
    cdef int64_t listed = 0, played = 0
    memset(&cfg, 0, sizeof(Config))
    cfg.n_players = start.s.n_colours
    for k in range(start.s.n_colours):
        cfg.player_of[k] = k
    rng_seed(&rng, seed)
    cdef move_t* buf = <move_t*>malloc(MAXLIST * sizeof(move_t))
    with nogil:
        for g in range(n_games):
            memcpy(&s, &start.s, sizeof(State))
            listed += random_playout(&cfg, &s, &rng, buf)
            played += s.n_placed - start.s.n_placed
    cfree(buf)
    return n_games, played, listed


# ---------------------------------------------------------------- Monte Carlo tree search
#
# UCT on the C playouts, with prior knowledge and shared statistics:
#
# * each child starts with ``prior_n`` virtual visits at a value taken from a fast one-ply
#   evaluation (``search_key``: the learned weights times the move's ``EVAL_FEATURES`` plus its
#   piece's weight, or with ``learned`` = 0 piece size + 0.1 x own corners gained + 3 x
#   opponents' corners taken), so
#   the search tries the moves a good player would look at first (progressive bias);
# * a node looks only at its best children by that evaluation, more of them as its visit count
#   grows (progressive widening), and keeps at most ``MAXCHILD`` of them;
# * RAVE (all-moves-as-first): a move's value is blended with the results of every simulation in
#   which the same colour played the same placement later on, which shares statistics between
#   siblings and across the tree while a node has few visits;
# * playouts answer the opponents: each ply plays a move covering the most cells where the
#   opponents' last placements let them grow (``local_pick``, with ``local`` > 0, the default),
#   or else draws ``playout_k`` legal moves and plays the best by ``search_key``;
# * a simulation's value for each side is its win share blended with its score margin
#   (``score_weight``), so the search keeps maximising the margin when every line wins or loses.

from libc.math cimport sqrt, log, tanh, exp
from libc.stdlib cimport qsort

cdef extern from "<time.h>" nogil:
    ctypedef long time_t
    cdef struct timespec:
        time_t tv_sec
        long tv_nsec
    int clock_gettime(int clk_id, timespec* tp)
    int CLOCK_MONOTONIC

cdef extern from *:
    """
    static inline int read_flag(const int *flag) { return *(const volatile int *)flag; }
    static inline int32_t load_acquire(const int32_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void store_release(int32_t *p, int32_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline int compare_swap(int32_t *p, int32_t expected, int32_t desired) {
        return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
    static inline int64_t fetch_add(int64_t *p, int64_t v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
    static inline void store_seq_cst(int32_t *p, int32_t v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }
    static inline void fence_seq_cst(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
    /* GCC counts a prefetch as no effect at all and drops a call of a small function that
       only prefetches (``lgr_prefetch``); the empty volatile asm using the address keeps it */
    #define prefetch(p) do { const void *prefetch_at_ = (p); __builtin_prefetch(prefetch_at_); \
                             __asm__ volatile("" :: "r"(prefetch_at_)); } while (0)
    static inline void add_float(float *p, float v) {
        /* p += v as one indivisible step: a compare-and-swap loop on the float's bits */
        uint32_t old = __atomic_load_n((uint32_t *)p, __ATOMIC_RELAXED), new_bits;
        float f;
        do {
            memcpy(&f, &old, sizeof f);
            f += v;
            memcpy(&new_bits, &f, sizeof f);
        } while (!__atomic_compare_exchange_n((uint32_t *)p, &old, new_bits, 1, __ATOMIC_RELAXED,
                                              __ATOMIC_RELAXED));
    }
    """
    int read_flag(const int* flag) noexcept nogil   # a flag another thread may set: read it afresh
    # a tree searched by several threads at once (``Search.shared``): a node's child block is
    # published by storing ``first`` and then ``n_child`` (release) and read in the other order
    # (acquire), so a reader never sees more children than the block it reads holds
    int32_t load_acquire(const int32_t* p) noexcept nogil
    void store_release(int32_t* p, int32_t v) noexcept nogil
    int compare_swap(int32_t* p, int32_t expected, int32_t desired) noexcept nogil
    int64_t fetch_add(int64_t* p, int64_t v) noexcept nogil
    # a worker's simulation counter (``Search.sim_seq``) is stored with a full barrier, and a
    # widening thread puts one between publishing a block and reading those counters, so that
    # neither side can miss the other's write (``expand``, ``carry_over``)
    void store_seq_cst(int32_t* p, int32_t v) noexcept nogil
    void fence_seq_cst() noexcept nogil
    # ``p[0] += v`` that no other thread's update can come between: shared trees' statistics
    void add_float(float* p, float v) noexcept nogil
    # a hint to start loading ``p``'s cache line: a table the next step will read
    void prefetch(const void* p) noexcept nogil

cdef extern from "<sched.h>" nogil:
    int sched_yield()


DEF MAXCHILD = 192
DEF MAXDEPTH = 96
DEF MAXSEQ = MAXCOLOURS * MAXPIECES   # placements in one game at most
DEF MAXNODES = 40000000              # the most nodes a search tree may hold
DEF LGR2_SIZE = 65536                 # replies to a pair of moves kept per colour (a power of 2)
DEF MAXTHREADS = 64                   # most threads searching one tree at once


cdef struct Node:
    int32_t first         # index of the first child (-1: not expanded)
    int32_t n_child       # children kept so far (best prior first)
    int32_t n_legal       # children it may have (legal moves, at most MAXCHILD)
    int32_t move          # code of the move leading here (-1 at the root)
    int32_t colour        # colour that made the move
    int32_t side          # side of the player who made it: values are from this side's view
    int32_t terminal      # 1: no colour can move after this move
    int32_t busy          # 1 while a thread adds children to this node (shared trees only)
    float visits
    float value
    float rave_n
    float rave_v
    float prior_p         # the move's share of the softmax of its siblings' evaluations (``puct``)


cdef struct RunningStat:   # count, mean and sum of squared deviations of a series (Welford)
    double n
    double mean
    double m2


cdef inline double add_and_measure(RunningStat* r, double x) noexcept nogil:
    """Add ``x`` to the series and return it measured against the series, itself included:
    (x - mean) / population spread, 0 while the spread is 0."""
    cdef double d = x - r.mean
    r.n += 1.0
    r.mean += d / r.n
    r.m2 += d * (x - r.mean)
    return (x - r.mean) / sqrt(r.m2 / r.n) if r.m2 > 0 else 0.0


# The tree: a pool of nodes, children of a node contiguous.  One thread or several search it at
# once (tree parallelism: ``shared``), each with a ``Worker`` of its own.
cdef struct Search:
    Node* nodes
    int32_t cap
    int32_t used
    int32_t root
    int32_t codespace      # move codes of the board searched (the AMAF tables' stride)
    int32_t shared         # 1: several workers at once (virtual loss, node locks, atomic pool)
    int64_t claimed        # shared: simulations started (a playout budget is shared this way)
    int32_t n_active       # shared: workers searching (ids 0 .. n_active - 1)
    int32_t sim_seq[MAXTHREADS]   # shared: per worker, odd while it is in a simulation
    int32_t widen_lock     # shared: 1 while a thread moves a node's children (``expand``)
    int halt              # set (``Searcher.halt``) to end a running search after its simulation
    # last good replies (``lgr_reply``), shared by the workers, cleared when a search starts:
    int32_t* lgr1          # [colour * codespace + last move's code]: colour's reply (-1: none)
    int32_t* lgr2          # [colour * LGR2_SIZE + hash of the last two codes]: its reply
    uint32_t* lgr_hash     # [code] and [codespace + code]: random words hashing the two codes
    # each side's running mean simulation value in this search (``prior_rel``; ``root_values_init``)
    double side_sum[MAXCOLOURS]
    double side_n[MAXCOLOURS]
    # per worker (each thread its own, no locks) this search's playout margins per side
    # (``quality``) and game lengths (``length_weight``)
    RunningStat margins[MAXTHREADS][MAXCOLOURS]
    RunningStat lengths[MAXTHREADS]
    # dynamic komi (``komi_start``, ``komi_adjust``): the side searching (-1: off), the points each
    # side is given when a playout's winner is decided (kept from one search to the next in a game),
    # per worker that side's wins and simulations in this search, and their totals at the last adjustment
    int32_t komi_side
    int32_t komi_placed    # placements on the board at the last search's start (a new game: fewer)
    double komi[MAXCOLOURS]
    double komi_win[MAXTHREADS]
    double komi_n[MAXTHREADS]
    double komi_seen_win
    double komi_seen_n


cdef struct Worker:        # one searching thread's scratch and counters
    int32_t id             # its place among the tree's workers (``Search.sim_seq``)
    # a move of a block of children not yet carried over (``carry_over``; pend_have 0: none):
    int32_t pend_old       # the old block ...
    int32_t pend_new       # ... the new one ...
    int32_t pend_have      # ... the children moved ...
    int32_t pend_seq[MAXTHREADS]   # ... the workers' ``sim_seq`` then ...
    Node* snap             # ... and the moved children as copied (MAXCHILD nodes)
    move_t* moves          # MAXLIST scratch for move lists
    int64_t* keys          # MAXLIST scratch for sort keys
    int32_t* amaf_stamp    # [colour * codespace + code]: simulation that played it ...
    int16_t* amaf_ply      # ... and at which ply (first time)
    int32_t stamp
    int32_t path[MAXDEPTH]
    int32_t n_seq          # the simulation's placements so far (tree and playout), in order:
    int32_t seq_code[MAXSEQ]
    int8_t seq_colour[MAXSEQ]
    int8_t seq_side[MAXSEQ]    # the side of the player who made it
    int32_t* trace         # the tests' record of every simulation (NULL: none; ``traced_search``)
    int64_t trace_len
    int64_t trace_cap
    int64_t playouts
    int64_t listed
    int32_t stopped        # 1: the last search ended early, its choice settled (``stop_early``)
    int32_t extended       # 1: the last search ran past its time, its choice unsettled (``extend``)


cdef inline double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef int search_alloc(Search* t, int32_t cap, int32_t codespace) noexcept nogil:
    """Allocate a tree with room for ``cap`` nodes on a board of ``codespace`` move codes;
    0 on failure."""
    cdef int i
    cdef Rng words
    memset(t, 0, sizeof(Search))
    t.nodes = <Node*>malloc(cap * sizeof(Node))
    t.lgr1 = <int32_t*>malloc(MAXCOLOURS * codespace * sizeof(int32_t))
    t.lgr2 = <int32_t*>malloc(MAXCOLOURS * LGR2_SIZE * sizeof(int32_t))
    t.lgr_hash = <uint32_t*>malloc(2 * codespace * sizeof(uint32_t))
    if not (t.nodes and t.lgr1 and t.lgr2 and t.lgr_hash):
        search_free(t)
        return 0
    rng_seed(&words, 0x4C4752)   # a fixed seed: the hashes are the same in every search
    for i in range(2 * codespace):
        t.lgr_hash[i] = <uint32_t>(rng_next(&words) >> 32)
    t.codespace = codespace
    t.cap = cap
    t.komi_side = -1
    lgr_clear(t, MAXCOLOURS)
    return 1


cdef void search_free(Search* t) noexcept nogil:
    cfree(t.nodes)
    cfree(t.lgr1)
    cfree(t.lgr2)
    cfree(t.lgr_hash)
    memset(t, 0, sizeof(Search))


cdef void root_values_init(Search* t, int n_sides) noexcept nogil:
    """Start each side's running mean value (``prior_rel``) for a new search: a tie with the
    weight of one simulation, or where the tree kept the root's children, the most visited
    child's mean for its mover's side with the weight of its visits (at most 100; in a
    two-sided game the other side's mean is the complement), as Pentobi starts its root value."""
    cdef int i
    cdef const Node* r = &t.nodes[t.root]
    cdef const Node* c
    cdef const Node* best = NULL
    cdef double n
    for i in range(MAXCOLOURS):
        t.side_sum[i] = 0.5
        t.side_n[i] = 1.0
    memset(t.margins, 0, sizeof(t.margins))
    memset(t.lengths, 0, sizeof(t.lengths))
    if r.first >= 0:
        for i in range(r.first, r.first + r.n_child):
            c = &t.nodes[i]
            if c.side >= 0 and (best == NULL or c.visits > best.visits):
                best = c
    if best != NULL and best.visits > 0:
        n = best.visits if best.visits < 100 else 100
        t.side_sum[best.side] = n * best.value / best.visits
        t.side_n[best.side] = n
        if n_sides == 2:
            t.side_sum[1 - best.side] = n * (1.0 - best.value / best.visits)
            t.side_n[1 - best.side] = n


cdef void komi_start(Search* t, const SearchParams* sp, const Config* cfg, const State* root,
                     int side) noexcept nogil:
    """Start a search's dynamic komi for ``side`` (the searching player's): off unless ``komi`` > 0
    and the game has two sides; the side's komi so far is kept, except in a new game -- a
    position in the game's first round or with fewer placements than the last search's (a
    self-play workspace's next game) --, where every side's starts at 0."""
    cdef int i
    t.komi_side = -1
    for i in range(MAXTHREADS):
        t.komi_win[i] = 0.0
        t.komi_n[i] = 0.0
    t.komi_seen_win = 0.0
    t.komi_seen_n = 0.0
    if sp.komi <= 0 or cfg.n_sides != 2:
        return
    t.komi_side = side
    if root.n_placed < root.n_colours or root.n_placed < t.komi_placed:
        for i in range(MAXCOLOURS):
            t.komi[i] = 0.0
    t.komi_placed = root.n_placed


cdef void komi_adjust(Search* t, const SearchParams* sp) noexcept nogil:
    """Dynamic komi (situational compensation, after Baudis, *Balancing MCTS by Dynamically
    Adjusting the Komi Value*, 2011): every ``KOMI_EVERY`` simulations, if the searching side won
    less than ``komi_lo`` of the simulations since the last adjustment (its komi counted), it is
    given ``komi`` more points (up to ``komi_max``); if more than komi_lo + 0.1, ``komi`` fewer
    (down to ``komi_min``, 0 by default; below 0 a side well ahead plays to win by more).  A
    side far behind then still tells moves apart by which keep the game close, instead of
    seeing every move lose.  Called by worker 0; the others' counts are read racily."""
    cdef int i
    cdef double wins = 0.0, n = 0.0, share
    cdef int side = t.komi_side
    for i in range(MAXTHREADS):
        wins += t.komi_win[i]
        n += t.komi_n[i]
    if n - t.komi_seen_n < KOMI_EVERY:
        return
    share = (wins - t.komi_seen_win) / (n - t.komi_seen_n)
    t.komi_seen_win = wins
    t.komi_seen_n = n
    if share < sp.komi_lo:
        t.komi[side] = min(t.komi[side] + sp.komi, sp.komi_max)
    elif share > sp.komi_lo + 0.1:
        t.komi[side] = max(t.komi[side] - sp.komi, sp.komi_min)


cdef void lgr_clear(Search* t, int n_colours) noexcept nogil:
    """Forget every last good reply of colours 0 .. n_colours - 1 (the game's): each search
    starts afresh (keeping them from one search to the next while the tree is kept, as Pentobi
    does, measured worse: docs/blokus.md)."""
    memset(t.lgr1, 0xFF, n_colours * t.codespace * sizeof(int32_t))
    memset(t.lgr2, 0xFF, n_colours * LGR2_SIZE * sizeof(int32_t))


cdef inline int32_t* lgr2_slot(Search* t, int k, int last, int second) noexcept nogil:
    return &t.lgr2[k * LGR2_SIZE + ((t.lgr_hash[last] ^ t.lgr_hash[t.codespace + second])
                                    & (LGR2_SIZE - 1))]


cdef inline void lgr_prefetch(Search* t, const Worker* w, int k, int last) noexcept nogil:
    """Start loading colour k's replies to ``last`` following the worker's last placement (the
    slots ``lgr_reply`` reads once ``last`` is played): the tables are large and read at
    random, so their lines are mostly out of the cache."""
    if w.n_seq >= 1:
        prefetch(lgr2_slot(t, k, last, w.seq_code[w.n_seq - 1]))
    prefetch(&t.lgr1[k * t.codespace + last])


cdef int lgr_reply(Search* t, const Worker* w, const State* s, int k) noexcept nogil:
    """Colour k's last good reply to the simulation's last two placements if it is legal
    here, else to the last one if that is legal, else -1 (LGRF-2: Baier and Drake, *The Power
    of Forgetting*, 2010; Pentobi's playouts use it)."""
    cdef int n = w.n_seq, r
    if n == 0:
        return -1
    if n >= 2:
        r = lgr2_slot(t, k, w.seq_code[n - 1], w.seq_code[n - 2])[0]
        if r >= 0 and is_legal(s, k, r):
            return r
    r = t.lgr1[k * t.codespace + w.seq_code[n - 1]]
    if r >= 0 and is_legal(s, k, r):
        return r
    return -1


cdef void lgr_update(const Config* cfg, Search* t, const Worker* w, const State* end) noexcept nogil:
    """After a simulation: each placement of a winning side (a draw counts as a win) becomes
    the reply to the one or two placements before it; a losing side's reply is forgotten where
    it is the one stored."""
    cdef int sc[MAXCOLOURS]
    cdef int i, k, code, best = -1000000
    cdef int32_t* slot
    side_scores(cfg, end, sc)
    for i in range(cfg.n_sides):
        if sc[i] > best:
            best = sc[i]
    for i in range(1, w.n_seq):
        k = w.seq_colour[i]
        code = w.seq_code[i]
        slot = &t.lgr1[k * t.codespace + w.seq_code[i - 1]]
        if sc[w.seq_side[i]] == best:
            slot[0] = code
            if i >= 2:
                lgr2_slot(t, k, w.seq_code[i - 1], w.seq_code[i - 2])[0] = code
        else:
            if slot[0] == code:
                slot[0] = -1
            if i >= 2:
                slot = lgr2_slot(t, k, w.seq_code[i - 1], w.seq_code[i - 2])
                if slot[0] == code:
                    slot[0] = -1


cdef inline void seq_add(Worker* w, int k, int code, int side) noexcept nogil:
    if w.n_seq < MAXSEQ:
        w.seq_code[w.n_seq] = code
        w.seq_colour[w.n_seq] = <int8_t>k
        w.seq_side[w.n_seq] = <int8_t>side
        w.n_seq += 1


cdef int worker_alloc(Worker* w, int32_t codespace) noexcept nogil:
    """Allocate a worker's scratch for a board of ``codespace`` move codes; 0 on failure."""
    memset(w, 0, sizeof(Worker))
    w.moves = <move_t*>malloc(MAXLIST * sizeof(move_t))
    w.keys = <int64_t*>malloc(MAXLIST * sizeof(int64_t))
    w.amaf_stamp = <int32_t*>malloc(MAXCOLOURS * codespace * sizeof(int32_t))
    w.amaf_ply = <int16_t*>malloc(MAXCOLOURS * codespace * sizeof(int16_t))
    w.snap = <Node*>malloc(MAXCHILD * sizeof(Node))
    if not (w.moves and w.keys and w.amaf_stamp and w.amaf_ply and w.snap):
        worker_free(w)
        return 0
    memset(w.amaf_stamp, 0, MAXCOLOURS * codespace * sizeof(int32_t))
    return 1


cdef void worker_free(Worker* w) noexcept nogil:
    cfree(w.moves)
    cfree(w.keys)
    cfree(w.amaf_stamp)
    cfree(w.amaf_ply)
    cfree(w.snap)
    memset(w, 0, sizeof(Worker))


cdef inline int children_of(const Node* nd, int32_t* first) noexcept nogil:
    """Number of children of ``nd`` and (in ``first``) where they start, read so that another
    thread's widening of the node can never make the count overrun the block (see
    ``load_acquire``); 0 for a leaf."""
    cdef int n = load_acquire(&nd.n_child)
    first[0] = load_acquire(&nd.first)
    return n if first[0] >= 0 else 0


cdef inline int reserve_nodes(Search* t, int m) noexcept nogil:
    """Index of ``m`` fresh nodes taken from the pool, -1 if it has not that many left."""
    cdef int32_t old
    while True:
        old = load_acquire(&t.used)
        if old + m > t.cap:
            return -1
        if compare_swap(&t.used, old, old + m):
            return old


cdef inline void release_nodes(Search* t, int32_t start, int reserved, int kept) noexcept nogil:
    """Give back the unused end of ``reserved`` nodes taken at ``start`` (``kept`` used), unless
    another thread has taken nodes since (they stay unused then)."""
    compare_swap(&t.used, start + reserved, start + kept)


cdef void search_reset(Search* t) noexcept nogil:
    """Empty tree with a fresh root."""
    t.used = 1
    t.root = 0
    memset(&t.nodes[0], 0, sizeof(Node))
    t.nodes[0].first = -1
    t.nodes[0].move = -1
    t.nodes[0].colour = -1
    t.nodes[0].side = -1


cdef int skip_passes(State* s) noexcept nogil:
    """Move ``to_play`` on to the next colour that has a move, marking the others out for good;
    0 if no colour can move (the game is over)."""
    while s.n_out < s.n_colours:
        if not s.c[s.to_play].out:
            if has_move(s, s.to_play):
                return 1
            s.c[s.to_play].out = 1
            s.n_out += 1
        advance(s)
    return 0


cdef int cmp_desc(const void* a, const void* b) noexcept nogil:
    cdef int64_t x = (<const int64_t*>a)[0], y = (<const int64_t*>b)[0]
    return (x < y) - (x > y)


cdef void sort_best(int64_t* keys, int n, int m) noexcept nogil:
    """Put the ``m`` largest of ``keys[:n]`` (all different) first, in descending order (the rest
    in any order): one pass keeping the best so far in order when few are wanted, which is the
    common case of a fresh node; a full sort otherwise."""
    cdef int i, j
    cdef int64_t x
    if m >= n or m * 8 > n:
        qsort(keys, n, sizeof(int64_t), cmp_desc)
        return
    if m <= 0:
        return
    qsort(keys, m, sizeof(int64_t), cmp_desc)
    for i in range(m, n):
        x = keys[i]
        if x > keys[m - 1]:   # joins the best: insert it in order, the least of them leaves
            keys[i] = keys[m - 1]
            j = m - 1
            while j > 0 and keys[j - 1] < x:
                keys[j] = keys[j - 1]
                j -= 1
            keys[j] = x


cdef inline int open_count(const SearchParams* sp, const Node* nd) noexcept nogil:
    """How many children (best prior first) node ``nd`` looks at for its visit count."""
    cdef int n = <int>(sp.widen_base + sp.widen * sqrt(nd.visits))
    if n > nd.n_legal:
        n = nd.n_legal
    return n if n > 1 else 1


cdef float move_centre(const Config* cfg, const State* s, int code) noexcept nogil:
    """The distance to the board's centre of the placement's closest cell."""
    cdef const PieceTables* T = tables(s)
    cdef int o, r, c, i, x
    cdef uint64_t m
    cdef float d, best = 1e30
    decode(s, code, &o, &r, &c)
    for i in range(T.o_h[o]):
        m = T.o_rows[o][i] << c
        while m:
            x = ctz64(m)
            m &= m - 1
            d = cfg.centre[(r + i) * 64 + x]
            if d < best:
                best = d
    return best


cdef int centre_filter(const Config* cfg, const SearchParams* sp, const State* s, move_t* moves,
                       int n) noexcept nogil:
    """Keep (in order) the moves whose closest cell to the centre is within ``centre_slack`` of
    the closest any of the ``n`` moves reaches (or of ``centre_radius`` if that is farther out);
    returns how many are kept."""
    cdef int i, kept = 0
    cdef float best = 1e30, d
    for i in range(n):
        d = move_centre(cfg, s, moves[i])
        if d < best:
            best = d
    if best < sp.centre_radius:
        best = <float>sp.centre_radius
    best += <float>sp.centre_slack
    for i in range(n):
        if move_centre(cfg, s, moves[i]) <= best:
            moves[kept] = moves[i]
            kept += 1
    return kept


cdef int connect_filter(const Config* cfg, const State* s, int k, move_t* moves, int n) noexcept nogil:
    """If some of the ``n`` moves of colour k touch a partner colour's cells along an edge (a
    scored colour of the same side: classic-2's second colour, a team mate's; none for a colour
    that scores for nobody), keep only those (in order); returns how many are kept."""
    cdef const PieceTables* T = tables(s)
    cdef uint64_t partner[MAXROWS]
    cdef int side = cfg.side_of[mover_of(cfg, s, k)]
    cdef int i, j, y, o, r, c, row, kept = 0, any_partner = 0
    if not cfg.counted[k]:
        return n
    for y in range(s.height):
        partner[y] = 0
    for j in range(s.n_colours):
        if j != k and cfg.counted[j] and cfg.side_of[mover_of(cfg, s, j)] == side:
            for y in range(s.height):
                partner[y] |= s.c[j].own[y]
                any_partner |= partner[y] != 0
    if not any_partner:
        return n
    for i in range(n):
        decode(s, moves[i], &o, &r, &c)
        for j in range(T.o_h[o] + 2):
            row = r - 1 + j
            if 0 <= row < s.height and shifted(T.o_halo[o][j], c) & partner[row]:
                moves[kept] = moves[i]
                kept += 1
                break
    return kept if kept > 0 else n


DEF SOFTMAX_STEPS = 256 * 24     # evaluations (in 1/256) below the best whose softmax term is kept
cdef double SOFTMAX_TERM[SOFTMAX_STEPS]
cdef int _i_soft
for _i_soft in range(SOFTMAX_STEPS):
    SOFTMAX_TERM[_i_soft] = exp(-_i_soft / 256.0)


cdef inline double softmax_term(int64_t below) noexcept nogil:
    """exp(-below / 256): a move's softmax term, ``below`` its evaluation's distance under the
    best one's in ``search_key`` units (1/256); 0 beyond e^-24."""
    return SOFTMAX_TERM[below] if below < SOFTMAX_STEPS else 0.0


cdef int expand(const Config* cfg, const SearchParams* sp, Search* t, Worker* w, int32_t ni,
                const State* s, int want, Rng* rng) noexcept nogil:
    """Give node ``ni`` (position ``s``, ``to_play`` already past the passes) room for ``want``
    children: the node's current children keep their statistics, the best further moves by
    ``search_key`` are added with prior values, all in a new contiguous block (children are
    added lazily as progressive widening needs them, so most nodes hold only a few).
    Returns 0 if the pool is full (the node keeps what it has).  In a shared tree the caller
    holds the node's lock (``busy``); the new block is published by ``store_release``."""
    cdef int k = s.to_play
    cdef int n = gen_moves(s, k, w.moves)
    cdef int i, j, m, idx, have, dup, fresh, c_i
    cdef uint32_t others = opponents(cfg, s, k)
    cdef int64_t kmin, kmax
    cdef double span, pv, mean_value, share_sum = 0.0
    cdef Node* nd = &t.nodes[ni]
    cdef Node* c
    cdef Node* o
    cdef int32_t old_first
    cdef int side = cfg.side_of[mover_of(cfg, s, k)]
    w.listed += n
    if s.n_placed < sp.centre_moves:
        n = centre_filter(cfg, sp, s, w.moves, n)
    if s.n_placed < sp.connect_moves:
        n = connect_filter(cfg, s, k, w.moves, n)
    have = nd.n_child if nd.first >= 0 else 0
    m = want if want < n else n
    if m > MAXCHILD:
        m = MAXCHILD
    if m <= have:
        nd.n_legal = have
        return 1
    fresh = reserve_nodes(t, m)
    if fresh < 0:
        return 0
    cdef EvalCtx e
    if sp.learned:
        eval_ctx_init(s, k, others, &e)
        e.reach = sp.ew[NFEAT - 2] != 0 or sp.ew[NFEAT - 1] != 0
    kmin = 0x7FFFFFFFFFFFFFFF
    for i in range(n):
        # key in the high bits, a random tie-break, the index in the low 16 bits
        w.keys[i] = ((search_key(sp, s, k, w.moves[i], others, &e) * 64 + rng_below(rng, 64)) << 16) | i
        if w.keys[i] < kmin:
            kmin = w.keys[i]
    kmin >>= 22
    sort_best(w.keys, n, m + have)
    kmax = w.keys[0] >> 22
    span = <double>(kmax - kmin)
    if sp.puct > 0:   # the softmax's denominator over every move the node may have
        for i in range(n):
            share_sum += softmax_term(kmax - (w.keys[i] >> 22))
    mean_value = t.side_sum[side] / t.side_n[side] if t.side_n[side] > 0 else 0.5
    j = have
    i = 0
    while j < m and i < n:
        idx = <int>(w.keys[i] & 0xFFFF)
        dup = 0
        for c_i in range(have):
            if t.nodes[nd.first + c_i].move == <int32_t>w.moves[idx]:
                dup = 1
                break
        if not dup:
            c = &t.nodes[fresh + j]
            memset(c, 0, sizeof(Node))
            c.first = -1
            c.move = w.moves[idx]
            c.colour = k
            c.side = side
            if sp.prior_rel > 0:
                pv = mean_value * exp(sp.prior_rel * ((w.keys[i] >> 22) - kmax) / 256.0)
            else:
                pv = (sp.prior_hi if span <= 0
                      else sp.prior_lo + (sp.prior_hi - sp.prior_lo) * ((w.keys[i] >> 22) - kmin) / span)
            c.visits = <float>sp.prior_n
            c.value = <float>(pv * sp.prior_n)
            if sp.puct > 0:
                c.prior_p = <float>(softmax_term(kmax - (w.keys[i] >> 22)) / share_sum)
            j += 1
        i += 1
    release_nodes(t, fresh, m, j)
    nd.n_legal = n if n < MAXCHILD else MAXCHILD
    old_first = nd.first
    if have:
        memcpy(&t.nodes[fresh], &t.nodes[old_first], have * sizeof(Node))
        if t.shared:
            memcpy(w.snap, &t.nodes[fresh], have * sizeof(Node))
            for c_i in range(have):   # no thread gives a copy children before the carry-over
                t.nodes[fresh + c_i].busy = 1
    store_release(&nd.first, fresh)
    store_release(&nd.n_child, j)
    if have and t.shared:
        # Other threads may still update the old block: those that read the node's children
        # before the publication, until their simulation ends.  What they add there is
        # carried over once each has ended it (``carry_over``); until then this thread keeps
        # the tree's ``widen_lock``, so no other block moves meanwhile
        fence_seq_cst()
        for c_i in range(t.n_active):
            w.pend_seq[c_i] = load_acquire(&t.sim_seq[c_i])
        w.pend_old = old_first
        w.pend_new = fresh
        w.pend_have = have
    return 1


cdef int carry_over(Search* t, Worker* w, int wait) noexcept nogil:
    """Finish worker ``w``'s last move of a block of children in a shared tree (``expand``):
    once each other worker that was inside a simulation at the move has ended that simulation
    (``Search.sim_seq``; with ``wait`` 0, if they all have: else returns 0 at once), nothing
    can be written to the old block any more, so everything added there since the copy -- the
    old block's figures now minus the copy's snapshot -- is added to the new one, children an
    old child got meanwhile are linked to its copy, and the copies and the tree's
    ``widen_lock`` are unlocked.  Returns 1 when done (or if nothing was pending)."""
    cdef int i
    cdef Node* c
    cdef Node* o
    cdef const Node* was
    if w.pend_have == 0:
        return 1
    for i in range(t.n_active):
        if i != w.id and (w.pend_seq[i] & 1):
            while load_acquire(&t.sim_seq[i]) == w.pend_seq[i]:
                if not wait:
                    return 0
                sched_yield()
    for i in range(w.pend_have):
        c = &t.nodes[w.pend_new + i]
        o = &t.nodes[w.pend_old + i]
        was = &w.snap[i]
        add_float(&c.visits, o.visits - was.visits)
        add_float(&c.value, o.value - was.value)
        add_float(&c.rave_n, o.rave_n - was.rave_n)
        add_float(&c.rave_v, o.rave_v - was.rave_v)
        if o.terminal:
            c.terminal = 1
        if c.first != o.first:   # the old child got its first children meanwhile
            c.n_legal = o.n_legal
            store_release(&c.first, o.first)
            store_release(&c.n_child, o.n_child)
        store_release(&c.busy, 0)
    w.pend_have = 0
    store_release(&t.widen_lock, 0)
    return 1


cdef int32_t select_child(const SearchParams* sp, Search* t, int32_t ni) noexcept nogil:
    """The child of node ``ni`` to descend to (UCT on its open children, values blended with
    RAVE).

    A child with visits n, value sum w, RAVE visits m and RAVE value sum u scores
    (1 - b) w/n + b u/m + explore sqrt(ln N / n) with b = m / (m + n + m n / rave_k), plus
    with ``puct`` Pentobi's exploration term (after AlphaGo's) puct P sqrt(N) log(N + 1) / n,
    P the child's ``prior_p``: it keeps the simulations spreading over the likely moves as N
    grows, where the UCT term alone all but stops exploring.  With
    a = 1 + m / rave_k the blend is (a w + u) / (m + a n), so the score is
    ((a w + u) sqrt(n) + explore sqrt(ln N) (m + a n)) / ((m + a n) sqrt(n)): one division and
    one square root per child (this loop is the tree's hottest)."""
    cdef Node* nd = &t.nodes[ni]
    cdef int n_open = open_count(sp, nd)
    cdef int32_t first
    cdef int n_child = children_of(nd, &first)
    cdef int i, best = first
    cdef double ex = sp.explore * sqrt(log(nd.visits + 1.0)), inv_k = 1.0 / sp.rave_k
    cdef double pk = sp.puct * sqrt(nd.visits) * log(nd.visits + 1.0)
    cdef double n, m, a, den, root_n, score, best_score = -1e300
    cdef Node* c
    if n_open > n_child:
        n_open = n_child
    for i in range(first, first + n_open):
        c = &t.nodes[i]
        n = c.visits
        m = c.rave_n
        a = 1.0 + m * inv_k
        den = m + a * n
        root_n = sqrt(n)
        score = ((a * c.value + c.rave_v) * root_n + ex * den) / (den * root_n)
        if pk > 0:
            score += pk * c.prior_p / n
        if score > best_score:
            best_score = score
            best = i
    return best


cdef void side_values(const Config* cfg, const SearchParams* sp, const State* s, Search* t,
                      int wid, double* out) noexcept nogil:
    """Value of a finished game for each side: win share blended with score margin, in [0, 1]
    (with ``length_weight`` up to length_weight / 2 beyond).

    The margin term is 1/2 + 1/2 tanh(margin / score_scale); with ``quality`` it is
    1/2 + 1/2 tanh((margin - mean) / spread) over the margins worker ``wid`` has seen for that
    side in this search, this one included (Pentobi's quality-based reward, after Pepels et al.,
    *Quality-based Rewards for Monte-Carlo Tree Search Simulations*, 2014): a playout then
    counts as better or worse than what the search usually finds here, which still tells
    moves apart in a position that is clearly won or lost.  With ``length_weight`` a side's
    value also falls by length_weight x (win - 1/2) x tanh((length - mean) / spread) over the
    worker's game lengths (placements) in this search, the other quality-based reward Pentobi
    uses: quick wins and long losses count a little more."""
    cdef int sc[MAXCOLOURS]
    cdef int i, j, other, nwin
    cdef double win, z, zl = 0.0, lead
    side_scores(cfg, s, sc)
    if sp.length_weight > 0:
        zl = tanh(add_and_measure(&t.lengths[wid], s.n_placed))
    for i in range(cfg.n_sides):
        other = -1000000
        nwin = 1
        for j in range(cfg.n_sides):
            if j != i:
                if sc[j] > other:
                    other = sc[j]
                if sc[j] == sc[i]:
                    nwin += 1
        lead = sc[i] - other
        if t.komi_side >= 0:   # two sides: the komi side's lead grows by its komi, the other's falls
            lead += t.komi[t.komi_side] if i == t.komi_side else -t.komi[t.komi_side]
        if lead > 0:
            win = 1.0
        elif lead == 0:
            win = 0.5 if t.komi_side >= 0 else 1.0 / nwin
        else:
            win = 0.0
        if i == t.komi_side:
            t.komi_win[wid] += win
            t.komi_n[wid] += 1.0
        if sp.quality:
            z = add_and_measure(&t.margins[wid][i], sc[i] - other)
        else:
            z = (sc[i] - other) / sp.score_scale
        out[i] = ((1.0 - sp.score_weight) * win + sp.score_weight * (0.5 + 0.5 * tanh(z))
                  - sp.length_weight * (win - 0.5) * zl)


cdef inline void amaf_mark(Search* t, Worker* w, int k, int code, int ply) noexcept nogil:
    cdef int idx = k * t.codespace + code
    if w.amaf_stamp[idx] != w.stamp:
        w.amaf_stamp[idx] = w.stamp
        w.amaf_ply[idx] = <int16_t>ply


cdef inline int64_t search_key(const SearchParams* sp, const State* s, int k, int code,
                               uint32_t others, const EvalCtx* e) noexcept nogil:
    """The search's evaluation of a move (its prior and playout preference): with ``learned``
    the weighted sum of its ``EVAL_FEATURES`` (``e`` from ``eval_ctx_init``) plus its piece's
    weight; otherwise
    size + w_own x own attach cells gained + w_taken x opponents' attach cells taken, or, with
    both weights 0, ``greedy_key``'s order (size first, then gained, then taken)."""
    cdef int64_t t[3]
    if sp.learned:
        return <int64_t>(256 * learned_eval(sp.ew, s, k, code, e))
    if sp.w_own <= 0 and sp.w_taken <= 0:
        return greedy_key(s, k, code, others)
    move_terms(s, k, code, others, t)
    return <int64_t>(256 * (t[0] + sp.w_own * t[1] + sp.w_taken * t[2]))


cdef int local_planes(const State* s, int k, uint32_t others, uint64_t* loc, uint64_t* mine,
                      int* lo, int* hi) noexcept nogil:
    """The playouts' *local* cells for colour k: the corner cells that the opponents' (bit mask
    ``others``) placements among the last three opened for them, still free for that colour,
    and their edge neighbours free for it: where the opponent grows next.  ``loc`` gets them,
    ``mine`` those that are also k's attach cells, both for every row; rows ``lo`` .. ``hi``
    hold all of them.  Returns 0 if there are none."""
    cdef const PieceTables* T = tables(s)
    cdef uint64_t opened[MAXROWS]
    cdef uint64_t dil[MAXROWS]
    cdef int t, slot, c, o, r, col, i, row, y, y0, y1, found = 0
    lo[0] = MAXROWS
    hi[0] = -1
    for y in range(s.height):
        loc[y] = 0
        mine[y] = 0
        opened[y] = 0
    for t in range(3 if s.n_placed >= 3 else s.n_placed):
        slot = (s.n_placed - 1 - t) % 3
        c = s.recent_colour[slot]
        if not (others >> c) & 1:
            continue
        decode(s, s.recent_code[slot], &o, &r, &col)
        # the opened cells lie in rows r - 1 .. r + h, their neighbours one row further out
        y0 = r - 2 if r >= 2 else 0
        y1 = r + T.o_h[o] + 2 if r + T.o_h[o] + 2 <= s.height else s.height
        for i in range(T.o_h[o] + 2):
            row = r - 1 + i
            if 0 <= row < s.height:
                opened[row] = shifted(T.o_diag[o][i], col) & s.c[c].free[row]
        neighbour_counts_rows(s, opened, dil, NULL, NULL, NULL, y0, y1)
        for y in range(y0, y1):
            loc[y] |= (opened[y] | dil[y]) & s.c[c].free[y]
            if loc[y]:
                found = 1
                lo[0] = y if y < lo[0] else lo[0]
                hi[0] = y if y > hi[0] else hi[0]
            opened[y] = 0
    for y in range(s.height):
        mine[y] = loc[y] & s.c[k].attach[y]
    return found


cdef inline int local_score(const State* s, int code, const uint64_t* loc, const uint64_t* mine,
                            int lo, int hi) noexcept nogil:
    """Local cells the placement ``code`` covers, those that are also the mover's attach cells
    counted twice (``local_planes``)."""
    cdef const PieceTables* T = tables(s)
    cdef int hw = s.height * s.width
    cdef int o = orientation_of(s, code)
    cdef int r = <int>((<uint64_t>(code - o * hw) * s.w_magic) >> 40)
    cdef int h = T.o_h[o], col, row, score = 0
    cdef uint64_t m
    if r > hi or r + h <= lo:
        return 0
    col = code - o * hw - r * s.width
    for row in range(h):
        m = T.o_rows[o][row] << col
        score += popcount64(m & loc[r + row]) + popcount64(m & mine[r + row])
    return score


cdef int opening_min_size(const State* s, const int32_t* rounds) noexcept nogil:
    """Smallest piece the playouts prefer: while fewer than ``rounds`` [0], else [1], else [2]
    rounds of placements are on the board (2, 3, 5 by default; a round is one placement per
    colour), only pieces at most 0, 1, 2 cells smaller than the set's largest (when none of
    them can be placed, the mcts parameter ``cramped`` tells ``local_move`` what to do): the
    big pieces are the ones that are hard to place later.  1 after the opening."""
    cdef int drop, nc = s.n_colours
    if s.n_placed < rounds[0] * nc:
        drop = 0
    elif s.n_placed < rounds[1] * nc:
        drop = 1
    elif s.n_placed < rounds[2] * nc:
        drop = 2
    else:
        return 1
    return tables(s).max_size - drop


cdef inline void size_weights(int base, uint64_t* power) noexcept nogil:
    """``power[i]`` = ``base`` ** i for i = 0 .. MAXCELLS: the playouts' weight of a piece of i
    cells (``local_pick``, ``size_pick``)."""
    cdef int i
    power[0] = 1
    for i in range(1, MAXCELLS + 1):
        power[i] = power[i - 1] * <uint64_t>base


cdef int local_pick(const State* s, int base, int cap, const move_t* moves, int n,
                    const uint64_t* loc, const uint64_t* mine, int lo, int hi, Rng* rng) noexcept nogil:
    """Index of one of the moves with the highest ``local_score`` (with ``cap`` > 0 a score
    above ``cap`` counts as ``cap``, so among moves answering the opponents that much the piece
    size decides, as in Pentobi's playout weights), drawn with weight ``base`` ** piece size,
    so big pieces come first among equals (``size_pick`` when no move is local)."""
    cdef const PieceTables* T = tables(s)
    cdef int i, sz, best_score = 0
    cdef uint8_t score[MAXLIST]
    cdef uint64_t power[MAXCELLS + 1]
    cdef uint64_t total = 0, draw
    size_weights(base, power)
    for i in range(n):
        score[i] = <uint8_t>local_score(s, moves[i], loc, mine, lo, hi)
        if cap > 0 and score[i] > cap:
            score[i] = <uint8_t>cap
        if score[i] > best_score:
            best_score = score[i]
    for i in range(n):
        if score[i] == best_score:
            total += power[T.o_ncells[orientation_of(s, moves[i])]]
    draw = rng_next(rng) % total
    for i in range(n):
        if score[i] == best_score:
            sz = T.o_ncells[orientation_of(s, moves[i])]
            if draw < power[sz]:
                return i
            draw -= power[sz]
    return n - 1


cdef int size_pick(const State* s, uint32_t tried, const int32_t* ends, int base, Rng* rng) noexcept nogil:
    """``local_pick`` without local cells, from the blocks of moves ``scan`` listed per piece
    (``ends``; ``tried``: the pieces it tried, at least one move in all): the same index for
    the same draw, in a step per piece instead of two per move."""
    cdef const PieceTables* T = tables(s)
    cdef uint64_t power[MAXCELLS + 1]
    cdef uint64_t total = 0, draw, weight
    cdef uint32_t left = tried
    cdef int p, start = 0
    size_weights(base, power)
    while left:
        p = ctz64(left)
        left &= left - 1
        total += <uint64_t>(ends[p] - start) * power[T.p_size[p]]
        start = ends[p]
    draw = rng_next(rng) % total
    left = tried
    start = 0
    while left:
        p = ctz64(left)
        left &= left - 1
        weight = <uint64_t>(ends[p] - start) * power[T.p_size[p]]
        if draw < weight:
            return start + <int>(draw // power[T.p_size[p]])
        draw -= weight
        start = ends[p]
    return start - 1


cdef inline uint32_t pieces_of_size(const State* s, int size) noexcept nogil:
    """Bit mask of the set's pieces with at least ``size`` (1 .. MAXCELLS) cells."""
    return tables(s).at_least[size]


cdef inline int largest_left(const State* s, int k, uint32_t pieces) noexcept nogil:
    """Cells of colour k's largest piece not yet placed among ``pieces`` (0: none)."""
    cdef const PieceTables* T = tables(s)
    cdef uint32_t left = s.c[k].left & pieces
    cdef int p, most = 0
    while left:
        p = ctz64(left)
        left &= left - 1
        if T.p_size[p] > most:
            most = T.p_size[p]
    return most


cdef int can_reach(const State* s, int k, const uint64_t* loc, int lo, int hi, int steps) noexcept nogil:
    """0 if no piece of colour k spanning ``steps`` + 1 cells can cover a cell of ``loc`` (rows
    ``lo`` .. ``hi``): such a piece joins one of k's attach cells to the cell through at most
    ``steps`` edge steps over cells free for k.  A cheap test that saves listing the local
    moves when the opponents' last moves are out of reach."""
    cdef uint64_t cur[MAXROWS]
    cdef uint64_t dil[MAXROWS]
    cdef int y, i, h = s.height
    cdef int y0 = lo - steps if lo > steps else 0
    cdef int y1 = hi + steps + 1 if hi + steps + 1 < h else h
    for y in range(h):
        cur[y] = s.c[k].attach[y] if y0 <= y < y1 else 0
    for i in range(steps):
        neighbour_counts_rows(s, cur, dil, NULL, NULL, NULL, y0, y1)
        for y in range(y0, y1):
            cur[y] |= dil[y] & s.c[k].free[y]
    for y in range(lo, hi + 1):
        if cur[y] & loc[y]:
            return 1
    return 0


cdef int local_move(const State* s, int k, uint32_t others, int base, int cap, const int32_t* rounds,
                    int cramped, move_t* moves, Rng* rng, int64_t* listed) noexcept nogil:
    """The ``local`` playout policy's move for colour k (-1: it has none): a move answering the
    opponents' (bit mask ``others``) last placements (``local_planes``) with the highest
    ``local_score``, among the pieces ``opening_min_size`` allows, drawn by ``local_pick`` (by
    ``size_pick`` when no move is local).
    The moves are listed in steps, cheapest first -- the allowed pieces covering local cells
    (skipped when ``can_reach`` says none can), the allowed pieces anywhere, then the same for
    every piece -- and the first step that finds any decides: the same choice as scoring every
    legal move, at a fraction of the cost."""
    cdef uint64_t loc[MAXROWS]
    cdef uint64_t mine[MAXROWS]
    cdef int32_t ends[MAXPIECES]
    cdef int lo, hi, n, i, step, min_size = opening_min_size(s, rounds)
    cdef int any_local = local_planes(s, k, others, loc, mine, &lo, &hi)
    cdef uint32_t every = ~(<uint32_t>0), pieces = every
    if min_size > 1:
        pieces = pieces_of_size(s, min_size)
    for step in range(4):
        if step == 2:   # nothing among the opening's big pieces: any piece (once restricted)
            if min_size <= 1 or cramped == 2:
                break
            pieces = every
        if step == 3 and cramped == 1:
            break
        if step % 2 == 0:
            if not any_local or not can_reach(s, k, loc, lo, hi, largest_left(s, k, pieces) - 1):
                continue
            n = scan(s, k, moves, 0, pieces, loc)
            if n > 0:
                i = local_pick(s, base, cap, moves, n, loc, mine, lo, hi, rng)
        else:
            n = scan(s, k, moves, 0, pieces, NULL, ends)
            if n > 0:
                i = size_pick(s, s.c[k].left & pieces, ends, base, rng)
        if n > 0:
            listed[0] += n
            return moves[i]
    return -1


cdef int playout_pick(const Config* cfg, const SearchParams* sp, const State* s, int k,
                      move_t* moves, int n, Rng* rng) noexcept nogil:
    """Index of the playout move without the local policy: the best by search_key of
    ``playout_k`` random draws."""
    cdef int i, j, best
    cdef int64_t key, best_key
    cdef uint32_t others
    best = rng_below(rng, <uint32_t>n)
    if sp.playout_k <= 1 or n == 1:
        return best
    cdef EvalCtx e
    others = opponents(cfg, s, k)
    if sp.learned:
        eval_ctx_init(s, k, others, &e)
        e.reach = sp.ew[NFEAT - 2] != 0 or sp.ew[NFEAT - 1] != 0
    best_key = search_key(sp, s, k, moves[best], others, &e)
    for j in range(1, sp.playout_k):
        i = rng_below(rng, <uint32_t>n)
        key = search_key(sp, s, k, moves[i], others, &e)
        if key > best_key:
            best_key = key
            best = i
    return best


cdef int playout_move(const Config* cfg, const SearchParams* sp, const State* s, int k, move_t* moves,
                      Rng* rng, int64_t* listed) noexcept nogil:
    """Colour k's move in a playout (-1: it has none)."""
    cdef int n
    if sp.local > 0:
        return local_move(s, k, opponents(cfg, s, k), sp.local, sp.local_cap, sp.big_rounds, sp.cramped,
                          moves, rng, listed)
    n = gen_moves(s, k, moves)
    if n == 0:
        return -1
    listed[0] += n
    return moves[playout_pick(cfg, sp, s, k, moves, n, rng)]


cdef void simulate_once(const Config* cfg, const SearchParams* sp, Search* t, Worker* w,
                        const State* root, Rng* rng) noexcept nogil:
    """One simulation: descend the tree, expand a leaf, play out, back up values and RAVE.

    In a shared tree (``t.shared``) every node on the way counts this visit at once, before its
    value is known (a *virtual loss*: the other threads see a lost simulation there for a moment,
    so they spread out over the tree), every update of a statistic is indivisible
    (``add_float``), and a node gets children only from the thread holding its lock; a thread
    that finds a leaf locked plays out from it instead.  Moving a node's children to a larger
    block (widening) also takes the tree's ``widen_lock`` -- a thread that cannot have it skips
    the widening this time -- and the simulation counter ``sim_seq`` tells the thread that
    moved them when the others can no longer write to the old block (``expand``)."""
    cdef State s
    cdef int depth = 0, ply = 0, k, i, j, pi, m, n_child, ok, tree_n
    cdef int shared = t.shared
    cdef int32_t ni = t.root, ci, first, seq = 0
    cdef Node* nd
    cdef Node* c
    cdef double v[MAXCOLOURS]
    cdef double dist
    cdef float weight
    memcpy(&s, root, sizeof(State))
    w.stamp += 1
    w.path[0] = ni
    w.n_seq = 0
    if shared:
        if w.pend_have:
            carry_over(t, w, 0)
        seq = t.sim_seq[w.id] + 1
        store_seq_cst(&t.sim_seq[w.id], seq)   # odd: inside a simulation
        add_float(&t.nodes[ni].visits, 1.0)
    # descend
    while True:
        nd = &t.nodes[ni]
        if nd.terminal:
            break
        n_child = children_of(nd, &first)
        if n_child == 0:
            if ni != t.root and nd.visits < sp.expand_after + sp.expand_inc * depth + sp.prior_n + shared:
                break
            if not skip_passes(&s):
                nd.terminal = 1
                break
            if shared and not compare_swap(&nd.busy, 0, 1):
                if ni != t.root:
                    break   # play out from this leaf
                # the root is getting its first children from another thread: wait for them
                # (a playout from the root would reach none of its children).  Once it has them,
                # that thread may lock the root again to widen it and wait for this simulation
                # to end (``expand``): so the wait ends on the children, not on the lock
                while load_acquire(&nd.busy) and children_of(nd, &first) == 0:
                    sched_yield()
                continue
            if shared and children_of(nd, &first) > 0:
                # it got children between the look and the lock (a copy linked by
                # ``carry_over``): not a leaf any more, look again
                store_release(&nd.busy, 0)
                continue
            ok = expand(cfg, sp, t, w, ni, &s, <int>(sp.widen_base + sp.widen * sqrt(nd.visits)) + 2, rng)
            if shared:
                store_release(&nd.busy, 0)
            if not ok:
                break
        elif open_count(sp, nd) > n_child and n_child < nd.n_legal:
            if not shared:
                s.to_play = t.nodes[first].colour
                expand(cfg, sp, t, w, ni, &s, 2 * open_count(sp, nd), rng)
            elif compare_swap(&t.widen_lock, 0, 1):   # kept until the carry-over if it moved them
                if compare_swap(&nd.busy, 0, 1):
                    s.to_play = t.nodes[first].colour
                    expand(cfg, sp, t, w, ni, &s, 2 * open_count(sp, nd), rng)
                    store_release(&nd.busy, 0)
                if w.pend_have:
                    carry_over(t, w, 0)   # unlocks ``widen_lock`` when done
                else:
                    store_release(&t.widen_lock, 0)
        ci = select_child(sp, t, ni)
        c = &t.nodes[ci]
        if shared:
            add_float(&c.visits, 1.0)
        s.to_play = c.colour
        do_move(cfg, &s, c.colour, c.move)
        amaf_mark(t, w, c.colour, c.move, ply)
        seq_add(w, c.colour, c.move, c.side)
        ply += 1
        advance(&s)
        ni = ci
        if depth + 1 < MAXDEPTH - 1:
            depth += 1
            w.path[depth] = ni
        else:
            break
    tree_n = w.n_seq
    # play out
    while s.n_out < s.n_colours:
        k = s.to_play
        if not s.c[k].out:
            m = lgr_reply(t, w, &s, k) if sp.lgr else -1
            if m < 0:
                m = playout_move(cfg, sp, &s, k, w.moves, rng, &w.listed)
            if m < 0:
                s.c[k].out = 1
                s.n_out += 1
            else:
                if sp.lgr:   # most often the next colour's reply is looked up next
                    lgr_prefetch(t, w, (k + 1) % s.n_colours, m)
                amaf_mark(t, w, k, m, ply)
                seq_add(w, k, m, cfg.side_of[mover_of(cfg, &s, k)])
                ply += 1
                do_move(cfg, &s, k, m)
        advance(&s)
    w.playouts += 1
    side_values(cfg, sp, &s, t, w.id, v)
    for i in range(cfg.n_sides):   # racy between threads; only a prior's scale (prior_rel)
        t.side_sum[i] += v[i]
        t.side_n[i] += 1
    if sp.lgr:
        lgr_update(cfg, t, w, &s)
    if w.trace != NULL and w.trace_len + 2 + 2 * w.n_seq <= w.trace_cap:
        w.trace[w.trace_len] = tree_n
        w.trace[w.trace_len + 1] = w.n_seq
        for i in range(w.n_seq):
            w.trace[w.trace_len + 2 + 2 * i] = w.seq_colour[i]
            w.trace[w.trace_len + 3 + 2 * i] = w.seq_code[i]
        w.trace_len += 2 + 2 * w.n_seq
    # back up: real statistics on the path, RAVE on the children of every node on it (a move
    # first played at ply p >= i counts for the children of the node at ply i with weight
    # 1 - rave_dist (p - i) / (plies - i): the later in the simulation, the less, as Pentobi's
    # distance weighting).  In a shared tree another thread may have moved a node's children
    # to a new block (widening) since this one passed; it carries these updates over once this
    # simulation has ended
    for i in range(depth + 1):
        nd = &t.nodes[w.path[i]]
        if not shared:
            nd.visits += 1
            if nd.side >= 0:
                nd.value += <float>v[nd.side]
        elif nd.side >= 0:
            add_float(&nd.value, <float>v[nd.side])
        if sp.rave_parent_max > 0 and nd.visits > sp.rave_parent_max:
            continue
        dist = sp.rave_dist / (ply - i) if ply > i else 0.0
        n_child = children_of(nd, &first)
        for j in range(first, first + n_child):
            c = &t.nodes[j]
            pi = c.colour * t.codespace + c.move
            if w.amaf_stamp[pi] == w.stamp and w.amaf_ply[pi] >= i:
                if sp.rave_child_max > 0 and c.visits > sp.rave_child_max + sp.prior_n:   # real visits
                    continue
                weight = <float>(1.0 - dist * (w.amaf_ply[pi] - i))
                if shared:
                    add_float(&c.rave_n, weight)
                    add_float(&c.rave_v, weight * <float>v[c.side])
                else:
                    c.rave_n += weight
                    c.rave_v += weight * <float>v[c.side]
    if shared:
        store_release(&t.sim_seq[w.id], seq + 1)   # even: out of the simulation


cdef int choice_settled(const Search* t, double margin) noexcept nogil:
    """1 if the root's most visited child leads every other child (and any not yet created,
    which have no visits) by more than ``margin`` visits, so that many more simulations cannot
    change the final choice; or if the root has a single legal move."""
    cdef const Node* r = &t.nodes[t.root]
    cdef int32_t i
    cdef float best = 0, second = 0, v
    if r.first < 0:
        return 0
    if r.n_legal == 1:
        return 1
    for i in range(r.first, r.first + r.n_child):
        v = t.nodes[i].visits
        if v > best:
            second = best
            best = v
        elif v > second:
            second = v
    return best - second > margin


cdef int choice_unsettled(const Search* t) noexcept nogil:
    """1 if a root child with at least a tenth of the most visited one's visits has a higher
    mean value than it: the search has not yet made up its mind (Huang, Coulom and Lin, *Time
    management for Monte-Carlo tree search applied to the game of Go*, 2010: searching on in
    such unstable positions is worth more than the time it takes from later moves)."""
    cdef const Node* r = &t.nodes[t.root]
    cdef int32_t i, best = -1
    cdef float bv = -1
    if r.first < 0 or r.n_legal <= 1:
        return 0
    for i in range(r.first, r.first + r.n_child):
        if t.nodes[i].visits > bv:
            bv = t.nodes[i].visits
            best = i
    for i in range(r.first, r.first + r.n_child):
        if (i != best and t.nodes[i].visits >= 0.1 * bv
                and t.nodes[i].value * bv > t.nodes[best].value * t.nodes[i].visits):
            return 1
    return 0


cdef int64_t run_search(const Config* cfg, const SearchParams* sp, Search* t, Worker* w,
                        const State* root, Rng* rng, int64_t max_playouts, double max_seconds) noexcept nogil:
    """One worker's simulations from ``root`` until ``max_playouts`` (if > 0; in a shared tree
    the simulations of all its workers count) or ``max_seconds`` (if > 0), or until ``t.halt``
    is set; returns how many this worker ran.  With a time budget and ``stop_early`` it also
    stops once the choice is settled (``choice_settled``), with the simulations the remaining
    time allows estimated from the root's visits per second so far, as Pentobi does; the time
    saved goes to later moves (``TimeBank``).  With ``extend`` it neither stops early nor at the
    end of its time while the choice is unsettled (``choice_unsettled``): it searches on for up
    to ``extend`` x its time more (once), which the later moves pay for."""
    cdef int64_t done = 0
    cdef double deadline = 0, start = 0, clock, rate
    cdef float visits0 = t.nodes[t.root].visits
    w.stopped = 0
    w.extended = 0
    if max_seconds > 0:
        start = now_seconds()
        deadline = start + max_seconds
    while True:
        if max_playouts > 0:
            if t.shared:
                if fetch_add(&t.claimed, 1) >= max_playouts:
                    break
            elif done >= max_playouts:
                break
        if max_seconds > 0 and (done & 7) == 0:
            clock = now_seconds()
            if clock >= deadline:
                if sp.extend > 0 and not w.extended and choice_unsettled(t):
                    w.extended = 1
                    deadline += sp.extend * max_seconds
                else:
                    break
            if sp.stop_early > 0 and (done & 31) == 0 and done > 0:
                rate = (t.nodes[t.root].visits - visits0) / (clock - start)
                if (choice_settled(t, sp.stop_early * rate * (deadline - clock))
                        and not (sp.extend > 0 and choice_unsettled(t))):
                    w.stopped = 1
                    break
        if read_flag(&t.halt):
            break
        if t.komi_side >= 0 and w.id == 0 and (done & 63) == 0:
            komi_adjust(t, sp)
        simulate_once(cfg, sp, t, w, root, rng)
        done += 1
        if max_playouts <= 0 and max_seconds <= 0:
            break
    carry_over(t, w, 1)
    return done


cdef int32_t best_root_child(Search* t) noexcept nogil:
    """The root's most visited child (ties: the better value); -1 if it has none."""
    cdef Node* r = &t.nodes[t.root]
    cdef int32_t i, best = -1
    cdef double bv = -1, bq = -1, q
    if r.first < 0:
        return -1
    for i in range(r.first, r.first + r.n_child):
        q = t.nodes[i].value / t.nodes[i].visits
        if t.nodes[i].visits > bv or (t.nodes[i].visits == bv and q > bq):
            bv = t.nodes[i].visits
            bq = q
            best = i
    return best


#: mcts parameter names in SearchParams order, with their defaults (the one table for C and Python)
SEARCH_PARAMS = (
    ("explore", 0.1), ("prior_n", 2.0), ("prior_lo", 0.3), ("prior_hi", 0.6), ("rave_k", 3000.0),
    ("score_weight", 0.3), ("score_scale", 10.0), ("widen_base", 3.0), ("widen", 1.0),
    ("playout_k", 3.0), ("expand_after", 1.0), ("w_own", 0.1), ("w_taken", 3.0), ("learned", 1.0),
    ("local", 3.0), ("centre_moves", 0.0), ("centre_radius", 2.0),
    ("centre_slack", 0.3), ("connect_moves", 0.0), ("lgr", 1.0),
    ("big_rounds", 2.0), ("big1_rounds", 3.0), ("big2_rounds", 5.0), ("cramped", 0.0), ("expand_inc", 0.0),
    ("stop_early", 0.5), ("endgame", 0.0), ("endgame_moves", 150.0), ("prior_rel", 0.1),
    ("quality", 0.0), ("length_weight", 0.0), ("local_cap", 0.0),
    ("komi", 0.0), ("komi_max", 20.0), ("komi_lo", 0.4), ("komi_min", 0.0), ("puct", 0.0),
    ("rave_dist", 0.0), ("rave_parent_max", 0.0), ("rave_child_max", 0.0), ("extend", 0.0),
)
assert len(SEARCH_PARAMS) <= MAXPARAMS


cdef void params_from(SearchParams* sp, values, weights) except *:
    """Search parameters (``SEARCH_PARAMS`` order) and the evaluation weights (``EVAL_FEATURES``
    order; needed only with ``learned`` = 1)."""
    cdef double v[MAXPARAMS]
    if len(values) != len(SEARCH_PARAMS):
        raise ValueError(f"{len(SEARCH_PARAMS)} search parameters expected")
    for i in range(len(SEARCH_PARAMS)):
        v[i] = float(values[i])
    sp.explore, sp.prior_n, sp.prior_lo, sp.prior_hi, sp.rave_k = v[0], v[1], v[2], v[3], v[4]
    sp.score_weight, sp.score_scale, sp.widen_base, sp.widen = v[5], v[6], v[7], v[8]
    sp.playout_k = <int32_t>v[9]
    sp.expand_after = <int32_t>v[10]
    sp.w_own = v[11]
    sp.w_taken = v[12]
    sp.learned = <int32_t>v[13]
    sp.local = <int32_t>v[14]
    sp.centre_moves = <int32_t>v[15]
    sp.centre_radius = v[16]
    sp.centre_slack = v[17]
    sp.connect_moves = <int32_t>v[18]
    sp.lgr = <int32_t>v[19]
    sp.big_rounds[0] = <int32_t>v[20]
    sp.big_rounds[1] = <int32_t>v[21]
    sp.big_rounds[2] = <int32_t>v[22]
    sp.cramped = <int32_t>v[23]
    sp.expand_inc = v[24]
    sp.stop_early = v[25]
    sp.endgame = v[26]
    sp.endgame_moves = <int32_t>v[27]
    sp.prior_rel = v[28]
    sp.quality = <int32_t>v[29]
    sp.length_weight = v[30]
    sp.local_cap = <int32_t>v[31]
    sp.komi = v[32]
    sp.komi_max = v[33]
    sp.komi_lo = v[34]
    sp.komi_min = v[35]
    sp.puct = v[36]
    sp.rave_dist = v[37]
    sp.rave_parent_max = v[38]
    sp.rave_child_max = v[39]
    sp.extend = v[40]
    if sp.learned:
        if weights is None or not NFEAT <= len(weights) <= NFEAT + MAXPIECES:
            raise ValueError(f"learned evaluation: {NFEAT} feature weights and at most {MAXPIECES} "
                             "piece weights expected")
        for i in range(NFEAT + MAXPIECES):
            sp.ew[i] = float(weights[i]) if i < len(weights) else 0.0


cdef void config_from(Config* cfg, int n_colours, player_of, counted, side_of, players) except *:
    """Fill ``cfg`` from the variant's tables and one strategy tuple per player:
    (kind, candidates, playouts, seconds, search parameter values[, evaluation weights[, the
    board's distances to its centre, per row and column (read only if ``centre_moves`` > 0)]])."""
    cdef int k, p, x, y, have_centre = 0
    memset(cfg, 0, sizeof(Config))
    cfg.n_players = len(players)
    cfg.n_sides = max(side_of) + 1
    for k in range(n_colours):
        cfg.player_of[k] = player_of[k]
        cfg.counted[k] = 1 if counted[k] else 0
    for p in range(cfg.n_players):
        kind, cand, sims, seconds, params = players[p][:5]
        weights = players[p][5] if len(players[p]) > 5 else None
        if not 0 <= kind < len(STRATEGY_NAMES):
            raise ValueError(f"unknown strategy kind {kind}")
        cfg.side_of[p] = side_of[p]
        cfg.kind[p] = kind
        cfg.cand[p] = max(1, cand)
        cfg.sims[p] = max(0, sims)
        cfg.seconds[p] = max(0.0, seconds)
        params_from(&cfg.sp[p], params if params is not None else [v for _, v in SEARCH_PARAMS], weights)
        if cfg.sp[p].centre_moves > 0 and not have_centre:
            centre = players[p][6] if len(players[p]) > 6 else None
            if centre is None or len(centre) > MAXHEIGHT:
                raise ValueError("centre_moves needs the board's distances to its centre, a row per board row")
            for y in range(len(centre)):
                if len(centre[y]) > 64:
                    raise ValueError("centre distances: more than 64 columns")
                for x in range(len(centre[y])):
                    cfg.centre[y * 64 + x] = float(centre[y][x])
            have_centre = 1


include "blokus_endgame.pxi"


cdef struct Workspace:
    move_t* moves           # the legal moves of the decision
    move_t* buf             # playouts of mc
    int64_t* keys           # mc candidate ordering
    Search tree             # mcts (allocated on first use) ...
    Worker worker           # ... with its one worker
    int32_t tree_nodes      # node capacity used when the tree is allocated
    int32_t codespace       # move codes of the board played
    Endgame eg              # the exact endgame search (allocated on first use)


cdef int workspace_alloc(Workspace* ws, int32_t tree_nodes, int32_t codespace) noexcept nogil:
    memset(ws, 0, sizeof(Workspace))
    ws.moves = <move_t*>malloc(MAXLIST * sizeof(move_t))
    ws.buf = <move_t*>malloc(MAXLIST * sizeof(move_t))
    ws.keys = <int64_t*>malloc(MAXLIST * sizeof(int64_t))
    ws.tree_nodes = tree_nodes
    ws.codespace = codespace
    return 1 if ws.moves and ws.buf and ws.keys else 0


cdef void workspace_free(Workspace* ws) noexcept nogil:
    cfree(ws.moves)
    cfree(ws.buf)
    cfree(ws.keys)
    if ws.tree.nodes:
        search_free(&ws.tree)
        worker_free(&ws.worker)
    endgame_free(&ws.eg)


cdef int choose_index(const Config* cfg, const State* s, int k, move_t* moves, int n, Rng* rng,
                      Workspace* ws) noexcept nogil:
    """Index in ``moves`` (the ``n`` legal moves of colour k) of the move the player moving k
    plays: the one decision function behind self-play and the move-choice API."""
    cdef int p = mover_of(cfg, s, k)
    cdef int i, best
    cdef int32_t ci
    cdef int won
    cdef double seconds
    if cfg.kind[p] == STRAT_GREEDY:
        return choose_greedy(cfg, s, k, moves, n, rng)
    if cfg.kind[p] == STRAT_MC:
        return choose_mc(cfg, s, k, moves, n, rng, ws.buf, ws.keys)
    if cfg.kind[p] == STRAT_MCTS:
        if n == 1:
            return 0
        if not ws.tree.nodes:
            if not search_alloc(&ws.tree, ws.tree_nodes, ws.codespace):
                return choose_greedy(cfg, s, k, moves, n, rng)
            if not worker_alloc(&ws.worker, ws.codespace):
                search_free(&ws.tree)
                return choose_greedy(cfg, s, k, moves, n, rng)
        seconds = cfg.seconds[p]
        if endgame_first(cfg, &cfg.sp[p], &ws.eg, s, cfg.sims[p], &seconds, NULL, &ci, &won):
            for i in range(n):
                if <int32_t>moves[i] == ci:
                    return i
        search_reset(&ws.tree)
        lgr_clear(&ws.tree, s.n_colours)
        root_values_init(&ws.tree, cfg.n_sides)
        komi_start(&ws.tree, &cfg.sp[p], cfg, s, cfg.side_of[p])
        run_search(cfg, &cfg.sp[p], &ws.tree, &ws.worker, s, rng, cfg.sims[p], seconds)
        ci = best_root_child(&ws.tree)
        if ci >= 0:
            best = ws.tree.nodes[ci].move
            for i in range(n):
                if <int>moves[i] == best:
                    return i
        return choose_greedy(cfg, s, k, moves, n, rng)
    return rng_below(rng, <uint32_t>n)


def tree_nodes_for(players, int threads=1) -> int:
    """Node capacity for the largest search of ``players`` (each simulation expands at most one
    node; children are added a few at a time; a time budget is taken as up to 50,000 playouts/s
    per thread)."""
    most = 1
    for kind, cand, sims, seconds, *_ in players:
        if kind == STRAT_MCTS:
            most = max(most, sims, int(seconds * 50_000 * threads) + 1)
    return int(min(most * 24 + 4 * MAXCHILD, MAXNODES))


def simulate_block(Position start, player_of, counted, side_of, players,
                   uint64_t seed, int n_games, int n_record=0, bint want_cells=False) -> dict:
    """Play ``n_games`` games from ``start`` with a strategy per player; per-game results.

    ``players``: per player (kind, candidates, playouts, seconds, search parameters or None).
    Returns numpy arrays: ``scores`` (games x colours), ``all_placed`` (games x colours),
    ``length`` (placements), ``listed`` (legal moves listed on the decisions), ``decisions``,
    for the first ``n_record`` games ``record`` (colour << RECORD_COLOUR_SHIFT | move code, -1
    padded) and, with
    ``want_cells``, ``cells`` (games x colours x rows: the cells each colour covers at the end,
    bit x of a row = column x; otherwise an empty array).
    """
    cdef Config cfg
    cdef State s
    cdef Rng rng
    cdef Workspace ws
    cdef int g, k, n, idx, i, nc = start.s.n_colours
    config_from(&cfg, nc, player_of, counted, side_of, players)
    n_record = max(0, min(n_record, n_games))
    scores = np.zeros((n_games, nc), dtype=np.int32)
    all_placed = np.zeros((n_games, nc), dtype=np.int8)
    length = np.zeros(n_games, dtype=np.int32)
    listed = np.zeros(n_games, dtype=np.int64)
    decisions = np.zeros(n_games, dtype=np.int32)
    record = np.full((max(n_record, 1), MAXPLIES), -1, dtype=np.int32)
    cdef int32_t[:, ::1] sv = scores
    cdef int8_t[:, ::1] av = all_placed
    cdef int32_t[::1] lv = length
    cdef int64_t[::1] liv = listed
    cdef int32_t[::1] dv = decisions
    cdef int32_t[:, ::1] rv = record
    cells = np.zeros((n_games if want_cells else 0, nc, start.s.height), dtype=np.uint64)
    cdef uint64_t[:, :, ::1] cv = cells
    cdef uint64_t occ[MAXCOLOURS][MAXROWS]
    rng_seed(&rng, seed)
    if not workspace_alloc(&ws, tree_nodes_for(players), code_space(&start.s)):
        workspace_free(&ws)
        raise MemoryError()
    cdef move_t* buf = ws.moves
    try:
        with nogil:
            for g in range(n_games):
                memcpy(&s, &start.s, sizeof(State))
                memset(occ, 0, sizeof(occ))
                while s.n_out < s.n_colours:
                    k = s.to_play
                    if not s.c[k].out:
                        n = gen_moves(&s, k, buf)
                        if n == 0:
                            s.c[k].out = 1
                            s.n_out += 1
                        else:
                            liv[g] += n
                            dv[g] += 1
                            idx = choose_index(&cfg, &s, k, buf, n, &rng, &ws)
                            if g < n_record and s.n_placed < MAXPLIES:
                                rv[g, s.n_placed] = (k << RECORD_SHIFT) | buf[idx]
                            if want_cells:
                                add_cells(&s, occ[k], buf[idx])
                            do_move(&cfg, &s, k, buf[idx])
                    advance(&s)
                lv[g] = s.n_placed - start.s.n_placed
                for k in range(nc):
                    sv[g, k] = colour_score(&s, k)
                    av[g, k] = 1 if s.c[k].left == 0 else 0
                    if want_cells:
                        for i in range(s.height):
                            cv[g, k, i] = occ[k][i]
    finally:
        workspace_free(&ws)
    return {"scores": scores, "all_placed": all_placed, "length": length, "listed": listed,
            "decisions": decisions, "record": record[:n_record], "cells": cells}


cdef inline void add_cells(const State* s, uint64_t* rows, int code) noexcept nogil:
    """Set the cells of placement ``code`` in the row bitboards ``rows`` (simulate_block's cells)."""
    cdef const PieceTables* T = tables(s)
    cdef int o, r, c, i
    decode(s, code, &o, &r, &c)
    for i in range(T.o_h[o]):
        rows[r + i] |= T.o_rows[o][i] << c


def choose(Position pos, int colour, player_of, counted, side_of, players, uint64_t seed) -> int:
    """Code of the move the player moving ``colour`` plays in ``pos`` (-1: the colour has no
    move), by the same decision function as self-play (``players`` as in ``simulate_block``)."""
    cdef Config cfg
    cdef Rng rng
    cdef Workspace ws
    cdef int n, idx = -1
    pos._check_colour(colour)
    config_from(&cfg, pos.s.n_colours, player_of, counted, side_of, players)
    rng_seed(&rng, seed)
    if not workspace_alloc(&ws, tree_nodes_for(players), code_space(&pos.s)):
        workspace_free(&ws)
        raise MemoryError()
    try:
        with nogil:
            n = gen_moves(&pos.s, colour, ws.moves)
            if n > 0:
                idx = choose_index(&cfg, &pos.s, colour, ws.moves, n, &rng, &ws)
        code = ws.moves[idx] if idx >= 0 else -1
    finally:
        workspace_free(&ws)
    return code


cdef int32_t find_child(Search* t, int32_t ni, int colour, int code) noexcept nogil:
    cdef Node* nd = &t.nodes[ni]
    cdef int32_t i
    if nd.first < 0:
        return -1
    for i in range(nd.first, nd.first + nd.n_child):
        if t.nodes[i].colour == colour and t.nodes[i].move == code:
            return i
    return -1


cdef int keep_subtree(Search* t, int32_t ni) noexcept nogil:
    """Make node ``ni`` the root, keeping its subtree and freeing the rest of the pool (the
    subtree is copied breadth first into a new pool, children stay contiguous); 0 if out of
    memory (the tree is then left as it was)."""
    cdef Node* fresh = <Node*>malloc(t.cap * sizeof(Node))
    cdef int32_t* origin = <int32_t*>malloc(t.cap * sizeof(int32_t))
    cdef int32_t used = 1, j = 0, i, old
    if not fresh or not origin:
        cfree(fresh)
        cfree(origin)
        return 0
    fresh[0] = t.nodes[ni]
    origin[0] = ni
    while j < used:
        old = origin[j]
        if t.nodes[old].first >= 0:
            fresh[j].first = used
            for i in range(t.nodes[old].n_child):
                fresh[used + i] = t.nodes[t.nodes[old].first + i]
                origin[used + i] = t.nodes[old].first + i
            used += t.nodes[old].n_child
        j += 1
    cfree(t.nodes)
    cfree(origin)
    t.nodes = fresh
    t.used = used
    t.root = 0
    t.nodes[0].side = -1
    return 1


#: most threads searching one tree at once
MAX_THREADS = MAXTHREADS
#: the most nodes a tree may hold (``tree_nodes_for``, ``Searcher.reserve``)
MAX_NODES = MAXNODES


cdef class Searcher:
    """A Monte Carlo tree search that keeps its tree between moves (tree reuse).

    ``search`` runs simulations from a position for one colour's player and returns the root's
    candidates; between two searches of one game, ``advance`` descends the tree along the moves
    played since, so the statistics of the reached subtree are kept.  The search loop runs in C
    without the GIL: with ``threads`` > 1 several threads search the one tree at once (tree
    parallelism, ``simulate_once``), and separate Searchers can run in threads side by side.
    """

    cdef Search t
    cdef Worker workers[MAXTHREADS]
    cdef int n_workers         # workers allocated so far
    cdef State root            # the position being searched (read by every worker)
    cdef Endgame eg            # the exact endgame search (allocated on first use)
    cdef Config cfg
    cdef int player
    cdef int codespace

    def __cinit__(self, Position board, player_of, counted, side_of, players, int player,
                  int32_t capacity=0):
        """``board``: any position of the game searched (its board and colours set the tables)."""
        config_from(&self.cfg, board.s.n_colours, player_of, counted, side_of, players)
        if not 0 <= player < self.cfg.n_players:
            raise ValueError("player out of range")
        self.player = player
        self.codespace = code_space(&board.s)
        self.n_workers = 0
        if capacity <= 0:
            capacity = tree_nodes_for(players)
        if not search_alloc(&self.t, capacity, self.codespace):
            raise MemoryError()
        search_reset(&self.t)
        self._workers(1)

    def __dealloc__(self):
        cdef int i
        search_free(&self.t)
        endgame_free(&self.eg)
        for i in range(self.n_workers):
            worker_free(&self.workers[i])

    def _workers(self, int n):
        """Allocate workers up to ``n``."""
        while self.n_workers < n:
            if not worker_alloc(&self.workers[self.n_workers], self.codespace):
                raise MemoryError()
            self.workers[self.n_workers].id = self.n_workers
            self.n_workers += 1

    def clear(self):
        """Forget the tree."""
        search_reset(&self.t)

    def halt(self, bint on=True):
        """Make a ``search`` running in another thread return after its current simulation
        (pondering ends this way), and keep later searches from starting until ``halt(False)``."""
        self.t.halt = 1 if on else 0

    def advance(self, moves) -> bool:
        """Descend along ``moves`` ((colour, code) pairs played since the last search's root);
        True if the subtree reached is kept, False if the tree was cleared."""
        cdef int32_t ni = self.t.root
        for colour, code in moves:
            ni = find_child(&self.t, ni, colour, code)
            if ni < 0:
                search_reset(&self.t)
                return False
        if ni != self.t.root and not keep_subtree(&self.t, ni):
            search_reset(&self.t)
            return False
        return True

    @property
    def nodes_used(self) -> int:
        return self.t.used

    @property
    def capacity(self) -> int:
        """Nodes the pool has room for."""
        return self.t.cap

    def reserve(self, int64_t capacity) -> None:
        """Grow the node pool to room for ``capacity`` nodes (at most ``MAX_NODES``) if it has
        less, keeping the tree: a search whose pool is full can no longer expand its nodes.  It
        grows at least twofold, so a pool asked for a little more at every move moves seldom.
        Not while a search runs (the pool moves)."""
        cdef Node* grown
        if capacity <= self.t.cap:
            return
        if capacity < 2 * <int64_t>self.t.cap:
            capacity = 2 * <int64_t>self.t.cap
        if capacity > MAXNODES:
            capacity = MAXNODES
        if capacity <= self.t.cap:
            return
        grown = <Node*>realloc(self.t.nodes, capacity * sizeof(Node))
        if grown == NULL:
            raise MemoryError()
        self.t.nodes = grown
        self.t.cap = <int32_t>capacity

    def problems(self) -> list:
        """What is wrong with the tree's structure, for the tests (empty if nothing): every
        child block inside the pool, no node left locked, no node with fewer visits than its
        prior gave it, no node below the root with children before the visits its depth asks
        for (``expand_after`` + ``expand_inc`` x depth, over the prior's)."""
        cdef int32_t i, j, d, n = self.t.used
        cdef Node* nd
        cdef const SearchParams* sp = &self.cfg.sp[self.player]
        found = []
        stack = [(self.t.root, 0)]
        while stack and len(found) < 10:
            i, d = stack.pop()
            nd = &self.t.nodes[i]
            if nd.busy:
                found.append(f"node {i} is still locked")
            if i != self.t.root and nd.visits < sp.prior_n:
                found.append(f"node {i} has {nd.visits} visits, below the prior's {sp.prior_n}")
            if nd.first >= 0:
                if nd.first < 1 or nd.first + nd.n_child > n or nd.n_child > nd.n_legal:
                    found.append(f"node {i}: children {nd.first}+{nd.n_child} (legal {nd.n_legal}) "
                                 f"outside the pool of {n}")
                    continue
                if i != self.t.root and nd.visits < sp.prior_n + sp.expand_after + sp.expand_inc * d:
                    found.append(f"node {i} at depth {d} has children after only {nd.visits} visits")
                for j in range(nd.first, nd.first + nd.n_child):
                    stack.append((j, d + 1))
        return found

    def _work(self, int i, uint64_t seed, int64_t playouts, double seconds):
        """Worker ``i``'s share of a ``search`` (run in a thread of its own)."""
        cdef Rng rng
        if not 0 <= i < self.n_workers:
            raise IndexError(f"no worker {i}")
        rng_seed(&rng, seed)
        with nogil:
            run_search(&self.cfg, &self.cfg.sp[self.player], &self.t, &self.workers[i], &self.root,
                       &rng, playouts, seconds)

    def select_root(self) -> tuple:
        """(colour, code) of the root child the next simulation would descend to (``select_child``),
        for the tests of the selection rule; None before the root has children."""
        cdef Node* r = &self.t.nodes[self.t.root]
        if r.first < 0 or r.n_child == 0:
            return None
        cdef Node* c = &self.t.nodes[select_child(&self.cfg.sp[self.player], &self.t, self.t.root)]
        return c.colour, c.move

    def choice_unsettled(self) -> bool:
        """Whether the root's choice counts as unsettled now (``choice_unsettled``: what decides
        an ``extend``), for the tests of that rule."""
        return bool(choice_unsettled(&self.t))

    def traced_search(self, Position pos, uint64_t seed, int64_t playouts) -> tuple:
        """``search`` on one thread for the tests, also returning every simulation's
        placements in order, as (placements made in the tree, [(colour, code), ...])."""
        cdef Worker* w = &self.workers[0]
        cdef int64_t i = 0, n, tree_n
        if not 0 < playouts <= 100000:
            raise ValueError("a traced search needs a playout budget of 1 to 100,000")
        w.trace_cap = playouts * (2 + 2 * MAXSEQ)
        w.trace = <int32_t*>malloc(w.trace_cap * sizeof(int32_t))
        if w.trace == NULL:
            raise MemoryError()
        w.trace_len = 0
        try:
            result = self.search(pos, seed, playouts, 0.0)
            sims = []
            while i < w.trace_len:
                tree_n, n = w.trace[i], w.trace[i + 1]
                sims.append((tree_n, [(w.trace[i + 2 + 2 * j], w.trace[i + 3 + 2 * j]) for j in range(n)]))
                i += 2 + 2 * n
        finally:
            cfree(w.trace)
            w.trace = NULL
        return result, sims

    def last_good_reply(self, int colour, int last, int second=-1) -> int:
        """The reply stored for ``colour`` to the placement codes ``last`` (and ``second``
        before it; -1: the reply to ``last`` alone), -1 if none: for the tests."""
        if not (0 <= colour < MAXCOLOURS and 0 <= last < self.codespace and -1 <= second < self.codespace):
            raise ValueError("colour or code out of range")
        if second < 0:
            return self.t.lgr1[colour * self.codespace + last]
        return lgr2_slot(&self.t, colour, last, second)[0]

    def reply_slot(self, int colour, int last, int second) -> int:
        """Where the reply to the pair (``last``, ``second``) is kept in the hash table of pairs
        (two pairs may share a slot, the later one replacing the earlier): for the tests."""
        if not (0 <= colour < MAXCOLOURS and 0 <= last < self.codespace and 0 <= second < self.codespace):
            raise ValueError("colour or code out of range")
        return lgr2_slot(&self.t, colour, last, second) - self.t.lgr2

    def search(self, Position pos, uint64_t seed, int64_t playouts, double seconds,
               int threads=1) -> dict:
        """Simulations from ``pos`` (colour to play: ``pos.to_play``, passes skipped) until the
        budget is spent, by ``threads`` threads in the one tree (with several, the playout
        budget is shared and the result is not reproducible: it depends on how the threads
        interleave); returns ``{"playouts", "listed", "root_visits", "stopped_early", "extended",
        "komi", "children", "priors"}`` (``stopped_early``: a time budget ended early, ``stop_early``;
        ``extended``: it ran on past its time, ``extend``; ``komi``: the
        searching side's dynamic komi at the end, 0 if off) with the
        root's children as (colour, code, visits, value, RAVE visits, RAVE value) in the tree's
        order (by prior); visits without the prior's virtual ones, the value with them; ``priors``
        the children's softmax shares (``prior_p``, 0 unless ``puct``) in the same order.
        With ``endgame`` (two sides) a small enough position is first searched to its end
        (``endgame_move``); if that proves it won or drawn for the mover, no simulations are run
        and the result also holds ``"solved": (colour, code, 1 won / 0 drawn, positions
        visited)``; otherwise the tree search gets the time the endgame search left."""
        cdef int32_t i, code = -1
        cdef int solved = 0, result = 0
        cdef Node* c
        cdef SearchParams* sp = &self.cfg.sp[self.player]
        if not 1 <= threads <= MAXTHREADS:
            raise ValueError(f"threads must be from 1 to {MAXTHREADS}")
        self._workers(threads)
        memcpy(&self.root, &pos.s, sizeof(State))
        for i in range(threads):
            self.workers[i].playouts = 0
            self.workers[i].listed = 0
        with nogil:
            skip_passes(&self.root)
            lgr_clear(&self.t, self.root.n_colours)
            root_values_init(&self.t, self.cfg.n_sides)
            komi_start(&self.t, sp, &self.cfg, &self.root, self.cfg.side_of[self.player])
        with nogil:
            solved = endgame_first(&self.cfg, sp, &self.eg, &self.root, playouts, &seconds,
                                   &self.t.halt, &code, &result)
        if solved:
            return {"playouts": 0, "listed": 0, "root_visits": self.t.nodes[self.t.root].visits,
                    "stopped_early": False, "extended": False, "children": [],
                    "solved": (self.root.to_play, code, result, self.eg.nodes)}
        if threads == 1:
            self._work(0, seed, playouts, seconds)
        else:
            self.t.shared = 1
            self.t.claimed = 0
            self.t.n_active = threads
            memset(self.t.sim_seq, 0, sizeof(self.t.sim_seq))   # all even between searches
            helpers = [threading.Thread(target=self._work,
                                        args=(i, (seed + 0x9E3779B97F4A7C15 * i) & 0xFFFFFFFFFFFFFFFF,
                                              playouts, seconds))
                       for i in range(1, threads)]
            try:
                for h in helpers:
                    h.start()
                self._work(0, seed, playouts, seconds)
            finally:
                for h in helpers:
                    h.join()
                self.t.shared = 0
        children = []
        r = &self.t.nodes[self.t.root]
        if r.first >= 0:
            for i in range(r.first, r.first + r.n_child):
                c = &self.t.nodes[i]
                real = c.visits - sp.prior_n
                children.append((c.colour, c.move, real, c.value / c.visits,
                                 c.rave_n, c.rave_v / c.rave_n if c.rave_n > 0 else float("nan")))
        return {"playouts": sum(self.workers[i].playouts for i in range(threads)),
                "listed": sum(self.workers[i].listed for i in range(threads)),
                "root_visits": r.visits,
                "stopped_early": any(self.workers[i].stopped for i in range(threads)),
                "extended": any(self.workers[i].extended for i in range(threads)),
                "komi": self.t.komi[self.t.komi_side] if self.t.komi_side >= 0 else 0.0,
                "children": children,
                "priors": [self.t.nodes[i].prior_p for i in range(r.first, r.first + r.n_child)]
                          if r.first >= 0 else []}
