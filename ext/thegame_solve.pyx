# cython: language_level=3
"""The Game with every card known: an exact search for the fewest cards left (0 = the deal is won).

With the deck order and all hands known the game is a deterministic one-player puzzle (a team
plays as one mind).  ``solve_deal`` decides it by depth-first search in C without the GIL:

* a node is the true state at one moment of a turn: pile tops, every hand, the position in the
  deck, the player to move, the cards he has played this turn (capped at the minimum: beyond it
  every count allows the same), and for fire variants the piles whose fire top must still be
  covered; the moves are one (card, pile) play or "end the turn" (once the minimum is reached),
  so a whole turn is a path and two orders of the same plays meet in the transposition table;
* the value of a state is the fewest cards that can be left at the end of the game.  The search
  asks "can the game end with at most T cards left?" for T = 0, 1, 2, ... (iterative deepening on
  the target); every failed question stores the proven lower bound T + 1 for that state in the
  transposition table (keyed on the whole true state, compared word by word, never only a hash;
  buckets of two entries, the one whose refutation took fewer nodes is replaced);
* sound pruning: a card that no pile can ever take again (no pile can ever show a top that lets it
  on, counting every chain of 10-jumps through live cards) is left over whatever is played, so
  more such cards than T end the branch; two piles of the same direction with equal tops are one pile; when both
  piles of a direction accept a card and one of them accepts every live card the other accepts,
  the card goes only on the other (weaker) one -- the resulting state is at least as good, turn
  for turn (not used in fire variants, where the top card itself matters);
* move ordering: the first line followed is a hint given by the caller (the ``planner``'s own
  game), so the search finds the planner's result at once and only has to improve on it; every
  other node tries plays by the change of the planner's acceptance score (each live card weighs
  by how many piles still take it: a play that leaves cards on fewer piles costs more, a 10-jump
  wins them back), ending the turn right after the free plays (``accept_order=False``: the older
  ordering by the number of live cards a play skips);
* restarts: probes with node budgets of the Luby sequence and noise in the move order; the
  transposition table (only proven bounds) is kept from probe to probe.

Deck size, hand size, pile start values, players and the variant are parameters, so that tests
can compare the search with a brute-force solver on tiny decks (e.g. cards 2..21).
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free
from posix.time cimport clock_gettime, timespec, CLOCK_THREAD_CPUTIME_ID
from cardset cimport cs_clz64, cs_ctz64, cs_popcount64, set_cards
from rng cimport Rng, rng_next, rng_seed, rng_shuffle_int


cdef enum:
    MAXP = 5
    MAXH = 8
    MAXC = 128          # card values 0..127 (bit sets of two words)
    MAXACT = 320        # plays + turn ends on one line
    END = -1            # the "end the turn" action
    RES_WIN = 0
    RES_NOT = 1         # proven: the target cannot be reached
    RES_LIMIT = 2       # node or time limit reached
    RESTART_UNIT = 10000  # nodes of the shortest probe (Luby sequence of budgets)


cdef struct State:
    int tops[4]
    uint64_t hlo[MAXP]
    uint64_t hhi[MAXP]
    int nh[MAXP]
    uint64_t llo          # live cards (not yet on a pile): 0..63
    uint64_t lhi          # ... 64..127
    int pos               # next card of the deck to draw
    int player
    int k                 # cards played this turn
    int req               # cards the player must play this turn
    int played
    int start_played      # cards played before this turn began
    int must              # piles whose fire top from the previous turn must be covered this turn
    int changed           # piles played on this turn
    int last              # 2 once a descending pile was played on this turn: plays on piles of
                          # different directions commute, so a turn plays its ascending ones first


cdef struct Ctx:
    int players
    int hand_size
    int ncards
    int lo_card           # lowest and highest card of the deck
    int hi_card
    int start[4]          # pile tops at the start (rules: lowest card - 1 twice, highest card + 1 twice)
    int jump              # the backward move: 10 in the rules (a parameter for tiny test decks)
    int min_play
    int min_play_empty
    uint64_t fire_lo
    uint64_t fire_hi
    bint fire
    int deck[MAXC]
    # transposition table
    uint64_t* table
    uint64_t mask
    int kwords            # key words per entry (2 per hand + 1); an entry is kwords + 1 words
    # limits
    long long nodes
    long long node_limit
    double deadline
    int aborted
    # the line being searched and the line found
    int act_c[MAXACT]
    int act_k[MAXACT]
    int act_p[MAXACT]
    int nact
    int line_c[MAXACT]
    int line_k[MAXACT]
    int line_p[MAXACT]
    int nline
    int line_win
    # hint (the planner's game): actions in the same encoding
    int hint_c[MAXACT]
    int hint_k[MAXACT]
    int nhint
    int on_hint
    int use_hint
    # restarts: each probe of the search has a node budget and its own tie-breaking noise
    long long probe_start
    long long probe_limit
    int noise
    int end_score
    bint accept           # order plays by the acceptance cost (else by live cards skipped)
    Rng rng


cdef inline double now() noexcept nogil:
    """CPU seconds of this thread: a time limit means the same work on a loaded machine."""
    cdef timespec ts
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline bint bit(uint64_t lo, uint64_t hi, int c) noexcept nogil:
    if c < 0 or c >= MAXC:
        return False
    return ((lo if c < 64 else hi) >> (c & 63)) & 1


cdef inline void set_bit(uint64_t* lo, uint64_t* hi, int c) noexcept nogil:
    if c < 64:
        lo[0] |= <uint64_t>1 << c
    else:
        hi[0] |= <uint64_t>1 << (c - 64)


cdef inline void clear_bit(uint64_t* lo, uint64_t* hi, int c) noexcept nogil:
    if c < 64:
        lo[0] &= ~(<uint64_t>1 << c)
    else:
        hi[0] &= ~(<uint64_t>1 << (c - 64))


cdef inline uint64_t range_mask(int a, int b) noexcept nogil:
    """Bits a..b (inclusive) of one 64-bit word, a and b already clipped to 0..63."""
    cdef uint64_t m = (~<uint64_t>0) << a
    if b < 63:
        m &= (<uint64_t>1 << (b + 1)) - 1
    return m


cdef inline int count_between(const State* s, int a, int b) noexcept nogil:
    """Live cards strictly between a and b (in either order)."""
    cdef int x, y, n = 0
    if a > b:
        x = a
        a = b
        b = x
    x = a + 1
    y = b - 1
    if x > y:
        return 0
    if x < 64:
        n += cs_popcount64(s.llo & range_mask(x, y if y < 63 else 63))
    if y >= 64:
        n += cs_popcount64(s.lhi & range_mask(x - 64 if x > 64 else 0, y - 64))
    return n


cdef inline bint legal(int pile, int top, int c, int jump) noexcept nogil:
    """Higher (ascending) / lower (descending), or exactly ``jump`` (the rules: 10) the other way."""
    if pile < 2:
        return c > top or c == top - jump
    return c < top or c == top + jump


cdef inline bint is_fire(const Ctx* x, int c) noexcept nogil:
    return bit(x.fire_lo, x.fire_hi, c)


cdef int dead_cards(const Ctx* x, const State* s) noexcept nogil:
    """Live cards that no pile can take again, whatever is played (a lower bound on cards left).

    A descending pile can only ever show its top, a live card below the highest descending top
    (played by direction), or a live card exactly ``jump`` above something it can show (a 10-jump).
    Sweeping upwards over the live cards above the highest descending top gives the highest value
    M a descending pile can ever show; every live card below M may still go there.  Mirror-wise
    (sweeping down from the lowest ascending top over all lower live cards) the lowest value m an
    ascending pile can show.  Live cards strictly between M and m are dead.  (Only the values a
    pile can show are bounded; the order in which cards arrive is ignored, so this is a bound.)
    """
    cdef int amin = s.tops[0] if s.tops[0] < s.tops[1] else s.tops[1]
    cdef int dmax = s.tops[2] if s.tops[2] > s.tops[3] else s.tops[3]
    cdef int J = x.jump, c, b, w
    cdef int high = dmax, low = amin
    cdef uint64_t m
    if amin <= dmax + 1:
        return 0          # every card is above amin or below dmax
    # live cards above dmax, ascending (a jump may carry a descending pile above amin)
    for w in range(2):
        m = s.llo if w == 0 else s.lhi
        if dmax + 1 >= 64 * (w + 1):
            continue
        if dmax + 1 > 64 * w:
            m &= (~<uint64_t>0) << (dmax + 1 - 64 * w)
        while m:
            c = 64 * w + cs_ctz64(m)
            m &= m - 1
            b = c - J
            if b == s.tops[2] or b == s.tops[3] or (b <= high and bit(s.llo, s.lhi, b)):
                high = c
                if high >= amin - 1:
                    return 0
    # live cards below amin, descending (a jump may carry an ascending pile below high)
    for w in range(1, -1, -1):
        m = s.lhi if w == 1 else s.llo
        if amin <= 64 * w:
            continue
        if amin - 64 * w < 64:
            m &= (<uint64_t>1 << (amin - 64 * w)) - 1
        while m:
            c = 64 * w + 63 - cs_clz64(m)
            m &= ~(<uint64_t>1 << (c - 64 * w))
            b = c + J
            if b == s.tops[0] or b == s.tops[1] or (b >= low and bit(s.llo, s.lhi, b)):
                low = c
                if low <= high + 1:
                    return 0
    return count_between(s, high, low)


# ---------------------------------------------------------------------------------------------
# transposition table: key = every hand, canonical tops, deck position, player, turn progress
# ---------------------------------------------------------------------------------------------

cdef inline int pile_code(const State* s, int k) noexcept nogil:
    return s.tops[k] * 4 + ((s.must >> k) & 1) * 2 + ((s.changed >> k) & 1)


cdef void make_key(const Ctx* x, const State* s, uint64_t* key) noexcept nogil:
    cdef int a0 = pile_code(s, 0), a1 = pile_code(s, 1), d0 = pile_code(s, 2), d1 = pile_code(s, 3)
    cdef int t, p, k
    if a0 > a1:
        t = a0
        a0 = a1
        a1 = t
    if d0 > d1:
        t = d0
        d0 = d1
        d1 = t
    for p in range(x.players):
        key[2 * p] = s.hlo[p]
        key[2 * p + 1] = s.hhi[p]
    k = s.k if s.k < s.req else s.req
    key[2 * x.players] = ((<uint64_t>a0) | (<uint64_t>a1 << 10) | (<uint64_t>d0 << 20) | (<uint64_t>d1 << 30)
                          | (<uint64_t>s.pos << 40) | (<uint64_t>s.player << 48) | (<uint64_t>k << 52)
                          | (<uint64_t>s.last << 56))


cdef inline uint64_t key_hash(const uint64_t* key, int n) noexcept nogil:
    cdef uint64_t h = <uint64_t>0x9E3779B97F4A7C15ULL
    cdef int i
    for i in range(n):
        h ^= key[i]
        h *= <uint64_t>0xBF58476D1CE4E5B9ULL
        h ^= h >> 31
    return h


cdef uint64_t* tt_slot(const Ctx* x, const uint64_t* key) noexcept nogil:
    """The first entry of the key's bucket (two entries side by side)."""
    return x.table + (key_hash(key, x.kwords) & x.mask & ~(<uint64_t>1)) * (x.kwords + 1)


