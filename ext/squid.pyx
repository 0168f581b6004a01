# cython: language_level=3
"""Squid Game board game engine: whole games (six sub-games) in C.

One game: every seat starts with 7 active tokens and 5 in reserve; before sub-games 2..6 each
seat moves one reserve token into the active team.  The sub-games (red light, dalgona, tug of war,
marbles, glass bridge, squid) each take the active counts, play in C and leave the survivors.
Seat 0 holds the highest token number, seat 1 the next and so on, so lower seats win the ties
that token numbers break.  The seat with the fewest active tokens starts each sub-game (ties: the
lowest seat); turn order is clockwise (increasing seat) from the starting seat.

Policies (per seat): 0 random, 1 careful, 2 bold, 3 equilibrium.  Equilibrium mixed strategies
are computed in Python (solver.squid.equilibrium) and handed over as probability tables.

One game can be recorded event by event (``play_traced``): the sub-games emit records (``ev``) into
a buffer attached to the Game; the Monte Carlo loop (``simulate_block``) plays the very same C code
with no buffer attached, so a logged game is one game of the analysis.

Every choice the rules leave a seat goes through a decision point (``decide``, kinds ``D_*``): in
the Monte Carlo loop it asks the seat's policy; in a game played from outside (``play_scripted``,
the decision API of solver.squid.decisions) it takes the next decision of a script and stops being
recorded where the script ends, so the API plays this very code.

The ``t_*`` functions at the end are a small test API: they set up one sub-game situation by
hand, resolve one round/turn with given choices and return the result, so the rules can be
checked against the pure-Python reference in tests/squid_reference.py.
"""

from libc.stdint cimport uint64_t, uint32_t
from libc.math cimport pow
from libc.stdlib cimport calloc, free, realloc
from rng cimport Rng, rng_seed, rng_next, rng_below, rng_double, rng_shuffle_int

import numpy as np

cdef enum:
    MAXP = 6
    MAXT = 96
    NSUB = 6
    MAXZ = 16
    MAXDOLL = 16
    MAXDG = 64
    MAXBRIDGE = 16      # glass bridge: parts in the box
    MAXPARTS = 8        # glass bridge: parts laid out (numbered 1..MAXPARTS)

cdef enum:
    POL_RANDOM = 0
    POL_CAREFUL = 1
    POL_BOLD = 2
    POL_EQ = 3

cdef enum:
    SQ_DEF = 0
    SQ_STAB = 1
    SQ_PUSH = 2
    SQ_MOVE = 3

# decision points: where the rules leave a seat a choice (a scripted game, ``play_scripted``, asks
# its script here; the Monte Carlo loop asks the seat's policy).  The options of each are listed
# where it is taken; solver/squid/decisions.py names them (tests/test_squid_tables.py checks)
cdef enum:
    D_RL_CARD = 0       # red light: the number card 0-4
    D_RL_PUSH = 1       # red light: the seat a 0 pushes out a token of
    D_DG_SHAPE = 2      # Dalgona: the shape (0-3) the next token is placed on
    D_DG_TOKEN = 3      # Dalgona: the token a flipped card advances or cracks
    D_DG_FLIP = 4       # Dalgona: flip another card (1) or stop (0)
    D_TUG_SPOT = 5      # tug of war: where the next token goes (2 * bridge + side)
    D_TUG_CARD = 6      # tug of war: the card 0-4 laid for one contested token
    D_MB_PAIR = 7       # marbles: the open pair a token joins, or the next pair number (a new pair)
    D_MB_DUEL = 8       # marbles: which of one's pairs is played next
    D_MB_MODE = 9       # marbles: 0 odd/even, 1 the line
    D_MB_HIDE = 10      # marbles: 1 or 2 marbles hidden
    D_MB_GUESS = 11     # marbles: the guess, 1 odd, 0 even
    D_BR_CARD = 12      # glass bridge: the card 0-4 played from the hand
    D_BR_TOKEN = 13     # glass bridge: the own token the card moves
    D_BR_PUSH = 14      # glass bridge: the token a 0 pushes (-1: none)
    D_BR_TILE = 15      # glass bridge: the tile stepped on, 0 left, 1 right
    D_SQ_CARD = 16      # squid: the card (defence, stab, push, move)
    D_SQ_VICTIM = 17    # squid: the token a stab or push hits
    D_SQ_MISS = 18      # squid: the own token a stab without a target loses
    D_SQ_MOVE = 19      # squid: token * 32 + zone + 1 (0: into the head), -1 no move
    ND = 20
    MAXOPT = MAXT * (MAXZ + 1) + 1

cdef enum:
    HOW_HEAD = 0
    HOW_LAST = 1
    HOW_CAP = 2

# event records of a traced game: (type, a, b, c, d, x); solver/squid/play.py turns them into the log
cdef enum:
    EVW = 6
    EV_SUB = 1          # sub-game k begins, starting seat
    EV_COUNT = 2        # seat p enters with n active tokens
    EV_ROUND = 3        # round r of the current sub-game begins
    EV_CARD = 4         # seat p's secret card revealed (-1: none)
    EV_TIMER = 5        # the timer has run s steps
    EV_SURV = 6         # seat p has n tokens after the sub-game
    EV_DOLL = 10        # red light: doll card i turned
    EV_RL_CROSSED = 11  # seat p played a crossed-out number: its front token is out
    EV_RL_MOVE = 12     # seat p's stack moves to field f
    EV_RL_THROUGH = 13  # seat p's stack of n tokens crosses the finish line
    EV_RL_PUSH = 14     # seat p's 0 pushes out a token of seat q
    EV_RL_TIMEOUT = 15  # seat p's n tokens still on the track when the timer runs out
    EV_DG_PLACE = 20    # token t of seat p placed on shape s
    EV_DG_TURN = 21     # seat p's turn
    EV_DG_FLIP = 22     # card c flipped (0-3 shape, 4 Crack!)
    EV_DG_ADV = 23      # token t advances to section s
    EV_DG_THROUGH = 24  # token t leaves the last section (survives)
    EV_DG_OUT = 25      # token t eliminated by a Crack!
    EV_DG_TIMEOUT = 26  # token t still on a shape when the timer runs out
    EV_TUG_PLACE = 30   # seat p places a token on bridge b, side s
    EV_TUG_NOROOM = 31  # seat p's n unplaced tokens are eliminated (no room)
    EV_TUG_CARD = 32    # seat p lays card v for a token on bridge b, side s
    EV_TUG_BRIDGE = 33  # bridge b: sums l, r, surviving sides (bits)
    EV_MB_TOKEN = 40    # seat p puts a token into pair k (joins it, or opens it)
    EV_MB_LEFTOVER = 41 # the token of open pair k joins open pair j
    EV_MB_ODD = 42      # seat p's odd token out survives
    EV_MB_OWN = 43      # pair k is seat p's own pair: one token survives, one is out
    EV_MB_DUEL = 44     # seat p plays pair k against seat q
    EV_MB_HIDE = 45     # odd/even: h marbles hidden, guess (1 odd, 0 even)
    EV_MB_THROW = 46    # line: seat p's marble off the table (1) or at distance x
    EV_MB_OUT = 47      # seat p's token of the duel is out
    EV_BR_PART = 50     # part d: crack -1 none, 0 left, 1 right
    EV_BR_QUEUE = 51    # token t of seat p joins the queue
    EV_BR_MOVE = 52     # token t moved by card k
    EV_BR_PUSH = 53     # token t pushed by seat p's 0
    EV_BR_TILE = 54     # token t onto part d: tile chosen by seat c
    EV_BR_TURN = 55     # part d turned over, crack c
    EV_BR_OUT = 56      # token t on a cracked tile of part d
    EV_BR_AT = 57       # token t stands on place d
    EV_BR_CHAIN = 58    # token t must move on (chain reaction)
    EV_BR_THROUGH = 59  # token t is across
    EV_BR_TIMEOUT = 60  # token t not across when the timer runs out
    EV_SQ_SPEED = 70    # seat p holds the speed token
    EV_SQ_STAB = 71     # seat p stabs token t
    EV_SQ_MISS = 72     # seat p's stab finds no target: its token t is out
    EV_SQ_PUSH = 73     # seat p pushes token t
    EV_SQ_MOVE = 74     # token t moves to zone z
    EV_SQ_HEAD = 75     # token t enters the head
    EV_SQ_ADV = 76      # token t advances to triangle field f
    EV_WIN = 80         # seat p wins, how


#: The C enums and limits above by the names the Python side gives them (policies, squid cards,
#: how a game is won, sub-games, log record types), so that tests/test_squid_tables.py checks every
#: Python table and parameter limit against the engine instead of a comment asking to keep them in step.
ENUMS = {
    "policies": {"random": POL_RANDOM, "careful": POL_CAREFUL, "bold": POL_BOLD, "equilibrium": POL_EQ},
    "squid_cards": {"defence": SQ_DEF, "stab": SQ_STAB, "push": SQ_PUSH, "move": SQ_MOVE},
    "how": {"head": HOW_HEAD, "last_survivor": HOW_LAST, "round_cap": HOW_CAP},
    "events": {"EV_SUB": EV_SUB, "EV_COUNT": EV_COUNT, "EV_ROUND": EV_ROUND, "EV_CARD": EV_CARD,
               "EV_TIMER": EV_TIMER, "EV_SURV": EV_SURV, "EV_DOLL": EV_DOLL, "EV_RL_CROSSED": EV_RL_CROSSED,
               "EV_RL_MOVE": EV_RL_MOVE, "EV_RL_THROUGH": EV_RL_THROUGH, "EV_RL_PUSH": EV_RL_PUSH,
               "EV_RL_TIMEOUT": EV_RL_TIMEOUT, "EV_DG_PLACE": EV_DG_PLACE, "EV_DG_TURN": EV_DG_TURN,
               "EV_DG_FLIP": EV_DG_FLIP, "EV_DG_ADV": EV_DG_ADV, "EV_DG_THROUGH": EV_DG_THROUGH,
               "EV_DG_OUT": EV_DG_OUT, "EV_DG_TIMEOUT": EV_DG_TIMEOUT, "EV_TUG_PLACE": EV_TUG_PLACE,
               "EV_TUG_NOROOM": EV_TUG_NOROOM, "EV_TUG_CARD": EV_TUG_CARD, "EV_TUG_BRIDGE": EV_TUG_BRIDGE,
               "EV_MB_TOKEN": EV_MB_TOKEN, "EV_MB_LEFTOVER": EV_MB_LEFTOVER, "EV_MB_ODD": EV_MB_ODD,
               "EV_MB_OWN": EV_MB_OWN, "EV_MB_DUEL": EV_MB_DUEL, "EV_MB_HIDE": EV_MB_HIDE,
               "EV_MB_THROW": EV_MB_THROW, "EV_MB_OUT": EV_MB_OUT, "EV_BR_PART": EV_BR_PART,
               "EV_BR_QUEUE": EV_BR_QUEUE, "EV_BR_MOVE": EV_BR_MOVE, "EV_BR_PUSH": EV_BR_PUSH,
               "EV_BR_TILE": EV_BR_TILE, "EV_BR_TURN": EV_BR_TURN, "EV_BR_OUT": EV_BR_OUT, "EV_BR_AT": EV_BR_AT,
               "EV_BR_CHAIN": EV_BR_CHAIN, "EV_BR_THROUGH": EV_BR_THROUGH, "EV_BR_TIMEOUT": EV_BR_TIMEOUT,
               "EV_SQ_SPEED": EV_SQ_SPEED, "EV_SQ_STAB": EV_SQ_STAB, "EV_SQ_MISS": EV_SQ_MISS,
               "EV_SQ_PUSH": EV_SQ_PUSH, "EV_SQ_MOVE": EV_SQ_MOVE, "EV_SQ_HEAD": EV_SQ_HEAD,
               "EV_SQ_ADV": EV_SQ_ADV, "EV_WIN": EV_WIN},
    "decisions": {"red_light.card": D_RL_CARD, "red_light.push": D_RL_PUSH, "dalgona.shape": D_DG_SHAPE,
                  "dalgona.token": D_DG_TOKEN, "dalgona.flip": D_DG_FLIP, "tug_of_war.place": D_TUG_SPOT,
                  "tug_of_war.card": D_TUG_CARD, "marbles.pair": D_MB_PAIR, "marbles.duel": D_MB_DUEL,
                  "marbles.mode": D_MB_MODE, "marbles.hide": D_MB_HIDE, "marbles.guess": D_MB_GUESS,
                  "glass_bridge.card": D_BR_CARD, "glass_bridge.token": D_BR_TOKEN,
                  "glass_bridge.push": D_BR_PUSH, "glass_bridge.tile": D_BR_TILE, "squid.card": D_SQ_CARD,
                  "squid.victim": D_SQ_VICTIM, "squid.miss": D_SQ_MISS, "squid.move": D_SQ_MOVE},
    "limits": {"seats": MAXP, "subgames": NSUB, "zones": MAXZ, "doll_cards": MAXDOLL, "dalgona_cards": MAXDG,
               "bridge_tiles": MAXBRIDGE, "bridge_parts": MAXPARTS},
}


