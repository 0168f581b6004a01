# cython: language_level=3
"""The Game (Steffen Benndorf): the whole game loop, shuffling and strategies in C.

A game is a ``Game`` struct of plain C arrays; a variant is a small ``Variant`` struct of rule
parameters (minimum cards per turn with and without a draw pile, the set of fire cards) so that
new variants need no new code paths; a strategy is a ``Strategy`` struct (kind + numeric
parameters).  ``simulate_block`` plays a whole block of games without touching Python objects;
``play_deck`` plays one game from a given deck order and returns its turn log (used by
``thegame play``, by the differential tests and by the reference checks).

Piles 0 and 1 ascend from 1, piles 2 and 3 descend from 100.  A card is legal on an ascending pile
when it is higher than the top or exactly 10 lower; on a descending pile when it is lower or
exactly 10 higher.
"""

from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset
from cardset cimport cs_clz64, cs_ctz64, set_cards
from rng cimport Rng, rng_seed, rng_shuffle_int

import numpy as np


cdef enum:
    NCARDS = 98
    MAXP = 5
    MAXH = 8
    NPARAM = 16
    MAXTURNS = 100
    S_GREEDY = 0
    S_REACH = 1
    S_SIGNAL = 2
    S_PLANNER = 3
    BIG = 1000000

# parameter slots (solver/thegame/strategies.py maps names to these indices; ENUMS below exports them
# and tests/test_thegame_tables.py checks the two agree)
cdef enum:
    P_REACH = 0
    P_ENDGAME = 1
    P_SIG = 2
    P_PEN = 3
# planner slots
cdef enum:
    Q_DEAD = 0      # weight of a live card no pile accepts any more
    Q_W1 = 1        # ... accepted by exactly one pile
    Q_W2 = 2        # ... by two piles
    Q_W3 = 3        # ... by three piles
    Q_EXTRA = 4     # cost of each card beyond the minimum (draw pile not empty)
    Q_MAXX = 5      # largest skip (live cards) allowed for an extra card
    Q_EEXTRA = 6    # the same two once the draw pile is empty
    Q_EMAXX = 7
    Q_SIG = 8       # signal: "don't play here" when holding a card within this many live cards
    Q_SIGPEN = 9    # cost of a non-jump play on a pile a team mate asked to keep
    Q_FIRE = 10     # cost of leaving a fresh fire card on a pile
    Q_MARGIN = 11   # forced plays: only moves within this many skips of the cheapest are searched
    Q_JUMP = 12     # bonus for each kept hand card that is a 10-jump on some pile
    Q_OWN = 13      # extra weight (x acceptance weight) of the cards kept in one's own hand

#: The strategy kinds, parameter slots and limits above by the names the Python side gives them,
#: so that tests/test_thegame_tables.py checks solver/thegame/strategies.py against the engine.
ENUMS = {
    "kinds": {"greedy": S_GREEDY, "reach": S_REACH, "signal": S_SIGNAL, "planner": S_PLANNER},
    "slots": {
        "reach": {"reach": P_REACH, "endgame": P_ENDGAME},
        "signal": {"reach": P_REACH, "endgame": P_ENDGAME, "sig": P_SIG, "pen": P_PEN},
        "planner": {"dead": Q_DEAD, "w1": Q_W1, "w2": Q_W2, "w3": Q_W3, "extra": Q_EXTRA, "maxx": Q_MAXX,
                    "eextra": Q_EEXTRA, "emaxx": Q_EMAXX, "sig": Q_SIG, "sigpen": Q_SIGPEN, "fire": Q_FIRE,
                    "margin": Q_MARGIN, "jump": Q_JUMP, "own": Q_OWN},
    },
    "limits": {"params": NPARAM, "players": MAXP, "hand": MAXH, "cards": NCARDS},
}


cdef struct Variant:
    int min_play          # minimum cards per turn while the draw pile lasts
    int min_play_empty    # minimum once the draw pile is empty
    uint64_t fire_lo      # fire cards 0..63 as bits
    uint64_t fire_hi      # fire cards 64..127 as bits