cdef inline bint tt_same(const Ctx* x, const uint64_t* e, const uint64_t* key) noexcept nogil:
    cdef int i
    if e[x.kwords] == 0:
        return False
    for i in range(x.kwords):
        if e[i] != key[i]:
            return False
    return True


cdef int tt_lower_bound(const Ctx* x, const uint64_t* key) noexcept nogil:
    """Stored lower bound on the value of this exact state, 0 if none."""
    cdef uint64_t* e = tt_slot(x, key)
    cdef int j
    for j in range(2):
        if tt_same(x, e, key):
            return <int>(e[x.kwords] & 255) - 1
        e += x.kwords + 1
    return 0


cdef void tt_store(Ctx* x, const uint64_t* key, int lb, long long effort) noexcept nogil:
    """Store the bound ``lb`` (found with ``effort`` nodes).  The value word holds lb + 1 in its
    low byte and the effort above it; a new state replaces the cheaper of the bucket's two
    entries, so the costly refutations (near the root, reused by every restart) stay."""
    cdef uint64_t* e = tt_slot(x, key)
    cdef uint64_t* f = e + x.kwords + 1
    cdef uint64_t* v
    cdef int i
    if effort > (<long long>1 << 50):
        effort = <long long>1 << 50
    if tt_same(x, f, key):
        e = f
    elif not tt_same(x, e, key) and (f[x.kwords] >> 8) < (e[x.kwords] >> 8):
        e = f
    v = e + x.kwords
    if tt_same(x, e, key) and <int>(v[0] & 255) - 1 >= lb:
        return
    for i in range(x.kwords):
        e[i] = key[i]
    v[0] = <uint64_t>(lb + 1) | (<uint64_t>effort << 8)


