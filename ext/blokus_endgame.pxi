# ---------------------------------------------------------------- exact endgame (two sides)
#
# Included by blokus.pyx after the tree search's helpers.  Near the end of a two-sided game
# (Duo, classic-2, trigon-2, two teams) few placements are left, and the game can be searched
# to its very end: minimax with alpha-beta on the final margin (side 0's score minus side 1's),
# a transposition table (the same placements in another order give the same position, which in
# a Blokus endgame -- colours filling separate corners -- is the rule, not the exception), the
# table's move first, then the bigger pieces.  A node budget and a deadline bound the work: a
# search that runs over either says so, and the caller falls back on the tree search.
#
# The usual question is only win, draw or loss (a window of (-1, 1) around 0); a wider window
# gives the margin itself.  Written from the rules: the score is ``colour_score``'s, the passes
# ``skip_passes``' (a colour without a move is out for good).

from libc.stdlib cimport calloc

DEF EG_STACK = 4 * MAXLIST        # one stack of move lists for all plies of the search
DEF EG_TT_BITS = 18               # transposition table: 2 ** EG_TT_BITS entries
DEF EG_EXACT = 0
DEF EG_LOWER = 1                  # the true value is at least the stored one
DEF EG_UPPER = 2                  # ... at most
DEF EG_INF = 10000                # beyond any margin


cdef struct EgEntry:
    uint64_t key          # 0: empty
    int32_t best          # the best move found (-1: none)
    int16_t value
    int16_t flag


cdef struct Endgame:
    EgEntry* table
    move_t* stack
    const Config* cfg
    int64_t nodes         # positions visited by the current solve
    int64_t max_nodes     # > 0: give up past this many
    double deadline       # > 0: give up at this time (``now_seconds``)
    const int* halt       # not NULL: give up once it is set (``Search.halt``: pondering ends)
    int no_table          # 1: neither read nor write the table (the tests' check of it)
    int aborted


cdef int endgame_alloc(Endgame* x) noexcept nogil:
    x.halt = NULL
    x.no_table = 0
    x.table = <EgEntry*>calloc(1 << EG_TT_BITS, sizeof(EgEntry))
    x.stack = <move_t*>malloc(EG_STACK * sizeof(move_t))
    if x.table and x.stack:
        return 1
    endgame_free(x)
    return 0


cdef void endgame_free(Endgame* x) noexcept nogil:
    cfree(x.table)
    cfree(x.stack)
    x.table = NULL
    x.stack = NULL


cdef inline uint64_t eg_mix(uint64_t z) noexcept nogil:
    """A well-spread 64-bit word for ``z`` (splitmix64's finaliser): a covered cell's, a
    monomino finish's or a turn's share of a position's key."""
    z += <uint64_t>0x9E3779B97F4A7C15ULL
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t eg_cell_key(int k, int row, int x) noexcept nogil:
    return eg_mix(((<uint64_t>k * MAXROWS + row) << 6) | <uint64_t>x)


cdef uint64_t eg_placement_key(const State* s, int k, int code) noexcept nogil:
    """The key's change when colour k places ``code`` in ``s`` (before it is played): a word
    per cell covered, and one more if it is the colour's last piece and the monomino (the
    score's +5).  A position's key thus depends only on which colour covers which cell (same-
    coloured pieces never share an edge, so the cells also tell the pieces placed), not on the
    order of the placements: the same position reached in another order, or in a later move's
    search, finds the same entry."""
    cdef const PieceTables* T = tables(s)
    cdef int o, r, c, i, x
    cdef uint64_t m, key = 0
    decode(s, code, &o, &r, &c)
    for i in range(T.o_h[o]):
        m = T.o_rows[o][i] << c
        while m:
            x = ctz64(m)
            m &= m - 1
            key ^= eg_cell_key(k, r + i, x)
    if s.c[k].left == ((<uint32_t>1) << T.o_piece[o]) and T.o_piece[o] == T.monomino:
        key ^= eg_mix(0x40000000 + <uint64_t>k)
    return key


