# cython: language_level=3
"""Blokus 3D (Rumis) on voxel bitboards: move generation, play, perft, playouts, self-play.

The template fits in 8 x 8 squares; a level of the building is one 64-bit word (bit ``8*y + x``).
Because no cube may have empty space under it, every column is filled from the ground up with
no gaps, so the building is a height map.  Per position the engine keeps ``layer[z]`` (the
squares whose column reaches above level z) and ``col[k][z]`` (the cubes of colour k).

A placement is an orientation ``o`` (one of the 104 rotations of the 11 pieces) anchored with its
bounding box's low corner at level ``z`` over square ``b``.  It is legal iff

* every column of the piece starts exactly on the current top of its square:
  ``E[z + bottom] `` has the square, with ``E[z] = layer[z-1] & ~layer[z]`` (``layer[-1]`` is the
  footprint), which also keeps the piece inside the footprint and leaves nothing empty below it;
* it stays under the height limit (``z + h <= height``);
* one of its cubes is face-adjacent to a cube of its own colour (the colour's first piece: to
  any cube; the very first piece of the game: anywhere).

For one orientation and level all 64 anchors are tested at once with shifts::

    legal = anchors(o) & AND over columns (E[z + bottom] >> shift) & OR over cubes (N[z + dz] >> shift)

where ``N[z]`` is the set of cells face-adjacent to the contact cubes.  The move code is
``(o * 8 + z) * 64 + b`` (< 2**16).
"""

from libc.stdint cimport uint64_t, uint32_t, uint16_t, int32_t, int64_t, int8_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free as cfree
from bits cimport ctz64, popcount64
from rng cimport Rng, rng_seed, rng_below

import numpy as np

from solver.blokus3d.pieces import PIECES




DEF NPIECES = 11
DEF MAXORIENT = 128
DEF MAXCUBES = 4
DEF MAXH = 8
DEF MAXCOLOURS = 4
DEF MAXLIST = 53248      # 104 orientations x 8 levels x 64 squares bounds the move list
DEF MAXPLIES = 48        # 44 pieces at most
DEF MAXWORDS = MAXORIENT * MAXH   # (orientation, level) pairs: one anchor mask each

cdef uint64_t NOT_COL0 = 0xFEFEFEFEFEFEFEFEULL   # every square but column x = 0
cdef uint64_t NOT_COL7 = 0x7F7F7F7F7F7F7F7FULL   # every square but column x = 7

# ---------------------------------------------------------------- orientation tables (global)
cdef int n_orient = 0
cdef int o_piece[MAXORIENT]
cdef int o_n[MAXORIENT]
cdef int o_h[MAXORIENT]
cdef int o_dz[MAXORIENT][MAXCUBES]
cdef int o_sh[MAXORIENT][MAXCUBES]          # dx + 8 dy of each cube
cdef int o_ncol[MAXORIENT]
cdef int o_csh[MAXORIENT][MAXCUBES]         # each column: dx + 8 dy
cdef int o_cbot[MAXORIENT][MAXCUBES]        # each column: its lowest dz
cdef uint64_t o_cols[MAXORIENT]             # the columns as a mask at anchor 0
cdef uint64_t o_anchor[MAXORIENT]           # anchors keeping the box on the 8 x 8 board
cdef int o_ok[MAXORIENT]                    # 0: a column has a gap (can never stand)
cdef uint64_t o_need[MAXORIENT]             # footing features it needs (see footing_features)
cdef uint32_t o_hmask[MAXORIENT]            # bits 0..h-1: the levels the piece spans
cdef int p_first[NPIECES]
cdef int p_count[NPIECES]
cdef int p_size[NPIECES]

#: Python view: (piece index, cubes) per orientation index, in the engine's order
ORIENTATIONS = []


# Footing features of a level (8 bits per level in one word, level z at bits 8z..8z+7): a cheap
# necessary condition for an orientation to stand anywhere at a level, tested before its anchors.
DEF F_ANY = 1      # the level has a top square
DEF F_TWO = 2      # ... at least 2, 3, 4 of them
DEF F_THREE = 4
DEF F_FOUR = 8
DEF F_ROW = 16     # two side by side in a row (x, x + 1)
DEF F_COL = 32     # two one behind the other (y, y + 1)
DEF F_LINE = 64    # three in a line, in a row or a column
DEF F_SQUARE = 128 # four forming a 2 x 2 square


cdef inline uint64_t footing_features(const uint64_t* E, int height) noexcept nogil:
    """Features of the top squares ``E[z]`` of every level, as a word (see ``F_ANY``...)."""
    cdef uint64_t feat = 0, e, f, row, col
    cdef int z, c
    for z in range(height):
        e = E[z]
        c = popcount64(e)
        f = ((c >= 1) * F_ANY) | ((c >= 2) * F_TWO) | ((c >= 3) * F_THREE) | ((c >= 4) * F_FOUR)
        row = e & (e >> 1) & NOT_COL7          # bit x: squares x and x + 1 of a row
        col = e & (e >> 8)                     # bit y: squares y and y + 1 of a column
        if row:
            f |= F_ROW
        if col:
            f |= F_COL
        if (row & (row >> 1) & NOT_COL7) or (col & (col >> 8)):
            f |= F_LINE
        if row & (row >> 8):
            f |= F_SQUARE
        feat |= f << (8 * z)
    return feat