# ---------------------------------------------------------------------------------------------
# search
# ---------------------------------------------------------------------------------------------

cdef void record_line(Ctx* x, bint win) noexcept nogil:
    cdef int i
    for i in range(x.nact):
        x.line_c[i] = x.act_c[i]
        x.line_k[i] = x.act_k[i]
        x.line_p[i] = x.act_p[i]
    x.nline = x.nact
    x.line_win = win


cdef bint dominated(const Ctx* x, const State* s, int weak, int strong) noexcept nogil:
    """Does pile ``strong`` accept every live card pile ``weak`` (same direction) accepts?"""
    cdef int w = s.tops[weak], t = s.tops[strong], j
    if weak < 2:
        if t >= w:
            return False
        j = w - x.jump
        return j > t or not bit(s.llo, s.lhi, j)
    if t <= w:
        return False
    j = w + x.jump
    return j < t or not bit(s.llo, s.lhi, j)


cdef int end_turn(Ctx* x, State* s) noexcept nogil:
    """Refill, check the fire rule and pass to the next player with cards.  1 if the game goes on."""
    cdef int p = s.player, k, q, i
    while s.nh[p] < x.hand_size and s.pos < x.ncards:
        set_bit(&s.hlo[p], &s.hhi[p], x.deck[s.pos])
        s.nh[p] += 1
        s.pos += 1
    if x.fire:
        if s.must & ~s.changed:
            return 0
        k = 0
        for i in range(4):
            if (s.changed >> i) & 1 and is_fire(x, s.tops[i]):
                k |= 1 << i
        s.must = k
    s.changed = 0
    s.last = 0
    q = p
    for i in range(x.players):
        q += 1
        if q == x.players:
            q = 0
        if s.nh[q] > 0:
            break
    s.player = q
    s.k = 0
    s.start_played = s.played
    s.req = x.min_play if s.pos < x.ncards else x.min_play_empty
    if s.req > s.nh[q]:
        s.req = s.nh[q]
    return 1