cdef uint64_t eg_position_key(const State* s) noexcept nogil:
    """``eg_placement_key``'s sum over the placements on the board of ``s``."""
    cdef int k, y, x
    cdef uint64_t m, key = 0
    for k in range(s.n_colours):
        for y in range(s.height):
            m = s.c[k].own[y]
            while m:
                x = ctz64(m)
                m &= m - 1
                key ^= eg_cell_key(k, y, x)
        if s.c[k].left == 0 and s.c[k].last_piece == tables(s).monomino:
            key ^= eg_mix(0x40000000 + <uint64_t>k)
    return key


cdef inline int eg_size(const State* s, int code) noexcept nogil:
    cdef int o, r, c
    decode(s, code, &o, &r, &c)
    return tables(s).o_ncells[o]


cdef int eg_order(const State* s, move_t* moves, int n, int first_code) noexcept nogil:
    """Put ``first_code`` (if among the moves) first, then the rest by piece size, biggest
    first (a stable bucket pass through the space after the list, which must hold n more)."""
    cdef move_t* tmp = moves + n
    cdef int i, size, j = 0, start = 0
    cdef int count[MAXCELLS + 2]
    cdef int at[MAXCELLS + 2]
    for size in range(MAXCELLS + 2):
        count[size] = 0
    if first_code >= 0:
        for i in range(n):
            if <int>moves[i] == first_code:
                moves[i] = moves[0]
                moves[0] = first_code
                start = 1
                break
    for i in range(start, n):
        count[eg_size(s, moves[i])] += 1
    j = start
    for size in range(MAXCELLS + 1, -1, -1):
        at[size] = j
        j += count[size]
    for i in range(start, n):
        size = eg_size(s, moves[i])
        tmp[at[size]] = moves[i]
        at[size] += 1
    for i in range(start, n):
        moves[i] = tmp[i]
    return n


cdef int eg_search(Endgame* x, State* s, uint64_t key, int alpha, int beta, int top,
                   int32_t* best_out) noexcept nogil:
    """Minimax value (side 0's final margin) of ``s`` (``to_play`` not yet past the passes, which
    the search marks in ``s`` itself: the caller passes a copy it may spend;
    ``key``: ``eg_position_key`` of it) within the window (alpha, beta), fail-soft: a value <= alpha
    is an upper bound, >= beta a lower one.  ``best_out`` gets the move chosen (-1: none)."""
    cdef const Config* cfg = x.cfg
    cdef State child
    cdef int k, n, i, v, best, maxing, code, a0, b0, first_code = -1
    cdef int32_t best_code = -1, dummy
    cdef int sc[MAXCOLOURS]
    cdef uint64_t tkey
    cdef EgEntry* e
    best_out[0] = -1
    x.nodes += 1
    if x.max_nodes > 0 and x.nodes > x.max_nodes:
        x.aborted = 1
    if (x.nodes & 255) == 0:
        if x.deadline > 0 and now_seconds() > x.deadline:
            x.aborted = 1
        if x.halt != NULL and read_flag(x.halt):
            x.aborted = 1
    if x.aborted:
        return 0
    if not skip_passes(s):
        side_scores(cfg, s, sc)
        return sc[0] - sc[1]
    k = s.to_play
    tkey = key ^ eg_mix(<uint64_t>0xE11D0000ULL + <uint64_t>k)
    if tkey == 0:
        tkey = 1
    e = &x.table[tkey & ((1 << EG_TT_BITS) - 1)]
    if e.key == tkey and not x.no_table:
        if e.flag == EG_EXACT:
            best_out[0] = e.best
            return e.value
        if e.flag == EG_LOWER and e.value > alpha:
            alpha = e.value
        elif e.flag == EG_UPPER and e.value < beta:
            beta = e.value
        if alpha >= beta:
            best_out[0] = e.best
            return e.value
        first_code = e.best
    if top + 2 * MAXLIST > EG_STACK:   # deeper than the stack holds: give up
        x.aborted = 1
        return 0
    n = gen_moves(s, k, x.stack + top)
    eg_order(s, x.stack + top, n, first_code)
    maxing = cfg.side_of[mover_of(cfg, s, k)] == 0
    a0 = alpha
    b0 = beta
    best = -EG_INF if maxing else EG_INF
    for i in range(n):
        code = x.stack[top + i]
        memcpy(&child, s, sizeof(State))
        do_move(cfg, &child, k, code)
        advance(&child)
        v = eg_search(x, &child, key ^ eg_placement_key(s, k, code), alpha, beta, top + n, &dummy)
        if x.aborted:
            return 0
        if maxing:
            if v > best:
                best = v
                best_code = code
                if v > alpha:
                    alpha = v
        else:
            if v < best:
                best = v
                best_code = code
                if v < beta:
                    beta = v
        if alpha >= beta:
            break
    best_out[0] = best_code
    if x.no_table:
        return best
    e.key = tkey
    e.best = best_code
    e.value = <int16_t>best
    if best <= a0:
        e.flag = EG_UPPER
    elif best >= b0:
        e.flag = EG_LOWER
    else:
        e.flag = EG_EXACT
    return best