def _footing_needs(columns, bottoms) -> int:
    """The footing features an orientation needs at level 0: per bottom level, as many top
    squares as columns start there, and the row/column pairs among them."""
    need = 0
    count_bits = (0, F_ANY, F_ANY | F_TWO, F_ANY | F_TWO | F_THREE, F_ANY | F_TWO | F_THREE | F_FOUR)
    for dz in set(bottoms):
        at = [c for c, b in zip(columns, bottoms) if b == dz]
        f = count_bits[min(len(at), 4)]
        for (x, y) in at:
            if (x + 1, y) in at:
                f |= F_ROW
            if (x, y + 1) in at:
                f |= F_COL
            if {(x + 1, y), (x + 2, y)} <= set(at) or {(x, y + 1), (x, y + 2)} <= set(at):
                f |= F_LINE
            if {(x + 1, y), (x, y + 1), (x + 1, y + 1)} <= set(at):
                f |= F_SQUARE
        need |= f << (8 * dz)
    return need


def _build_tables():
    global n_orient
    cdef int o = 0, i, x, y
    for piece in PIECES:
        p_first[piece.index] = o
        p_count[piece.index] = len(piece.orientations)
        p_size[piece.index] = piece.size
        for shape in piece.orientations:
            o_piece[o] = piece.index
            o_n[o] = len(shape)
            w = max(c[0] for c in shape) + 1
            d = max(c[1] for c in shape) + 1
            o_h[o] = max(c[2] for c in shape) + 1
            for i, (cx, cy, cz) in enumerate(shape):
                o_dz[o][i] = cz
                o_sh[o][i] = cx + 8 * cy
            columns = sorted({(c[0], c[1]) for c in shape})
            o_ncol[o] = len(columns)
            o_cols[o] = 0
            o_ok[o] = 1
            o_hmask[o] = (1 << o_h[o]) - 1
            for i, (cx, cy) in enumerate(columns):
                zs = sorted(c[2] for c in shape if (c[0], c[1]) == (cx, cy))
                o_csh[o][i] = cx + 8 * cy
                o_cbot[o][i] = zs[0]
                o_cols[o] |= (<uint64_t>1) << (cx + 8 * cy)
                if max(zs) - min(zs) + 1 != len(zs):
                    o_ok[o] = 0
            for i in range(len(shape), MAXCUBES):        # pad: repeating a cube changes no OR
                o_dz[o][i] = o_dz[o][0]
                o_sh[o][i] = o_sh[o][0]
            for i in range(len(columns), MAXCUBES):      # pad: repeating a column changes no AND
                o_csh[o][i] = o_csh[o][0]
                o_cbot[o][i] = o_cbot[o][0]
            o_need[o] = _footing_needs(columns, [o_cbot[o][i] for i in range(len(columns))])
            o_anchor[o] = 0
            for y in range(8 - d + 1):
                for x in range(8 - w + 1):
                    o_anchor[o] |= (<uint64_t>1) << (x + 8 * y)
            ORIENTATIONS.append((piece.index, tuple(shape)))
            o += 1
    n_orient = o


_build_tables()


# ---------------------------------------------------------------- position

cdef struct State:
    uint64_t foot
    uint64_t layer[MAXH + 1]            # layer[MAXH] stays 0 (padding)
    uint64_t col[MAXCOLOURS][MAXH + 1]
    int32_t height
    int32_t n_colours
    int32_t to_play
    int32_t n_out
    int32_t n_placed
    int32_t left[MAXCOLOURS]            # bit p: piece p not placed yet
    int32_t placed[MAXCOLOURS]
    int32_t out[MAXCOLOURS]             # 1: could not move on its turn, out for good


cdef inline void decode(int code, int* o, int* z, int* b) noexcept nogil:
    b[0] = code & 63
    z[0] = (code >> 6) & 7
    o[0] = code >> 9


cdef inline uint64_t neighbours(uint64_t m) noexcept nogil:
    """Squares edge-adjacent to ``m`` within the same level."""
    return ((m << 1) & NOT_COL0) | ((m >> 1) & NOT_COL7) | (m << 8) | (m >> 8)


cdef void prepare(const State* s, int k, uint64_t* E, uint64_t* N) noexcept nogil:
    """``E[z]``: squares whose top is exactly level z; ``N[z]``: cells a piece of colour k may touch."""
    cdef int z, H = s.height
    cdef uint64_t below = s.foot
    cdef const uint64_t* src
    for z in range(H):
        E[z] = below & ~s.layer[z]
        below = s.layer[z]
    if s.n_placed == 0:
        for z in range(H):
            N[z] = ~(<uint64_t>0)
        return
    if s.placed[k] == 0:
        src = &s.layer[0]
    else:
        src = &s.col[k][0]
    for z in range(H):
        N[z] = src[z + 1] | neighbours(src[z])
        if z > 0:
            N[z] |= src[z - 1]