cdef int ACCEPT_LOSS[5]
cdef int ACCEPT_GAIN[5]
# The planner's acceptance weights (x10): a live card taken by 0..4 piles costs 200, 20, 5, 1, 0.
# LOSS[a]: one of a accepting piles closes; GAIN[a]: one more pile opens.
ACCEPT_LOSS[:] = [0, 180, 15, 4, 1]
ACCEPT_GAIN[:] = [180, 15, 4, 1, 0]


cdef struct Segments:
    int b[6]              # the pile tops sorted, with -1 and MAXC around them
    int a[5]              # piles accepting a card in (b[i], b[i+1]) by direction


cdef inline int accepting(const Ctx* x, const State* s, int v) noexcept nogil:
    """Piles that take card ``v`` now (direction or 10-jump)."""
    return (legal(0, s.tops[0], v, x.jump) + legal(1, s.tops[1], v, x.jump)
            + legal(2, s.tops[2], v, x.jump) + legal(3, s.tops[3], v, x.jump))


cdef void make_segments(const State* s, Segments* g) noexcept nogil:
    """Between two consecutive pile tops every card is taken by the same piles (by direction);
    tops are never live cards, so the open intervals cover every live card."""
    cdef int i, j, t
    g.b[0] = -1
    g.b[5] = MAXC
    for i in range(4):
        g.b[i + 1] = s.tops[i]
    for i in range(2, 5):
        t = g.b[i]
        j = i
        while j > 1 and g.b[j - 1] > t:
            g.b[j] = g.b[j - 1]
            j -= 1
        g.b[j] = t
    for i in range(5):
        # a card just above b[i]: above an ascending top <= b[i], below a descending top >= b[i+1]
        g.a[i] = ((s.tops[0] <= g.b[i]) + (s.tops[1] <= g.b[i])
                  + (s.tops[2] >= g.b[i + 1]) + (s.tops[3] >= g.b[i + 1]))


