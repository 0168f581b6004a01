# cython: language_level=3
"""Exact cover by dancing links (Knuth's Algorithm X / DLX1) with multiplicities, secondary items
and a colouring check at the leaves.

Items ``0 .. n_items-1``; the first ``n_primary`` must be covered, the rest (secondary) at most once.
A primary item may have a multiplicity m > 1 ("exactly m options contain it"): that is how identical
pieces are merged into one item with a count, so the search never permutes copies.  Branching is on
the primary item with the fewest remaining options (items with multiplicity > 1 are only branched on
when one use is left); ties go to the lowest index, the option order can be shuffled by a seed.

Leaf check (optional, for "tile first, then colour"): every option belongs to a group (a piece
shape); group g must receive colour c exactly ``need[g, c]`` times, and with ``no_edge`` two options
that share a board edge must get different colours.  A tiling whose colouring fails is rejected and
the search goes on, so the search stays complete.

The search runs in C on flat int arrays; Python objects are only touched when a solution is stored.
"""

from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memcpy, memset
from libc.stdint cimport uint64_t, uint32_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from rng cimport Rng, rng_seed, rng_below, rng_double

import numpy as np

cdef enum:
    EXHAUSTED = 0
    SOLUTION_LIMIT = 1
    NODE_LIMIT = 2
    TIME_LIMIT = 3