cdef struct Params:
    int rl_timer        # timer start of red light, Dalgona and the glass bridge, in steps
    int dg_timer
    int br_timer
    # red light
    int rl_len
    int n_doll
    int doll_mask[MAXDOLL]
    double rl_penalty_careful
    double rl_penalty_bold
    # dalgona
    int dg_sections[4]
    int dg_deck[MAXDG]          # 0..3 shape, 4 crack
    int dg_ncards
    double dg_careful
    double dg_bold
    # tug of war
    int tug_cap
    int tug_tie_survive
    # marbles
    double mb_off
    double mb_skill[MAXP]
    # glass bridge
    int br_tiles
    int br_cracked
    int br_max
    # squid
    int sq_nz
    int sq_adj[MAXZ][MAXZ]
    int sq_dist[MAXZ]
    int sq_start
    int sq_tri
    int sq_fields
    int sq_max_rounds
    # policy tables
    const signed char* rl_best  # [timer][doll cards left][field][stack 0-12]: equilibrium card
    double br_eq[32][5]
    double tug_eq[8][8][5]
    double sq_eq[4][6][4]       # [who can enter the head: 0 nobody, 1 me, 2 a rival in my zone, 3 both]
                                # [opponents sharing a zone][card]
    double sq_careful[4]
    double sq_bold[4]


# the state of each sub-game (its function's locals; a snapshot copies them at the pending decision)
cdef struct Dalgona:
    int nt
    int own[MAXT]
    int shp[MAXT]
    int sec[MAXT]
    int st[MAXT]      # 0 eliminated, 1 on a shape, 2 survived


cdef struct TugLayout:
    int cnt[3][2]           # tokens per bridge side
    int ocnt[3][2][MAXP]    # ... per owner


cdef struct Bridge:
    int n                 # parts of the bridge = places 1..n
    int crack[MAXPARTS + 1]   # per part: -1 no cracked tile, 0 / 1 the left / right tile is cracked
    int state[MAXPARTS + 1]   # 0 face down, 1 turned over (both tiles and any crack visible)
    int nt
    int own[MAXT]
    int place[MAXT]       # 1..n on the bridge; <= 0 in the queue (0 = first in line, -1 behind it, ...)
    int st[MAXT]          # 0 eliminated, 1 in play, 2 crossed
    int arr[MAXT]         # arrival stamp (chain reactions move the earliest arrival on)
    int clock


cdef struct Squid:
    int nt
    int own[MAXT]
    int zone[MAXT]     # 0 safe zone
    int field[MAXT]    # triangle field 1..8 (0 elsewhere)
    int alive[MAXT]
    int ntok[MAXP]
    int speed
    int last_out
    int winner


# where the running sub-game keeps its state (pointers into its function's locals)
cdef struct SubView:
    int sub               # 0-5: the sub-game being played
    int* pos              # red light: field, tokens on the track, tokens through, per seat
    int* cnt
    int* done
    Dalgona* dg
    TugLayout* tug
    int* pa               # marbles: the pairs' two seats (-1: open), resolved flags, how many
    int* pb
    int* mdone
    int* npairs
    Bridge* br
    int* hand             # glass bridge: the cards in each hand (bits)
    Squid* sq


# the decisions of a game played from outside (``play_scripted``), and where they ran out
cdef struct Script:
    const int* forced     # every decision taken so far, in order
    int nforced
    int used              # how many of them the game has taken
    int stopped           # the script has run out: from here every decision takes its first option
    int bad               # forced[used] was not among the options of its decision point
    int nev               # events recorded before the pending decision
    int kind              # the pending decision: its kind (D_*), seat and options
    int player
    int nopt
    int opt[MAXOPT]
    int ask               # a policy to ask at the pending decision (-1: none)
    int asking
    int saved_pol
    int choice            # the asked policy's choice
    Rng ask_rng           # the asked policy's random numbers (the game's stay the chance's)
    Rng saved_rng
    # the state of the sub-game at the pending decision (``snapshot``)
    int sub
    int pos[MAXP]
    int cnt[MAXP]
    int done[MAXP]
    int hand[MAXP]
    Dalgona dg
    TugLayout tug
    int pa[MAXT + 1]
    int pb[MAXT + 1]
    int mdone[MAXT + 1]
    int npairs
    Bridge br
    Squid sq


cdef struct Game:
    int P
    int start         # seat that starts the current sub-game
    int pol[MAXP]
    int active[MAXP]
    int reserve[MAXP]
    int lost[MAXP]
    Rng rng
    Params* prm
    int enter[NSUB][MAXP]
    int surv[NSUB][MAXP]
    int rounds[NSUB]
    int winner
    int how
    double* ev        # event buffer of a traced game (NULL: not traced)
    int nev
    int evcap
    int evfail
    Script* sc        # a game played from outside (NULL: the seats' policies decide)
    SubView view      # the running sub-game's state, for the snapshot of a game played from outside


# ----------------------------------------------------------------------------- helpers

cdef void evx(Game* g, int t, int a, int b, int c, int d, double x) noexcept nogil:
    """Record one event of a traced game (no-op in the Monte Carlo loop, where g.ev is NULL)."""
    cdef double* r
    if g.ev == NULL:
        return
    if g.nev + EVW > g.evcap:
        r = <double*>realloc(g.ev, 2 * g.evcap * sizeof(double))
        if r == NULL:
            g.evfail = 1
            return
        g.ev = r
        g.evcap *= 2
    r = g.ev + g.nev
    r[0] = t
    r[1] = a
    r[2] = b
    r[3] = c
    r[4] = d
    r[5] = x
    g.nev += EVW


cdef inline void ev(Game* g, int t, int a, int b, int c, int d) noexcept nogil:
    if g.ev != NULL:
        evx(g, t, a, b, c, d, 0.0)


cdef inline int sample(Rng* r, const double* p, int n) noexcept nogil:
    """Index drawn from the (not necessarily normalised) weights p[0..n-1]; uniform if all zero."""
    cdef double tot = 0.0, x
    cdef int i
    for i in range(n):
        tot += p[i]
    if tot <= 0.0:
        return <int>rng_below(r, <uint32_t>n)
    x = rng_double(r) * tot
    for i in range(n):
        x -= p[i]
        if x < 0.0:
            return i
    for i in range(n - 1, -1, -1):
        if p[i] > 0.0:
            return i
    return n - 1


cdef int decide(Game* g, int kind, int p, const int* opt, int n, int* out) noexcept nogil:
    """A decision point of a scripted game (``g.sc`` set; n >= 1 options).  Returns 1 with *out
    set when the decision is taken here: the only option, the script's next decision, or, once the
    script has run out, the first option (the game then runs on to its end unrecorded).  Returns 0
    when the policy asked at the pending decision is to decide now (``decided`` takes its answer)."""
    cdef Script* sc = g.sc
    cdef int i, v
    if n == 1 or sc.stopped:
        out[0] = opt[0]
        return 1
    if sc.used < sc.nforced:
        v = sc.forced[sc.used]
        for i in range(n):
            if opt[i] == v:
                sc.used += 1
                out[0] = v
                return 1
        sc.bad = 1
    sc.stopped = 1
    sc.nev = g.nev
    snapshot(g)
    sc.kind = kind
    sc.player = p
    sc.nopt = n
    for i in range(n):
        sc.opt[i] = opt[i]
    if sc.ask >= 0 and not sc.bad:
        sc.asking = 1
        sc.saved_pol = g.pol[p]
        g.pol[p] = sc.ask
        sc.saved_rng = g.rng
        g.rng = sc.ask_rng
        return 0
    out[0] = opt[0]
    return 1


cdef void snapshot(Game* g) noexcept nogil:
    """Copy the running sub-game's state into the script (at its pending decision)."""
    cdef Script* sc = g.sc
    cdef SubView* v = &g.view
    cdef int p, k
    sc.sub = v.sub
    if v.sub == 0:
        for p in range(g.P):
            sc.pos[p] = v.pos[p]
            sc.cnt[p] = v.cnt[p]
            sc.done[p] = v.done[p]
    elif v.sub == 1:
        sc.dg = v.dg[0]
    elif v.sub == 2:
        sc.tug = v.tug[0]
    elif v.sub == 3:
        sc.npairs = v.npairs[0]
        for k in range(sc.npairs):
            sc.pa[k] = v.pa[k]
            sc.pb[k] = v.pb[k]
            sc.mdone[k] = v.mdone[k]
    elif v.sub == 4:
        sc.br = v.br[0]
        for p in range(g.P):
            sc.hand[p] = v.hand[p]
    else:
        sc.sq = v.sq[0]


cdef inline int decided(Game* g, int p, int v) noexcept nogil:
    """A policy's choice v at a decision point: passed through, and kept when it was asked for."""
    if g.sc != NULL and g.sc.asking:
        g.sc.asking = 0
        g.sc.choice = v
        g.pol[p] = g.sc.saved_pol
        g.rng = g.sc.saved_rng
    return v


# ----------------------------------------------------------------------------- 1 red light

cdef int rl_choose(Game* g, int p, int pos, int cnt, int rem, int timer) noexcept nogil:
    """Number card 0-4 for seat p (decision point D_RL_CARD)."""
    cdef int opt[5]
    cdef int v
    if g.sc != NULL:
        for v in range(5):
            opt[v] = v
        if decide(g, D_RL_CARD, p, opt, 5, &v):
            return v
    return decided(g, p, rl_policy(g, p, pos, cnt, rem, timer))