cdef inline uint64_t anchors(const State* s, int o, int z, const uint64_t* E,
                             const uint64_t* N) noexcept nogil:
    # branch-free: the tables are padded to 4 columns and 4 cubes (see _build_tables)
    cdef const int* cb = o_cbot[o]
    cdef const int* cs = o_csh[o]
    cdef const int* dz = o_dz[o]
    cdef const int* sh = o_sh[o]
    cdef uint64_t acc = (o_anchor[o] & (E[z + cb[0]] >> cs[0]) & (E[z + cb[1]] >> cs[1])
                         & (E[z + cb[2]] >> cs[2]) & (E[z + cb[3]] >> cs[3]))
    cdef uint64_t t = ((N[z + dz[0]] >> sh[0]) | (N[z + dz[1]] >> sh[1])
                       | (N[z + dz[2]] >> sh[2]) | (N[z + dz[3]] >> sh[3]))
    return acc & t


cdef int gen_words(const State* s, int k, uint64_t* words, uint16_t* tags) noexcept nogil:
    """The legal moves of colour k as anchor masks: ``words[i]`` has bit b for every legal anchor b
    of the (orientation, level) ``tags[i] = o * 8 + z``.  Only non-empty masks are kept, in the
    order pieces, orientations, levels; returns their number.

    Writing masks instead of move codes keeps the loop free of a branch per move (the compaction
    below is branch-free); ``gen_moves`` expands them, playouts draw from them directly."""
    cdef uint64_t E[MAXH]
    cdef uint64_t N[MAXH]
    cdef int p, o, z, m = 0, top = 0
    cdef uint64_t acc
    cdef uint32_t nmask = 0              # bit z: N[z] is not empty
    cdef uint64_t feat
    cdef int32_t left = s.left[k]
    if not left:
        return 0
    prepare(s, k, E, N)
    for z in range(s.height):          # levels above the highest top square hold no bottoms
        if E[z]:
            top = z + 1
        if N[z]:
            nmask |= 1u << z
    feat = footing_features(E, s.height)
    for p in range(NPIECES):
        if not (left >> p) & 1:
            continue
        for o in range(p_first[p], p_first[p] + p_count[p]):
            if not o_ok[o]:
                continue
            for z in range(min(top, s.height - o_h[o] + 1)):
                # the column bottoms need top squares on their levels (at least the features of
                # them), and some level of the piece a contact cell
                if ((feat >> (8 * z)) & o_need[o]) != o_need[o] or not (nmask >> z) & o_hmask[o]:
                    continue
                acc = anchors(s, o, z, E, N)
                words[m] = acc
                tags[m] = <uint16_t>((o << 3) | z)
                m += acc != 0
    return m


cdef inline int count_words(const uint64_t* words, int m) noexcept nogil:
    cdef int i, n = 0
    for i in range(m):
        n += popcount64(words[i])
    return n


cdef inline int word_move(const uint64_t* words, const uint16_t* tags, int r) noexcept nogil:
    """The code of move number r (from 0) in generation order."""
    cdef int i = 0, c
    cdef uint64_t w
    while True:
        c = popcount64(words[i])
        if r < c:
            break
        r -= c
        i += 1
    w = words[i]
    while r:
        w &= w - 1
        r -= 1
    return (tags[i] << 6) | ctz64(w)


cdef int expand(const uint64_t* words, const uint16_t* tags, int m, uint16_t* out,
                int stop_at_first) noexcept nogil:
    """Move codes of the masks from ``gen_words`` into ``out``; their number."""
    cdef int i, n = 0
    cdef uint64_t acc
    for i in range(m):
        acc = words[i]
        while acc:
            out[n] = <uint16_t>((tags[i] << 6) | ctz64(acc))
            n += 1
            if stop_at_first:
                return n
            acc &= acc - 1
    return n


cdef int gen_moves(const State* s, int k, uint16_t* out, int stop_at_first) noexcept nogil:
    """Legal move codes of colour k into ``out``; their number (1 at most with stop_at_first)."""
    cdef uint64_t words[MAXWORDS]
    cdef uint16_t tags[MAXWORDS]
    return expand(words, tags, gen_words(s, k, words, tags), out, stop_at_first)


cdef int is_legal(const State* s, int k, int code) noexcept nogil:
    cdef uint64_t E[MAXH]
    cdef uint64_t N[MAXH]
    cdef int o, z, b
    if code < 0 or code >= (n_orient << 9):
        return 0
    decode(code, &o, &z, &b)
    if not (s.left[k] >> o_piece[o]) & 1 or not o_ok[o] or z + o_h[o] > s.height:
        return 0
    prepare(s, k, E, N)
    return 1 if (anchors(s, o, z, E, N) >> b) & 1 else 0