cdef double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef class ExactCover:
    """One exact-cover problem; :meth:`search` may be called repeatedly (e.g. with new seeds)."""

    cdef int n_items, n_primary, n_opts, n_nodes
    cdef int *llink
    cdef int *rlink
    cdef int *top
    cdef int *ulink
    cdef int *dlink
    cdef int *length
    cdef int *mult
    cdef int *rem
    cdef int *opt_of_node      # option index of each option node (-1 for headers/spacers)
    cdef int *first_node       # first node of each option
    cdef int *choice           # chosen option node per level
    cdef int *buf              # shuffled option lists, one segment per level
    # colouring
    cdef int n_groups, n_colours, n_cells, n_edges
    cdef bint no_edge, colour_check
    cdef int *opt_group
    cdef int *need
    cdef int *edges
    cdef int *owner
    cdef int *remc
    cdef char *adj
    cdef int *colour_of
    cdef int max_depth
    # search state
    cdef Rng rng
    cdef bint shuffle
    cdef long long nodes, node_limit, leaves, max_solutions, n_found, leaf_limit
    cdef int partial_from, partial_every
    cdef long long colour_steps, colour_budget
    cdef long long partial_cuts
    cdef double deadline
    cdef int stop
    cdef object solutions
    cdef object colourings
    cdef bint store

    def __cinit__(self):
        self.llink = self.rlink = self.top = self.ulink = self.dlink = NULL
        self.length = self.mult = self.rem = self.opt_of_node = self.first_node = NULL
        self.choice = self.buf = self.opt_group = self.need = self.edges = NULL
        self.owner = self.remc = self.colour_of = NULL
        self.adj = NULL

    def __dealloc__(self):
        free(self.llink); free(self.rlink); free(self.top); free(self.ulink); free(self.dlink)
        free(self.length); free(self.mult); free(self.rem); free(self.opt_of_node); free(self.first_node)
        free(self.choice); free(self.buf); free(self.opt_group); free(self.need); free(self.edges)
        free(self.owner); free(self.remc); free(self.colour_of); free(self.adj)

    def __init__(self, int n_items, int n_primary, options, multiplicity=None,
                 groups=None, need=None, edges=None, int n_cells=0, bint no_edge=False):
        """``options``: list of item lists.  ``multiplicity``: per primary item (default 1).

        For the leaf colouring give ``groups`` (group id per option), ``need`` (an n_groups x
        n_colours int array of required colour counts), ``edges`` (pairs of cell items, cells being
        items ``0 .. n_cells-1``) and ``no_edge``.
        """
        cdef int i, j, k, p, n, last_spacer
        self.n_items = n_items
        self.n_primary = n_primary
        self.n_opts = len(options)
        total = sum(len(o) for o in options)
        self.n_nodes = n_items + 1 + total + self.n_opts + 1
        N = self.n_nodes
        self.llink = <int*>calloc(n_items + 2, sizeof(int))
        self.rlink = <int*>calloc(n_items + 2, sizeof(int))
        self.length = <int*>calloc(n_items + 2, sizeof(int))
        self.mult = <int*>calloc(n_items + 2, sizeof(int))
        self.rem = <int*>calloc(n_items + 2, sizeof(int))
        self.top = <int*>calloc(N, sizeof(int))
        self.ulink = <int*>calloc(N, sizeof(int))
        self.dlink = <int*>calloc(N, sizeof(int))
        self.opt_of_node = <int*>calloc(N, sizeof(int))
        self.first_node = <int*>calloc(self.n_opts + 1, sizeof(int))
        self.buf = <int*>calloc(self.n_opts + 1, sizeof(int))
        self.choice = <int*>calloc(n_items + 2, sizeof(int))
        if (self.llink == NULL or self.rlink == NULL or self.top == NULL or self.ulink == NULL
                or self.dlink == NULL or self.buf == NULL or self.choice == NULL):
            raise MemoryError()
        # items are 1-based inside (0 is the root of the primary list)
        for i in range(1, n_items + 1):
            self.mult[i] = 1
            self.ulink[i] = i
            self.dlink[i] = i
            self.top[i] = i
            self.opt_of_node[i] = -1
        if multiplicity is not None:
            for i, m in enumerate(multiplicity):
                if m < 1:
                    raise ValueError("multiplicity must be >= 1")
                self.mult[i + 1] = m
        # primary list
        self.rlink[0] = 1 if n_primary > 0 else 0
        self.llink[0] = n_primary
        for i in range(1, n_primary + 1):
            self.llink[i] = i - 1
            self.rlink[i] = i + 1 if i < n_primary else 0
        for i in range(n_primary + 1, n_items + 1):
            self.llink[i] = i
            self.rlink[i] = i
        p = n_items + 1
        self.top[p] = 0
        self.opt_of_node[p] = -1
        last_spacer = p
        for k, opt in enumerate(options):
            if len(opt) == 0:
                raise ValueError("empty option")
            self.first_node[k] = p + 1
            for it in opt:
                j = int(it) + 1
                if j < 1 or j > n_items:
                    raise ValueError("item out of range")
                p += 1
                self.top[p] = j
                self.opt_of_node[p] = k
                self.length[j] += 1
                self.ulink[p] = self.ulink[j]
                self.dlink[self.ulink[j]] = p
                self.dlink[p] = j
                self.ulink[j] = p
            self.dlink[last_spacer] = p       # spacer: dlink = last node of the next option
            p += 1
            self.top[p] = -(k + 1)
            self.opt_of_node[p] = -1
            self.ulink[p] = self.first_node[k]  # spacer: ulink = first node of the previous option
            last_spacer = p
        self.dlink[last_spacer] = 0
        self.max_depth = n_items + 1
        # colouring data
        self.colour_check = groups is not None and need is not None
        self.n_cells = n_cells
        self.no_edge = no_edge
        if self.colour_check:
            need_arr = np.ascontiguousarray(need, dtype=np.intc)
            self.n_groups, self.n_colours = need_arr.shape[0], need_arr.shape[1]
            self.opt_group = <int*>malloc(max(1, self.n_opts) * sizeof(int))
            for k, g in enumerate(groups):
                self.opt_group[k] = g
            self.need = <int*>malloc(max(1, self.n_groups * self.n_colours) * sizeof(int))
            self.remc = <int*>malloc(max(1, self.n_groups * self.n_colours) * sizeof(int))
            for i in range(self.n_groups):
                for j in range(self.n_colours):
                    self.need[i * self.n_colours + j] = need_arr[i, j]
            edge_list = list(edges or [])
            self.n_edges = len(edge_list)
            self.edges = <int*>malloc(max(1, 2 * self.n_edges) * sizeof(int))
            for k, (a, b) in enumerate(edge_list):
                self.edges[2 * k] = a
                self.edges[2 * k + 1] = b
            self.owner = <int*>malloc(max(1, n_cells) * sizeof(int))
            self.adj = <char*>malloc(self.max_depth * self.max_depth)
            self.colour_of = <int*>malloc(self.max_depth * sizeof(int))

    # ---- dancing links -------------------------------------------------------------------------

    cdef inline void hide(self, int p) noexcept nogil:
        cdef int q = p + 1, x, u, d
        while q != p:
            x = self.top[q]
            u = self.ulink[q]
            if x <= 0:
                q = u
            else:
                d = self.dlink[q]
                self.dlink[u] = d
                self.ulink[d] = u
                self.length[x] -= 1
                q += 1

    cdef inline void unhide(self, int p) noexcept nogil:
        cdef int q = p - 1, x, u, d
        while q != p:
            x = self.top[q]
            d = self.dlink[q]
            if x <= 0:
                q = d
            else:
                u = self.ulink[q]
                self.dlink[u] = q
                self.ulink[d] = q
                self.length[x] += 1
                q -= 1

    cdef inline void cover(self, int i) noexcept nogil:
        cdef int p = self.dlink[i], l, r
        while p != i:
            self.hide(p)
            p = self.dlink[p]
        l = self.llink[i]
        r = self.rlink[i]
        self.rlink[l] = r
        self.llink[r] = l

    cdef inline void uncover(self, int i) noexcept nogil:
        cdef int l = self.llink[i], r = self.rlink[i], p
        self.rlink[l] = i
        self.llink[r] = i
        p = self.ulink[i]
        while p != i:
            self.unhide(p)
            p = self.ulink[p]

    cdef inline void commit(self, int j) noexcept nogil:
        if self.mult[j] > 1:
            self.rem[j] -= 1
            if self.rem[j] == 0:
                self.cover(j)
        else:
            self.cover(j)

    cdef inline void uncommit(self, int j) noexcept nogil:
        if self.mult[j] > 1:
            if self.rem[j] == 0:
                self.uncover(j)
            self.rem[j] += 1
        else:
            self.uncover(j)

    # ---- colouring at a leaf -------------------------------------------------------------------

    cdef bint colour_leaf(self, int depth):
        """Colour the chosen options; True (and colour_of filled) if the counts/edge rule allow it."""
        cdef int n = depth, k, p, j, a, b, oa, ob, C = self.n_colours
        memset(self.adj, 0, n * n)
        for k in range(self.n_cells):
            self.owner[k] = -1
        for k in range(n):
            p = self.choice[k]
            # walk the whole option from its first node
            p = self.first_node[self.opt_of_node[p]]
            while self.top[p] > 0:
                j = self.top[p] - 1
                if j < self.n_cells:
                    self.owner[j] = k
                p += 1
        if self.no_edge:
            for k in range(self.n_edges):
                a = self.edges[2 * k]
                b = self.edges[2 * k + 1]
                oa = self.owner[a]
                ob = self.owner[b]
                if oa >= 0 and ob >= 0 and oa != ob:
                    self.adj[oa * n + ob] = 1
                    self.adj[ob * n + oa] = 1
        memcpy(self.remc, self.need, self.n_groups * C * sizeof(int))
        for k in range(n):
            self.colour_of[k] = -1
        self.colour_steps = 0
        return self.colour_rec(n, n)

    cdef bint colour_rec(self, int n, int left):
        """Backtracking colouring: most constrained uncoloured piece first."""
        cdef int k, c, g, best = -1, best_cnt = 1 << 30, cnt, m, C = self.n_colours
        if left == 0:
            return True
        self.colour_steps += 1
        if self.colour_budget > 0 and self.colour_steps > self.colour_budget:
            return True   # undecided within the budget: do not cut (partial checks only)
        for k in range(n):
            if self.colour_of[k] >= 0:
                continue
            g = self.opt_group[self.opt_of_node[self.choice[k]]]
            cnt = 0
            for c in range(C):
                if self.remc[g * C + c] > 0 and self.colour_free(n, k, c):
                    cnt += 1
            if cnt < best_cnt:
                best_cnt = cnt
                best = k
                if cnt == 0:
                    return False
        k = best
        g = self.opt_group[self.opt_of_node[self.choice[k]]]
        for c in range(C):
            if self.remc[g * C + c] > 0 and self.colour_free(n, k, c):
                self.colour_of[k] = c
                self.remc[g * C + c] -= 1
                if self.colour_rec(n, left - 1):
                    return True
                self.remc[g * C + c] += 1
                self.colour_of[k] = -1
        return False

    cdef inline bint colour_free(self, int n, int k, int c) noexcept:
        cdef int m
        if not self.no_edge:
            return True
        for m in range(n):
            if self.colour_of[m] == c and self.adj[k * n + m]:
                return False
        return True

    # ---- the search ----------------------------------------------------------------------------

    cdef int choose(self) noexcept nogil:
        """Primary item with fewest options (0 if a dead end is detected, -1 if all covered)."""
        cdef int i = self.rlink[0], best = -1, best_len = 1 << 30, L
        if i == 0:
            return -1
        while i != 0:
            L = self.length[i]
            if self.mult[i] > 1:
                if L < self.rem[i]:
                    return 0
                if self.rem[i] == 1 and L < best_len:
                    best_len = L
                    best = i
            elif L < best_len:
                best_len = L
                best = i
                if L == 0:
                    return 0
            i = self.rlink[i]
        return best if best > 0 else 0

    cdef bint partial_ok(self, int depth):
        cdef bint ok
        self.colour_budget = 64
        ok = self.colour_leaf(depth)
        self.colour_budget = 0
        return ok

    cdef int record(self, int depth) except -1:
        cdef int k
        if self.colour_check and not self.colour_leaf(depth):
            if self.leaf_limit > 0 and self.leaves >= self.leaf_limit:
                self.stop = NODE_LIMIT
            return 0
        self.n_found += 1
        if self.store:
            self.solutions.append([self.opt_of_node[self.choice[k]] for k in range(depth)])
            if self.colour_check:
                self.colourings.append([self.colour_of[k] for k in range(depth)])
        if self.max_solutions > 0 and self.n_found >= self.max_solutions:
            self.stop = SOLUTION_LIMIT
        return 0

    cdef int rec(self, int depth, int sp) except -1:
        cdef int i, p, q, j, n, k, t
        self.nodes += 1
        if (self.nodes & 1023) == 0:
            if self.node_limit > 0 and self.nodes >= self.node_limit:
                self.stop = NODE_LIMIT
                return 0
            if self.deadline > 0 and now() > self.deadline:
                self.stop = TIME_LIMIT
                return 0
        i = self.choose()
        if i < 0:
            self.leaves += 1
            return self.record(depth)
        if i == 0:
            return 0
        if (self.colour_check and self.partial_from > 0 and depth >= self.partial_from
                and depth % self.partial_every == 0 and not self.partial_ok(depth)):
            self.partial_cuts += 1
            return 0
        self.cover(i)
        if self.mult[i] > 1:
            self.rem[i] -= 1
        # snapshot the options of i (the list does not change below this level)
        n = 0
        p = self.dlink[i]
        while p != i:
            self.buf[sp + n] = p
            n += 1
            p = self.dlink[p]
        if self.shuffle and n > 1:
            for k in range(n - 1, 0, -1):
                j = <int>rng_below(&self.rng, <uint32_t>(k + 1))
                t = self.buf[sp + k]
                self.buf[sp + k] = self.buf[sp + j]
                self.buf[sp + j] = t
        for k in range(n):
            p = self.buf[sp + k]
            self.choice[depth] = p
            q = p + 1
            while q != p:
                j = self.top[q]
                if j <= 0:
                    q = self.ulink[q]
                else:
                    self.commit(j)
                    q += 1
            self.rec(depth + 1, sp + n)
            q = p - 1
            while q != p:
                j = self.top[q]
                if j <= 0:
                    q = self.dlink[q]
                else:
                    self.uncommit(j)
                    q -= 1
            if self.stop:
                break
        if self.mult[i] > 1:
            self.rem[i] += 1
        self.uncover(i)
        return 0

    def search(self, long long max_solutions=1, double time_limit=0.0, long long node_limit=0,
               uint64_t seed=0, bint shuffle=False, bint store=True, long long leaf_limit=0,
               int partial_from=0, int partial_every=1):
        """Run the search; returns a dict with ``status`` ("exhausted", "solution-limit",
        "node-limit", "time-limit"; a ``leaf_limit`` of rejected tilings also ends the run as
        "node-limit"), ``count`` (accepted solutions), ``solutions`` (lists of option
        indices), ``colours`` (colour index per chosen option, if colouring), ``nodes``, ``leaves``
        (tilings reached, including rejected ones), ``partial_cuts`` and ``seconds``.

        ``partial_from`` > 0 also colours the partial tiling at every ``partial_every``-th depth from
        that depth on and cuts the branch when it cannot be coloured (a sound cut: a full tiling
        containing it could not be coloured either)."""
        cdef int i
        cdef double t0 = now()
        for i in range(1, self.n_items + 1):
            self.rem[i] = self.mult[i]
        rng_seed(&self.rng, seed)
        self.shuffle = shuffle
        self.max_solutions = max_solutions
        self.node_limit = node_limit
        self.leaf_limit = leaf_limit
        self.partial_from = partial_from
        self.partial_every = max(1, partial_every)
        self.partial_cuts = 0
        self.colour_budget = 0
        self.deadline = t0 + time_limit if time_limit > 0 else 0.0
        self.nodes = self.leaves = self.n_found = 0
        self.stop = EXHAUSTED
        self.store = store
        self.solutions = []
        self.colourings = []
        self.rec(0, 0)
        status = ("exhausted", "solution-limit", "node-limit", "time-limit")[self.stop]
        return {"status": status, "count": self.n_found, "solutions": self.solutions,
                "colours": self.colourings, "nodes": self.nodes, "leaves": self.leaves,
                "partial_cuts": self.partial_cuts,
                "seconds": now() - t0}