cdef int rl_policy(Game* g, int p, int pos, int cnt, int rem, int timer) noexcept nogil:
    """The policy's number card for seat p with cnt tokens stacked on field pos; rem: the doll
    cards (bitmask) not yet revealed in this pass through the deck; timer: steps already run."""
    cdef Params* prm = g.prm
    cdef int pol = g.pol[p], n, i, ncard = 0, best = 0
    cdef int crossed[5]
    cdef double pc, score, best_score = -1e300, penalty, dist
    if pol == POL_RANDOM:
        return <int>rng_below(&g.rng, 5)
    if pol == POL_EQ:
        return prm.rl_best[(((timer << prm.n_doll) + rem) * (prm.rl_len + 1) + pos) * 13 + (cnt if cnt < 12 else 12)]
    penalty = prm.rl_penalty_careful if pol == POL_CAREFUL else prm.rl_penalty_bold
    for n in range(5):
        crossed[n] = 0
    for i in range(prm.n_doll):
        if rem >> i & 1:
            ncard += 1
            for n in range(5):
                if prm.doll_mask[i] >> n & 1:
                    crossed[n] += 1
    dist = prm.rl_len + 1 - pos
    for n in range(5):
        pc = crossed[n] / <double>ncard
        score = (1.0 - pc) * (n if n < dist else dist) - pc * penalty
        if score > best_score + 1e-12:
            best_score = score
            best = n
    return best


cdef void rl_resolve(Game* g, int start, int* pos, int* cnt, int* done, const int* card,
                     int dm) noexcept nogil:
    """One red-light round after the reveal: crossed-out numbers lose their front token, the
    others move their stack, then every unpunished 0 pushes out one opponent token on the same
    field or the field in front (in turn order; tokens behind the start line are out of reach)."""
    cdef int P = g.P, i, p, q, c, best, nc
    cdef int crossed[MAXP]
    cdef int cand[MAXP]
    for i in range(P):
        p = (start + i) % P
        crossed[p] = 0
        if card[p] < 0 or cnt[p] == 0:
            continue
        if dm >> card[p] & 1:
            cnt[p] -= 1
            crossed[p] = 1
            ev(g, EV_RL_CROSSED, p, 0, 0, 0)
        elif card[p] > 0:
            pos[p] += card[p]
            if pos[p] > g.prm.rl_len:
                ev(g, EV_RL_THROUGH, p, cnt[p], 0, 0)
                done[p] += cnt[p]
                cnt[p] = 0
            else:
                ev(g, EV_RL_MOVE, p, pos[p], 0, 0)
    for i in range(P):
        p = (start + i) % P
        if card[p] != 0 or crossed[p] or cnt[p] == 0 or pos[p] < 1:
            continue
        nc = 0
        for c in range(1, P):
            q = (p + c) % P
            if cnt[q] > 0 and (pos[q] == pos[p] or pos[q] == pos[p] + 1):
                cand[nc] = q
                nc += 1
        if nc == 0:
            continue
        if g.sc == NULL or not decide(g, D_RL_PUSH, p, cand, nc, &best):
            if g.pol[p] == POL_RANDOM:
                best = cand[rng_below(&g.rng, <uint32_t>nc)]
            else:  # the opponent with most tokens there, nearest in turn order on ties
                best = cand[0]
                for c in range(1, nc):
                    if cnt[cand[c]] > cnt[best]:
                        best = cand[c]
            best = decided(g, p, best)
        ev(g, EV_RL_PUSH, p, best, 0, 0)
        cnt[best] -= 1


cdef void red_light(Game* g) noexcept nogil:
    cdef Params* prm = g.prm
    cdef int P = g.P, p, i, idx = 0, timer = 0, rounds = 0, rem, anyon
    cdef int pos[MAXP]
    cdef int cnt[MAXP]
    cdef int done[MAXP]
    cdef int card[MAXP]
    cdef int deck[MAXDOLL]
    for i in range(prm.n_doll):
        deck[i] = i
    rng_shuffle_int(&g.rng, deck, prm.n_doll)
    g.view.sub = 0
    g.view.pos = pos
    g.view.cnt = cnt
    g.view.done = done
    for p in range(P):
        pos[p] = 0
        cnt[p] = g.active[p]
        done[p] = 0
    while True:
        anyon = 0
        for p in range(P):
            if cnt[p] > 0:
                anyon = 1
        if not anyon:
            break
        rem = 0
        for i in range(idx, prm.n_doll):
            rem |= 1 << deck[i]
        ev(g, EV_ROUND, rounds + 1, 0, 0, 0)
        for p in range(P):
            card[p] = rl_choose(g, p, pos[p], cnt[p], rem, timer) if cnt[p] > 0 else -1
            ev(g, EV_CARD, p, card[p], 0, 0)
        ev(g, EV_DOLL, deck[idx], 0, 0, 0)
        rl_resolve(g, g.start, pos, cnt, done, card, prm.doll_mask[deck[idx]])
        idx += 1
        rounds += 1
        if idx == prm.n_doll:
            rng_shuffle_int(&g.rng, deck, prm.n_doll)
            idx = 0
            timer += 1
            ev(g, EV_TIMER, timer, 0, 0, 0)
            if timer >= prm.rl_timer:
                break
    for p in range(P):
        if cnt[p] > 0:
            ev(g, EV_RL_TIMEOUT, p, cnt[p], 0, 0)
    for p in range(P):
        g.lost[p] += g.active[p] - done[p]
        g.active[p] = done[p]
    g.rounds[0] = rounds


# ----------------------------------------------------------------------------- 2 dalgona

cdef void count_survivors(Game* g, int nt, const int* own, const int* st) noexcept nogil:
    """End of a sub-game whose tokens end in state 2 (through) or not: the new active counts and losses."""
    cdef int p, t
    for p in range(g.P):
        g.active[p] = 0
    for t in range(nt):
        if st[t] == 2:
            g.active[own[t]] += 1
        else:
            g.lost[own[t]] += 1



cdef int dg_pick(Game* g, Dalgona* d, int p, int mine, int shape, int most) noexcept nogil:
    """A token on the board: own (mine=1) or an opponent's, on shape (or any if -1); the
    policy picks uniformly (random) or the most/least advanced one."""
    cdef int t, n = 0, best = -1, k
    cdef int cand[MAXT]
    for t in range(d.nt):
        if d.st[t] != 1 or (d.own[t] == p) != (mine == 1):
            continue
        if shape >= 0 and d.shp[t] != shape:
            continue
        cand[n] = t
        n += 1
    if n == 0:
        return -1
    if g.sc != NULL and decide(g, D_DG_TOKEN, p, cand, n, &best):
        return best
    if g.pol[p] == POL_RANDOM:
        return decided(g, p, cand[rng_below(&g.rng, <uint32_t>n)])
    best = cand[0]
    for k in range(1, n):  # ties: the owner nearest clockwise after p, then the lower index
        t = cand[k]
        if d.sec[t] == d.sec[best]:
            if (d.own[t] - p + g.P) % g.P < (d.own[best] - p + g.P) % g.P:
                best = t
        elif (most and d.sec[t] > d.sec[best]) or (not most and d.sec[t] < d.sec[best]):
            best = t
    return decided(g, p, best)


cdef int dg_onboard(Dalgona* d, int p) noexcept nogil:
    cdef int t, n = 0
    for t in range(d.nt):
        if d.st[t] == 1 and d.own[t] == p:
            n += 1
    return n


cdef int dg_flip(Game* g, Dalgona* d, int p, int c, int first) noexcept nogil:
    """Apply one flipped Dalgona card for seat p; return 1 if the turn ends (Crack!)."""
    cdef int t
    ev(g, EV_DG_FLIP, c, 0, 0, 0)
    if c == 4:
        if first:
            t = dg_pick(g, d, p, 0, -1, 1)
        else:
            t = dg_pick(g, d, p, 1, -1, 0)
        if t >= 0:
            d.st[t] = 0
            ev(g, EV_DG_OUT, t, 0, 0, 0)
        return 1
    t = dg_pick(g, d, p, 1, c, 1)
    if t < 0:
        t = dg_pick(g, d, p, 0, c, 0)
    if t >= 0:
        d.sec[t] += 1
        if d.sec[t] >= g.prm.dg_sections[d.shp[t]]:
            d.st[t] = 2
            ev(g, EV_DG_THROUGH, t, 0, 0, 0)
        else:
            ev(g, EV_DG_ADV, t, d.sec[t], 0, 0)
    return 0


cdef int dg_continue(Game* g, Dalgona* d, int p, const int* deck, int k, int last_round) noexcept nogil:
    """Whether seat p flips another card after k cards (decision point D_DG_FLIP while a card is
    left and p has a token on a shape)."""
    cdef int left = g.prm.dg_ncards - k, i
    cdef int opt[2]
    if left <= 0 or dg_onboard(d, p) == 0:
        return 0
    if g.sc != NULL:
        opt[0] = 0
        opt[1] = 1
        if decide(g, D_DG_FLIP, p, opt, 2, &i):
            return i
    return decided(g, p, dg_continue_policy(g, d, p, deck, k, last_round))


cdef int dg_continue_policy(Game* g, Dalgona* d, int p, const int* deck, int k, int last_round) noexcept nogil:
    """The policy's choice whether seat p flips another card after k cards."""
    cdef Params* prm = g.prm
    cdef int left = prm.dg_ncards - k, cracks = 0, useful = 0, i, t
    cdef int mine[4]
    cdef double pc, pu
    if g.pol[p] == POL_RANDOM:
        return <int>rng_below(&g.rng, 2)
    if last_round:
        return 1  # tokens still on the shapes die when the timer hits zero anyway
    for i in range(4):
        mine[i] = 0
    for t in range(d.nt):
        if d.st[t] == 1 and d.own[t] == p:
            mine[d.shp[t]] = 1
    for i in range(k, prm.dg_ncards):
        if deck[i] == 4:
            cracks += 1
        elif mine[deck[i]]:
            useful += 1
    pc = cracks / <double>left
    pu = useful / <double>left
    if g.pol[p] == POL_CAREFUL:
        return pc <= prm.dg_careful
    if g.pol[p] == POL_BOLD:
        return pc <= prm.dg_bold
    return pu * 0.5 > pc  # equilibrium seats: expected-value rule (no secret choice here)


cdef void dg_place(Game* g, Dalgona* d) noexcept nogil:
    """Tokens go to the first section of a shape: random = uniform shape, careful = spread over
    all four shortest-first, bold = spread over the two shortest shapes."""
    cdef Params* prm = g.prm
    cdef int order[4]
    cdef int shapes[4]
    cdef int i, j, tmp, p, k, s
    for i in range(4):
        order[i] = i
        shapes[i] = i
    for i in range(4):
        for j in range(3 - i):
            if prm.dg_sections[order[j]] > prm.dg_sections[order[j + 1]]:
                tmp = order[j]
                order[j] = order[j + 1]
                order[j + 1] = tmp
    d.nt = 0
    for p in range(g.P):
        for k in range(g.active[p]):
            if g.sc == NULL or not decide(g, D_DG_SHAPE, p, shapes, 4, &s):
                if g.pol[p] == POL_RANDOM:
                    s = <int>rng_below(&g.rng, 4)
                elif g.pol[p] == POL_BOLD:
                    s = order[k % 2]
                else:
                    s = order[k % 4]
                s = decided(g, p, s)
            d.own[d.nt] = p
            d.shp[d.nt] = s
            d.sec[d.nt] = 0
            d.st[d.nt] = 1
            ev(g, EV_DG_PLACE, d.nt, p, s, 0)
            d.nt += 1