cdef struct Strategy:
    int kind
    double p[NPARAM]


cdef struct Game:
    int players
    int hand_size
    int piles[4]
    int fire_turn[4]          # turn in which the current (fire) top was played, -1 if the top is not fire
    int deck[NCARDS]
    int deck_pos
    uint64_t hlo[MAXP]        # each player's hand as a card set: cards 0..63
    uint64_t hhi[MAXP]        # ... and cards 64..127
    int nh[MAXP]              # cards in each hand
    int live[101]             # 1 while the card is not on a pile (draw pile or a hand)
    int played
    int turn
    int win
    int cards_left
    int log_on
    int n_turns
    int turn_player[MAXTURNS]
    int turn_start[MAXTURNS + 1]
    int play_card[NCARDS]
    int play_pile[NCARDS]


cdef inline bint is_fire(const Variant* v, int c) noexcept nogil:
    cdef uint64_t w = v.fire_lo if c < 64 else v.fire_hi
    return (w >> (c & 63)) & 1


cdef inline bint legal(int pile, int top, int c) noexcept nogil:
    """The rule: higher (ascending) / lower (descending), or exactly 10 the other way."""
    if pile < 2:
        return c > top or c == top - 10
    return c < top or c == top + 10


cdef inline int num_gap(int pile, int top, int c) noexcept nogil:
    """Plain numeric gap of a legal play; a backward-10 play counts as -10; BIG if illegal.

    Written branch-free (the distance in the pile's direction decides everything) because this is
    the innermost test of the simple strategies.
    """
    cdef int d = c - top if pile < 2 else top - c
    cdef int gap = d if d > 0 else BIG
    return -10 if d == -10 else gap


# ---------------------------------------------------------------------------------------------
# feasibility: is there any sequence of `need` legal plays?  (exact DFS, fixed order)
# ---------------------------------------------------------------------------------------------

cdef bint feas_dfs(int* tops, const int* cards, int n, int used, int need,
                   int depth, int* oc, int* op) noexcept nogil:
    if depth == need:
        return True
    cdef int i, k, old
    for i in range(n):
        if (used >> i) & 1:
            continue
        for k in range(4):
            if legal(k, tops[k], cards[i]):
                old = tops[k]
                tops[k] = cards[i]
                oc[depth] = cards[i]
                op[depth] = k
                if feas_dfs(tops, cards, n, used | (1 << i), need, depth + 1, oc, op):
                    tops[k] = old
                    return True
                tops[k] = old
    return False


cdef inline int hand_cards(const Game* g, int p, int* out) noexcept nogil:
    """The cards of player p's hand in ascending order; returns how many."""
    return set_cards(g.hlo[p], g.hhi[p], out)


cdef int feasible_turn(Game* g, int p, int need, int* oc, int* op) noexcept nogil:
    """First sequence of exactly ``need`` plays in (card ascending, pile 0..3) DFS order, or 0."""
    cdef int tops[4]
    cdef int cards[MAXH]
    cdef int n = hand_cards(g, p, cards)
    memcpy(tops, g.piles, 4 * sizeof(int))
    if feas_dfs(tops, cards, n, 0, need, 0, oc, op):
        return need
    return 0


# ---------------------------------------------------------------------------------------------
# greedy / reach / signal
# ---------------------------------------------------------------------------------------------

# Hands are 128-bit card sets (two words): "smallest card above the top" is one bit scan.

cdef inline bint has_card(uint64_t lo, uint64_t hi, int c) noexcept nogil:
    cdef uint64_t w = lo if c < 64 else hi
    return (w >> (c & 63)) & 1


cdef inline int next_above(uint64_t lo, uint64_t hi, int t) noexcept nogil:
    """Smallest card > t in the set, or -1."""
    cdef int x = t + 1
    cdef uint64_t m
    if x < 64:
        m = lo >> x
        if m:
            return x + cs_ctz64(m)
        x = 64
    x -= 64
    if x >= 64:
        return -1
    m = hi >> x
    if m:
        return 64 + x + cs_ctz64(m)
    return -1