cdef void play(State* s, int k, int code) noexcept nogil:
    cdef int o, z, b, i
    cdef uint64_t m
    decode(code, &o, &z, &b)
    for i in range(o_n[o]):
        m = (<uint64_t>1) << (b + o_sh[o][i])
        s.layer[z + o_dz[o][i]] |= m
        s.col[k][z + o_dz[o][i]] |= m
    s.left[k] &= ~(1 << o_piece[o])
    s.placed[k] += 1
    s.n_placed += 1


cdef inline void advance(State* s) noexcept nogil:
    s.to_play = (s.to_play + 1) % s.n_colours


cdef inline int visible(const State* s, int k) noexcept nogil:
    """Squares whose top cube has colour k (seen from directly above)."""
    cdef int z, v = 0
    for z in range(s.height):
        v += popcount64(s.col[k][z] & ~s.layer[z + 1])
    return v


cdef inline int colour_score(const State* s, int k) noexcept nogil:
    """Visible squares minus one per unplaced piece."""
    return visible(s, k) - popcount64(<uint64_t>s.left[k])


cdef void state_init(State* s, uint64_t foot, int height, int n_colours) noexcept nogil:
    cdef int k
    memset(s, 0, sizeof(State))
    s.foot = foot
    s.height = height
    s.n_colours = n_colours
    for k in range(n_colours):
        s.left[k] = (1 << NPIECES) - 1


cdef class Position:
    """A Blokus 3D position: the building, pieces left, who is out and whose turn it is.

    Python face of the C state; ``solver.blokus3d.game.Game3D`` adds names, history and rules text.
    """
    cdef State s

    def __init__(self, uint64_t footprint, int height, int n_colours):
        if not 1 <= height <= MAXH:
            raise ValueError(f"height must be 1..{MAXH}")
        if not 1 <= n_colours <= MAXCOLOURS:
            raise ValueError(f"1..{MAXCOLOURS} colours")
        state_init(&self.s, footprint, height, n_colours)

    def copy(self) -> Position:
        cdef Position p = Position.__new__(Position)
        memcpy(&p.s, &self.s, sizeof(State))
        return p

    def __reduce__(self):
        return (_position_from_bytes, (self.to_bytes(),))

    def to_bytes(self) -> bytes:
        return (<char*>&self.s)[:sizeof(State)]

    property to_play:
        def __get__(self):
            return self.s.to_play

        def __set__(self, int k):
            self._check_colour(k)
            self.s.to_play = k

    @property
    def height(self) -> int:
        return self.s.height

    @property
    def n_colours(self) -> int:
        return self.s.n_colours

    @property
    def n_placed(self) -> int:
        return self.s.n_placed

    def _check_colour(self, int k):
        if not 0 <= k < self.s.n_colours:
            raise ValueError(f"colour {k} out of range")

    def legal_codes(self, int colour) -> np.ndarray:
        """Engine codes of the legal placements of ``colour`` (ignores whether it is out)."""
        self._check_colour(colour)
        cdef uint16_t* buf = <uint16_t*>malloc(MAXLIST * sizeof(uint16_t))
        cdef int n, i
        try:
            n = gen_moves(&self.s, colour, buf, 0)
            out = np.empty(n, dtype=np.int32)
            for i in range(n):
                out[i] = buf[i]
        finally:
            cfree(buf)
        return out

    def has_move(self, int colour) -> bool:
        self._check_colour(colour)
        cdef uint16_t one[1]
        return gen_moves(&self.s, colour, one, 1) > 0

    def is_legal(self, int colour, int code) -> bool:
        self._check_colour(colour)
        return bool(is_legal(&self.s, colour, code))

    def play(self, int colour, int code):
        """Place a piece (the caller checks legality: see ``is_legal``)."""
        self._check_colour(colour)
        if not is_legal(&self.s, colour, code):
            raise ValueError(f"illegal move code {code} for colour {colour}")
        play(&self.s, colour, code)

    def mark_out(self, int colour):
        """Colour ``colour`` could not move on its turn: it is out for the rest of the game."""
        self._check_colour(colour)
        if not self.s.out[colour]:
            self.s.out[colour] = 1
            self.s.n_out += 1

    def is_out(self, int colour) -> bool:
        self._check_colour(colour)
        return bool(self.s.out[colour])

    def pieces_left(self, int colour) -> list:
        self._check_colour(colour)
        return [p for p in range(NPIECES) if (self.s.left[colour] >> p) & 1]

    def score(self, int colour) -> int:
        self._check_colour(colour)
        return colour_score(&self.s, colour)

    def visible(self, int colour) -> int:
        self._check_colour(colour)
        return visible(&self.s, colour)

    def layers(self) -> tuple:
        """(footprint, occupancy word of each level 0..height-1)."""
        return self.s.foot, tuple(self.s.layer[z] for z in range(self.s.height))

    def colour_layers(self, int colour) -> tuple:
        self._check_colour(colour)
        return tuple(self.s.col[colour][z] for z in range(self.s.height))

    def perft(self, int depth) -> list:
        """Numbers of placement sequences of length 1..depth from here (a colour that cannot
        place drops out without using a ply; a finished game ends its sequences)."""
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
    if len(data) != sizeof(State):
        raise ValueError("bad position data")
    memcpy(&p.s, <char*>data, sizeof(State))
    return p