cdef void dalgona(Game* g) noexcept nogil:
    cdef Params* prm = g.prm
    cdef Dalgona d
    cdef int P = g.P, p, t, timer, k, i, rounds = 0, anyon
    cdef int deck[MAXDG]
    g.view.sub = 1
    g.view.dg = &d
    d.nt = 0
    dg_place(g, &d)
    for timer in range(prm.dg_timer):
        ev(g, EV_ROUND, timer + 1, 0, 0, 0)
        for i in range(P):
            p = (g.start + i) % P
            if dg_onboard(&d, p) == 0:
                continue
            ev(g, EV_DG_TURN, p, 0, 0, 0)
            for i in range(prm.dg_ncards):
                deck[i] = prm.dg_deck[i]
            rng_shuffle_int(&g.rng, deck, prm.dg_ncards)
            k = 0
            while True:
                k += 1
                if dg_flip(g, &d, p, deck[k - 1], k == 1):
                    break
                if not dg_continue(g, &d, p, deck, k, timer == prm.dg_timer - 1):
                    break
        rounds += 1
        ev(g, EV_TIMER, rounds, 0, 0, 0)
        anyon = 0
        for t in range(d.nt):
            if d.st[t] == 1:
                anyon = 1
        if not anyon:
            break
    for t in range(d.nt):
        if d.st[t] == 1:
            ev(g, EV_DG_TIMEOUT, t, 0, 0, 0)
    count_survivors(g, d.nt, d.own, d.st)
    g.rounds[1] = rounds


# ----------------------------------------------------------------------------- 3 tug of war

cdef int tug_outcome(int nl, int nr, int suml, int sumr, int zeros, int tie_survive) noexcept nogil:
    """Bit 1: left side survives, bit 2: right side survives."""
    if nl == 0 or nr == 0:
        return 3
    if suml == sumr:
        return 3 if tie_survive else 0
    if (suml > sumr) == (zeros % 2 == 0):
        return 1
    return 2