cdef inline int prev_below(uint64_t lo, uint64_t hi, int t) noexcept nogil:
    """Largest card < t in the set, or -1."""
    cdef int x = t - 1
    cdef uint64_t m
    if x >= 64:
        m = hi if x - 64 >= 63 else hi & ((<uint64_t>1 << (x - 64 + 1)) - 1)
        if m:
            return 64 + 63 - cs_clz64(m)
        x = 63
    if x < 0:
        return -1
    m = lo if x >= 63 else lo & ((<uint64_t>1 << (x + 1)) - 1)
    if m:
        return 63 - cs_clz64(m)
    return -1


cdef inline int pile_best(uint64_t lo, uint64_t hi, int k, int t, int* card) noexcept nogil:
    """Best card of a hand for pile k (top t): its 10-jump (gap -10) if held, else the nearest
    card in the pile's direction (gap = distance); BIG if none."""
    cdef int j, f
    if k < 2:
        j = t - 10
        if j >= 2 and has_card(lo, hi, j):
            card[0] = j
            return -10
        f = next_above(lo, hi, t)
        if f < 0:
            return BIG
        card[0] = f
        return f - t
    j = t + 10
    if j <= 99 and has_card(lo, hi, j):
        card[0] = j
        return -10
    f = prev_below(lo, hi, t)
    if f < 0:
        return BIG
    card[0] = f
    return t - f


cdef void signal_piles(Game* g, int p, double sig, int* marked) noexcept nogil:
    """Piles some team mate asked not to play on: he holds its 10-jump or a card within ``sig``."""
    cdef int q, k, gap, c
    cdef uint64_t lo, hi
    for k in range(4):
        marked[k] = 0
    for q in range(g.players):
        if q == p or g.nh[q] == 0:
            continue
        lo = g.hlo[q]
        hi = g.hhi[q]
        for k in range(4):
            gap = pile_best(lo, hi, k, g.piles[k], &c)
            if gap == -10 or (gap != BIG and gap <= sig):
                marked[k] = 1


cdef int heuristic_turn(Game* g, const Variant* v, const Strategy* s, int p, int required,
                        int* oc, int* op, const int* asked) noexcept nogil:
    """greedy / reach / signal.  Among all legal (card, pile) plays take the smallest gap (ties:
    smaller card, then lower pile) -- per pile only its nearest card or its 10-jump can be best.
    ``asked``: the piles team mates asked to keep (NULL: computed from their hands)."""
    cdef int tops[4]
    cdef int pen[4]
    cdef int marked[4]
    cdef int n = 0, k, c, gap, best_gap, bc, bk
    cdef int pg[4]
    cdef int pc[4]
    cdef int nh = g.nh[p]
    cdef uint64_t lo, hi
    cdef double limit
    lo = g.hlo[p]
    hi = g.hhi[p]
    memcpy(tops, g.piles, 4 * sizeof(int))
    for k in range(4):
        pen[k] = 0
    if s.kind == S_SIGNAL:
        if asked != NULL:
            memcpy(marked, asked, 4 * sizeof(int))
        else:
            signal_piles(g, p, s.p[P_SIG], marked)
        for k in range(4):
            if marked[k]:
                pen[k] = <int>s.p[P_PEN]
    if s.kind == S_GREEDY:
        limit = -1e9
    elif g.deck_pos < NCARDS:
        limit = s.p[P_REACH]
    else:
        limit = s.p[P_ENDGAME]
    # best card per pile, recomputed only for piles whose top or best card changed
    for k in range(4):
        pg[k] = pile_best(lo, hi, k, tops[k], &pc[k])
    while n < nh:
        if n >= required and limit < -10:
            break
        best_gap = BIG
        bc = BIG
        bk = -1
        for k in range(4):
            gap = pg[k]
            if gap == BIG:
                continue
            if gap > 0:
                gap += pen[k]
            if gap < best_gap or (gap == best_gap and pc[k] < bc):
                best_gap = gap
                bc = pc[k]
                bk = k
        if bk < 0:
            break
        if n >= required and best_gap > limit:
            break
        if bc < 64:
            lo &= ~(<uint64_t>1 << bc)
        else:
            hi &= ~(<uint64_t>1 << (bc - 64))
        tops[bk] = bc
        oc[n] = bc
        op[n] = bk
        n += 1
        for k in range(4):
            if k == bk or pc[k] == bc:
                pg[k] = pile_best(lo, hi, k, tops[k], &pc[k])
    if n >= required and (v.fire_lo | v.fire_hi):
        # cover a fire card left by the previous turn if we still can
        for k in range(4):
            if g.fire_turn[k] >= 0 and g.fire_turn[k] < g.turn and tops[k] == g.piles[k]:
                gap = pile_best(lo, hi, k, tops[k], &c)
                if gap != BIG:
                    if c < 64:
                        lo &= ~(<uint64_t>1 << c)
                    else:
                        hi &= ~(<uint64_t>1 << (c - 64))
                    tops[k] = c
                    oc[n] = c
                    op[n] = k
                    n += 1
    return n