cdef int next_mover_words(State* s, uint64_t* words, uint16_t* tags) noexcept nogil:
    """Skip colours that are out; mark out (for good) the colour due that cannot move.  Returns
    the number of ``gen_words`` masks of ``s.to_play``, 0 when the game is over."""
    cdef int m
    while s.n_out < s.n_colours:
        if not s.out[s.to_play]:
            m = gen_words(s, s.to_play, words, tags)
            if m:
                return m
            s.out[s.to_play] = 1
            s.n_out += 1
        advance(s)
    return 0


cdef int next_mover(State* s, uint16_t* buf) noexcept nogil:
    """As ``next_mover_words``, with the legal moves of ``s.to_play`` listed into ``buf``; their
    number, 0 when the game is over."""
    cdef uint64_t words[MAXWORDS]
    cdef uint16_t tags[MAXWORDS]
    return expand(words, tags, next_mover_words(s, words, tags), buf, 0)


cdef void _perft(const State* s0, int depth, int ply, uint16_t* buf, int64_t* counts) noexcept nogil:
    cdef State s
    cdef State child
    cdef uint16_t* moves = buf + ply * MAXLIST
    cdef uint64_t words[MAXWORDS]
    cdef uint16_t tags[MAXWORDS]
    cdef int n, i
    memcpy(&s, s0, sizeof(State))
    if ply + 1 >= depth:               # the last ply only counts its moves
        counts[ply + 1] += count_words(words, next_mover_words(&s, words, tags))
        return
    n = next_mover(&s, moves)
    counts[ply + 1] += n
    for i in range(n):
        memcpy(&child, &s, sizeof(State))
        play(&child, child.to_play, moves[i])
        advance(&child)
        _perft(&child, depth, ply + 1, buf, counts)


def encode(int o, int z, int x, int y) -> int:
    """Move code of orientation ``o`` anchored at level z over square (x, y)."""
    return ((o << 3) | z) << 6 | (x + 8 * y)


def code_info(int code) -> tuple:
    """(orientation, level, x, y) of a move code."""
    cdef int o, z, b
    decode(code, &o, &z, &b)
    return o, z, b & 7, b >> 3


def orientation_count() -> int:
    return n_orient


# ---------------------------------------------------------------- strategies and self-play

DEF STRAT_RANDOM = 0
DEF STRAT_GREEDY = 1
DEF STRAT_MC = 2

#: strategy names; a strategy's kind number is its index here (the one table both sides read)
STRATEGY_NAMES = ("random", "greedy", "mc")
assert (STRATEGY_NAMES.index("random"), STRATEGY_NAMES.index("greedy"), STRATEGY_NAMES.index("mc")) == \
    (STRAT_RANDOM, STRAT_GREEDY, STRAT_MC), "STRATEGY_NAMES must list the kinds in STRAT_* order"


cdef struct Config:
    int32_t n_players               # colour k belongs to player k % n_players (Rumis 2x2: two each)
    int32_t kind[MAXCOLOURS]
    int32_t cand[MAXCOLOURS]        # mc: candidate moves looked at
    int32_t sims[MAXCOLOURS]        # mc: playouts per candidate


cdef struct Work:
    uint16_t* buf                   # playout move lists
    int64_t* keys


cdef void tops(const Config* cfg, const State* s, int k, uint64_t* own, uint64_t* others) noexcept nogil:
    """Squares whose top cube is of a colour of k's player (own) or of another player (others)."""
    cdef int z, j
    cdef uint64_t t
    own[0] = 0
    others[0] = 0
    for z in range(s.height):
        t = s.layer[z] & ~s.layer[z + 1]
        j = k % cfg.n_players
        while j < s.n_colours:
            own[0] |= s.col[j][z] & t
            j += cfg.n_players
    for z in range(s.height):
        others[0] |= s.layer[z] & ~s.layer[z + 1]
    others[0] &= ~own[0]


cdef inline int64_t greedy_key(int code, uint64_t own, uint64_t others) noexcept nogil:
    """Own visible squares gained plus opponents' squares covered, then the piece size."""
    cdef int o, z, b
    cdef uint64_t cols
    decode(code, &o, &z, &b)
    cols = o_cols[o] << b
    return ((o_ncol[o] - popcount64(cols & own) + popcount64(cols & others)) << 4) + o_n[o]


cdef int choose_greedy(const Config* cfg, const State* s, int k, uint16_t* moves, int n,
                       Rng* rng) noexcept nogil:
    cdef uint64_t own, others
    cdef int i, best = 0, ties = 0
    cdef int64_t key, best_key = -1
    tops(cfg, s, k, &own, &others)
    for i in range(n):
        key = greedy_key(moves[i], own, others)
        if key > best_key:
            best_key = key
            best = i
            ties = 1
        elif key == best_key:
            ties += 1
            if rng_below(rng, <uint32_t>ties) == 0:
                best = i
    return best