cdef int endgame_solve(Endgame* x, const Config* cfg, const State* root, int alpha, int beta,
                       int64_t max_nodes, double max_seconds, int* value, int32_t* best) noexcept nogil:
    """Search ``root`` to the end of the game within the window (alpha, beta) (side 0's final
    margin; fail-soft as ``eg_search``), visiting at most ``max_nodes`` positions (if > 0) and
    for at most ``max_seconds`` (if > 0).  Returns 1 with ``value`` and the ``best`` move (-1:
    the colour to play has none) if it finished, 0 if it gave up.  The table is kept from one
    solve to the next (its keys are the positions'), so later solves in the same game are
    quick."""
    cdef int32_t code = -1
    cdef int v
    cdef State s
    memcpy(&s, root, sizeof(State))
    x.cfg = cfg
    x.nodes = 0
    x.max_nodes = max_nodes
    x.deadline = now_seconds() + max_seconds if max_seconds > 0 else 0
    x.aborted = 0
    v = eg_search(x, &s, eg_position_key(root), alpha, beta, 0, &code)
    if x.aborted:
        return 0
    value[0] = v
    best[0] = code
    return 1


DEF EG_NODES_PER_PLAYOUT = 10     # with a playout budget, the solve may visit endgame x this x it


cdef int legal_total(const State* s, move_t* buf) noexcept nogil:
    """Legal placements of all colours still in the game (the endgame search's size gauge)."""
    cdef int k, total = 0
    for k in range(s.n_colours):
        if not s.c[k].out:
            total += gen_moves(s, k, buf)
    return total


cdef int endgame_move(const Config* cfg, const SearchParams* sp, Endgame* x, const State* s,
                      int64_t playouts, double seconds, const int* halt, int32_t* code,
                      int* result) noexcept nogil:
    """The move the exact endgame search finds for the colour to play in ``s`` (``to_play``
    past the passes), if the position is small enough (at most ``endgame_moves`` legal
    placements of all colours together) and a search within ``endgame`` of the budget (a share
    of ``seconds``, or ``EG_NODES_PER_PLAYOUT`` positions per playout of ``playouts``) proves the
    game won or drawn for the mover: returns 1 and sets ``code`` and ``result`` (1: won, 0:
    drawn).  Otherwise 0 (the position is
    too large, the search gave up or ``halt`` was set, or every move loses against best play,
    where the tree search's practical chances are the better guide)."""
    cdef int value, side
    cdef int64_t max_nodes = 0
    cdef double max_seconds = 0
    if sp.endgame <= 0 or cfg.n_sides != 2 or not x.table:
        return 0
    if legal_total(s, x.stack) > sp.endgame_moves:
        return 0
    if seconds > 0:
        max_seconds = sp.endgame * seconds
    else:
        max_nodes = <int64_t>(sp.endgame * playouts * EG_NODES_PER_PLAYOUT)
        if max_nodes < 1:
            return 0
    x.halt = halt
    if not endgame_solve(x, cfg, s, -1, 1, max_nodes, max_seconds, &value, code):
        return 0
    side = cfg.side_of[mover_of(cfg, s, s.to_play)]
    if side != 0:
        value = -value
    if code[0] < 0 or value < 0:
        return 0
    result[0] = 1 if value > 0 else 0
    return 1