# ---------------------------------------------------------------------------------------------
# planner: search over whole-turn play sequences
# ---------------------------------------------------------------------------------------------

cdef struct Plan:
    int tops[4]
    int start[4]
    int cards[MAXH]
    int n
    int required
    int used
    int depth
    int seq_c[MAXH]
    int seq_k[MAXH]
    int best_c[MAXH]
    int best_k[MAXH]
    int best_n
    double best_v
    double cost
    int pre[101]
    int gone[101]
    const int* live
    double pen[4]
    int old_fire[4]
    double w[5]
    double x_extra
    double maxx
    double fire_pen
    double jump
    double margin
    double own
    uint64_t fire_lo
    uint64_t fire_hi


cdef inline double skip_value(Plan* P, int k, int t, int c) noexcept nogil:
    """Live cards a play skips over (negative: live cards a 10-jump wins back); 1e9 if illegal."""
    if k < 2:
        if c > t:
            return P.pre[c - 1] - P.pre[t]
        if c == t - 10:
            return -(P.pre[t - 1] - P.pre[c])
        return 1e9
    if c < t:
        return P.pre[t - 1] - P.pre[c]
    if c == t + 10:
        return -(P.pre[c - 1] - P.pre[t])
    return 1e9


cdef inline int acceptance(const int* tops, int x) noexcept nogil:
    """How many piles (by direction, without 10-jumps) still accept card x."""
    return (x > tops[0]) + (x > tops[1]) + (x < tops[2]) + (x < tops[3])


cdef void plan_eval(Plan* P) noexcept nogil:
    cdef double v = P.cost + P.x_extra * (P.depth - P.required)
    cdef int b[6]
    cdef int i, j, k, c, x, lo, hi, a
    # interval boundaries where the acceptance count changes
    b[0] = 2
    b[1] = P.tops[0] + 1
    b[2] = P.tops[1] + 1
    b[3] = P.tops[2]
    b[4] = P.tops[3]
    b[5] = 100
    for i in range(2, 5):
        x = b[i]
        j = i
        while j > 1 and b[j - 1] > x:
            b[j] = b[j - 1]
            j -= 1
        b[j] = x
    for i in range(5):
        lo = b[i]
        hi = b[i + 1]
        if lo < 2:
            lo = 2
        if hi > 100:
            hi = 100
        if hi <= lo:
            continue
        a = acceptance(P.tops, lo)
        v += P.w[a] * (P.pre[hi - 1] - P.pre[lo - 1])
    for i in range(P.depth):
        v -= P.w[acceptance(P.tops, P.seq_c[i])]
    for k in range(4):
        # a live card exactly 10 the wrong way has one more option (the 10-jump)
        x = P.tops[k] - 10 if k < 2 else P.tops[k] + 10
        if 2 <= x <= 99 and P.live[x] and not P.gone[x]:
            a = acceptance(P.tops, x)
            if a < 4:
                v -= P.w[a] - P.w[a + 1]
    if P.own != 0.0:
        for i in range(P.n):
            if not (P.used >> i) & 1:
                v += P.own * P.w[acceptance(P.tops, P.cards[i])]
    if P.jump != 0.0:
        for i in range(P.n):
            if (P.used >> i) & 1:
                continue
            c = P.cards[i]
            for k in range(4):
                if (k < 2 and c == P.tops[k] - 10) or (k >= 2 and c == P.tops[k] + 10):
                    v -= P.jump
                    break
    for k in range(4):
        if P.tops[k] != P.start[k]:
            c = P.tops[k]
            if c < 64:
                if (P.fire_lo >> c) & 1:
                    v += P.fire_pen
            elif (P.fire_hi >> (c - 64)) & 1:
                v += P.fire_pen
        elif P.old_fire[k]:
            v += 1e7   # leaving the previous turn's fire card uncovered loses the game
    if v < P.best_v:
        P.best_v = v
        P.best_n = P.depth
        memcpy(P.best_c, P.seq_c, P.depth * sizeof(int))
        memcpy(P.best_k, P.seq_k, P.depth * sizeof(int))