cdef int64_t random_playout(State* s, Rng* rng, uint16_t* buf) noexcept nogil:
    """Uniform-random placements until no colour can place; returns the moves listed.  Every
    legal move is generated (as masks) and counted; the drawn one is the same as from the full
    list, so these games equal those of listing with ``next_mover``."""
    cdef uint64_t words[MAXWORDS]
    cdef uint16_t tags[MAXWORDS]
    cdef int m, n
    cdef int64_t listed = 0
    while True:
        m = next_mover_words(s, words, tags)
        if m == 0:
            return listed
        n = count_words(words, m)
        listed += n
        play(s, s.to_play, word_move(words, tags, rng_below(rng, <uint32_t>n)))
        advance(s)


cdef inline int player_score(const Config* cfg, const State* s, int p) noexcept nogil:
    """A player's score: its colour's, or the better of its colours' (Rumis two-player game)."""
    cdef int j = p, best = -1000000
    while j < s.n_colours:
        best = max(best, colour_score(s, j))
        j += cfg.n_players
    return best


cdef int choose_mc(const Config* cfg, const State* s, int k, uint16_t* moves, int n, Rng* rng,
                   Work* w) noexcept nogil:
    """Flat Monte Carlo: the greedy-best ``cand`` moves, ``sims`` random playouts each; best mean
    of (score margin over the best other player + 10 x win share)."""
    cdef int ncand = cfg.cand[k], nsims = cfg.sims[k]
    cdef int i, j, t, bi, best = 0, nwin, other, mine
    cdef int64_t kmax
    cdef double value, best_value = -1e300
    cdef uint64_t own, others
    cdef State child
    cdef int me = k % cfg.n_players
    tops(cfg, s, k, &own, &others)
    for i in range(n):
        w.keys[i] = greedy_key(moves[i], own, others) * 64 + rng_below(rng, 64)
    if ncand > n:
        ncand = n
    for j in range(ncand):
        bi = j
        kmax = w.keys[j]
        for i in range(j + 1, n):
            if w.keys[i] > kmax:
                kmax = w.keys[i]
                bi = i
        w.keys[bi] = w.keys[j]
        w.keys[j] = kmax
        t = moves[bi]
        moves[bi] = moves[j]
        moves[j] = <uint16_t>t
        value = 0.0
        for t in range(nsims):
            memcpy(&child, s, sizeof(State))
            play(&child, k, moves[j])
            advance(&child)
            random_playout(&child, rng, w.buf)
            mine = player_score(cfg, &child, me)
            other = -1000000
            nwin = 1
            for i in range(cfg.n_players):
                if i != me:
                    other = max(other, player_score(cfg, &child, i))
            for i in range(cfg.n_players):
                if i != me and player_score(cfg, &child, i) == mine:
                    nwin += 1
            value += mine - other
            if mine >= other:
                value += 10.0 / nwin
        if value > best_value:
            best_value = value
            best = j
    return best


cdef int decide(const Config* cfg, const State* s, int k, uint16_t* moves, int n, Rng* rng,
                Work* w) noexcept nogil:
    """Index into ``moves`` of the move colour k's strategy plays (self-play and choose_code)."""
    if cfg.kind[k] == STRAT_GREEDY:
        return choose_greedy(cfg, s, k, moves, n, rng)
    if cfg.kind[k] == STRAT_MC:
        return choose_mc(cfg, s, k, moves, n, rng, w)
    return rng_below(rng, <uint32_t>n)


cdef void config_from(Config* cfg, kinds, cands, sims, int n_players):
    """Strategies per colour; ``n_players`` < number of colours: colour k is player k % n_players's."""
    memset(cfg, 0, sizeof(Config))
    cfg.n_players = n_players if n_players > 0 else len(kinds)
    for k in range(len(kinds)):
        cfg.kind[k] = kinds[k]
        cfg.cand[k] = max(1, cands[k])
        cfg.sims[k] = max(1, sims[k])


def choose_code(Position pos, kinds, cands, sims, uint64_t seed, int n_players=0) -> int:
    """The move code the strategy of the colour due plays (after skipping colours that are out or
    cannot move, as self-play does); -1 if the game is over."""
    cdef Config cfg
    cdef State s
    cdef Rng rng
    cdef Work w
    cdef int n, idx, code = -1
    config_from(&cfg, kinds, cands, sims, n_players)
    memcpy(&s, &pos.s, sizeof(State))
    rng_seed(&rng, seed)
    cdef uint16_t* moves = <uint16_t*>malloc(MAXLIST * sizeof(uint16_t))
    w.buf = <uint16_t*>malloc(MAXLIST * sizeof(uint16_t))
    w.keys = <int64_t*>malloc(MAXLIST * sizeof(int64_t))
    try:
        with nogil:
            n = next_mover(&s, moves)
            if n:
                idx = decide(&cfg, &s, s.to_play, moves, n, &rng, &w)
                code = moves[idx]
    finally:
        cfree(moves)
        cfree(w.buf)
        cfree(w.keys)
    return code


