# cython: language_level=3
"""Blokus move generation on bitboards, playouts and self-play, all in C.

Board: one 64-bit word per row (bit x = column x), rows from the bottom, padded with zero rows
above the board, so a rectangular board up to 62 columns and 24 rows fits (Trigon's board can be
mapped onto such a grid of triangles later; only the neighbour masks change).

Per colour the engine keeps two bitboards:

* ``free``: cells where a piece of this colour may lie (on the board, empty, not edge-adjacent to
  this colour);
* ``attach``: free cells corner-adjacent to this colour (before its first move: its start cells).

A placement is an orientation ``o`` anchored with its lowest-leftmost bounding box corner at
column ``c``, row ``r``; it is legal iff every cell is free and at least one is an attach cell.
For one orientation and one anchor row the set of legal columns is computed for all columns at
once::

    legal = AND over cells (free[r + dy] >> dx)  &  OR over cells (attach[r + dy] >> dx)

Only rows within reach of an attach cell are looked at, pieces already placed are skipped.  A
move is the small integer ``code = (o * height + r) * width + c``.
"""

from libc.stdint cimport uint64_t, uint32_t, uint16_t, int32_t, int64_t, int8_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free as cfree
from rng cimport Rng, rng_seed, rng_next, rng_below

import numpy as np

from solver.blokus.pieces import PIECES


cdef extern from *:
    """
    static inline int blk_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int blk_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    """
    int blk_ctz(unsigned long long x) nogil
    int blk_popcount(unsigned long long x) nogil


DEF MAXROWS = 32
DEF NPIECES = 21
DEF MAXORIENT = 96
DEF MAXCELLS = 5
DEF MAXCOLOURS = 4
DEF MAXLIST = 32768

DEF MAXPLIES = 128

# ---------------------------------------------------------------- orientation tables (global)
cdef int n_orient = 0
cdef int o_piece[MAXORIENT]
cdef int o_ncells[MAXORIENT]
cdef int o_w[MAXORIENT]
cdef int o_h[MAXORIENT]
cdef int o_dx[MAXORIENT][MAXCELLS]
cdef int o_dy[MAXORIENT][MAXCELLS]
cdef uint64_t o_rows[MAXORIENT][MAXCELLS]       # cell rows, bit dx
cdef int o_roff[MAXORIENT][MAXCELLS]             # row i: pattern * MAXROWS + i (see scan)
cdef int o_rsh[MAXORIENT][MAXCELLS]              # row i: column of its leftmost cell
cdef uint64_t o_halo[MAXORIENT][MAXCELLS + 2]   # cells + edge neighbours, rows -1..h, bit dx + 1
cdef uint64_t o_diag[MAXORIENT][MAXCELLS + 2]   # corner-only neighbours, rows -1..h, bit dx + 1
cdef int p_size[NPIECES]
cdef int p_first[NPIECES]
cdef int p_count[NPIECES]
cdef int monomino = 0

#: Python view of the orientation table: (piece index, cells) per orientation index
ORIENTATIONS = []


#: the row shapes of all orientations, leftmost cell at 0 (scan precomputes each one per row)
ROW_PATTERNS = [(0,), (0, 1), (0, 1, 2), (0, 1, 2, 3), (0, 1, 2, 3, 4), (0, 2)]