cdef void plan_dfs(Plan* P, int last) noexcept nogil:
    if P.depth >= P.required:
        plan_eval(P)
    if P.depth == P.n:
        return
    cdef int k, i, c, t, m = 0, j
    cdef int mk[4 * MAXH]
    cdef int mi[4 * MAXH]
    cdef double ms[4 * MAXH]
    cdef double s, lim, lo = 1e9
    for k in range(last, 4):
        t = P.tops[k]
        for i in range(P.n):
            if (P.used >> i) & 1:
                continue
            s = skip_value(P, k, t, P.cards[i])
            if s >= 1e9:
                continue
            if s >= 0:
                s += P.pen[k]
            mk[m] = k
            mi[m] = i
            ms[m] = s
            m += 1
            if s < lo:
                lo = s
    if P.depth >= P.required:
        lim = P.maxx
    else:
        lim = lo + P.margin
    for j in range(m):
        s = ms[j]
        if s > lim:
            continue
        k = mk[j]
        i = mi[j]
        t = P.tops[k]
        c = P.cards[i]
        P.used |= 1 << i
        P.gone[c] = 1
        P.tops[k] = c
        s = P.pen[k] if ms[j] >= 0 else 0.0
        P.cost += s
        P.seq_c[P.depth] = c
        P.seq_k[P.depth] = k
        P.depth += 1
        plan_dfs(P, k)
        P.depth -= 1
        P.cost -= s
        P.tops[k] = t
        P.used &= ~(1 << i)
        P.gone[c] = 0


cdef int planner_turn(Game* g, const Variant* v, const Strategy* s, int p, int required,
                      int* oc, int* op, const int* asked, double* scores) noexcept nogil:
    """The planner's turn.  ``asked``: piles team mates asked to keep (NULL: computed from their
    hands); ``scores`` (if not NULL) receives the evaluation before and after the turn."""
    cdef Plan P
    cdef int i, k, acc
    cdef int marked[4]
    cdef bint endgame = g.deck_pos >= NCARDS
    P.n = hand_cards(g, p, P.cards)
    memcpy(P.tops, g.piles, 4 * sizeof(int))
    memcpy(P.start, g.piles, 4 * sizeof(int))
    P.required = required
    P.used = 0
    P.depth = 0
    P.best_n = 0
    P.best_v = 1e18
    P.cost = 0.0
    P.live = g.live
    acc = 0
    for i in range(101):
        acc += g.live[i]
        P.pre[i] = acc
        P.gone[i] = 0
    P.w[0] = s.p[Q_DEAD]
    P.w[1] = s.p[Q_W1]
    P.w[2] = s.p[Q_W2]
    P.w[3] = s.p[Q_W3]
    P.w[4] = 0.0
    if endgame:
        P.x_extra = s.p[Q_EEXTRA]
        P.maxx = s.p[Q_EMAXX]
    else:
        P.x_extra = s.p[Q_EXTRA]
        P.maxx = s.p[Q_MAXX]
    P.fire_pen = s.p[Q_FIRE]
    P.jump = s.p[Q_JUMP]
    P.margin = s.p[Q_MARGIN]
    P.own = s.p[Q_OWN]
    P.fire_lo = v.fire_lo
    P.fire_hi = v.fire_hi
    for k in range(4):
        P.pen[k] = 0.0
        P.old_fire[k] = g.fire_turn[k] >= 0 and g.fire_turn[k] < g.turn
    if g.players > 1 and s.p[Q_SIGPEN] != 0.0:
        if asked != NULL:
            memcpy(marked, asked, 4 * sizeof(int))
        else:
            signal_piles(g, p, s.p[Q_SIG], marked)
        for k in range(4):
            if marked[k]:
                P.pen[k] = s.p[Q_SIGPEN]
    plan_dfs(&P, 0)
    cdef int n = P.best_n
    for i in range(n):
        oc[i] = P.best_c[i]
        op[i] = P.best_k[i]
    if scores != NULL:
        scores[1] = P.best_v
        P.required = 0          # score the piles as they are, before any play
        P.best_v = 1e18
        plan_eval(&P)
        scores[0] = P.best_v
    return n