cdef inline int by_direction(const State* s, int v) noexcept nogil:
    """Piles that take card ``v`` by direction alone (higher / lower than the top)."""
    return (v > s.tops[0]) + (v > s.tops[1]) + (v < s.tops[2]) + (v < s.tops[3])


cdef int weighted_between(const Ctx* x, const State* s, const Segments* g, const int* w, int lo, int hi) noexcept nogil:
    """Sum of ``w[piles taking v]`` over the live cards v strictly between lo < hi."""
    cdef int i, j, l, h, total = 0, v
    cdef int seen[4]
    for i in range(5):
        l = lo if lo > g.b[i] else g.b[i]
        h = hi if hi < g.b[i + 1] else g.b[i + 1]
        if l + 1 < h:
            total += w[g.a[i]] * count_between(s, l, h)
    # a pile's 10-jump card is taken by more piles than its segment says
    for i in range(4):
        v = s.tops[i] - x.jump if i < 2 else s.tops[i] + x.jump
        seen[i] = v
        if not (lo < v < hi and bit(s.llo, s.lhi, v)):
            continue
        for j in range(i):
            if seen[j] == v:
                break
        else:
            total += w[accepting(x, s, v)] - w[by_direction(s, v)]
    return total


cdef inline int weight_of(const Ctx* x, const State* s, const int* w, int v) noexcept nogil:
    """``w[piles taking v]`` if v is live, else 0."""
    if not bit(s.llo, s.lhi, v):
        return 0
    return w[accepting(x, s, v)]


cdef int accept_cost(const Ctx* x, const State* s, const Segments* g, int k, int c) noexcept nogil:
    """Change of the planner-like acceptance score when card ``c`` goes on pile ``k`` (lower is
    better): the live cards the pile stops taking, minus those it takes again after a jump."""
    cdef int t = s.tops[k], J = x.jump, cost, j
    if k < 2:
        j = c - J                  # the card this pile takes by a jump afterwards
        if c > t:
            cost = weighted_between(x, s, g, ACCEPT_LOSS, t, c) + weight_of(x, s, ACCEPT_LOSS, t - J)
            if j > t:
                cost -= weight_of(x, s, ACCEPT_LOSS, j)     # still taken, by the jump now
            elif j != t - J:
                cost -= weight_of(x, s, ACCEPT_GAIN, j)
        else:
            cost = -weighted_between(x, s, g, ACCEPT_GAIN, c, t) - weight_of(x, s, ACCEPT_GAIN, j)
    else:
        j = c + J
        if c < t:
            cost = weighted_between(x, s, g, ACCEPT_LOSS, c, t) + weight_of(x, s, ACCEPT_LOSS, t + J)
            if j < t:
                cost -= weight_of(x, s, ACCEPT_LOSS, j)
            elif j != t + J:
                cost -= weight_of(x, s, ACCEPT_GAIN, j)
        else:
            cost = -weighted_between(x, s, g, ACCEPT_GAIN, t, c) - weight_of(x, s, ACCEPT_GAIN, j)
    return cost