def random_playouts(Position start, uint64_t seed, int n_games) -> tuple:
    """Uniform-random games from ``start`` (every legal move generated every ply, one drawn
    uniformly); (games, placements, moves generated)."""
    cdef State s
    cdef Rng rng
    cdef int g
    cdef int64_t listed = 0, played = 0
    rng_seed(&rng, seed)
    cdef uint16_t* buf = <uint16_t*>malloc(MAXLIST * sizeof(uint16_t))
    with nogil:
        for g in range(n_games):
            memcpy(&s, &start.s, sizeof(State))
            listed += random_playout(&s, &rng, buf)
            played += s.n_placed - start.s.n_placed
    cfree(buf)
    return n_games, played, listed


def simulate_block(Position start, kinds, cands, sims, uint64_t seed, int n_games,
                   int n_record=0, int n_players=0) -> dict:
    """Play ``n_games`` games from ``start`` with a strategy per colour (``n_players`` < colours:
    colour k is player k % n_players's, whose score is its better colour's); per-game numpy arrays:
    ``scores`` and ``placed`` (games x colours), ``length`` (placements), ``listed`` (legal moves
    listed on the decisions), ``decisions`` and for the first ``n_record`` games ``record``
    (colour << 16 | move code, -1 padded)."""
    cdef Config cfg
    cdef State s
    cdef Rng rng
    cdef Work w
    cdef int g, k, n, idx, nc = start.s.n_colours
    config_from(&cfg, kinds, cands, sims, n_players)
    n_record = max(0, min(n_record, n_games))
    scores = np.zeros((n_games, nc), dtype=np.int32)
    placed = np.zeros((n_games, nc), dtype=np.int32)
    length = np.zeros(n_games, dtype=np.int32)
    listed = np.zeros(n_games, dtype=np.int64)
    decisions = np.zeros(n_games, dtype=np.int32)
    record = np.full((max(n_record, 1), MAXPLIES), -1, dtype=np.int32)
    cdef int32_t[:, ::1] sv = scores
    cdef int32_t[:, ::1] pv = placed
    cdef int32_t[::1] lv = length
    cdef int64_t[::1] liv = listed
    cdef int32_t[::1] dv = decisions
    cdef int32_t[:, ::1] rv = record
    rng_seed(&rng, seed)
    cdef uint16_t* buf = <uint16_t*>malloc(MAXLIST * sizeof(uint16_t))
    w.buf = <uint16_t*>malloc(MAXLIST * sizeof(uint16_t))
    w.keys = <int64_t*>malloc(MAXLIST * sizeof(int64_t))
    try:
        with nogil:
            for g in range(n_games):
                memcpy(&s, &start.s, sizeof(State))
                while True:
                    n = next_mover(&s, buf)
                    if n == 0:
                        break
                    k = s.to_play
                    liv[g] += n
                    dv[g] += 1
                    idx = decide(&cfg, &s, k, buf, n, &rng, &w)
                    if g < n_record and s.n_placed < MAXPLIES:
                        rv[g, s.n_placed] = (k << 16) | buf[idx]
                    play(&s, k, buf[idx])
                    advance(&s)
                lv[g] = s.n_placed - start.s.n_placed
                for k in range(nc):
                    sv[g, k] = colour_score(&s, k)
                    pv[g, k] = s.placed[k]
    finally:
        cfree(buf)
        cfree(w.buf)
        cfree(w.keys)
    return {"scores": scores, "placed": placed, "length": length, "listed": listed,
            "decisions": decisions, "record": record[:n_record]}


# ---------------------------------------------------------------- box puzzles (exact cover + placing rules)

cdef struct BoxSearch:
    int n_cells
    int width
    int layer                       # cells per level (W * D)
    uint64_t full
    uint64_t level0
    uint64_t nx0, nxw, ny0, nyd     # cells not on the x = 0 / x = W-1 / y = 0 / y = D-1 faces
    const uint64_t* mask
    const int32_t* piece
    const int32_t* start            # placements whose lowest cell is c: start[c] .. start[c+1]-1
    const int32_t* img              # n_sym x n_placements: index of each placement's image
    int32_t n_pl
    int32_t n_sym
    int32_t copies[NPIECES]
    int32_t chosen[64]
    int32_t depth
    int64_t tilings
    int64_t classes
    int64_t buildable
    int64_t buildable_classes
    int64_t nodes
    int64_t max_nodes
    int32_t stopped
    int32_t example[64]
    int32_t example_n


cdef inline uint64_t box_neighbours(const BoxSearch* b, uint64_t m) noexcept nogil:
    return (((m & b.nxw) << 1) | ((m & b.nx0) >> 1) | ((m & b.nyd) << b.width) | ((m & b.ny0) >> b.width)
            | (m << b.layer) | (m >> b.layer)) & b.full