# ---------------------------------------------------------------------------------------------
# game loop
# ---------------------------------------------------------------------------------------------

cdef inline void hand_insert(Game* g, int p, int c) noexcept nogil:
    cdef uint64_t bit = <uint64_t>1 << (c & 63)
    cdef uint64_t low = <uint64_t>0 - <uint64_t>(c < 64)
    g.hlo[p] |= bit & low
    g.hhi[p] |= bit & ~low
    g.nh[p] += 1


cdef inline void hand_remove(Game* g, int p, int c) noexcept nogil:
    cdef uint64_t bit = <uint64_t>1 << (c & 63)
    cdef uint64_t low = <uint64_t>0 - <uint64_t>(c < 64)
    g.hlo[p] &= ~(bit & low)
    g.hhi[p] &= ~(bit & ~low)
    g.nh[p] -= 1


cdef inline int hand_size_for(int players) noexcept nogil:
    if players == 1:
        return 8
    if players == 2:
        return 7
    return 6


cdef void play_game(Game* g, const Variant* v, const Strategy* s) noexcept nogil:
    """Play one game from g.deck (already shuffled) to the end."""
    cdef int P = g.players
    cdef int i, j, k, p, c, n, required, skipped
    cdef int oc[MAXH]
    cdef int op[MAXH]
    g.hand_size = hand_size_for(P)
    g.piles[0] = 1
    g.piles[1] = 1
    g.piles[2] = 100
    g.piles[3] = 100
    for k in range(4):
        g.fire_turn[k] = -1
    for i in range(101):
        g.live[i] = 1 if i >= 2 and i <= 99 else 0
    g.deck_pos = 0
    g.played = 0
    g.turn = 0
    g.win = 0
    g.n_turns = 0
    g.turn_start[0] = 0
    for p in range(P):
        g.nh[p] = 0
        g.hlo[p] = 0
        g.hhi[p] = 0
        for j in range(g.hand_size):
            hand_insert(g, p, g.deck[g.deck_pos])
            g.deck_pos += 1
    p = 0
    while True:
        if g.played == NCARDS:
            g.win = 1
            break
        skipped = 0
        while g.nh[p] == 0 and skipped < P:
            p += 1
            if p == P:
                p = 0
            skipped += 1
        required = v.min_play if g.deck_pos < NCARDS else v.min_play_empty
        if required > g.nh[p]:
            required = g.nh[p]
        if s.kind == S_PLANNER:
            n = planner_turn(g, v, s, p, required, oc, op, NULL, NULL)
        else:
            n = heuristic_turn(g, v, s, p, required, oc, op, NULL)
        if n < required:
            n = feasible_turn(g, p, required, oc, op)
            if n < required:
                break
        for i in range(n):
            c = oc[i]
            k = op[i]
            hand_remove(g, p, c)
            g.piles[k] = c
            g.live[c] = 0
            g.fire_turn[k] = g.turn if is_fire(v, c) else -1
            if g.log_on:
                g.play_card[g.played] = c
                g.play_pile[g.played] = k
            g.played += 1
        if g.log_on:
            g.turn_player[g.n_turns] = p
            g.n_turns += 1
            g.turn_start[g.n_turns] = g.played
        while g.nh[p] < g.hand_size and g.deck_pos < NCARDS:
            hand_insert(g, p, g.deck[g.deck_pos])
            g.deck_pos += 1
        if g.played < NCARDS and (v.fire_lo | v.fire_hi):
            for k in range(4):
                if g.fire_turn[k] >= 0 and g.fire_turn[k] < g.turn:
                    g.cards_left = NCARDS - g.played
                    g.turn += 1
                    return
        g.turn += 1
        p += 1
        if p == P:
            p = 0
    g.cards_left = NCARDS - g.played