cdef int endgame_first(const Config* cfg, const SearchParams* sp, Endgame* x, const State* s,
                       int64_t playouts, double* seconds, const int* halt, int32_t* code,
                       int* result) noexcept nogil:
    """Before a tree search: ``endgame_move`` if ``endgame`` is on and the game has two sides
    (allocating ``x`` on first use).  Returns 1 if it found the move; otherwise a time budget
    ``seconds`` is cut to what the endgame search left (at least 5 % of it)."""
    cdef double started
    if sp.endgame <= 0 or cfg.n_sides != 2 or not (x.table or endgame_alloc(x)):
        return 0
    started = now_seconds()
    if endgame_move(cfg, sp, x, s, playouts, seconds[0], halt, code, result):
        return 1
    if seconds[0] > 0:
        seconds[0] = max(seconds[0] - (now_seconds() - started), seconds[0] * 0.05)
    return 0


cdef class EndgameSolver:
    """The exact endgame search (``endgame_solve``) of a two-sided variant, for Python: the
    tests and anyone asking whether a position is won.  Keeps its table between solves.

    ``player_of``, ``counted``, ``side_of``: the variant's tables, as for ``choose``; without
    ``table`` the search keeps no transposition table (slower: for checking the table)."""

    cdef Config cfg
    cdef Endgame x

    def __cinit__(self, player_of, counted, side_of, bint table=True):
        params = [0.0 if name == "learned" else value for name, value in SEARCH_PARAMS]
        config_from(&self.cfg, len(player_of), player_of, counted, side_of,
                    [(0, 1, 0, 0.0, params)] * len(side_of))
        if self.cfg.n_sides != 2:
            raise ValueError("the exact endgame search is for two sides")
        if not endgame_alloc(&self.x):
            raise MemoryError()
        self.x.no_table = 0 if table else 1

    def __dealloc__(self):
        endgame_free(&self.x)

    @property
    def nodes(self) -> int:
        """Positions the last ``solve`` visited (also when it gave up)."""
        return self.x.nodes

    def solve(self, Position pos, int64_t max_nodes=0, double max_seconds=0,
              int alpha=-EG_INF, int beta=EG_INF):
        """Search ``pos`` to the end: None if it gave up (``max_nodes``, ``max_seconds``), else
        ``{"value", "code", "colour", "nodes"}``: side 0's final margin under best play (within
        the window (alpha, beta); fail-soft: a value at or below alpha is an upper bound, at or
        above beta a lower one), the move of the colour to play that reaches it (-1: none; then
        ``colour`` is -1 too) and the positions visited."""
        cdef int value = 0, ok
        cdef int32_t code = -1
        cdef State root
        if alpha >= beta:
            raise ValueError("alpha must be below beta")
        memcpy(&root, &pos.s, sizeof(State))
        self.x.halt = NULL
        with nogil:
            ok = endgame_solve(&self.x, &self.cfg, &root, alpha, beta, max_nodes, max_seconds,
                               &value, &code)
            skip_passes(&root)
        if not ok:
            return None
        return {"value": value, "code": code, "colour": root.to_play if code >= 0 else -1,
                "nodes": self.x.nodes}