cdef int box_buildable(const BoxSearch* b) noexcept nogil:
    """Can the pieces be placed one by one, each standing (ground, placed cubes or its own cubes
    below every cube) and, after the first, touching a placed piece face to face?  Once the first
    piece is down, placing a piece never makes another unplaceable, so for each possible first
    piece, placing any placeable piece until none is left decides."""
    cdef uint64_t placed, m, done
    cdef int i, first, progress, n = b.depth
    for first in range(n):
        m = b.mask[b.chosen[first]]
        if ((m & ~b.level0) >> b.layer) & ~m:
            continue
        placed = m
        done = (<uint64_t>1) << first
        progress = 1
        while progress:
            progress = 0
            for i in range(n):
                if (done >> i) & 1:
                    continue
                m = b.mask[b.chosen[i]]
                if ((m & ~b.level0) >> b.layer) & ~(placed | m) or not (box_neighbours(b, m) & placed):
                    continue
                placed |= m
                done |= (<uint64_t>1) << i
                progress = 1
        if placed == b.full:
            return 1
    return 0


cdef void sort_small(int32_t* a, int n) noexcept nogil:
    cdef int i, j, t
    for i in range(1, n):
        t = a[i]
        j = i - 1
        while j >= 0 and a[j] > t:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = t


cdef int box_canonical(const BoxSearch* b) noexcept nogil:
    """Is this tiling the least (as a sorted list of placement indices) of its symmetric images?"""
    cdef int32_t mine[64]
    cdef int32_t other[64]
    cdef int g, i, n = b.depth
    for i in range(n):
        mine[i] = b.chosen[i]
    sort_small(mine, n)
    for g in range(b.n_sym):
        for i in range(n):
            other[i] = b.img[g * b.n_pl + b.chosen[i]]
        sort_small(other, n)
        for i in range(n):
            if other[i] != mine[i]:
                if other[i] < mine[i]:
                    return 0
                break
    return 1


cdef void box_search(BoxSearch* b, uint64_t filled) noexcept nogil:
    cdef int c, i, p, canon, build
    if b.stopped:
        return
    b.nodes += 1
    if b.max_nodes and b.nodes > b.max_nodes:
        b.stopped = 1
        return
    if filled == b.full:
        b.tilings += 1
        canon = box_canonical(b)
        build = box_buildable(b)
        b.classes += canon
        b.buildable += build
        if canon and build:
            b.buildable_classes += 1
            if b.example_n == 0:
                for i in range(b.depth):
                    b.example[i] = b.chosen[i]
                b.example_n = b.depth
        return
    c = ctz64(~filled)
    for i in range(b.start[c], b.start[c + 1]):
        p = b.piece[i]
        if b.copies[p] == 0 or (b.mask[i] & filled):
            continue
        b.copies[p] -= 1
        b.chosen[b.depth] = i
        b.depth += 1
        box_search(b, filled | b.mask[i])
        b.depth -= 1
        b.copies[p] += 1


def box_count(int width, int depth, int height, masks, pieces, starts, images, copies,
              int64_t max_nodes=0) -> dict:
    """Count the exact covers of a W x D x H box by placements (``masks``/``pieces`` sorted by
    lowest cell, ``starts`` the index of each cell's first one) using each piece at most
    ``copies[p]`` times; also up to the symmetries whose placement images are ``images``
    (n_sym x n_placements, identity left out), and how many can be built under the placing
    rules.  ``max_nodes`` > 0 stops the search early (``complete`` False)."""
    cdef BoxSearch b
    memset(&b, 0, sizeof(BoxSearch))
    cdef uint64_t[::1] mv = np.ascontiguousarray(masks, dtype=np.uint64)
    cdef int32_t[::1] pv = np.ascontiguousarray(pieces, dtype=np.int32)
    cdef int32_t[::1] sv = np.ascontiguousarray(starts, dtype=np.int32)
    cdef int32_t[::1] iv = np.ascontiguousarray(np.asarray(images, dtype=np.int32).reshape(-1))
    cdef int x, y, c, n_cells = width * depth * height
    if n_cells > 63 or mv.shape[0] == 0 or sv.shape[0] != n_cells + 1:
        raise ValueError("bad box")
    b.n_cells = n_cells
    b.width = width
    b.layer = width * depth
    b.full = ((<uint64_t>1) << n_cells) - 1
    b.level0 = ((<uint64_t>1) << b.layer) - 1
    for c in range(n_cells):
        x = c % width
        y = (c // width) % depth
        if x != 0:
            b.nx0 |= (<uint64_t>1) << c
        if x != width - 1:
            b.nxw |= (<uint64_t>1) << c
        if y != 0:
            b.ny0 |= (<uint64_t>1) << c
        if y != depth - 1:
            b.nyd |= (<uint64_t>1) << c
    b.mask = &mv[0]
    b.piece = &pv[0]
    b.start = &sv[0]
    b.n_pl = mv.shape[0]
    b.n_sym = iv.shape[0] // b.n_pl
    b.img = &iv[0] if b.n_sym else NULL
    b.max_nodes = max_nodes
    for c in range(NPIECES):
        b.copies[c] = copies[c]
    with nogil:
        box_search(&b, 0)
    return {"tilings": b.tilings, "classes": b.classes, "buildable": b.buildable,
            "buildable_classes": b.buildable_classes, "nodes": b.nodes, "complete": not b.stopped,
            "example": [b.example[i] for i in range(b.example_n)]}