# ---------------------------------------------------------------------------------------------
# Python entry points
# ---------------------------------------------------------------------------------------------

cdef void fill_config(Variant* v, Strategy* s, int min_play, int min_play_empty, uint64_t fire_lo,
                      uint64_t fire_hi, int kind, const double[::1] params):
    v.min_play = min_play
    v.min_play_empty = min_play_empty
    v.fire_lo = fire_lo
    v.fire_hi = fire_hi
    s.kind = kind
    cdef int i
    for i in range(NPARAM):
        s.p[i] = params[i] if i < params.shape[0] else 0.0


def _check(int players, int kind, int min_play, int min_play_empty):
    if not 1 <= players <= MAXP:
        raise ValueError(f"players must be between 1 and {MAXP}")
    if not S_GREEDY <= kind <= S_PLANNER:
        raise ValueError(f"unknown strategy kind {kind}")
    if not 1 <= min_play <= 6 or not 1 <= min_play_empty <= 6:
        raise ValueError("minimum plays per turn must be between 1 and 6")


def simulate_block(int players, int min_play, int min_play_empty, uint64_t fire_lo, uint64_t fire_hi,
                   int kind, const double[::1] params, uint64_t seed, int n_games):
    """Play ``n_games`` shuffled games; return (wins, cards-left histogram 0..98, total turns)."""
    _check(players, kind, min_play, min_play_empty)
    cdef Variant v
    cdef Strategy s
    cdef Game g
    cdef Rng rng
    cdef int i, j
    cdef long long wins = 0, turns = 0
    fill_config(&v, &s, min_play, min_play_empty, fire_lo, fire_hi, kind, params)
    hist = np.zeros(NCARDS + 1, dtype=np.int64)
    cdef long long[::1] h = hist
    rng_seed(&rng, seed)
    g.players = players
    g.log_on = 0
    with nogil:
        for i in range(n_games):
            for j in range(NCARDS):
                g.deck[j] = j + 2
            rng_shuffle_int(&rng, g.deck, NCARDS)
            play_game(&g, &v, &s)
            wins += g.win
            turns += g.turn
            h[g.cards_left] += 1
    return int(wins), hist, int(turns)


def shuffled_deck(uint64_t seed):
    """The deck order of a game seeded with ``seed`` (the same shuffle as ``simulate_block``'s first)."""
    cdef Rng rng
    cdef int deck[NCARDS]
    cdef int j
    for j in range(NCARDS):
        deck[j] = j + 2
    rng_seed(&rng, seed)
    rng_shuffle_int(&rng, deck, NCARDS)
    return [deck[j] for j in range(NCARDS)]