cdef int dfs(Ctx* x, State* s, int target) noexcept nogil:
    """1 if the game can end with at most ``target`` cards left from ``s`` (line recorded),
    0 if proven impossible, -1 if a limit was reached."""
    cdef State c
    cdef uint64_t key[2 * MAXP + 1]
    cdef int mc[4 * MAXH + 1]
    cdef int mk[4 * MAXH + 1]
    cdef int ms[4 * MAXH + 1]
    cdef int order[4 * MAXH + 1]
    cdef int n = 0, i, j, k, card, p = s.player, t, hint_c = -2, hint_k = -1, r, best_left
    cdef int cards[MAXH]
    cdef int nc = 0
    cdef Segments seg
    cdef bint was_on_hint = x.on_hint, is_hint
    cdef long long first = x.nodes
    if s.played == x.ncards:
        record_line(x, True)
        return 1
    x.nodes += 1
    if x.node_limit > 0 and x.nodes > x.node_limit:
        x.aborted = 1
        return -1
    if x.deadline > 0 and (x.nodes & 1023) == 0 and now() > x.deadline:
        x.aborted = 1
        return -1
    if x.probe_limit > 0 and x.nodes - x.probe_start > x.probe_limit:
        return -2
    if dead_cards(x, s) > target:
        return 0
    make_key(x, s, key)
    if tt_lower_bound(x, key) > target:
        return 0
    if x.use_hint and x.on_hint and x.nact < x.nhint:
        hint_c = x.hint_c[x.nact]
        hint_k = x.hint_k[x.nact]
    nc = set_cards(s.hlo[p], s.hhi[p], cards)     # the player's cards in ascending order
    if x.accept:
        make_segments(s, &seg)
    for i in range(nc):
        card = cards[i]
        for k in range(4):
            t = s.tops[k]
            if not legal(k, t, card, x.jump):
                continue
            is_hint = card == hint_c and k == hint_k
            if k < s.last and not is_hint:     # (s.last is 0 or 2)
                continue
            if not is_hint:
                # same-direction twin pile: equal tops are one pile; a dominating pile is kept
                j = k ^ 1
                if legal(j, s.tops[j], card, x.jump):
                    if s.tops[j] == t and j < k:
                        continue
                    if not x.fire and s.tops[j] != t and dominated(x, s, j, k):
                        continue
            mc[n] = card
            mk[n] = k
            if is_hint:
                ms[n] = -100000
            elif x.accept:
                ms[n] = accept_cost(x, s, &seg, k, card)
            elif (k < 2 and card < t) or (k >= 2 and card > t):
                ms[n] = -4 - 4 * count_between(s, card, t)     # 10-jump: wins back live cards
            else:
                ms[n] = 8 * count_between(s, card, t)
            if x.noise:
                ms[n] += <int>(rng_next(&x.rng) % <uint64_t>x.noise)
            n += 1
    if s.k >= s.req:
        mc[n] = END
        mk[n] = -1
        ms[n] = -100000 if hint_c == END else x.end_score
        n += 1
    if n == 0:
        # the player cannot play the minimum: the game is lost before this turn
        best_left = x.ncards - s.start_played
        if best_left <= target:
            x.nact -= s.k          # the unfinished turn is not part of the game
            record_line(x, False)
            x.nact += s.k
            return 1
        tt_store(x, key, best_left, x.nodes - first)
        return 0
    for i in range(n):
        order[i] = i
    for i in range(1, n):
        j = order[i]
        t = i
        while t > 0 and ms[order[t - 1]] > ms[j]:
            order[t] = order[t - 1]
            t -= 1
        order[t] = j
    for i in range(n):
        j = order[i]
        card = mc[j]
        k = mk[j]
        c = s[0]
        x.on_hint = was_on_hint and card == hint_c and k == hint_k
        x.act_c[x.nact] = card
        x.act_k[x.nact] = k
        x.act_p[x.nact] = p
        x.nact += 1
        if card == END:
            if not end_turn(x, &c):
                # fire card left uncovered: lost after this turn
                best_left = x.ncards - c.played
                if best_left <= target:
                    record_line(x, False)
                    x.nact -= 1
                    x.on_hint = was_on_hint
                    return 1
                r = 0
            else:
                r = dfs(x, &c, target)
        else:
            clear_bit(&c.hlo[p], &c.hhi[p], card)
            c.nh[p] -= 1
            clear_bit(&c.llo, &c.lhi, card)
            c.tops[k] = card
            c.changed |= 1 << k
            c.last = k & 2
            c.k += 1
            c.played += 1
            r = dfs(x, &c, target)
        x.nact -= 1
        x.on_hint = was_on_hint
        if r != 0:
            return r
    tt_store(x, key, target + 1, x.nodes - first)
    return 0


cdef long long luby(long long i) noexcept nogil:
    """The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ... (i >= 1): restart budgets that waste at most a
    logarithmic factor against the best fixed budget."""
    cdef long long k = 1
    while ((<long long>1) << k) - 1 < i:
        k += 1
    while True:
        if i == ((<long long>1) << k) - 1:
            return (<long long>1) << (k - 1)
        i -= ((<long long>1) << (k - 1)) - 1
        k = 1
        while ((<long long>1) << k) - 1 < i:
            k += 1