def _build_tables():
    global n_orient, monomino
    cdef int o = 0, i, x, y
    for piece in PIECES:
        p_size[piece.index] = piece.size
        p_first[piece.index] = o
        p_count[piece.index] = len(piece.orientations)
        if piece.size == 1:
            monomino = piece.index
        for shape in piece.orientations:
            cells = set(shape)
            o_piece[o] = piece.index
            o_ncells[o] = len(shape)
            o_w[o] = max(c[0] for c in shape) + 1
            o_h[o] = max(c[1] for c in shape) + 1
            for i in range(MAXCELLS):
                o_rows[o][i] = 0
            for i in range(MAXCELLS + 2):
                o_halo[o][i] = 0
                o_diag[o][i] = 0
            for i, (x, y) in enumerate(shape):
                o_dx[o][i] = x
                o_dy[o][i] = y
                o_rows[o][y] |= (<uint64_t>1) << x
            for i in range(o_h[o]):
                xs = sorted(x for (x, y) in shape if y == i)
                pattern = tuple(x - xs[0] for x in xs)
                o_roff[o][i] = ROW_PATTERNS.index(pattern) * MAXROWS + i
                o_rsh[o][i] = xs[0]
            for i in range(o_h[o], MAXCELLS):
                o_roff[o][i] = o_roff[o][0]   # unused rows repeat row 0
                o_rsh[o][i] = o_rsh[o][0]
            halo = set()
            for (x, y) in cells:
                for (a, b) in ((x, y), (x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                    halo.add((a, b))
            for (a, b) in halo:
                o_halo[o][b + 1] |= (<uint64_t>1) << (a + 1)
            for (x, y) in cells:
                for (a, b) in ((x - 1, y - 1), (x + 1, y - 1), (x - 1, y + 1), (x + 1, y + 1)):
                    if (a, b) not in halo:
                        o_diag[o][b + 1] |= (<uint64_t>1) << (a + 1)
            ORIENTATIONS.append((piece.index, tuple(shape)))
            o += 1
    n_orient = o


_build_tables()

# ---------------------------------------------------------------- game state


cdef struct ColourState:
    uint64_t free[MAXROWS]
    uint64_t attach[MAXROWS]
    uint32_t left          # bit p set: piece p not yet placed
    int32_t placed         # pieces placed
    int32_t squares_left
    int32_t last_piece     # index of the piece placed last (-1: none)
    int32_t out            # 1 once the colour is known to have no move (it never gets one again)


cdef struct State:
    ColourState c[MAXCOLOURS]
    int32_t n_colours
    int32_t width
    int32_t height
    int32_t to_play        # colour whose turn it is (it may have to pass)
    int32_t n_out
    int32_t rot_count      # placements by the rotating colour (classic-3's green)
    int32_t n_placed


cdef inline void decode(const State* s, int code, int* o, int* r, int* c) noexcept nogil:
    cdef int hw = s.height * s.width
    o[0] = code // hw
    cdef int rem = code - o[0] * hw
    r[0] = rem // s.width
    c[0] = rem - r[0] * s.width


cdef int scan(const State* s, int k, uint16_t* out, int stop_at_first) noexcept nogil:
    """Legal placements of colour k written to ``out`` (their number); with ``stop_at_first``
    only whether there is one (0 or 1, nothing written).

    Rows are packed ``per`` to a 64-bit word with stride ``width`` (3 rows of 20, 4 of 14), so
    one shift-and-AND tests ``per`` anchor rows at once; a bit's position in the word is then
    exactly the move code's offset from ``(o * height + r0) * width``.  Anchors whose piece would
    stick out on the right read the next packed row, so a per-width mask keeps only columns
    ``c <= width - w``.  Every row of every orientation is one of six shapes (``ROW_PATTERNS``),
    so "all cells of this row free" / "some cell of it an attach cell" are precomputed per shape
    and board row, and an orientation costs one shift per row instead of one per cell.
    """
    cdef const ColourState* cs = &s.c[k]
    cdef int H = s.height, W = s.width
    cdef int per = 64 // W
    cdef uint32_t ar = 0
    cdef int r, j, h, p, o, oend, base, r0, nrows
    cdef int f0, f1, f2, f3, f4, s0, s1, s2, s3, s4
    cdef uint64_t a, rowmask, vmask, x
    cdef uint64_t fp[6 * MAXROWS]
    cdef uint64_t ap[6 * MAXROWS]
    cdef uint64_t valid[6]
    cdef uint32_t rm[6]
    cdef uint32_t rows, left, group
    cdef uint16_t* w = out
    cdef int nb
    cdef uint64_t top = (<uint64_t>1) << 63
    for r in range(H):
        if cs.attach[r]:
            ar |= (<uint32_t>1) << r
    if ar == 0:
        return 0
    if per > 4:
        per = 4
    rm[0] = 0
    rm[1] = ar
    for h in range(2, 6):
        rm[h] = rm[h - 1] | (ar >> (h - 1))
    for h in range(1, 6):
        rm[h] &= ((<uint32_t>1) << (H - h + 1)) - 1
        rowmask = ((<uint64_t>1) << (W - h + 1)) - 1 if W >= h else 0
        valid[h] = 0
        for j in range(per):
            valid[h] |= rowmask << (j * W)
    for r in range(H + 4):
        x = 0
        a = 0
        for j in range(per):
            x |= cs.free[r + j] << (j * W)
            a |= cs.attach[r + j] << (j * W)
        fp[r] = x
        fp[MAXROWS + r] = x & (x >> 1)
        fp[2 * MAXROWS + r] = fp[MAXROWS + r] & (x >> 2)
        fp[3 * MAXROWS + r] = fp[2 * MAXROWS + r] & (x >> 3)
        fp[4 * MAXROWS + r] = fp[3 * MAXROWS + r] & (x >> 4)
        fp[5 * MAXROWS + r] = x & (x >> 2)
        ap[r] = a
        ap[MAXROWS + r] = a | (a >> 1)
        ap[2 * MAXROWS + r] = ap[MAXROWS + r] | (a >> 2)
        ap[3 * MAXROWS + r] = ap[2 * MAXROWS + r] | (a >> 3)
        ap[4 * MAXROWS + r] = ap[3 * MAXROWS + r] | (a >> 4)
        ap[5 * MAXROWS + r] = a | (a >> 2)
    group = ((<uint32_t>1) << per) - 1
    left = cs.left
    while left:
        p = blk_ctz(left)
        left &= left - 1
        o = p_first[p]
        oend = o + p_count[p]
        while o < oend:
            nrows = o_h[o]
            rows = rm[nrows]
            f0 = o_roff[o][0]
            f1 = o_roff[o][1]
            f2 = o_roff[o][2]
            f3 = o_roff[o][3]
            f4 = o_roff[o][4]
            s0 = o_rsh[o][0]
            s1 = o_rsh[o][1]
            s2 = o_rsh[o][2]
            s3 = o_rsh[o][3]
            s4 = o_rsh[o][4]
            vmask = valid[o_w[o]]
            while rows:
                r0 = blk_ctz(rows)
                rows &= ~(group << r0)
                if nrows == 1:
                    a = (ap[r0 + f0] >> s0) & (fp[r0 + f0] >> s0)
                elif nrows == 2:
                    a = (((ap[r0 + f0] >> s0) | (ap[r0 + f1] >> s1))
                         & (fp[r0 + f0] >> s0) & (fp[r0 + f1] >> s1))
                elif nrows == 3:
                    a = (((ap[r0 + f0] >> s0) | (ap[r0 + f1] >> s1) | (ap[r0 + f2] >> s2))
                         & (fp[r0 + f0] >> s0) & (fp[r0 + f1] >> s1) & (fp[r0 + f2] >> s2))
                elif nrows == 4:
                    a = (((ap[r0 + f0] >> s0) | (ap[r0 + f1] >> s1) | (ap[r0 + f2] >> s2)
                          | (ap[r0 + f3] >> s3))
                         & (fp[r0 + f0] >> s0) & (fp[r0 + f1] >> s1) & (fp[r0 + f2] >> s2)
                         & (fp[r0 + f3] >> s3))
                else:
                    a = (((ap[r0 + f0] >> s0) | (ap[r0 + f1] >> s1) | (ap[r0 + f2] >> s2)
                          | (ap[r0 + f3] >> s3) | (ap[r0 + f4] >> s4))
                         & (fp[r0 + f0] >> s0) & (fp[r0 + f1] >> s1) & (fp[r0 + f2] >> s2)
                         & (fp[r0 + f3] >> s3) & (fp[r0 + f4] >> s4))
                a &= vmask
                if stop_at_first:
                    if a:
                        return 1
                    continue
                # branch-free listing of up to four moves (garbage past the count is overwritten)
                base = (o * H + r0) * W
                nb = blk_popcount(a)
                w[0] = <uint16_t>(base + blk_ctz(a | top))
                a &= a - 1
                w[1] = <uint16_t>(base + blk_ctz(a | top))
                a &= a - 1
                w[2] = <uint16_t>(base + blk_ctz(a | top))
                a &= a - 1
                w[3] = <uint16_t>(base + blk_ctz(a | top))
                a &= a - 1
                if nb > 4:
                    w += 4
                    while a:
                        w[0] = <uint16_t>(base + blk_ctz(a))
                        w += 1
                        a &= a - 1
                else:
                    w += nb
            o += 1
    return <int>(w - out)


cdef inline int gen_moves(const State* s, int k, uint16_t* out) noexcept nogil:
    """All legal placements of colour k, written to out; returns their number."""
    return scan(s, k, out, 0)


cdef inline int has_move(const State* s, int k) noexcept nogil:
    """1 if colour k has a legal placement (stops at the first one found)."""
    return scan(s, k, NULL, 1)


cdef int is_legal(const State* s, int k, int code) noexcept nogil:
    """1 if placement ``code`` is legal for colour k."""
    cdef int o, r, c, i, hit = 0
    if code < 0 or code >= n_orient * s.height * s.width:
        return 0
    decode(s, code, &o, &r, &c)
    if not (s.c[k].left >> o_piece[o]) & 1:
        return 0
    if r + o_h[o] > s.height or c + o_w[o] > s.width:
        return 0
    for i in range(o_ncells[o]):
        if not (s.c[k].free[r + o_dy[o][i]] >> (c + o_dx[o][i])) & 1:
            return 0
        if (s.c[k].attach[r + o_dy[o][i]] >> (c + o_dx[o][i])) & 1:
            hit = 1
    return hit


cdef void play(State* s, int k, int code) noexcept nogil:
    """Place ``code`` for colour k (assumed legal) and update every colour's bitboards."""
    cdef int o, r, c, i, j, row, h
    cdef uint64_t m
    cdef ColourState* cs = &s.c[k]
    decode(s, code, &o, &r, &c)
    h = o_h[o]
    if cs.placed == 0:
        memset(cs.attach, 0, sizeof(cs.attach))
    for i in range(h):
        m = ~(o_rows[o][i] << c)
        for j in range(s.n_colours):
            s.c[j].free[r + i] &= m
            s.c[j].attach[r + i] &= m
    for i in range(h + 2):
        row = r - 1 + i
        if row < 0:
            continue
        cs.free[row] &= ~((o_halo[o][i] << c) >> 1)
        cs.attach[row] = (cs.attach[row] | ((o_diag[o][i] << c) >> 1)) & cs.free[row]
    cs.left &= ~((<uint32_t>1) << o_piece[o])
    cs.placed += 1
    cs.squares_left -= o_ncells[o]
    cs.last_piece = o_piece[o]
    s.n_placed += 1


cdef void state_init(State* s, int width, int height, int n_colours) noexcept nogil:
    cdef int k, r
    memset(s, 0, sizeof(State))
    s.width = width
    s.height = height
    s.n_colours = n_colours
    for k in range(n_colours):
        for r in range(height):
            s.c[k].free[r] = ((<uint64_t>1) << width) - 1
        s.c[k].left = ((<uint32_t>1) << NPIECES) - 1
        s.c[k].squares_left = 89
        s.c[k].last_piece = -1


cdef inline int colour_score(const State* s, int k) noexcept nogil:
    """Blokus score: minus the squares left; +15 for placing all, +20 if the monomino came last."""
    cdef const ColourState* cs = &s.c[k]
    if cs.left == 0:
        return 20 if cs.last_piece == monomino else 15
    return -cs.squares_left


cdef inline void advance(State* s) noexcept nogil:
    s.to_play += 1
    if s.to_play == s.n_colours:
        s.to_play = 0


# ---------------------------------------------------------------- Python API


cdef class Position:
    """A Blokus position: bitboards of every colour, whose turn it is, pieces left.

    Low-level: moves are integer codes and colours indices.  ``solver.blokus.game.Game`` wraps
    it with names, history and the turn rules.
    """

    cdef State s

    def __init__(self, int width, int height, int n_colours, first_cells):
        """``first_cells[k]``: the cells (x, y) one of which colour k's first piece must cover."""
        if not (5 <= width <= 62 and 1 <= height <= 24 and 1 <= n_colours <= MAXCOLOURS):
            raise ValueError("board from 5 to 62 columns, up to 24 rows and 1..4 colours")
        state_init(&self.s, width, height, n_colours)
        for k in range(n_colours):
            for (x, y) in first_cells[k]:
                self.s.c[k].attach[y] |= (<uint64_t>1) << x

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

    def legal_codes(self, int colour) -> np.ndarray:
        """Codes of every legal placement of ``colour`` (int32 numpy array, generation order)."""
        self._check_colour(colour)
        cdef uint16_t* buf = <uint16_t*>malloc(MAXLIST * sizeof(uint16_t))
        cdef int n, i
        cdef int32_t[::1] view
        try:
            n = gen_moves(&self.s, colour, buf)
            out = np.empty(n, dtype=np.int32)
            view = out
            for i in range(n):
                view[i] = buf[i]
        finally:
            cfree(buf)
        return out

    def count_moves(self, int colour) -> int:
        self._check_colour(colour)
        cdef uint16_t* buf = <uint16_t*>malloc(MAXLIST * sizeof(uint16_t))
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
        if code < 0 or code >= n_orient * self.s.height * self.s.width:
            raise ValueError("bad move code")
        decode(&self.s, code, &o, &r, &c)
        if r + o_h[o] > self.s.height or c + o_w[o] > self.s.width:
            raise ValueError("the piece does not fit on the board")
        if not (self.s.c[colour].left >> o_piece[o]) & 1:
            raise ValueError("piece already placed")
        play(&self.s, colour, code)

    def pieces_left(self, int colour) -> list:
        """Indices of the pieces ``colour`` has not placed yet."""
        self._check_colour(colour)
        return [p for p in range(NPIECES) if (self.s.c[colour].left >> p) & 1]

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
        cdef uint16_t* buf = <uint16_t*>malloc((depth + 1) * MAXLIST * sizeof(uint16_t))
        try:
            with nogil:
                _perft(&self.s, depth, 0, buf, &cv[0])
        finally:
            cfree(buf)
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


cdef void _perft(const State* s, int depth, int ply, uint16_t* buf, int64_t* counts) noexcept nogil:
    if ply == depth:
        return
    cdef uint16_t* moves = buf + ply * MAXLIST
    cdef int n = gen_moves(s, s.to_play, moves)
    cdef int i
    cdef State child
    if n == 0:
        if not any_move(s):
            return
        counts[ply + 1] += 1
        memcpy(&child, s, sizeof(State))
        advance(&child)
        _perft(&child, depth, ply + 1, buf, counts)
        return
    counts[ply + 1] += n
    if ply + 1 == depth:
        return
    for i in range(n):
        memcpy(&child, s, sizeof(State))
        play(&child, s.to_play, moves[i])
        advance(&child)
        _perft(&child, depth, ply + 1, buf, counts)


def placement_count(int width, int height) -> int:
    """Number of ways to put any orientation of any piece fully on an empty board."""
    cdef int o, total = 0
    for o in range(n_orient):
        if o_w[o] <= width and o_h[o] <= height:
            total += (width - o_w[o] + 1) * (height - o_h[o] + 1)
    return total


def orientation_count() -> int:
    return n_orient


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


cdef struct Config:
    int32_t n_players
    int32_t n_sides
    int32_t player_of[MAXCOLOURS]       # -1: the players take turns with this colour
    int32_t counted[MAXCOLOURS]
    int32_t side_of[MAXCOLOURS]         # side of each player
    int32_t kind[MAXCOLOURS]            # strategy of each player
    int32_t cand[MAXCOLOURS]            # mc: candidate moves looked at
    int32_t sims[MAXCOLOURS]            # mc: playouts per candidate


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


cdef int64_t random_playout(const Config* cfg, State* s, Rng* rng, uint16_t* buf) noexcept nogil:
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


cdef int64_t greedy_key(const State* s, int k, int code, uint32_t others) noexcept nogil:
    """Piece size, then new own attach cells, then attach cells taken from the opponents'
    colours (bit j of ``others``)."""
    cdef int o, r, c, i, j, row
    cdef int64_t own = 0, taken = 0
    cdef uint64_t m, fr, d
    cdef const ColourState* cs = &s.c[k]
    decode(s, code, &o, &r, &c)
    for i in range(o_h[o] + 2):
        row = r - 1 + i
        if row < 0:
            continue
        fr = cs.free[row] & ~((o_halo[o][i] << c) >> 1)
        d = ((o_diag[o][i] << c) >> 1) & fr & ~cs.attach[row]
        own += blk_popcount(d)
    for i in range(o_h[o]):
        m = o_rows[o][i] << c
        for j in range(s.n_colours):
            if (others >> j) & 1:
                taken += blk_popcount(s.c[j].attach[r + i] & m)
    return (<int64_t>o_ncells[o] << 32) + (own << 16) + taken


cdef int choose_greedy(const Config* cfg, const State* s, int k, uint16_t* moves, int n,
                       Rng* rng) noexcept nogil:
    cdef int i, best = 0, ties = 0
    cdef uint32_t others = opponents(cfg, s, k)
    cdef int64_t key, best_key = -1
    cdef int maxsize = 0, sz
    for i in range(n):
        sz = o_ncells[moves[i] // (s.height * s.width)]
        if sz > maxsize:
            maxsize = sz
    for i in range(n):
        if o_ncells[moves[i] // (s.height * s.width)] != maxsize:
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


cdef int choose_mc(const Config* cfg, const State* s, int k, uint16_t* moves, int n, Rng* rng,
                   uint16_t* buf, int64_t* keys) noexcept nogil:
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
        moves[j] = <uint16_t>t
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
    cdef uint16_t* buf = <uint16_t*>malloc(MAXLIST * sizeof(uint16_t))
    with nogil:
        for g in range(n_games):
            memcpy(&s, &start.s, sizeof(State))
            listed += random_playout(&cfg, &s, &rng, buf)
            played += s.n_placed - start.s.n_placed
    cfree(buf)
    return n_games, played, listed


def simulate_block(Position start, player_of, counted, side_of, kinds, cands, sims,
                   uint64_t seed, int n_games, int n_record=0, bint want_cells=False) -> dict:
    """Play ``n_games`` games from ``start`` with a strategy per player; per-game results.

    Returns numpy arrays: ``scores`` (games x colours), ``all_placed`` (games x colours),
    ``length`` (placements), ``listed`` (legal moves listed on the decisions), ``decisions``,
    for the first ``n_record`` games ``record`` (colour << 16 | move code, -1 padded) and, with
    ``want_cells``, ``cells`` (games x colours x rows: the cells each colour covers at the end,
    bit x of a row = column x; otherwise an empty array).
    """
    cdef Config cfg
    cdef State s
    cdef Rng rng
    cdef int g, k, n, idx, p, i, nc = start.s.n_colours
    memset(&cfg, 0, sizeof(Config))
    cfg.n_players = len(kinds)
    cfg.n_sides = max(side_of) + 1
    for k in range(nc):
        cfg.player_of[k] = player_of[k]
        cfg.counted[k] = 1 if counted[k] else 0
    for p in range(cfg.n_players):
        cfg.side_of[p] = side_of[p]
        cfg.kind[p] = kinds[p]
        cfg.cand[p] = max(1, cands[p])
        cfg.sims[p] = max(1, sims[p])
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
    cdef uint16_t* buf = <uint16_t*>malloc(MAXLIST * sizeof(uint16_t))
    cdef uint16_t* buf2 = <uint16_t*>malloc(MAXLIST * sizeof(uint16_t))
    cdef int64_t* keys = <int64_t*>malloc(MAXLIST * sizeof(int64_t))
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
                            p = mover_of(&cfg, &s, k)
                            if cfg.kind[p] == STRAT_GREEDY:
                                idx = choose_greedy(&cfg, &s, k, buf, n, &rng)
                            elif cfg.kind[p] == STRAT_MC:
                                idx = choose_mc(&cfg, &s, k, buf, n, &rng, buf2, keys)
                            else:
                                idx = rng_below(&rng, <uint32_t>n)
                            if g < n_record and s.n_placed < MAXPLIES:
                                rv[g, s.n_placed] = (k << 16) | buf[idx]
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
        cfree(buf)
        cfree(buf2)
        cfree(keys)
    return {"scores": scores, "all_placed": all_placed, "length": length, "listed": listed,
            "decisions": decisions, "record": record[:n_record], "cells": cells}


cdef inline void add_cells(const State* s, uint64_t* rows, int code) noexcept nogil:
    """Set the cells of placement ``code`` in the row bitboards ``rows`` (simulate_block's cells)."""
    cdef int o, r, c, i
    decode(s, code, &o, &r, &c)
    for i in range(o_h[o]):
        rows[r + i] |= o_rows[o][i] << c