def play_deck(int players, int min_play, int min_play_empty, uint64_t fire_lo, uint64_t fire_hi,
              int kind, const double[::1] params, deck):
    """Play one game from the given deck order; return (turns, win, cards_left).

    ``turns`` is a list of ``(player, [(card, pile), ...])`` in play order.
    """
    _check(players, kind, min_play, min_play_empty)
    if sorted(deck) != list(range(2, 100)):
        raise ValueError("deck must be a permutation of the cards 2..99")
    cdef Variant v
    cdef Strategy s
    cdef Game g
    cdef int j, t
    fill_config(&v, &s, min_play, min_play_empty, fire_lo, fire_hi, kind, params)
    for j in range(NCARDS):
        g.deck[j] = deck[j]
    g.players = players
    g.log_on = 1
    play_game(&g, &v, &s)
    turns = []
    for t in range(g.n_turns):
        turns.append((g.turn_player[t],
                      [(g.play_card[j], g.play_pile[j]) for j in range(g.turn_start[t], g.turn_start[t + 1])]))
    return turns, bool(g.win), g.cards_left


def legal_play(int pile, int top, int card):
    """The engine's legality check for one card on one pile (for differential tests)."""
    if not 0 <= pile < 4:
        raise ValueError("pile must be 0..3")
    return bool(legal(pile, top, card))


def can_play(piles, hand, int need):
    """Whether ``need`` cards of ``hand`` can be played in sequence on ``piles`` (exact search)."""
    cdef int tops[4]
    cdef int cards[MAXH]
    cdef int oc[MAXH]
    cdef int op[MAXH]
    cdef int k, n = len(hand)
    if n > MAXH or len(piles) != 4:
        raise ValueError("at most 8 cards and exactly 4 piles")
    for k in range(4):
        tops[k] = piles[k]
    for k in range(n):
        cards[k] = hand[k]
    if need <= 0:
        return True
    if need > n:
        return False
    return bool(feas_dfs(tops, cards, n, 0, need, 0, oc, op))


def advise_turn(int players, int min_play, int min_play_empty, uint64_t fire_lo, uint64_t fire_hi, int kind,
                const double[::1] params, hand, piles, played, int draw_left, asked, fire_due):
    """What a strategy plays in one situation at the table: the player's ``hand``, the four pile
    tops, the cards already ``played`` (every card 2..99 not played is live), the size of the draw
    pile, the piles team mates ``asked`` to keep, and the piles whose fire top was played in the
    previous turn (``fire_due``).  Returns (plays as (card, pile), required, score before, score
    after) -- the scores only for the planner (lower is better), else None.
    """
    _check(players, kind, min_play, min_play_empty)
    cdef Variant v
    cdef Strategy s
    cdef Game g
    cdef int k, c, n, required
    cdef int oc[MAXH]
    cdef int op[MAXH]
    cdef int marked[4]
    cdef double scores[2]
    if not 1 <= len(hand) <= MAXH or len(piles) != 4 or len(asked) != 4 or len(fire_due) != 4:
        raise ValueError("1 to 8 cards in hand and 4 piles")
    fill_config(&v, &s, min_play, min_play_empty, fire_lo, fire_hi, kind, params)
    memset(&g, 0, sizeof(Game))
    g.players = players
    g.hand_size = hand_size_for(players)
    for k in range(4):
        g.piles[k] = piles[k]
        marked[k] = 1 if asked[k] else 0
        g.fire_turn[k] = 0 if fire_due[k] else -1
    g.turn = 1
    for c in range(101):
        g.live[c] = 1 if 2 <= c <= 99 else 0
    for c in played:
        g.live[c] = 0
    for c in hand:
        hand_insert(&g, 0, c)
    g.deck_pos = NCARDS - draw_left
    required = min_play if draw_left > 0 else min_play_empty
    if required > g.nh[0]:
        required = g.nh[0]
    if kind == S_PLANNER:
        n = planner_turn(&g, &v, &s, 0, required, oc, op, marked, scores)
    else:
        n = heuristic_turn(&g, &v, &s, 0, required, oc, op, marked)
    if n < required:
        n = feasible_turn(&g, 0, required, oc, op)
    plays = [(oc[k], op[k]) for k in range(n)] if n >= required else []
    if kind == S_PLANNER:
        return plays, required, scores[0], scores[1]
    return plays, required, None, None