cdef void tug_place(Game* g, TugLayout* lay) noexcept nogil:
    """Players place one token at a time in turn order; a side may not get two ahead and holds
    at most tug_cap tokens; once no place is legal, every unplaced token is eliminated."""
    cdef Params* prm = g.prm
    cdef int P = g.P, p, i, b, s, c, n, best, k, left, total
    cdef int unplaced[MAXP]
    cdef int spots[6]
    for b in range(3):
        for s in range(2):
            lay.cnt[b][s] = 0
            for p in range(MAXP):
                lay.ocnt[b][s][p] = 0
    left = 0
    for p in range(P):
        unplaced[p] = g.active[p]
        left += unplaced[p]
    while left > 0:
        for i in range(P):
            p = (g.start + i) % P
            if unplaced[p] == 0:
                continue
            n = 0
            for b in range(3):
                for s in range(2):
                    if lay.cnt[b][s] < prm.tug_cap and lay.cnt[b][s] - lay.cnt[b][1 - s] < 1:
                        spots[n] = 2 * b + s
                        n += 1
            if n == 0:  # no room anywhere: every token not yet placed is eliminated
                for k in range(P):
                    if unplaced[k] > 0:
                        ev(g, EV_TUG_NOROOM, k, unplaced[k], 0, 0)
                left = 0
                break
            if g.sc == NULL or not decide(g, D_TUG_SPOT, p, spots, n, &best):
                if g.pol[p] == POL_RANDOM:
                    best = spots[rng_below(&g.rng, <uint32_t>n)]
                else:
                    best = spots[0]
                    for k in range(1, n):
                        total = lay.cnt[spots[k] // 2][0] + lay.cnt[spots[k] // 2][1]
                        c = lay.cnt[best // 2][0] + lay.cnt[best // 2][1]
                        if (g.pol[p] == POL_BOLD and total > c) or (g.pol[p] != POL_BOLD and total < c):
                            best = spots[k]
                best = decided(g, p, best)
            ev(g, EV_TUG_PLACE, p, best // 2, best % 2, 0)
            lay.cnt[best // 2][best % 2] += 1
            lay.ocnt[best // 2][best % 2][p] += 1
            unplaced[p] -= 1
            left -= 1


cdef void tug_order(Game* g, int p, int* order5) noexcept nogil:
    """The order in which a random (shuffled), careful (high first) or bold (the 0, then high)
    seat lays its cards."""
    cdef int v
    if g.pol[p] == POL_RANDOM:
        for v in range(5):
            order5[v] = v
        rng_shuffle_int(&g.rng, order5, 5)
    elif g.pol[p] == POL_CAREFUL:
        for v in range(5):
            order5[v] = 4 - v
    else:
        order5[0] = 0
        for v in range(1, 5):
            order5[v] = 5 - v


cdef void tug(Game* g) noexcept nogil:
    cdef Params* prm = g.prm
    cdef int P = g.P, p, i, b, s, k, v, outcome, nopt, got
    cdef TugLayout lay
    cdef int sums[3][2]
    cdef int zeros[3][2]
    cdef int used[5]
    cdef double w[5]
    cdef int order5[5]
    cdef int opt[5]
    g.view.sub = 2
    g.view.tug = &lay
    tug_place(g, &lay)
    ev(g, EV_ROUND, 1, 0, 0, 0)
    for b in range(3):
        for s in range(2):
            sums[b][s] = 0
            zeros[b][s] = 0
    # cards: one face-down card per contested token, each of the 0-4 cards at most once
    for p in range(P):
        for v in range(5):
            used[v] = 0
        if g.sc == NULL:
            tug_order(g, p, order5)
        k = 0
        for b in range(3):
            for s in range(2):
                if lay.cnt[b][1 - s] == 0:
                    continue
                for i in range(lay.ocnt[b][s][p]):
                    if k >= 5:
                        break
                    got = 0
                    if g.sc != NULL:  # decision point D_TUG_CARD: any card not yet laid
                        nopt = 0
                        for v in range(5):
                            if not used[v]:
                                opt[nopt] = v
                                nopt += 1
                        got = decide(g, D_TUG_CARD, p, opt, nopt, &v)
                        if not got:
                            tug_order(g, p, order5)  # the asked policy's order
                    if not got:
                        if g.pol[p] == POL_EQ:
                            for v in range(5):
                                w[v] = 0.0 if used[v] else prm.tug_eq[lay.cnt[b][s]][lay.cnt[b][1 - s]][v]
                            v = sample(&g.rng, w, 5)
                            if used[v]:  # all remaining weights zero: first unused card
                                v = 0
                                while used[v]:
                                    v += 1
                        else:  # the first card of the seat's order not yet laid (order5[k] here)
                            v = 0
                            while used[order5[v]]:
                                v += 1
                            v = order5[v]
                        v = decided(g, p, v)
                    used[v] = 1
                    k += 1
                    ev(g, EV_TUG_CARD, p, b, s, v)
                    sums[b][s] += v
                    if v == 0:
                        zeros[b][s] += 1
    for p in range(P):
        g.active[p] = 0
    for b in range(3):
        outcome = tug_outcome(lay.cnt[b][0], lay.cnt[b][1], sums[b][0], sums[b][1],
                              zeros[b][0] + zeros[b][1], prm.tug_tie_survive)
        ev(g, EV_TUG_BRIDGE, b, sums[b][0], sums[b][1], outcome)
        for s in range(2):
            for p in range(P):
                if outcome >> s & 1:
                    g.active[p] += lay.ocnt[b][s][p]
    for p in range(P):
        g.lost[p] = 12 - g.reserve[p] - g.active[p]
    g.rounds[2] = 1


# ----------------------------------------------------------------------------- 4 marbles

cdef int mb_duel(Game* g, int a, int b) noexcept nogil:
    """Seat a (on turn) plays its pair against seat b; returns the losers as bits (1: a, 2: b)."""
    cdef Params* prm = g.prm
    cdef int mode, h, guess, offa, offb
    cdef double da, db
    cdef int opt[2]
    opt[0] = 0
    opt[1] = 1
    if g.sc == NULL or not decide(g, D_MB_MODE, a, opt, 2, &mode):
        if g.pol[a] == POL_RANDOM:
            mode = <int>rng_below(&g.rng, 2)
        elif g.pol[a] == POL_CAREFUL:
            mode = 0
        elif g.pol[a] == POL_BOLD:
            mode = 1
        else:
            mode = 1 if prm.mb_skill[a] > prm.mb_skill[b] else 0
        mode = decided(g, a, mode)
    if mode == 0:  # odd/even: a hides 1 or 2 marbles, b guesses the parity
        opt[0] = 1
        opt[1] = 2
        if g.sc == NULL or not decide(g, D_MB_HIDE, a, opt, 2, &h):
            if g.pol[a] == POL_CAREFUL:
                h = 1
            elif g.pol[a] == POL_BOLD:
                h = 2
            else:
                h = 1 + <int>rng_below(&g.rng, 2)
            h = decided(g, a, h)
        opt[0] = 0
        opt[1] = 1
        if g.sc == NULL or not decide(g, D_MB_GUESS, b, opt, 2, &guess):
            if g.pol[b] == POL_CAREFUL:
                guess = 1
            elif g.pol[b] == POL_BOLD:
                guess = 0
            else:
                guess = <int>rng_below(&g.rng, 2)
            guess = decided(g, b, guess)
        ev(g, EV_MB_HIDE, h, guess, 0, 0)
        return 1 if (h & 1) == guess else 2
    # the line: b throws first, then a; a marble off the table loses, else the closer one wins
    offb = rng_double(&g.rng) < prm.mb_off
    db = pow(rng_double(&g.rng), prm.mb_skill[b])
    offa = rng_double(&g.rng) < prm.mb_off
    da = pow(rng_double(&g.rng), prm.mb_skill[a])
    evx(g, EV_MB_THROW, b, offb, 0, 0, db)
    evx(g, EV_MB_THROW, a, offa, 0, 0, da)
    if offa or offb:
        return offa | (offb << 1)
    return 1 if da > db else 2


cdef void marbles(Game* g) noexcept nogil:
    cdef int P = g.P, p, i, k, n, left, npairs = 0, choice, turns = 0, unresolved, j, r, x
    cdef int pa[MAXT]
    cdef int pb[MAXT]
    cdef int done[MAXT]
    cdef int unplaced[MAXP]
    cdef int opens[MAXT + 1]
    cdef int surv[MAXP]
    g.view.sub = 3
    g.view.pa = pa
    g.view.pb = pb
    g.view.mdone = done
    g.view.npairs = &npairs
    left = 0
    for p in range(P):
        unplaced[p] = g.active[p]
        left += unplaced[p]
        surv[p] = 0
    while left > 0:
        for i in range(P):
            p = (g.start + i) % P
            if unplaced[p] == 0:
                continue
            n = 0
            for k in range(npairs):
                if pb[k] < 0:
                    opens[n] = k
                    n += 1
            opens[n] = npairs  # a new pair
            if g.sc == NULL or not decide(g, D_MB_PAIR, p, opens, n + 1, &choice):
                choice = npairs
                if g.pol[p] == POL_RANDOM:
                    x = <int>rng_below(&g.rng, <uint32_t>(n + 1))
                    if x < n:
                        choice = opens[x]
                else:
                    for x in range(n):
                        if pa[opens[x]] != p:
                            choice = opens[x]
                            break
                choice = decided(g, p, choice)
            if choice < npairs:
                pb[choice] = p
                ev(g, EV_MB_TOKEN, p, choice, 0, 0)
            else:
                ev(g, EV_MB_TOKEN, p, npairs, 0, 0)
                pa[npairs] = p
                pb[npairs] = -1
                done[npairs] = 0
                npairs += 1
            unplaced[p] -= 1
            left -= 1
    # leftover open pairs are joined with each other; one odd token out survives
    j = -1
    for k in range(npairs):
        done[k] = 0
        if pb[k] < 0:
            if j < 0:
                j = k
            else:
                ev(g, EV_MB_LEFTOVER, j, k, 0, 0)
                pb[j] = pa[k]
                done[k] = 2  # merged into pair j
                j = -1
    if j >= 0:
        ev(g, EV_MB_ODD, pa[j], 0, 0, 0)
        surv[pa[j]] += 1
        done[j] = 2
    unresolved = 0
    for k in range(npairs):
        if done[k]:
            continue
        if pa[k] == pb[k]:
            ev(g, EV_MB_OWN, k, pa[k], 0, 0)
            surv[pa[k]] += 1
            done[k] = 1
        else:
            unresolved += 1
    i = 0
    while unresolved > 0:
        p = (g.start + i) % P
        i += 1
        n = 0
        for k in range(npairs):
            if not done[k] and (pa[k] == p or pb[k] == p):
                opens[n] = k
                n += 1
        if n == 0:
            continue
        if g.sc == NULL or not decide(g, D_MB_DUEL, p, opens, n, &k):
            k = opens[rng_below(&g.rng, <uint32_t>n)] if g.pol[p] == POL_RANDOM else opens[0]
            k = decided(g, p, k)
        j = pb[k] if pa[k] == p else pa[k]
        ev(g, EV_ROUND, turns + 1, 0, 0, 0)
        ev(g, EV_MB_DUEL, p, k, j, 0)
        r = mb_duel(g, p, j)
        if not (r & 1):
            surv[p] += 1
        else:
            ev(g, EV_MB_OUT, p, 0, 0, 0)
        if not (r & 2):
            surv[j] += 1
        else:
            ev(g, EV_MB_OUT, j, 0, 0, 0)
        done[k] = 1
        unresolved -= 1
        turns += 1
    for p in range(P):
        g.lost[p] += g.active[p] - surv[p]
        g.active[p] = surv[p]
    g.rounds[3] = turns


# ----------------------------------------------------------------------------- 5 glass bridge


cdef int br_pick_tile(Game* g, Bridge* b, int chooser, int d, bint kill) noexcept nogil:
    """The tile (0 left, 1 right) seat ``chooser`` picks on part d.  Face down: a blind guess (the
    cracks are underneath).  Turned: random seats pick either; the others the intact tile for their
    own token, the cracked one when pushing an opponent's token (``kill``)."""
    cdef int opt[2]
    cdef int v
    if g.sc != NULL:
        opt[0] = 0
        opt[1] = 1
        if decide(g, D_BR_TILE, chooser, opt, 2, &v):
            return v
    if b.state[d] == 0 or g.pol[chooser] == POL_RANDOM or b.crack[d] < 0:
        return decided(g, chooser, <int>rng_below(&g.rng, 2))
    return decided(g, chooser, b.crack[d] if kill else 1 - b.crack[d])


cdef void br_land(Game* g, Bridge* b, int t, int d, int chooser) noexcept nogil:
    """Token t arrives on place d, ``chooser`` (its owner, or the seat that pushed it) picks the
    tile: past the end it survives, in the queue it just stands, on a cracked tile it is eliminated
    (the part is turned over: everyone sees the crack); a third token on a part pushes the earliest
    arrival one place on, and that token's owner picks its tile there."""
    cdef int u, other, n, tile
    while True:
        if d > b.n:
            b.st[t] = 2
            ev(g, EV_BR_THROUGH, t, 0, 0, 0)
            return
        if d <= 0:
            b.place[t] = d
            ev(g, EV_BR_AT, t, d, 0, 0)
            return
        tile = br_pick_tile(g, b, chooser, d, chooser != b.own[t])
        ev(g, EV_BR_TILE, t, d, tile, chooser)
        if b.state[d] == 0:
            ev(g, EV_BR_TURN, d, b.crack[d], 0, 0)
        b.state[d] = 1
        if tile == b.crack[d]:
            b.st[t] = 0
            ev(g, EV_BR_OUT, t, d, 0, 0)
            return
        n = 0
        other = -1
        for u in range(b.nt):
            if u != t and b.st[u] == 1 and b.place[u] == d:
                n += 1
                if other < 0 or b.arr[u] < b.arr[other]:
                    other = u
        b.place[t] = d
        b.arr[t] = b.clock
        b.clock += 1
        ev(g, EV_BR_AT, t, d, 0, 0)
        if n < 2:
            return
        t = other
        ev(g, EV_BR_CHAIN, t, 0, 0, 0)
        d = d + 1
        chooser = b.own[t]


cdef int br_value(Bridge* b, int d) noexcept nogil:
    """How safe a destination is for one's own token: 3 past the end, 2 a turned part (its intact
    tile is known) or the queue, 1 a part still face down (a blind guess)."""
    if d > b.n:
        return 3
    if d <= 0 or b.state[d] == 1:
        return 2
    return 1


cdef int br_harm(Bridge* b, int d) noexcept nogil:
    """What pushing a token onto place d does: 0 a turned part with a crack (certain elimination),
    1 a face-down part (a chance), 2 nothing (a safe part or past the end)."""
    if d > b.n:
        return 2
    if b.state[d] == 0:
        return 1
    return 0 if b.crack[d] >= 0 else 2


cdef int br_choose_card(Game* g, Bridge* b, int p, int hand) noexcept nogil:
    """The card seat p plays from its hand (bits 0-4; decision point D_BR_CARD)."""
    cdef int v, n = 0
    cdef int cards[5]
    if g.sc != NULL:
        for v in range(5):
            if hand >> v & 1:
                cards[n] = v
                n += 1
        if decide(g, D_BR_CARD, p, cards, n, &v):
            return v
    return decided(g, p, br_card_policy(g, b, p, hand))


cdef int br_card_policy(Game* g, Bridge* b, int p, int hand) noexcept nogil:
    cdef int pol = g.pol[p], v, t, best = -1, bestval = -1, val, n = 0
    cdef int cards[5]
    cdef double w[5]
    for v in range(5):
        if hand >> v & 1:
            cards[n] = v
            n += 1
    if pol == POL_RANDOM:
        return cards[rng_below(&g.rng, <uint32_t>n)]
    if pol == POL_BOLD:
        return cards[n - 1]
    if pol == POL_EQ:
        for v in range(5):
            w[v] = g.prm.br_eq[hand][v] if hand >> v & 1 else 0.0
        v = sample(&g.rng, w, 5)
        if hand >> v & 1:
            return v
        return cards[rng_below(&g.rng, <uint32_t>n)]
    for v in range(n):  # careful: the card with the safest landing for some token
        val = 1 if cards[v] == 0 else -1
        if cards[v] > 0:
            for t in range(b.nt):
                if b.st[t] == 1 and b.own[t] == p and br_value(b, b.place[t] + cards[v]) > val:
                    val = br_value(b, b.place[t] + cards[v])
        if val >= bestval:
            bestval = val
            best = cards[v]
    return best


cdef void br_move(Game* g, Bridge* b, int p, int k) noexcept nogil:
    """Seat p plays card k: move one own token (in the queue or on the bridge) k places, or with 0
    push an opponent token that shares a part with one of p's tokens one place on (p picks the
    tile it lands on)."""
    cdef int t, u, n = 0, best = -1, val, bestval = -1000000
    cdef int cand[MAXT + 1]
    if k > 0:
        for t in range(b.nt):
            if b.st[t] == 1 and b.own[t] == p:
                cand[n] = t
                n += 1
        if n == 0:
            return
        if g.sc == NULL or not decide(g, D_BR_TOKEN, p, cand, n, &best):
            if g.pol[p] == POL_RANDOM:
                best = cand[rng_below(&g.rng, <uint32_t>n)]
            else:  # safest landing, most advanced token on ties (bold: the most advanced token)
                for u in range(n):
                    t = cand[u]
                    val = br_value(b, b.place[t] + k)
                    if g.pol[p] == POL_BOLD:
                        val = 1
                    val = val * 1024 + b.place[t]
                    if val > bestval:
                        bestval = val
                        best = t
            best = decided(g, p, best)
        ev(g, EV_BR_MOVE, best, k, 0, 0)
        br_land(g, b, best, b.place[best] + k, p)
        return
    for t in range(b.nt):
        if b.st[t] != 1 or b.own[t] == p or b.place[t] < 1:
            continue
        for u in range(b.nt):
            if b.st[u] == 1 and b.own[u] == p and b.place[u] == b.place[t]:
                cand[n] = t
                n += 1
                break
    if n == 0:
        return
    cand[n] = -1  # the 0 may push nobody
    if g.sc == NULL or not decide(g, D_BR_PUSH, p, cand, n + 1, &best):
        if g.pol[p] == POL_RANDOM:
            best = cand[rng_below(&g.rng, <uint32_t>n)]
        else:  # push only where it can eliminate (a known crack first, then a face-down part)
            bestval = 2
            for u in range(n):  # ties: the owner nearest clockwise after p
                val = br_harm(b, b.place[cand[u]] + 1)
                if val < bestval or (val == bestval and best >= 0 and
                                     (b.own[cand[u]] - p + g.P) % g.P < (b.own[best] - p + g.P) % g.P):
                    bestval = val
                    best = cand[u]
        best = decided(g, p, best)
    if best < 0:
        return
    ev(g, EV_BR_PUSH, best, p, 0, 0)
    br_land(g, b, best, b.place[best] + 1, p)


cdef void bridge_setup(Game* g, Bridge* b) noexcept nogil:
    """As many parts as tokens in play (at most ``max_tiles``), drawn from the ``tiles`` parts of the
    box of which ``cracked`` have a cracked tile (left or right); the queue in turn order."""
    cdef Params* prm = g.prm
    cdef int parts[MAXBRIDGE]
    cdef int i, p, k, total = 0
    for p in range(g.P):
        total += g.active[p]
    b.n = total if total < prm.br_max else prm.br_max
    for i in range(prm.br_tiles):
        parts[i] = 1 if i < prm.br_cracked else 0
    rng_shuffle_int(&g.rng, parts, prm.br_tiles)
    for i in range(9):
        b.crack[i] = -1
        b.state[i] = 0
    for i in range(b.n):
        if parts[i]:
            b.crack[i + 1] = <int>rng_below(&g.rng, 2)
        ev(g, EV_BR_PART, i + 1, b.crack[i + 1], 0, 0)
    b.nt = 0
    b.clock = 0
    # the queue: players line up their tokens one at a time in turn order, "in this order" they
    # stand in front of the bridge (the first in line on place 0, the next on -1, ...)
    for k in range(12):
        for i in range(g.P):
            p = (g.start + i) % g.P
            if k < g.active[p]:
                b.own[b.nt] = p
                b.place[b.nt] = -b.nt
                b.st[b.nt] = 1
                b.arr[b.nt] = 0
                ev(g, EV_BR_QUEUE, b.nt, p, 0, 0)
                b.nt += 1


cdef int br_inplay(Bridge* b, int p) noexcept nogil:
    cdef int t, n = 0
    for t in range(b.nt):
        if b.st[t] == 1 and b.own[t] == p:
            n += 1
    return n


cdef void glass_bridge(Game* g) noexcept nogil:
    cdef Params* prm = g.prm
    cdef Bridge b
    cdef int P = g.P, p, t, i, timer = 0, rounds = 0, anyon
    cdef int hand[MAXP]
    cdef int card[MAXP]
    g.view.sub = 4
    g.view.br = &b
    g.view.hand = hand
    bridge_setup(g, &b)
    for p in range(P):
        hand[p] = 31
    while True:
        anyon = 0
        for p in range(P):
            card[p] = -1
            if br_inplay(&b, p) > 0:
                anyon = 1
                card[p] = br_choose_card(g, &b, p, hand[p])
                hand[p] &= ~(1 << card[p])
        if not anyon:
            break
        ev(g, EV_ROUND, rounds + 1, 0, 0, 0)
        for p in range(P):
            ev(g, EV_CARD, p, card[p], 0, 0)
        for i in range(P):
            p = (g.start + i) % P
            if card[p] >= 0 and br_inplay(&b, p) > 0:
                br_move(g, &b, p, card[p])
        rounds += 1
        if rounds % 5 == 0:
            for p in range(P):
                hand[p] = 31
            timer += 1
            ev(g, EV_TIMER, timer, 0, 0, 0)
            if timer >= prm.br_timer:
                break
    for t in range(b.nt):
        if b.st[t] == 1:
            ev(g, EV_BR_TIMEOUT, t, 0, 0, 0)
    count_survivors(g, b.nt, b.own, b.st)
    g.rounds[4] = rounds


# ----------------------------------------------------------------------------- 6 squid game


cdef int sq_progress(Params* prm, Squid* s, int t) noexcept nogil:
    """Larger is nearer the head."""
    if s.zone[t] == prm.sq_tri:
        return 100 + s.field[t]
    return 50 - prm.sq_dist[s.zone[t]]


cdef void sq_kill(Squid* s, int t) noexcept nogil:
    s.alive[t] = 0
    s.ntok[s.own[t]] -= 1
    if s.ntok[s.own[t]] == 0:
        s.last_out = s.own[t]


cdef int sq_contested(Squid* s, int p) noexcept nogil:
    """How many opponents have a token in a zone (not the safe zone) where p has one."""
    cdef int t, u, n = 0, mask = 0
    for t in range(s.nt):
        if s.alive[t] and s.own[t] == p and s.zone[t] != 0:
            for u in range(s.nt):
                if s.alive[u] and s.own[u] != p and s.zone[u] == s.zone[t] and not (mask >> s.own[u] & 1):
                    mask |= 1 << s.own[u]
                    n += 1
    return n


cdef int sq_choose_card(Game* g, Squid* s, int p) noexcept nogil:
    """Squid card of seat p (decision point D_SQ_CARD)."""
    cdef int opt[4]
    cdef int v
    if g.sc != NULL:
        for v in range(4):
            opt[v] = v
        if decide(g, D_SQ_CARD, p, opt, 4, &v):
            return v
    return decided(g, p, sq_card_policy(g, s, p))


cdef int sq_card_policy(Game* g, Squid* s, int p) noexcept nogil:
    """The policy's squid card for seat p: uncontested seats move; a careful/bold seat with a token on the
    last triangle field moves (into the head), one facing a rival's token there in the triangle
    stabs (only a stab stops it); otherwise the policy's mixed strategy (equilibrium: the table
    for who can enter the head)."""
    cdef int pol = g.pol[p], t, head = 0, k, in_tri = 0, rival = 0
    if pol == POL_RANDOM:
        return <int>rng_below(&g.rng, 4)
    k = sq_contested(s, p)
    if k == 0:
        return SQ_MOVE
    for t in range(s.nt):
        if s.alive[t] and s.own[t] == p and s.zone[t] == g.prm.sq_tri:
            in_tri = 1
            if s.field[t] >= g.prm.sq_fields:
                head = 1
    for t in range(s.nt):
        if (in_tri and s.alive[t] and s.own[t] != p and s.zone[t] == g.prm.sq_tri
                and s.field[t] >= g.prm.sq_fields):
            rival = 1
    if pol == POL_EQ:
        return sample(&g.rng, g.prm.sq_eq[head + 2 * rival][k], 4)
    if head:
        return SQ_MOVE
    if rival:
        return SQ_STAB
    if pol == POL_CAREFUL:
        return sample(&g.rng, g.prm.sq_careful, 4)
    return sample(&g.rng, g.prm.sq_bold, 4)


cdef int sq_attack(Game* g, Squid* s, int p, const int* card, int kind) noexcept nogil:
    """Stab (kind 1) or push (kind 2) by seat p: returns the victim token or -1."""
    cdef Params* prm = g.prm
    cdef int t, u, n = 0, best, k, q
    cdef int cand[MAXT]
    for t in range(s.nt):
        q = s.own[t]
        if not s.alive[t] or q == p or s.zone[t] == 0:
            continue
        if kind == SQ_STAB and (card[q] == SQ_DEF or card[q] == SQ_STAB):
            continue
        if kind == SQ_PUSH and card[q] != SQ_DEF:
            continue
        for u in range(s.nt):
            if s.alive[u] and s.own[u] == p and s.zone[u] == s.zone[t]:
                cand[n] = t
                n += 1
                break
    if n == 0:
        return -1
    if g.sc != NULL and decide(g, D_SQ_VICTIM, p, cand, n, &best):
        return best
    if g.pol[p] == POL_RANDOM:
        return decided(g, p, cand[rng_below(&g.rng, <uint32_t>n)])
    best = cand[0]
    for k in range(1, n):  # the most advanced; ties: the owner nearest clockwise after p
        t = sq_progress(prm, s, cand[k]) - sq_progress(prm, s, best)
        if t > 0 or (t == 0 and (s.own[cand[k]] - p + g.P) % g.P < (s.own[best] - p + g.P) % g.P):
            best = cand[k]
    return decided(g, p, best)


cdef int sq_sacrifice(Game* g, Squid* s, int p) noexcept nogil:
    """The own token a stabber without a target loses (least advanced; random: any)."""
    cdef int t, n = 0, best = -1
    cdef int cand[MAXT]
    for t in range(s.nt):
        if s.alive[t] and s.own[t] == p:
            cand[n] = t
            n += 1
    if n == 0:
        return -1
    if g.sc != NULL and decide(g, D_SQ_MISS, p, cand, n, &best):
        return best
    if g.pol[p] == POL_RANDOM:
        return decided(g, p, cand[rng_below(&g.rng, <uint32_t>n)])
    best = cand[0]
    for t in range(1, n):
        if sq_progress(g.prm, s, cand[t]) < sq_progress(g.prm, s, best):
            best = cand[t]
    return decided(g, p, best)


cdef int sq_move(Game* g, Squid* s, int p) noexcept nogil:
    """Move one own token to an adjacent zone; returns 1 if it entered the head (win)."""
    cdef Params* prm = g.prm
    cdef int t, z, n = 0, k, bt = -1, bz = -1, bestp = -1000, pr
    cdef int ct[MAXOPT]
    cdef int cz[MAXOPT]
    cdef int opt[MAXOPT]
    for t in range(s.nt):
        if not s.alive[t] or s.own[t] != p:
            continue
        if s.zone[t] == prm.sq_tri and s.field[t] >= prm.sq_fields:
            ct[n] = t
            cz[n] = -1  # the head
            n += 1
        for z in range(prm.sq_nz):
            if prm.sq_adj[s.zone[t]][z]:
                ct[n] = t
                cz[n] = z
                n += 1
    if n == 0:
        return 0
    # decision point D_SQ_MOVE: token * 32 + zone + 1 (0: into the head), or -1: no move
    k = -1
    if g.sc != NULL:
        for t in range(n):
            opt[t] = ct[t] * 32 + cz[t] + 1
        opt[n] = -1
        if decide(g, D_SQ_MOVE, p, opt, n + 1, &k):
            if k < 0:
                return 0
            bt = k // 32
            bz = k % 32 - 1
    if k < 0:
        if g.pol[p] == POL_RANDOM:
            k = <int>rng_below(&g.rng, <uint32_t>n)
            bt = ct[k]
            bz = cz[k]
        else:  # the head if possible, else the most advanced token one zone nearer
            for k in range(n):
                if cz[k] == -1:
                    bt = ct[k]
                    bz = -1
                    break
                if prm.sq_dist[cz[k]] >= prm.sq_dist[s.zone[ct[k]]] or s.zone[ct[k]] == prm.sq_tri:
                    continue
                pr = sq_progress(prm, s, ct[k])
                if pr > bestp:
                    bestp = pr
                    bt = ct[k]
                    bz = cz[k]
        k = decided(g, p, bt * 32 + bz + 1 if bt >= 0 else -1)
        if bt < 0:
            return 0
    if bz == -1:
        ev(g, EV_SQ_HEAD, bt, 0, 0, 0)
        return 1
    ev(g, EV_SQ_MOVE, bt, bz, 0, 0)
    s.zone[bt] = bz
    s.field[bt] = 1 if bz == prm.sq_tri else 0
    return 0


cdef int sq_round(Game* g, Squid* s, const int* card) noexcept nogil:
    """Resolve one round with the revealed cards (-1: no card): stabs, pushes, moves in that
    order, each from the speed token holder clockwise; then the triangle advances and the speed
    token passes on.  Returns 1 when the game is decided (s.winner set)."""
    cdef int P = g.P, kind, i, p, t, alive_players, last = -1
    for kind in range(1, 4):
        for i in range(P):
            p = (s.speed + i) % P
            if card[p] != kind or s.ntok[p] == 0:
                continue
            if kind == SQ_MOVE:
                if sq_move(g, s, p):
                    s.winner = p
                    g.how = HOW_HEAD
                    return 1
                continue
            t = sq_attack(g, s, p, card, kind)
            if t >= 0:
                ev(g, EV_SQ_STAB if kind == SQ_STAB else EV_SQ_PUSH, p, t, 0, 0)
                sq_kill(s, t)
            elif kind == SQ_STAB:
                t = sq_sacrifice(g, s, p)
                if t >= 0:
                    ev(g, EV_SQ_MISS, p, t, 0, 0)
                    sq_kill(s, t)
    for t in range(s.nt):
        if s.alive[t] and s.zone[t] == g.prm.sq_tri and s.field[t] < g.prm.sq_fields:
            s.field[t] += 1
            ev(g, EV_SQ_ADV, t, s.field[t], 0, 0)
    alive_players = 0
    for p in range(P):
        if s.ntok[p] > 0:
            alive_players += 1
            last = p
    if alive_players <= 1:
        s.winner = last if alive_players == 1 else s.last_out
        g.how = HOW_LAST
        return 1
    for i in range(1, P + 1):
        p = (s.speed + i) % P
        if s.ntok[p] > 0:
            s.speed = p
            break
    ev(g, EV_SQ_SPEED, s.speed, 0, 0, 0)
    return 0


cdef void squid_setup(Game* g, Squid* s) noexcept nogil:
    cdef int p, k, best = 0
    s.nt = 0
    s.last_out = -1
    s.winner = -1
    for p in range(g.P):
        s.ntok[p] = g.active[p]
        for k in range(g.active[p]):
            s.own[s.nt] = p
            s.zone[s.nt] = g.prm.sq_start if k == 0 else 0
            s.field[s.nt] = 0
            s.alive[s.nt] = 1
            s.nt += 1
        if g.active[p] < g.active[best]:
            best = p
    s.speed = best  # fewest tokens; ties to the highest token number (lowest seat)
    ev(g, EV_SQ_SPEED, best, 0, 0, 0)


cdef void squid(Game* g) noexcept nogil:
    cdef Params* prm = g.prm
    cdef Squid s
    cdef int P = g.P, p, t, r, best, bp, bestp
    cdef int card[MAXP]
    g.view.sub = 5
    g.view.sq = &s
    squid_setup(g, &s)
    for r in range(prm.sq_max_rounds):
        ev(g, EV_ROUND, r + 1, 0, 0, 0)
        for p in range(P):
            card[p] = sq_choose_card(g, &s, p) if s.ntok[p] > 0 else -1
            ev(g, EV_CARD, p, card[p], 0, 0)
        if sq_round(g, &s, card):
            g.winner = s.winner
            break
    else:
        best = -1  # round cap: most advanced token, then more tokens, then lower seat
        bestp = -1000000
        for t in range(s.nt):
            if s.alive[t]:
                bp = sq_progress(prm, &s, t) * 1000 + s.ntok[s.own[t]]
                if bp > bestp or (bp == bestp and s.own[t] < best):
                    bestp = bp
                    best = s.own[t]
        g.winner = best
        g.how = HOW_CAP
        r = prm.sq_max_rounds - 1
    ev(g, EV_WIN, g.winner, g.how, 0, 0)
    g.rounds[5] = r + 1
    for p in range(P):
        g.lost[p] += g.active[p] - s.ntok[p]
        g.active[p] = s.ntok[p]


# ----------------------------------------------------------------------------- whole game

cdef void play_game(Game* g) noexcept nogil:
    cdef int p, k
    for p in range(g.P):
        g.active[p] = 7
        g.reserve[p] = 5
        g.lost[p] = 0
    g.winner = -1
    g.how = -1
    for k in range(NSUB):
        if k > 0:
            for p in range(g.P):
                if g.reserve[p] > 0:
                    g.reserve[p] -= 1
                    g.active[p] += 1
        g.start = 0  # fewest active tokens starts; ties to the highest token number (lowest seat)
        for p in range(g.P):
            g.enter[k][p] = g.active[p]
            if g.active[p] < g.active[g.start]:
                g.start = p
        ev(g, EV_SUB, k, g.start, 0, 0)
        for p in range(g.P):
            ev(g, EV_COUNT, p, g.active[p], 0, 0)
        if k == 0:
            red_light(g)
        elif k == 1:
            dalgona(g)
        elif k == 2:
            tug(g)
        elif k == 3:
            marbles(g)
        elif k == 4:
            glass_bridge(g)
        else:
            squid(g)
        for p in range(g.P):
            g.surv[k][p] = g.active[p]
            ev(g, EV_SURV, p, g.active[p], 0, 0)


cdef void fill_params(Params* prm, dict d) except *:
    """Copy the engine dict made by solver.squid.params.engine_dict into the C struct."""
    cdef int i, j, k
    prm.rl_timer = d["rl_timer"]
    prm.dg_timer = d["dg_timer"]
    prm.br_timer = d["br_timer"]
    prm.rl_len = d["rl_len"]
    prm.n_doll = len(d["doll_masks"])
    for i in range(prm.n_doll):
        prm.doll_mask[i] = d["doll_masks"][i]
    prm.rl_penalty_careful = d["rl_penalty_careful"]
    prm.rl_penalty_bold = d["rl_penalty_bold"]
    for i in range(4):
        prm.dg_sections[i] = d["dg_sections"][i]
    prm.dg_ncards = len(d["dg_deck"])
    for i in range(prm.dg_ncards):
        prm.dg_deck[i] = d["dg_deck"][i]
    prm.dg_careful = d["dg_careful"]
    prm.dg_bold = d["dg_bold"]
    prm.tug_cap = d["tug_cap"]
    prm.tug_tie_survive = d["tug_tie_survive"]
    prm.mb_off = d["mb_off"]
    for i in range(MAXP):
        prm.mb_skill[i] = d["mb_skill"][i]
    prm.br_tiles = d["br_tiles"]
    prm.br_cracked = d["br_cracked"]
    prm.br_max = d["br_max"]
    prm.sq_nz = len(d["sq_adj"])
    for i in range(MAXZ):
        prm.sq_dist[i] = 0
        for j in range(MAXZ):
            prm.sq_adj[i][j] = 0
    for i in range(prm.sq_nz):
        prm.sq_dist[i] = d["sq_dist"][i]
        for j in range(prm.sq_nz):
            prm.sq_adj[i][j] = d["sq_adj"][i][j]
    prm.sq_start = d["sq_start"]
    prm.sq_tri = d["sq_tri"]
    prm.sq_fields = d["sq_fields"]
    prm.sq_max_rounds = d["sq_max_rounds"]
    cdef const signed char[:, :, :, ::1] rlb = d["rl_best"]
    if (rlb.shape[0] != prm.rl_timer or rlb.shape[1] != (1 << prm.n_doll) or
            rlb.shape[2] != prm.rl_len + 1 or rlb.shape[3] != 13):
        raise ValueError("rl_best table does not match the parameters")
    prm.rl_best = &rlb[0, 0, 0, 0]  # the dict keeps the array alive during the call
    br = np.ascontiguousarray(d["br_eq"], dtype=np.float64).reshape(32, 5)
    tg = np.ascontiguousarray(d["tug_eq"], dtype=np.float64).reshape(8, 8, 5)
    for i in range(32):
        for k in range(5):
            prm.br_eq[i][k] = br[i, k]
    for i in range(8):
        for j in range(8):
            for k in range(5):
                prm.tug_eq[i][j][k] = tg[i, j, k]
    sq = np.ascontiguousarray(d["sq_eq"], dtype=np.float64).reshape(4, 6, 4)
    for i in range(4):
        for j in range(6):
            for k in range(4):
                prm.sq_eq[i][j][k] = sq[i, j, k]
    for k in range(4):
        prm.sq_careful[k] = d["sq_careful"][k]
        prm.sq_bold[k] = d["sq_bold"][k]


cdef void init_game(Game* g, Params* prm, int P, pols, uint64_t seed) except *:
    cdef int p
    if not 1 <= P <= MAXP or any(not 0 <= x <= 3 for x in pols):
        raise ValueError("1-6 seats with policy ids 0-3 are needed")
    g.P = P
    g.start = 0
    g.prm = prm
    g.ev = NULL
    g.nev = 0
    g.evcap = 0
    g.evfail = 0
    g.sc = NULL
    for p in range(MAXP):
        g.pol[p] = pols[p] if p < P else 0
        g.active[p] = 0
        g.reserve[p] = 0
        g.lost[p] = 0
    rng_seed(&g.rng, seed)


def simulate_block(dict params, pols, uint64_t seed, int n):
    """Play n whole games; return a dict of counts and sums (a Monte Carlo tally).

    pols: one policy id per seat (0 random, 1 careful, 2 bold, 3 equilibrium).
    """
    cdef Params prm
    cdef Game g
    cdef int P = len(pols), i, k, p, total_rounds
    fill_params(&prm, params)
    init_game(&g, &prm, P, list(pols), seed)
    wins = np.zeros(P, dtype=np.int64)
    how = np.zeros(3, dtype=np.int64)
    enter = np.zeros((NSUB, P), dtype=np.int64)
    surv = np.zeros((NSUB, P), dtype=np.int64)
    surv_sq = np.zeros((NSUB, P), dtype=np.int64)
    rounds = np.zeros(NSUB, dtype=np.int64)
    rounds_sq = np.zeros(NSUB, dtype=np.int64)
    total = np.zeros(2, dtype=np.int64)
    cdef long long[::1] w = wins
    cdef long long[::1] hw = how
    cdef long long[:, ::1] en = enter
    cdef long long[:, ::1] sv = surv
    cdef long long[:, ::1] sq = surv_sq
    cdef long long[::1] rd = rounds
    cdef long long[::1] rq = rounds_sq
    cdef long long[::1] tt = total
    with nogil:
        for i in range(n):
            play_game(&g)
            w[g.winner] += 1
            hw[g.how] += 1
            total_rounds = 0
            for k in range(NSUB):
                rd[k] += g.rounds[k]
                rq[k] += g.rounds[k] * g.rounds[k]
                total_rounds += g.rounds[k]
                for p in range(P):
                    en[k, p] += g.enter[k][p]
                    sv[k, p] += g.surv[k][p]
                    sq[k, p] += g.surv[k][p] * g.surv[k][p]
            tt[0] += total_rounds
            tt[1] += total_rounds * total_rounds
    return {"wins": wins, "how": how, "enter": enter, "surv": surv, "surv_sq": surv_sq,
            "rounds": rounds, "rounds_sq": rounds_sq, "total_rounds": total}


def play_traced(dict params, pols, uint64_t seed):
    """Play one whole game -- the first game of ``simulate_block(params, pols, seed, n)`` -- and
    return its event records as a list of (type, a, b, c, d, x) tuples with the winner and how the
    game ended (0 head, 1 last survivor, 2 round cap).  solver.squid.play turns them into the log."""
    cdef Params prm
    cdef Game g
    cdef int P = len(pols), i
    fill_params(&prm, params)
    init_game(&g, &prm, P, list(pols), seed)
    g.evcap = EVW * 4096
    g.ev = <double*>realloc(NULL, g.evcap * sizeof(double))
    if g.ev == NULL:
        raise MemoryError()
    try:
        with nogil:
            play_game(&g)
        if g.evfail:
            raise MemoryError()
        events = [(int(g.ev[i]), int(g.ev[i + 1]), int(g.ev[i + 2]), int(g.ev[i + 3]), int(g.ev[i + 4]),
                   g.ev[i + 5]) for i in range(0, g.nev, EVW)]
    finally:
        free(g.ev)
        g.ev = NULL
    return {"events": events, "winner": g.winner, "how": g.how,
            "rounds": [g.rounds[k] for k in range(NSUB)]}


cdef class Rules:
    """The engine's parameters converted once (``fill_params`` takes longer than a game), for the
    many short runs of ``play_scripted``."""
    cdef Params prm
    cdef dict params     # keeps the tables the Params point into alive

    def __cinit__(self, dict params):
        fill_params(&self.prm, params)
        self.params = params


cdef dict snapshot_dict(Script* sc, int P):
    """The snapshot of the sub-game at the pending decision (engine indices and codes; the decision
    API names them): red light ``players`` (field, tokens on the track, tokens through); Dalgona
    ``tokens`` (seat, shape, section, status 0 out / 1 on its shape / 2 through); tug of war
    ``sides`` [bridge][side][seat] tokens; marbles ``pairs`` (seat, seat or -1 while open, state 0
    open / 1 played / 2 merged or odd); glass bridge ``parts`` (turned, crack -1 none / 0 left /
    1 right), ``tokens`` (seat, place, status 0 out / 1 in play / 2 through), ``hands`` (bits);
    squid ``tokens`` (seat, zone, triangle field, alive), ``speed``."""
    cdef int p, t, d, b
    out = {"sub": sc.sub}
    if sc.sub == 0:
        out["players"] = [(sc.pos[p], sc.cnt[p], sc.done[p]) for p in range(P)]
    elif sc.sub == 1:
        out["tokens"] = [(sc.dg.own[t], sc.dg.shp[t], sc.dg.sec[t], sc.dg.st[t]) for t in range(sc.dg.nt)]
    elif sc.sub == 2:
        out["sides"] = [[[sc.tug.ocnt[b][d][p] for p in range(P)] for d in range(2)] for b in range(3)]
    elif sc.sub == 3:
        out["pairs"] = [(sc.pa[t], sc.pb[t], sc.mdone[t]) for t in range(sc.npairs)]
    elif sc.sub == 4:
        out["parts"] = [(sc.br.state[d], sc.br.crack[d]) for d in range(1, sc.br.n + 1)]
        out["tokens"] = [(sc.br.own[t], sc.br.place[t], sc.br.st[t]) for t in range(sc.br.nt)]
        out["hands"] = [sc.hand[p] for p in range(P)]
    else:
        out["tokens"] = [(sc.sq.own[t], sc.sq.zone[t], sc.sq.field[t], sc.sq.alive[t]) for t in range(sc.sq.nt)]
        out["speed"] = sc.sq.speed
    return out


def play_scripted(Rules rules, int players, uint64_t seed, forced, int ask=-1, uint64_t ask_seed=0,
                  bint record=True):
    """Play one game whose decisions come from outside: the i-th decision point that leaves a
    choice (two options or more) takes ``forced[i]``; chance is drawn from ``seed`` as in any game,
    so the same seed and decisions give the same game.  The game stops being recorded at the first
    decision point past the script (the pending decision) and, asked with ``ask`` (a policy id),
    reports that policy's choice there, its random numbers drawn from ``ask_seed``.  ``record``
    False: no event records (the game's course is the same; only the pending decision is wanted).

    Returns {"events": the records up to the pending decision (all, if the game ended), "pending":
    None or (kind, seat, options), "state": the sub-game's state there (``snapshot_dict``) or None, "used": decisions taken, "bad": forced[used] was not among the
    pending decision's options, "choice": the asked policy's choice or None, "winner", "how" (-1
    until the game ends)}.  solver.squid.decisions builds the decision API on it: replaying the
    script is cheap (a whole game takes some 20 microseconds), and it runs the Monte Carlo loop's
    own code, decision points and all."""
    cdef Game g
    cdef Script* sc
    cdef int i
    cdef int[::1] script = np.ascontiguousarray(forced, dtype=np.int32)
    if not 1 <= players <= MAXP:
        raise ValueError("1-6 seats are needed")
    if not -1 <= ask <= 3:
        raise ValueError("ask: a policy id 0-3, or -1")
    init_game(&g, &rules.prm, players, [0] * players, seed)
    sc = <Script*>calloc(1, sizeof(Script))
    if sc == NULL:
        raise MemoryError()
    sc.forced = &script[0] if script.shape[0] > 0 else NULL
    sc.nforced = script.shape[0]
    sc.ask = ask
    sc.choice = -1
    rng_seed(&sc.ask_rng, ask_seed)
    g.sc = sc
    if record:
        g.evcap = EVW * 4096
        g.ev = <double*>realloc(NULL, g.evcap * sizeof(double))
    try:
        if record and g.ev == NULL:
            raise MemoryError()
        with nogil:
            play_game(&g)
        if g.evfail:
            raise MemoryError()
        nev = sc.nev if sc.stopped else g.nev
        events = [(int(g.ev[i]), int(g.ev[i + 1]), int(g.ev[i + 2]), int(g.ev[i + 3]), int(g.ev[i + 4]),
                   g.ev[i + 5]) for i in range(0, nev, EVW)]
        pending = (sc.kind, sc.player, [sc.opt[i] for i in range(sc.nopt)]) if sc.stopped else None
        return {"events": events, "pending": pending, "state": snapshot_dict(sc, players) if sc.stopped else None, "used": sc.used, "bad": bool(sc.bad),
                "choice": sc.choice if sc.stopped and ask >= 0 and not sc.bad else None,
                "winner": -1 if sc.stopped else g.winner, "how": -1 if sc.stopped else g.how}
    finally:
        free(g.ev)
        free(sc)
        g.ev = NULL


def trace_games(dict params, pols, uint64_t seed, int n):
    """Per-game records for invariant tests: winner, how, enter[6][P], surv[6][P], rounds[6],
    and the final (reserve, active, lost) per seat."""
    cdef Params prm
    cdef Game g
    cdef int P = len(pols), i
    fill_params(&prm, params)
    init_game(&g, &prm, P, list(pols), seed)
    out = []
    for i in range(n):
        with nogil:
            play_game(&g)
        out.append({
            "winner": g.winner, "how": g.how,
            "enter": [[g.enter[k][p] for p in range(P)] for k in range(NSUB)],
            "surv": [[g.surv[k][p] for p in range(P)] for k in range(NSUB)],
            "rounds": [g.rounds[k] for k in range(NSUB)],
            "reserve": [g.reserve[p] for p in range(P)],
            "active": [g.active[p] for p in range(P)],
            "lost": [g.lost[p] for p in range(P)],
        })
    return out


def play_subgame(dict params, pols, active, int which, uint64_t seed):
    """Play one sub-game (0-5) from the given active counts; returns (survivors, rounds, winner)."""
    cdef Params prm
    cdef Game g
    cdef int P = len(pols), p
    fill_params(&prm, params)
    init_game(&g, &prm, P, list(pols), seed)
    if len(active) != P or any(not 0 <= a <= 12 for a in active):
        raise ValueError("one active count 0-12 per seat is needed")
    for p in range(P):
        g.active[p] = active[p]
        g.reserve[p] = 0
        g.lost[p] = 0
    g.winner = -1
    g.how = -1
    if which == 0:
        red_light(&g)
    elif which == 1:
        dalgona(&g)
    elif which == 2:
        # tug recomputes lost from the 12-token total: keep the reserve consistent with that
        for p in range(P):
            g.reserve[p] = 12 - g.active[p]
        tug(&g)
    elif which == 3:
        marbles(&g)
    elif which == 4:
        glass_bridge(&g)
    else:
        squid(&g)
    return [g.active[p] for p in range(P)], g.rounds[which], g.winner


# ----------------------------------------------------------------------------- test API

def t_red_light_round(dict params, pols, pos, cnt, cards, int doll_mask, uint64_t seed=1):
    """Resolve one red-light round: returns (pos, cnt, finished) lists after the round."""
    cdef Params prm
    cdef Game g
    cdef int P = len(pols), p
    cdef int cpos[MAXP]
    cdef int ccnt[MAXP]
    cdef int cdone[MAXP]
    cdef int ccard[MAXP]
    fill_params(&prm, params)
    init_game(&g, &prm, P, list(pols), seed)
    for p in range(P):
        cpos[p] = pos[p]
        ccnt[p] = cnt[p]
        cdone[p] = 0
        ccard[p] = cards[p]
    rl_resolve(&g, 0, cpos, ccnt, cdone, ccard, doll_mask)
    return [cpos[p] for p in range(P)], [ccnt[p] for p in range(P)], [cdone[p] for p in range(P)]


def t_red_light_choice(dict params, int policy, int pos, int remaining_mask, int cnt=1, int timer=0,
                       uint64_t seed=1):
    """The number card a seat with the given policy and cnt tokens plays from field pos."""
    cdef Params prm
    cdef Game g
    fill_params(&prm, params)
    init_game(&g, &prm, 3, [policy, 0, 0], seed)
    return rl_choose(&g, 0, pos, cnt, remaining_mask, timer)


def t_tug_layout(dict params, pols, active, uint64_t seed=1):
    """Tug-of-war placement only: tokens per [bridge][side][seat]."""
    cdef Params prm
    cdef Game g
    cdef TugLayout lay
    cdef int P = len(pols), p
    fill_params(&prm, params)
    init_game(&g, &prm, P, list(pols), seed)
    for p in range(P):
        g.active[p] = active[p]
    tug_place(&g, &lay)
    return [[[lay.ocnt[b][s][p] for p in range(P)] for s in range(2)] for b in range(3)]


def t_tug_outcome(int nl, int nr, int suml, int sumr, int zeros, int tie_survive):
    """Bitmask of the surviving sides of one bridge (1 left, 2 right)."""
    return tug_outcome(nl, nr, suml, sumr, zeros, tie_survive)


def t_dalgona_turn(dict params, pols, int p, owners, shapes, sections, deck, int max_flips,
                   uint64_t seed=1):
    """Seat p flips the given cards in order (stopping after max_flips or a Crack!); returns
    the tokens' (state, section) lists, state 0 eliminated, 1 on a shape, 2 survived."""
    cdef Params prm
    cdef Game g
    cdef Dalgona d
    cdef int t, k
    fill_params(&prm, params)
    init_game(&g, &prm, len(pols), list(pols), seed)
    d.nt = len(owners)
    for t in range(d.nt):
        d.own[t] = owners[t]
        d.shp[t] = shapes[t]
        d.sec[t] = sections[t]
        d.st[t] = 1
    for k in range(min(max_flips, len(deck))):
        if dg_flip(&g, &d, p, deck[k], k == 0):
            break
    return [d.st[t] for t in range(d.nt)], [d.sec[t] for t in range(d.nt)]


def t_bridge_round(dict params, pols, tiles, states, owners, places, cards, uint64_t seed=1):
    """One glass-bridge round: per part 1..n (index 0 unused) ``tiles`` 0 no crack, 1 the left, 2 the
    right tile cracked, ``states`` 0 face down, 1 turned; tokens given by owner and place (<= 0: the
    queue; arrival order = list order).  Returns (token states, places, part states)."""
    cdef Params prm
    cdef Game g
    cdef Bridge b
    cdef int P = len(pols), t, p, i
    fill_params(&prm, params)
    init_game(&g, &prm, P, list(pols), seed)
    b.n = len(tiles) - 1
    for i in range(len(tiles)):
        b.crack[i] = tiles[i] - 1
        b.state[i] = states[i]
    b.nt = len(owners)
    for t in range(b.nt):
        b.own[t] = owners[t]
        b.place[t] = places[t]
        b.st[t] = 1
        b.arr[t] = t
    b.clock = b.nt
    for p in range(P):
        if cards[p] >= 0 and br_inplay(&b, p) > 0:
            br_move(&g, &b, p, cards[p])
    return ([b.st[t] for t in range(b.nt)], [b.place[t] for t in range(b.nt)],
            [b.state[i] for i in range(b.n + 1)])


def t_squid_round(dict params, pols, owners, zones, fields, cards, int speed, uint64_t seed=1):
    """One squid round from a hand-built position.  Returns (alive, zones, fields, winner,
    next speed holder); winner is -1 while the game goes on."""
    cdef Params prm
    cdef Game g
    cdef Squid s
    cdef int P = len(pols), t, p, r
    cdef int card[MAXP]
    fill_params(&prm, params)
    init_game(&g, &prm, P, list(pols), seed)
    _squid_position(&s, P, owners, zones, fields, speed)
    for p in range(P):
        card[p] = cards[p]
    r = sq_round(&g, &s, card)
    return ([s.alive[t] for t in range(s.nt)], [s.zone[t] for t in range(s.nt)],
            [s.field[t] for t in range(s.nt)], s.winner if r else -1, s.speed)


def t_squid_card(dict params, pols, owners, zones, fields, int p, uint64_t seed=1):
    """The squid card seat p's policy plays in a hand-built position (0 defence .. 3 move)."""
    cdef Params prm
    cdef Game g
    cdef Squid s
    fill_params(&prm, params)
    init_game(&g, &prm, len(pols), list(pols), seed)
    _squid_position(&s, len(pols), owners, zones, fields, 0)
    return sq_choose_card(&g, &s, p)


cdef void _squid_position(Squid* s, int P, owners, zones, fields, int speed) except *:
    """A hand-built squid position: tokens by owner, zone and triangle field."""
    cdef int t, p
    s.nt = len(owners)
    s.last_out = -1
    s.winner = -1
    s.speed = speed
    for p in range(P):
        s.ntok[p] = 0
    for t in range(s.nt):
        s.own[t] = owners[t]
        s.zone[t] = zones[t]
        s.field[t] = fields[t]
        s.alive[t] = 1
        s.ntok[owners[t]] += 1