cdef void initial_state(const Ctx* x, State* s) noexcept nogil:
    cdef int p, j, c
    s.tops[0] = x.start[0]
    s.tops[1] = x.start[1]
    s.tops[2] = x.start[2]
    s.tops[3] = x.start[3]
    s.llo = 0
    s.lhi = 0
    for j in range(x.ncards):
        set_bit(&s.llo, &s.lhi, x.deck[j])
    s.pos = 0
    for p in range(MAXP):
        s.hlo[p] = 0
        s.hhi[p] = 0
        s.nh[p] = 0
    for p in range(x.players):
        for j in range(x.hand_size):
            if s.pos < x.ncards:
                c = x.deck[s.pos]
                set_bit(&s.hlo[p], &s.hhi[p], c)
                s.nh[p] += 1
                s.pos += 1
    s.player = 0
    s.k = 0
    s.played = 0
    s.start_played = 0
    s.must = 0
    s.changed = 0
    s.last = 0
    s.req = x.min_play if s.pos < x.ncards else x.min_play_empty
    if s.req > s.nh[0]:
        s.req = s.nh[0]


# ---------------------------------------------------------------------------------------------
# Python entry points
# ---------------------------------------------------------------------------------------------

def solve_deal(deck, int players, int hand_size, int min_play, int min_play_empty, fire_cards=(),
               hint=(), long long node_limit=0, double time_limit=0.0, int tt_bits=20,
               int max_target=-1, long long restart_unit=RESTART_UNIT, int jump=10, tops=None,
               bint accept_order=True):
    """Fewest cards left for the deal ``deck`` (cards dealt and drawn from the front).

    The cards must be distinct values in 1..126 forming a range lo..hi; the ascending piles start
    at lo - 1, the descending ones at hi + 1 -- unless ``tops`` gives other start values (then
    the deck may be any set of cards, e.g. the cards not yet played in a position); ``jump`` is the backward move (10 in the rules; other
    values only make tiny test decks harder).  ``hint`` is a list of actions ``(card, pile)`` with
    ``(-1, -1)`` for "end the turn", followed first.  ``accept_order`` chooses the move ordering
    (acceptance cost, else live cards skipped; both exact).  ``max_target`` stops the iterative deepening
    after that target (-1: up to the whole deck).  Returns a dict: ``status`` ("win", "proven",
    "limit"), ``min_left`` (proven fewest cards left, or the proven lower bound when the limit was
    reached), ``nodes``, and ``line``: the actions of the best line found, as (player, card, pile)
    with card -1 for a turn end, or None.
    """
    cdef Ctx* x
    cdef State s
    cdef int n = len(deck), i, target, r = 0, lo, hi, res, top, probe
    cdef double t0
    if not 1 <= players <= MAXP:
        raise ValueError(f"players must be between 1 and {MAXP}")
    if not 1 <= hand_size <= MAXH:
        raise ValueError(f"hand size must be between 1 and {MAXH}")
    if not 1 <= min_play <= MAXH or not 1 <= min_play_empty <= MAXH:
        raise ValueError("minimum plays per turn must be between 1 and 8")
    if n == 0 or len(set(deck)) != n or min(deck) < 1 or max(deck) > MAXC - 2:
        raise ValueError("the deck must hold distinct cards within 1..126")
    lo = min(deck)
    hi = max(deck)
    if tops is None:
        if hi - lo + 1 != n:
            raise ValueError("the deck must be the cards lo..hi, once each")
        tops = (lo - 1, lo - 1, hi + 1, hi + 1)
    if len(tops) != 4 or not all(0 <= t <= MAXC - 1 and t not in deck for t in tops):
        raise ValueError("tops must be 4 values within 0..127 that are not cards of the deck")
    if not 1 <= jump <= 20:
        raise ValueError("jump must be between 1 and 20")
    if not 4 <= tt_bits <= 28:
        raise ValueError("tt_bits must be between 4 and 28")
    if len(hint) >= MAXACT:
        hint = hint[:MAXACT - 1]
    x = <Ctx*>calloc(1, sizeof(Ctx))
    if x == NULL:
        raise MemoryError()
    x.players = players
    x.hand_size = hand_size
    x.ncards = n
    for i in range(4):
        x.start[i] = tops[i]
    x.lo_card = lo
    x.hi_card = hi
    x.min_play = min_play
    x.min_play_empty = min_play_empty
    for i in range(n):
        x.deck[i] = deck[i]
    for c in fire_cards:
        if 0 <= c < 64:
            x.fire_lo |= <uint64_t>1 << c
        elif 64 <= c < MAXC:
            x.fire_hi |= <uint64_t>1 << (c - 64)
    x.fire = (x.fire_lo | x.fire_hi) != 0
    x.kwords = 2 * players + 1
    x.mask = (<uint64_t>1 << tt_bits) - 1
    x.table = <uint64_t*>calloc((<size_t>1 << tt_bits) * (x.kwords + 1), sizeof(uint64_t))
    if x.table == NULL:
        free(x)
        raise MemoryError()
    x.nhint = len(hint)
    for i in range(x.nhint):
        x.hint_c[i] = hint[i][0]
        x.hint_k[i] = hint[i][1]
    x.node_limit = node_limit
    x.jump = jump
    x.accept = accept_order
    top = n if max_target < 0 or max_target > n else max_target
    try:
        with nogil:
            t0 = now()
            x.deadline = t0 + time_limit if time_limit > 0 else 0.0
            target = 0
            probe = 0
            while target <= top:
                # probe i: budget luby(i) * RESTART_UNIT nodes; probe 0 follows the hint exactly,
                # later ones alternate hint / no hint, with noise in the move order
                initial_state(x, &s)
                x.nact = 0
                x.on_hint = 1
                x.use_hint = x.nhint > 0 and probe % 2 == 0
                # (scores: acceptance cost x10, or 8 per live card skipped; ending the turn
                # right after the free plays, late or early)
                if accept_order:
                    x.noise = 0 if probe == 0 else 6
                    x.end_score = 3 if probe % 3 == 0 else (10 if probe % 3 == 1 else -1)
                else:
                    x.noise = 0 if probe == 0 else 12
                    x.end_score = 4 if probe % 3 == 0 else (20 if probe % 3 == 1 else -2)
                rng_seed(&x.rng, <uint64_t>(probe + 1))
                x.probe_start = x.nodes
                x.probe_limit = luby(probe + 1) * restart_unit
                r = dfs(x, &s, target)
                if r == -2:
                    probe += 1
                    continue
                if r != 0:
                    break
                target += 1
                probe = 0
        if r == 1:
            status = "win" if target == 0 else "proven"
            res = target
        elif r == -1:
            status = "limit"
            res = target
        else:
            status = "limit"      # max_target reached without an answer
            res = target
        line = None
        if r == 1:
            line = [(x.line_p[i], x.line_c[i], x.line_k[i]) for i in range(x.nline)]
        return {"status": status, "min_left": res, "nodes": int(x.nodes), "line": line,
                "seconds": now() - t0}
    finally:
        free(x.table)
        free(x)


def play_cost(tops, live, int pile, int card, int jump=10):
    """The move-ordering cost of playing ``card`` on ``pile`` when the piles show ``tops`` and
    ``live`` are the cards not yet on a pile (for tests: the change of the acceptance score)."""
    cdef Ctx x
    cdef State s
    cdef Segments g
    cdef int i
    x.jump = jump
    s.llo = 0
    s.lhi = 0
    for i in range(4):
        s.tops[i] = tops[i]
    for i in live:
        set_bit(&s.llo, &s.lhi, i)
    make_segments(&s, &g)
    return accept_cost(&x, &s, &g, pile, card)


def block_decks(uint64_t seed, int n_games):
    """The deck orders of the ``n_games`` games of a block seeded with ``seed``: the same shuffles,
    in the same order, as the engine's ``simulate_block`` (so the same seed gives the same deals)."""
    cdef Rng rng
    cdef int deck[98]
    cdef int i, j
    out = []
    rng_seed(&rng, seed)
    for i in range(n_games):
        for j in range(98):
            deck[j] = j + 2
        rng_shuffle_int(&rng, deck, 98)
        out.append([deck[j] for j in range(98)])
    return out