# ==================================================================================================
# Packing under the Blokus game rules (the search behind all-84 / all-84-descending)
# ==================================================================================================

cdef class RulePacker:
    """Depth-first placement of coloured pieces as legal Blokus moves, largest pieces first.

    At each step the (colour, piece) of the current largest size with the fewest legal moves is
    placed next (fail first); its moves are tried best first by a packing score (free sides of the
    piece touching walls or other pieces, plus seeded noise), at most ``branch`` of them per step.
    Node budgets and restarts with new seeds are driven from Python.  Every placement is a legal
    move when made, so a complete run is a solution in descending order.
    """

    cdef int W, H, n, P, C, total
    cdef int *blocked
    cdef int *owner           # colour on a cell, -1 free, -2 blocked
    cdef int *forb            # C * n: cell edge-adjacent to colour c
    cdef int *att             # C * n: cell diagonal to colour c
    cdef int *pl_start        # placement -> first cell in pl_cells
    cdef int *pl_cells
    cdef int *pl_piece
    cdef int *pc_start        # (piece * n + cell) -> list of placements of piece covering cell
    cdef int *pc_list
    cdef int *size            # piece -> size
    cdef int *rem             # C * P remaining copies
    cdef int *rem0            # C * P copies at the start
    cdef int *stamp
    cdef int *cand            # candidate buffer, per depth segment
    cdef int *candc
    cdef double *score
    cdef int *chosen
    cdef int *chosen_c
    cdef int n_pl, stamp_id, branch
    cdef double noise, w_waste, w_grow, w_dist
    cdef long long nodes, node_limit
    cdef double deadline
    cdef int stop, max_depth
    cdef Rng rng

    def __cinit__(self):
        self.blocked = self.owner = self.forb = self.att = NULL
        self.pl_start = self.pl_cells = self.pl_piece = self.pc_start = self.pc_list = NULL
        self.size = self.rem = self.stamp = self.cand = self.candc = self.chosen = self.chosen_c = NULL
        self.score = NULL

    def __dealloc__(self):
        free(self.blocked); free(self.owner); free(self.forb); free(self.att); free(self.pl_start)
        free(self.pl_cells); free(self.pl_piece); free(self.pc_start); free(self.pc_list); free(self.size)
        free(self.rem); free(self.rem0); free(self.stamp); free(self.cand); free(self.candc); free(self.chosen)
        free(self.chosen_c); free(self.score); free(self.rot)

    def __init__(self, int width, int height, blocked, piece_sizes, placements, counts, corners, rotation=None):
        """``placements``: list of (piece index, cell list) with cells as ``y * width + x``;
        ``counts``: C x P copies; ``corners``: the root cell of each colour.

        ``rotation`` (optional, square boards, 4 colours with the same pieces, corners in quarter-turn
        order): the index of each placement's quarter-turn image, or -1 if the placement overlaps one
        of its own images.  Then only colour 0 chooses and every move is made 4-fold symmetric (colour
        k gets the k-th quarter turn): a heuristic restriction to symmetric solutions."""
        cdef int i, k, c, p, cell
        self.W, self.H, self.n = width, height, width * height
        self.P = len(piece_sizes)
        self.C = len(counts)
        self.n_pl = len(placements)
        n = self.n
        self.blocked = <int*>calloc(n, sizeof(int))
        self.owner = <int*>calloc(n, sizeof(int))
        self.forb = <int*>calloc(self.C * n, sizeof(int))
        self.att = <int*>calloc(self.C * n, sizeof(int))
        self.size = <int*>calloc(self.P, sizeof(int))
        self.rem = <int*>calloc(self.C * self.P, sizeof(int))
        self.rem0 = <int*>calloc(self.C * self.P, sizeof(int))
        self.pl_start = <int*>calloc(self.n_pl + 1, sizeof(int))
        self.pl_piece = <int*>calloc(self.n_pl + 1, sizeof(int))
        self.stamp = <int*>calloc(self.n_pl + 1, sizeof(int))
        self.pc_start = <int*>calloc(self.P * n + 1, sizeof(int))
        for cell in blocked:
            self.blocked[cell] = 1
        for i, s in enumerate(piece_sizes):
            self.size[i] = s
        self.total = 0
        for c in range(self.C):
            for i in range(self.P):
                self.rem[c * self.P + i] = counts[c][i]
                self.rem0[c * self.P + i] = counts[c][i]
                self.total += counts[c][i]
        tot_cells = sum(len(cells) for _, cells in placements)
        self.pl_cells = <int*>calloc(tot_cells + 1, sizeof(int))
        self.pc_list = <int*>calloc(tot_cells + 1, sizeof(int))
        k = 0
        for p, (piece, cells) in enumerate(placements):
            self.pl_start[p] = k
            self.pl_piece[p] = piece
            for cell in cells:
                self.pl_cells[k] = cell
                k += 1
                self.pc_start[piece * n + cell + 1] += 1
        self.pl_start[self.n_pl] = k
        for i in range(self.P * n):
            self.pc_start[i + 1] += self.pc_start[i]
        fill = [0] * (self.P * n)
        for p, (piece, cells) in enumerate(placements):
            for cell in cells:
                j = piece * n + cell
                self.pc_list[self.pc_start[j] + fill[j]] = p
                fill[j] += 1
        self.corners = list(corners)
        if len(self.corners) != self.C or self.C > 64:
            raise ValueError("one corner per colour")
        for c in range(self.C):
            self.corner_cell[c] = self.corners[c]
        buf = max(1, self.n_pl) * 2 + 1000
        self.cand = <int*>calloc(buf * 2, sizeof(int))
        self.candc = <int*>calloc(buf * 2, sizeof(int))
        self.score = <double*>calloc(buf * 2, sizeof(double))
        self.rot = NULL
        self.n_active = self.C
        if rotation is not None:
            self.rot = <int*>calloc(self.n_pl + 1, sizeof(int))
            for p, r in enumerate(rotation):
                self.rot[p] = r
            self.n_active = 1
            self.total = sum(counts[0])
        self.chosen = <int*>calloc(self.total + 1, sizeof(int))
        self.chosen_c = <int*>calloc(self.total + 1, sizeof(int))

    cdef object corners
    cdef int corner_cell[64]
    cdef int *rot            # symmetric mode: placement -> its quarter-turn image (NULL: off)
    cdef int n_active        # colours that choose moves (1 in symmetric mode)
    cdef public int deepest
    cdef public object best_partial

    cdef void place(self, int p, int c, int sign) noexcept nogil:
        cdef int k, cell, x, y, n = self.n
        for k in range(self.pl_start[p], self.pl_start[p + 1]):
            cell = self.pl_cells[k]
            self.owner[cell] = c if sign > 0 else -1
            x = cell % self.W
            y = cell // self.W
            if x > 0:
                self.forb[c * n + cell - 1] += sign
            if x < self.W - 1:
                self.forb[c * n + cell + 1] += sign
            if y > 0:
                self.forb[c * n + cell - self.W] += sign
            if y < self.H - 1:
                self.forb[c * n + cell + self.W] += sign
            if x > 0 and y > 0:
                self.att[c * n + cell - self.W - 1] += sign
            if x < self.W - 1 and y > 0:
                self.att[c * n + cell - self.W + 1] += sign
            if x > 0 and y < self.H - 1:
                self.att[c * n + cell + self.W - 1] += sign
            if x < self.W - 1 and y < self.H - 1:
                self.att[c * n + cell + self.W + 1] += sign

    cdef void place_all(self, int p, int c, int sign) noexcept nogil:
        """Place (or remove) p for colour c, and in symmetric mode its three quarter-turn images."""
        cdef int k
        self.place(p, c, sign)
        if self.rot != NULL:
            for k in range(1, self.C):
                p = self.rot[p]
                self.place(p, k, sign)

    cdef inline bint legal(self, int p, int c) noexcept nogil:
        cdef int k, cell
        for k in range(self.pl_start[p], self.pl_start[p + 1]):
            cell = self.pl_cells[k]
            if self.owner[cell] != -1 or self.forb[c * self.n + cell]:
                return False
        return True

    cdef inline int is_wall(self, int x, int y) noexcept nogil:
        if x < 0 or y < 0 or x >= self.W or y >= self.H:
            return 1
        return 1 if self.owner[y * self.W + x] != -1 else 0

    cdef bint in_piece(self, int p, int cell) noexcept nogil:
        cdef int j
        for j in range(self.pl_start[p], self.pl_start[p + 1]):
            if self.pl_cells[j] == cell:
                return True
        return False

    cdef double place_score(self, int p, int c) noexcept nogil:
        """Packing score of placing p for colour c: sides touching walls or other pieces, minus
        free neighbour cells left unusable by every colour (edge-adjacent to all of them, or walled
        in), plus new corner cells the colour can grow from."""
        cdef int k, cell, x, y, d, nx, ny, nb, cc, dead, walls, snug = 0, waste = 0, grow = 0, e
        cdef int a = self.pl_start[p], b = self.pl_start[p + 1], n = self.n
        for k in range(a, b):
            cell = self.pl_cells[k]
            x = cell % self.W
            y = cell // self.W
            for d in range(8):
                nx = x + (1 if d in (0, 4, 6) else (-1 if d in (1, 5, 7) else 0))
                ny = y + (1 if d in (2, 4, 5) else (-1 if d in (3, 6, 7) else 0))
                if nx < 0 or ny < 0 or nx >= self.W or ny >= self.H:
                    if d < 4:
                        snug += 1
                    continue
                nb = ny * self.W + nx
                if self.in_piece(p, nb):
                    continue
                if d < 4:
                    if self.owner[nb] != -1:
                        snug += 1
                        continue
                    dead = 1
                    for cc in range(self.C):
                        if cc != c and self.forb[cc * n + nb] == 0:
                            dead = 0
                    walls = 0
                    for e in range(4):
                        if self.is_wall_or(nx + (1 if e == 0 else (-1 if e == 1 else 0)),
                                           ny + (1 if e == 2 else (-1 if e == 3 else 0)), p):
                            walls += 1
                    if dead or walls == 4:
                        waste += 1
                elif self.owner[nb] == -1 and self.forb[c * n + nb] == 0 and self.att[c * n + nb] == 0:
                    grow += 1
        cdef double dist = 0
        cdef int cx = self.corner_cell[c] % self.W, cy = self.corner_cell[c] // self.W
        if self.w_dist != 0:
            for k in range(a, b):
                cell = self.pl_cells[k]
                dist += abs(cell % self.W - cx) + abs(cell // self.W - cy)
        return snug - self.w_waste * waste + self.w_grow * grow - self.w_dist * dist / (b - a)

    cdef inline int is_wall_or(self, int x, int y, int p) noexcept nogil:
        if x < 0 or y < 0 or x >= self.W or y >= self.H:
            return 1
        if self.owner[y * self.W + x] != -1:
            return 1
        return 1 if self.in_piece(p, y * self.W + x) else 0

    cdef int moves(self, int c, int q, int sp, int cap) noexcept nogil:
        """Legal placements of piece q for colour c into cand[sp..]; stops counting at cap."""
        cdef int cell, j, p, cnt = 0, n = self.n
        self.stamp_id += 1
        for cell in range(n):
            if self.att[c * n + cell] <= 0 or self.owner[cell] != -1 or self.forb[c * n + cell]:
                continue
            for j in range(self.pc_start[q * n + cell], self.pc_start[q * n + cell + 1]):
                p = self.pc_list[j]
                if self.stamp[p] == self.stamp_id:
                    continue
                self.stamp[p] = self.stamp_id
                if self.rot != NULL and self.rot[p] < 0:
                    continue
                if self.legal(p, c):
                    self.cand[sp + cnt] = p
                    cnt += 1
                    if cnt >= cap:
                        return cnt
        return cnt

    cdef int rec(self, int depth, int sp):
        cdef int c, q, best_c = -1, best_q = -1, best_n = 1 << 30, cnt, top = 0, k, j, p, tries
        cdef int any_left, any_move
        cdef double t
        if depth == self.total:
            return 1
        self.nodes += 1
        if depth > self.max_depth:
            self.max_depth = depth
            self.best_partial = [(self.chosen_c[k], self.chosen[k]) for k in range(depth)]
        if (self.nodes & 255) == 0:
            if self.node_limit > 0 and self.nodes >= self.node_limit:
                self.stop = NODE_LIMIT
                return 0
            if self.deadline > 0 and now() > self.deadline:
                self.stop = TIME_LIMIT
                return 0
        for c in range(self.n_active):
            for q in range(self.P):
                if self.rem[c * self.P + q] > 0 and self.size[q] > top:
                    top = self.size[q]
        # a colour is stuck when none of its pieces of the current size has a move (its own moves
        # are the only thing that can open new corners for it); otherwise fewest moves first
        for c in range(self.n_active):
            any_left = 0
            any_move = 0
            for q in range(self.P):
                if self.rem[c * self.P + q] > 0 and self.size[q] == top:
                    any_left = 1
                    cnt = self.moves(c, q, sp, best_n)
                    if cnt > 0:
                        any_move = 1
                        if cnt < best_n:
                            best_n, best_c, best_q = cnt, c, q
            if any_left and not any_move:
                return 0
        cnt = self.moves(best_c, best_q, sp, 1 << 30)
        for k in range(cnt):
            self.score[sp + k] = self.place_score(self.cand[sp + k], best_c) + self.noise * rng_double(&self.rng)
        # selection sort of the best `branch` moves to the front
        tries = cnt if cnt < self.branch else self.branch
        for k in range(tries):
            j = k
            for p in range(k + 1, cnt):
                if self.score[sp + p] > self.score[sp + j]:
                    j = p
            p = self.cand[sp + k]; self.cand[sp + k] = self.cand[sp + j]; self.cand[sp + j] = p
            t = self.score[sp + k]; self.score[sp + k] = self.score[sp + j]; self.score[sp + j] = t
        self.rem[best_c * self.P + best_q] -= 1
        for k in range(tries):
            p = self.cand[sp + k]
            self.place_all(p, best_c, 1)
            self.chosen[depth] = p
            self.chosen_c[depth] = best_c
            if self.rec(depth + 1, sp + cnt):
                return 1
            self.place_all(p, best_c, -1)
            if self.stop:
                break
        self.rem[best_c * self.P + best_q] += 1
        return 0

    def search(self, long long node_limit=0, double time_limit=0.0, uint64_t seed=0, int branch=2,
               double noise=1.0, double w_waste=3.0, double w_grow=0.3, double w_dist=0.0):
        """One depth-first run from the empty board; returns (status, [(colour, placement)...], nodes).

        ``deepest`` afterwards holds the most pieces placed at once in the run."""
        cdef int i, c, ok, p
        cdef double t0 = now()
        for i in range(self.n):
            self.owner[i] = -2 if self.blocked[i] else -1
        memset(self.forb, 0, self.C * self.n * sizeof(int))
        memset(self.att, 0, self.C * self.n * sizeof(int))
        memcpy(self.rem, self.rem0, self.C * self.P * sizeof(int))
        for c in range(self.C):
            self.att[c * self.n + <int>self.corners[c]] = 1          # the first move must cover the colour's corner
        rng_seed(&self.rng, seed)
        self.node_limit = node_limit
        self.deadline = t0 + time_limit if time_limit > 0 else 0.0
        self.nodes = 0
        self.max_depth = 0
        self.stop = EXHAUSTED
        self.branch = branch
        self.noise = noise
        self.w_waste = w_waste
        self.w_grow = w_grow
        self.w_dist = w_dist
        ok = self.rec(0, 0)
        self.deepest = self.max_depth
        if ok:
            out = []
            for i in range(self.total):
                out.append((self.chosen_c[i], self.chosen[i]))
                if self.rot != NULL:
                    p = self.chosen[i]
                    for c in range(1, self.C):
                        p = self.rot[p]
                        out.append((c, p))
            return "solved", out, self.nodes
        return ("exhausted", "solution-limit", "node-limit", "time-limit")[self.stop], [], self.nodes
