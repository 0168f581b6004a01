# cython: language_level=3
"""Člověče engines in C: the classic game on a 40-field loop and "Člověče, napij se!" on a board graph.

Two engines share this module:

* ``classic``: Člověče, nezlob se with arithmetic positions (-1 = waiting, 0..39 = steps from the
  own start field, 40..43 = home).  Every die is used at once; a 6 earns another roll.
* ``napij-se``: the board is a graph compiled by :mod:`solver.clovece.board` into C arrays (next,
  previous and alternative field, field kind and zone, distances to every home); pawns carry a small
  state (direction on the two-way Black path, inward/outward in a branch, held in a holding field,
  immunity, the turn on which they stopped).  Cards, the Bottle and drinks are all in C.

Whole games run in C without the GIL; decisions come from the strategies below (also in C).
``classic_trace`` and ``NapijTable`` expose single games and hand-built positions to the tests;
``ClassicTable`` and ``NapijState`` are the two games one decision or die at a time for the decision
API (:mod:`solver.clovece.classic`, :mod:`solver.clovece.napij`), on the batch loops' own turn
functions.
"""

from libc.string cimport memcmp, memcpy, memset
from libc.stdint cimport uint64_t, int8_t, int16_t, int32_t
from rng cimport Rng, rng_seed, rng_below

import numpy as np

cdef enum:
    TRACEW = 6          # ints per classic trace record
    MAXF = 200          # fields of a napij-se board
    MAXCARDS = 64
    MAXDICE = 24
    MAXDEPTH = 4        # card -> card -> ... chains are cut after this many draws
    MAXTURNS = 20000    # a napij-se game longer than this is abandoned (counted, no winner)

# strategies
cdef enum:
    S_RANDOM = 0
    S_RUNNER = 1
    S_HUNTER = 2
    S_CAUTIOUS = 3
    S_SHORTCUT = 4
    S_BEST = 5

# field kinds
cdef enum:
    K_NORMAL = 0
    K_START = 1
    K_ARROW = 2
    K_CROSS = 3
    K_DETOUR = 4
    K_POLICE = 5
    K_SWAMP = 6
    K_FOREST = 7
    K_CARD = 8
    K_PIN = 9
    K_HOME = 10

# zones
cdef enum:
    Z_LOOP = 0
    Z_SHORT = 1
    Z_BLACK = 2
    Z_BRANCH = 3
    Z_HOLD = 4
    Z_PIN = 5
    Z_HOME = 6

# card kinds
cdef enum:
    C_BLANK = 0
    C_ADVANCE = 1
    C_BACK = 2
    C_CATCHUP = 3
    C_CAPTURE = 4
    C_SWAP = 5
    C_FROMPUB = 6
    C_IMMUNITY = 7
    C_RETURN = 8
    C_POLICE = 9
    C_DRINK = 10
    C_GLASS = 11
    C_FALLIN = 12
    C_OFFER = 13
    NCARDKINDS = 14

# napij-se game log: records of EVW ints (type, then up to 7 arguments), written only while a
# buffer is attached (NGame.ev); strategy look-ahead works on copies without it
cdef enum:
    EVW = 8
    EV_TURN = 1         # player
    EV_ROLL = 2         # player, die
    EV_CALL = 3         # player announces that the roll moves the Bottle
    EV_MOVE = 4         # player, pawn, steps, choice, enters/frees with a 6 first, by the sum
    EV_PLACE = 5        # player, pawn, from field (-1 pub), to field
    EV_PUB = 6          # player, pawn, from field, drink cause (captured, Bottle, pub)
    EV_BOTTLE = 7       # from field (-1: placed), to field, why (0 rolled, 1 pushed, 2 placed)
    EV_CARD = 8         # player, pawn, card kind, card number
    EV_DRINK = 9        # player, cause, drinks
    EV_SWAP = 10        # player, pawn, other player, other pawn
    EV_POLICE = 11      # player, pawn, from field
    EV_IMMUNE = 12      # player, pawn, turns
    EV_WIN = 13         # player
    EVCAP = 8 * 400000

# drink causes
cdef enum:
    D_CAPTURED = 0
    D_BOTTLE = 1
    D_PUB = 2
    D_CARD = 3
    D_HOME = 4
    D_START = 5
    D_TOAST = 6
    NCAUSES = 7

#: The C enums and limits above by the names the Python side gives them (strategies, board kinds
#: and zones, card kinds, drink causes, log records), so that tests/test_clovece_tables.py checks
#: every Python table against the engine instead of a comment asking to keep them in step.
ENUMS = {
    "strategies": {"random": S_RANDOM, "runner": S_RUNNER, "hunter": S_HUNTER, "cautious": S_CAUTIOUS,
                   "shortcut": S_SHORTCUT, "best": S_BEST},
    "field_kinds": {"normal": K_NORMAL, "start": K_START, "arrow": K_ARROW, "crossroads": K_CROSS,
                    "detour": K_DETOUR, "police": K_POLICE, "swamp": K_SWAMP, "forest": K_FOREST,
                    "card": K_CARD, "pin": K_PIN, "home": K_HOME},
    "zones": {"loop": Z_LOOP, "shortcut": Z_SHORT, "black": Z_BLACK, "branch": Z_BRANCH, "hold": Z_HOLD,
              "pin": Z_PIN, "home": Z_HOME},
    "card_kinds": {"blank": C_BLANK, "advance": C_ADVANCE, "back": C_BACK, "catch-up": C_CATCHUP,
                   "capture": C_CAPTURE, "swap": C_SWAP, "from-pub": C_FROMPUB, "immunity": C_IMMUNITY,
                   "return-to-pub": C_RETURN, "police": C_POLICE, "drink": C_DRINK,
                   "finish-glass": C_GLASS, "fall-in": C_FALLIN, "offer-capture": C_OFFER},
    "drink_causes": {"captured": D_CAPTURED, "bottle": D_BOTTLE, "pub": D_PUB, "card": D_CARD,
                     "home": D_HOME, "start": D_START, "toast": D_TOAST},
    "events": {"EV_TURN": EV_TURN, "EV_ROLL": EV_ROLL, "EV_CALL": EV_CALL, "EV_MOVE": EV_MOVE,
               "EV_PLACE": EV_PLACE, "EV_PUB": EV_PUB, "EV_BOTTLE": EV_BOTTLE, "EV_CARD": EV_CARD,
               "EV_DRINK": EV_DRINK, "EV_SWAP": EV_SWAP, "EV_POLICE": EV_POLICE, "EV_IMMUNE": EV_IMMUNE,
               "EV_WIN": EV_WIN},
    "limits": {"fields": MAXF, "cards": MAXCARDS, "card_kinds": NCARDKINDS, "drink_causes": NCAUSES},
}


# ====================================================================================================
# classic
# ====================================================================================================

cdef struct Classic:
    int np
    int start[4]
    int pos[4][4]       # -1 waiting, 0..39 steps from own start, 40..43 home
    int occ[40]         # 0 empty, else player*4 + pawn + 1
    int home[4]         # bit mask of occupied home fields
    int strat[4]
    int captures
    int capt[4]         # captures made
    int lost[4]         # pawns lost
    int three6          # house rule: a 6 that leaves the player with nothing to move gives 3 tries again
    int first_random    # the first player is drawn at random for every game (else player 0 starts)
    int first           # who started this game
    int to_play         # whose turn it is
    int tries           # rolls left in this turn (3 while nothing can move, else 1; a 6 rolls again)
    int turns           # turns begun in this game
    int winner          # -1 while the game goes on


cdef inline int c_abs(Classic* g, int p, int r) noexcept nogil:
    cdef int a = g.start[p] + r
    return a - 40 if a >= 40 else a


cdef int c_dest(Classic* g, int p, int k, int d) noexcept nogil:
    """Destination of pawn k moved by die d, or -2 if the move is illegal."""
    cdef int r = g.pos[p][k], t, o, h
    if r < 0:
        if d != 6:
            return -2
        o = g.occ[g.start[p]]
        if o != 0 and ((o - 1) >> 2) == p:
            return -2
        return 0
    t = r + d
    if t > 43:
        return -2
    if t >= 40:
        h = r + 1 if r >= 40 else 40
        while h <= t:
            if g.home[p] & (1 << (h - 40)):
                return -2
            h += 1
        return t
    o = g.occ[c_abs(g, p, t)]
    if o != 0 and ((o - 1) >> 2) == p:
        return -2
    return t


cdef void c_apply(Classic* g, int p, int k, int t) noexcept nogil:
    cdef int r = g.pos[p][k], a, o, q
    if 0 <= r < 40:
        g.occ[c_abs(g, p, r)] = 0
    elif r >= 40:
        g.home[p] &= ~(1 << (r - 40))
    if t >= 40:
        g.home[p] |= 1 << (t - 40)
    else:
        a = c_abs(g, p, t)
        o = g.occ[a]
        if o != 0:
            q = (o - 1) >> 2
            g.pos[q][(o - 1) & 3] = -1
            g.captures += 1
            g.capt[p] += 1
            g.lost[q] += 1
        g.occ[a] = p * 4 + k + 1
    g.pos[p][k] = t


cdef int c_danger(Classic* g, int p, int a) noexcept nogil:
    """Opponent pawns on the loop 1..6 fields behind field a that could reach it."""
    cdef int q, j, r, dist, n = 0
    for q in range(g.np):
        if q == p:
            continue
        for j in range(4):
            r = g.pos[q][j]
            if 0 <= r < 40:
                dist = a - c_abs(g, q, r)
                if dist < 0:
                    dist += 40
                if 1 <= dist <= 6 and r + dist <= 39:
                    n += 1
    return n


cdef int c_threat(Classic* g, int p, int a) noexcept nogil:
    """Threat to field a in 36ths of a turn: opponents 1..6 behind (6 each), 7..12 behind (1 each,
    they need a 6 first), and an opponent start field while that opponent has pawns waiting (6)."""
    cdef int q, j, r, dist, n = 0, waiting
    for q in range(g.np):
        if q == p:
            continue
        waiting = 0
        for j in range(4):
            r = g.pos[q][j]
            if 0 <= r < 40:
                dist = a - c_abs(g, q, r)
                if dist < 0:
                    dist += 40
                if 1 <= dist <= 12 and r + dist <= 39:
                    n += 6 if dist <= 6 else 1
            elif r < 0:
                waiting = 1
        if waiting and a == g.start[q]:
            n += 6
    return n


cdef int c_score(Classic* g, int p, int k, int t, int s) noexcept nogil:
    cdef int r = g.pos[p][k], front, capt = 0, victim = 0, o
    front = r if r < 40 else -3          # runner order: loop pawns by progress, then entering, then home
    if t < 40:
        o = g.occ[c_abs(g, p, t)]
        if o != 0:
            capt = 1
            victim = g.pos[(o - 1) >> 2][(o - 1) & 3]
    if s == S_RUNNER or s == S_SHORTCUT:
        return front
    if s == S_HUNTER:
        return capt * (100000 + victim * 100) + front
    if s == S_CAUTIOUS:
        return -1000 * (c_danger(g, p, c_abs(g, p, t)) if t < 40 else 0) + front
    # best: weighs threats by how likely they hit (see c_threat), escapes them, likes captures
    cdef int sc = front
    if t < 40:
        sc -= 170 * c_threat(g, p, c_abs(g, p, t))
    if 0 <= r < 40:
        sc += 120 * c_threat(g, p, c_abs(g, p, r))
    if capt:
        sc += 300 + victim * 10
    return sc


cdef int c_choose(Classic* g, int p, int d, Rng* rng) noexcept nogil:
    """Pawn to move with die d (-1: none can move); sets g.pos via the caller."""
    cdef int cand[4]
    cdef int dest[4]
    cdef int n = 0, k, t, s, best = -1, bscore = -2000000000, sc
    for k in range(4):
        t = c_dest(g, p, k, d)
        if t != -2:
            cand[n] = k
            dest[n] = t
            n += 1
    if n == 0:
        return -1
    if n == 1:
        return cand[0]
    s = g.strat[p]
    if s == S_RANDOM:
        return cand[rng_below(rng, n)]
    for k in range(n):
        sc = c_score(g, p, cand[k], dest[k], s)
        if sc > bscore:
            bscore = sc
            best = cand[k]
    return best


cdef bint c_stuck(Classic* g, int p) noexcept nogil:
    """Nothing can move: no pawn on the loop and no home pawn with a free field in front of it."""
    cdef int k, r
    for k in range(4):
        r = g.pos[p][k]
        if 0 <= r < 40:
            return False
        if 40 <= r < 43 and not (g.home[p] & (1 << (r - 39))):
            return False
    return True


cdef void c_begin_turn(Classic* g, int p) noexcept nogil:
    """Player p's turn begins: three tries while nothing of theirs can move, else one roll."""
    g.to_play = p
    g.tries = 3 if c_stuck(g, p) else 1
    g.turns += 1


cdef void c_reset(Classic* g, int first) noexcept nogil:
    """All pawns waiting; player ``first`` to roll."""
    cdef int p, k
    memset(g.occ, 0, sizeof(g.occ))
    for p in range(4):
        for k in range(4):
            g.pos[p][k] = -1
        g.home[p] = 0
        g.capt[p] = 0
        g.lost[p] = 0
    g.captures = 0
    g.turns = 0
    g.winner = -1
    g.first = first
    c_begin_turn(g, first)


cdef int c_roll_done(Classic* g, int d, int k, int t) noexcept nogil:
    """The rest of one roll of the player to play: pawn k (-1: none) moves by d to t (its c_dest),
    then who rolls next (a 6 rolls again, a miss uses up one try).  Returns the winner, or -1
    while the game goes on.  The batch loop and the decision API (ClassicTable) both go through
    here."""
    cdef int p = g.to_play
    if k >= 0:
        c_apply(g, p, k, t)
        if g.home[p] == 15:
            g.winner = p
            return p
    if d == 6:
        g.tries = 3 if (g.three6 and c_stuck(g, p)) else 1
        return -1
    g.tries -= 1
    if g.tries == 0:
        c_begin_turn(g, p + 1 if p + 1 < g.np else 0)
    return -1


cdef int c_play(Classic* g, Rng* rng, int* rolls, int* trace, int tracecap, int* ntrace) noexcept nogil:
    """Play one game from the initial position; returns the winner (-1 if abandoned)."""
    cdef int p, k, d, t
    rolls[0] = 0
    c_reset(g, <int>rng_below(rng, g.np) if g.first_random else 0)
    while rolls[0] < 1000000:
        p = g.to_play
        d = <int>rng_below(rng, 6) + 1
        rolls[0] += 1
        k = c_choose(g, p, d, rng)
        t = c_dest(g, p, k, d) if k >= 0 else -2
        if trace != NULL and ntrace[0] + TRACEW <= tracecap:
            # player, die, pawn (-1: none), from, to (codes), captured pawn q*4+j or -1
            trace[ntrace[0]] = p
            trace[ntrace[0] + 1] = d
            trace[ntrace[0] + 2] = k
            trace[ntrace[0] + 3] = g.pos[p][k] if k >= 0 else -2
            trace[ntrace[0] + 4] = t
            trace[ntrace[0] + 5] = (g.occ[c_abs(g, p, t)] - 1) if 0 <= t < 40 else -1
            ntrace[0] += TRACEW
        if c_roll_done(g, d, k, t) >= 0:
            return g.winner
    return -1


cdef void c_setup(Classic* g, int nplayers, const int* seats, const int* strats, int three6,
                  int first_random) noexcept nogil:
    cdef int p
    g.np = nplayers
    g.three6 = three6
    g.first_random = first_random
    for p in range(nplayers):
        g.start[p] = 10 * seats[p]
        g.strat[p] = strats[p]


def _check_setup(int nplayers, seats, strategies):
    if not 2 <= nplayers <= 4:
        raise ValueError("players must be 2..4")
    if len(seats) != nplayers or len(strategies) != nplayers:
        raise ValueError("one seat and one strategy per player")
    for s in strategies:
        if not 0 <= s <= S_BEST:
            raise ValueError(f"unknown strategy id {s}")
    if len(set(seats)) != nplayers or any(not 0 <= s < 4 for s in seats):
        raise ValueError("seats are distinct numbers 0..3")


def classic_simulate(int nplayers, seats, strategies, uint64_t seed, int n_games, bint three_after_six=False,
                     bint first_random=False):
    """Play n_games classic games; returns a dict of count/sum arrays (see CloveceExperiment).

    ``three_after_six``: the house rule "three tries again when a 6 leaves nothing to move";
    ``first_random``: the first player is drawn at random for every game (else player 0 starts).
    """
    _check_setup(nplayers, seats, strategies)
    cdef Classic g
    cdef Rng rng
    cdef int cseats[4]
    cdef int cstrat[4]
    cdef int i, p, w, rolls = 0, turns = 0
    for p in range(nplayers):
        cseats[p] = seats[p]
        cstrat[p] = strategies[p]
    wins = np.zeros(4, dtype=np.int64)
    capt = np.zeros(4, dtype=np.int64)
    lost = np.zeros(4, dtype=np.int64)
    starts = np.zeros(4, dtype=np.int64)
    start_wins = np.zeros(4, dtype=np.int64)
    cdef long long[::1] vs = starts
    cdef long long[::1] vsw = start_wins
    cdef long long[::1] vw = wins
    cdef long long[::1] vc = capt
    cdef long long[::1] vl = lost
    cdef double s_rolls = 0, s_rolls2 = 0, s_turns = 0, s_turns2 = 0, s_capt = 0, s_capt2 = 0
    cdef long long abandoned = 0
    rng_seed(&rng, seed)
    with nogil:
        c_setup(&g, nplayers, cseats, cstrat, three_after_six, first_random)
        for i in range(n_games):
            w = c_play(&g, &rng, &rolls, NULL, 0, NULL)
            turns = g.turns
            vs[g.first] += 1
            if w >= 0:
                vw[w] += 1
                if w == g.first:
                    vsw[w] += 1
            else:
                abandoned += 1
            for p in range(nplayers):
                vc[p] += g.capt[p]
                vl[p] += g.lost[p]
            s_rolls += rolls
            s_rolls2 += <double>rolls * rolls
            s_turns += turns
            s_turns2 += <double>turns * turns
            s_capt += g.captures
            s_capt2 += <double>g.captures * g.captures
    return {"wins": wins[:nplayers].copy(), "captures_made": capt[:nplayers].copy(),
            "pawns_lost": lost[:nplayers].copy(), "starts": starts[:nplayers].copy(),
            "start_wins": start_wins[:nplayers].copy(), "rolls": s_rolls, "rolls_sq": s_rolls2,
            "turns": s_turns, "turns_sq": s_turns2, "captures": s_capt, "captures_sq": s_capt2,
            "abandoned": int(abandoned)}


def classic_trace(int nplayers, seats, strategies, uint64_t seed, bint three_after_six=False,
                  bint first_random=False):
    """Play one classic game: (winner, [(player, die, pawn or -1, from, to, captured), ...]).

    ``from``/``to`` are position codes (-1 waiting, 0..39 steps from the own start, 40..43 home;
    -2 when no pawn moved); ``captured`` is the captured pawn as player * 4 + pawn, or -1.
    """
    _check_setup(nplayers, seats, strategies)
    cdef Classic g
    cdef Rng rng
    cdef int cseats[4]
    cdef int cstrat[4]
    cdef int p, w, rolls = 0, ntrace = 0
    cdef int cap = TRACEW * 200000
    buf = np.zeros(cap, dtype=np.int32)
    cdef int[::1] vb = buf
    for p in range(nplayers):
        cseats[p] = seats[p]
        cstrat[p] = strategies[p]
    rng_seed(&rng, seed)
    c_setup(&g, nplayers, cseats, cstrat, three_after_six, first_random)
    w = c_play(&g, &rng, &rolls, &vb[0], cap, &ntrace)
    events = [tuple(int(x) for x in buf[i:i + TRACEW]) for i in range(0, ntrace, TRACEW)]
    return w, events


# ====================================================================================================
# napij-se
# ====================================================================================================

cdef struct Board:
    int nf
    int8_t kind[MAXF]
    int8_t zone[MAXF]
    int16_t nxt[MAXF]
    int16_t prv[MAXF]
    int16_t alt[MAXF]
    int16_t arrow_of[MAXF]     # seat whose home this arrow field leads into, -1 otherwise
    int16_t start[4]
    int16_t pin[4]
    int16_t police
    int16_t dist[4][MAXF]      # optimistic steps from a field to the seat's last home field
    int16_t nloop


cdef struct Deck:
    int n
    int8_t kind[MAXCARDS]
    int8_t arg[MAXCARDS]


cdef struct Pawn:
    int16_t pos         # field, -1 in the pub
    int8_t bdir         # +1 / -1 direction on the two-way Black path
    int8_t inward       # in a branch: 1 toward the holding field, 0 back out
    int8_t held         # 1 while blocked in a holding field (until a 6)
    int8_t immune       # own turns of immunity left
    int8_t sent         # sent to the police cell by a card
    int32_t ready       # turn on which it stopped on its field


cdef struct NGame:
    int np
    int seat[4]
    int strat[4]
    Pawn pw[4][4]
    int8_t occ[MAXF]    # pawn id + 1 on ordinary fields (holding fields and the pub are not tracked)
    int bottle          # field of the Bottle, -1 until the first pawn enters
    int8_t order[MAXCARDS]
    int top
    int turn
    int winner
    int nhome[4]
    int drinks[4]
    int glass[4]
    int dcause[4][NCAUSES]  # drinks by cause: captured, Bottle, return to pub, card, home entry of
                        # another player's pawn, start of the game, toast to the winner
    int captures
    int black
    int pblack[4]       # the player's pawns used the Black path in this game
    int rolls
    int cards[NCARDKINDS]
    int drink_once      # house rule: one drink per event (else one per reason that applies)
    int first_random    # the first player is drawn at random for every game (else player 0)
    int first           # who started this game
    int* ev             # game log buffer (NULL: not logging)
    int nev
    int evcap           # its size in ints
    Board* b
    Deck* dk
    Rng* rng
    TargetAsk* ask      # NULL: the drawer's seat strategy picks a card's target (the batch loop)


cdef struct TargetAsk:
    # a capture or swap card's target as the caller's decision (the decision API): the first
    # ``nforced`` such choices of a move with two or more candidates take ``forced``; the next is
    # recorded (``asked``: who, kind, options, the seat strategy's pick) and played as that pick
    int nforced
    int used
    int forced[8]       # pawn ids q * 4 + j
    int bad             # a forced target was not among the candidates
    int asked
    int who             # the drawing player
    int kind            # C_CAPTURE or C_SWAP
    int nopts
    int opts[16]
    int pick
    NGame* at           # where the game stands when that card is drawn (a copy, if not NULL)


cdef inline int n_seat(NGame* g, int p) noexcept nogil:
    return g.seat[p]


cdef void n_ev(NGame* g, int t, int a, int b, int c, int d, int e, int f, int h) noexcept nogil:
    """Append one record to the game log (if one is attached and has room)."""
    cdef int* r
    if g.ev == NULL or g.nev + EVW > g.evcap:
        return
    r = g.ev + g.nev
    r[0] = t
    r[1] = a
    r[2] = b
    r[3] = c
    r[4] = d
    r[5] = e
    r[6] = f
    r[7] = h
    g.nev += EVW


cdef inline void n_drink(NGame* g, int p, int cause, int n) noexcept nogil:
    g.drinks[p] += n
    g.dcause[p][cause] += n
    n_ev(g, EV_DRINK, p, cause, n, 0, 0, 0, 0)


cdef inline bint n_inplay(NGame* g, int p, int k) noexcept nogil:
    cdef int f = g.pw[p][k].pos
    if f < 0 or g.pw[p][k].held:
        return False
    return g.b.zone[f] != Z_HOME and g.b.zone[f] != Z_PIN


cdef void n_to_pub(NGame* g, int q, int j, int cause) noexcept nogil:
    """Pawn j of player q returns to its pub.

    Drinks: the rulebook lists "captured by an opponent", "a meeting with the Bottle" and "any return
    to the pub" as separate reasons, so a capture costs two drinks (cause + pub); with the house rule
    ``drink_once`` only the first reason counts (one drink per event)."""
    cdef int f = g.pw[q][j].pos
    n_ev(g, EV_PUB, q, j, f, cause, 0, 0, 0)
    if f >= 0 and g.b.zone[f] != Z_HOLD and g.occ[f] == q * 4 + j + 1:
        g.occ[f] = 0
    g.pw[q][j].pos = -1
    g.pw[q][j].held = 0
    g.pw[q][j].inward = 0
    g.pw[q][j].bdir = 1
    g.pw[q][j].sent = 0
    g.pw[q][j].immune = 0
    n_drink(g, q, cause, 1)
    if cause != D_PUB and not g.drink_once:
        n_drink(g, q, D_PUB, 1)


cdef void n_bottle_lands(NGame* g, int f, int why) noexcept nogil:
    """The Bottle comes to field f (why: 0 rolled, 1 pushed) and captures the pawn standing there
    (unless it is immune)."""
    cdef int o, q, j
    n_ev(g, EV_BOTTLE, g.bottle, f, why, 0, 0, 0, 0)
    g.bottle = f
    o = g.occ[f]
    if o != 0:
        q = (o - 1) >> 2
        j = (o - 1) & 3
        if g.pw[q][j].immune == 0:
            n_to_pub(g, q, j, D_BOTTLE)
            g.captures += 1


cdef int n_step(Board* b, int seat, int f, Pawn* st, bint first, int choice) noexcept nogil:
    """The next field from f for a pawn in state st (first: the first step of a move)."""
    cdef int kd = b.kind[f], z = b.zone[f], n
    if first:
        if kd == K_CROSS:
            if z == Z_BRANCH:
                st.inward = 1
                return b.alt[f] if choice else b.nxt[f]
            if choice:
                n = b.alt[f]
                if b.zone[n] == Z_BLACK:
                    st.bdir = 1 if b.prv[n] == f else -1
                return n
        elif kd == K_DETOUR:
            st.inward = 1
            return b.alt[f]
        elif z == Z_HOLD:
            st.inward = 0
            return b.prv[f]
    if z == Z_LOOP:
        if b.arrow_of[f] == seat:
            return b.pin[seat]
        return b.nxt[f]
    if z == Z_BLACK:
        return b.nxt[f] if st.bdir > 0 else b.prv[f]
    if z == Z_BRANCH or z == Z_HOLD:
        return b.nxt[f] if st.inward else b.prv[f]
    return b.nxt[f]


cdef inline bint n_can_choose(NGame* g, int p, int k) noexcept nogil:
    """Does the pawn stand where it may pick a direction (choice 1 is a real alternative)?"""
    cdef int f = g.pw[p][k].pos
    if f < 0 or g.pw[p][k].held or g.b.kind[f] != K_CROSS:
        return False
    if g.b.zone[f] == Z_BRANCH:
        return True
    return g.pw[p][k].ready < g.turn


cdef int n_walk(NGame* g, int p, int k, int steps, int choice, int pre6, Pawn* out,
                int* black) noexcept nogil:
    """Where pawn k ends after a move (pre6: a 6 first enters it / frees it); -1 if illegal."""
    cdef Board* b = g.b
    cdef int s = g.seat[p], f, i, o, q
    cdef bint first
    out[0] = g.pw[p][k]
    black[0] = 0
    if pre6:
        if out.pos < 0:
            f = b.start[s]
            out.bdir = 1
            out.inward = 0
            first = False
        elif out.held:
            f = out.pos
            out.held = 0
            first = True
        else:
            return -1
    else:
        if out.pos < 0 or out.held or steps <= 0:
            return -1
        f = out.pos
        first = True
        if choice and not n_can_choose(g, p, k):
            return -1
    for i in range(steps):
        f = n_step(b, s, f, out, first, choice)
        if f < 0:
            return -1
        first = False
        if b.zone[f] == Z_HOME and g.occ[f] != 0:
            return -1
        if b.zone[f] == Z_BLACK:
            black[0] = 1
    if b.zone[f] != Z_HOLD:
        o = g.occ[f]
        if o != 0:
            q = (o - 1) >> 2
            if q == p or g.pw[q][(o - 1) & 3].immune > 0:
                return -1
        out.held = 0
    elif steps > 0:
        out.held = 1
    out.pos = f
    return f


ctypedef void (*card_fn_t)(NGame* g, int p, int k, int depth) noexcept nogil
cdef card_fn_t card_fn     # n_card, set at import (n_card and n_effects call each other)


cdef void n_effects(NGame* g, int p, int k, int depth) noexcept nogil:
    """Bottle, rolling pin and card field for pawn k that has just stopped on its field."""
    cdef Board* b = g.b
    cdef int f = g.pw[p][k].pos
    if f < 0:
        return
    if f == g.bottle:
        n_drink(g, p, D_BOTTLE, 1)
        n_bottle_lands(g, b.prv[f], 1)
    if b.kind[f] == K_PIN:
        n_to_pub(g, p, k, D_PUB)
    elif b.kind[f] == K_CARD and depth < MAXDEPTH:
        card_fn(g, p, k, depth + 1)


cdef void n_place(NGame* g, int p, int k, Pawn* ns, int depth) noexcept nogil:
    """Put pawn k on the field of state ns: capture, home entry, then the field's effects."""
    cdef Board* b = g.b
    cdef int old = g.pw[p][k].pos, f = ns.pos, o, q, j
    cdef bint was_home = old >= 0 and b.zone[old] == Z_HOME
    n_ev(g, EV_PLACE, p, k, old, f, 0, 0, 0)
    if old >= 0 and b.zone[old] != Z_HOLD and g.occ[old] == p * 4 + k + 1:
        g.occ[old] = 0
    g.pw[p][k] = ns[0]
    g.pw[p][k].ready = g.turn
    if old < 0:
        g.pw[p][k].sent = 0
        if g.bottle < 0:       # one field behind the start field of the first pawn put into play
            g.bottle = b.prv[b.start[g.seat[p]]]
            n_ev(g, EV_BOTTLE, -1, g.bottle, 2, 0, 0, 0, 0)
    if b.zone[f] == Z_HOLD:
        return
    o = g.occ[f]
    if o != 0:
        q = (o - 1) >> 2
        j = (o - 1) & 3
        n_to_pub(g, q, j, D_CAPTURED)
        g.captures += 1
    g.occ[f] = p * 4 + k + 1
    if b.zone[f] == Z_HOME:
        if not was_home:
            g.nhome[p] += 1
            for q in range(g.np):
                if q != p:
                    n_drink(g, q, D_HOME, 1)
            if g.nhome[p] == 4 and g.winner < 0:
                g.winner = p
                n_ev(g, EV_WIN, p, 0, 0, 0, 0, 0, 0)
                for q in range(g.np):
                    if q != p:
                        n_drink(g, q, D_TOAST, 1)
        return
    n_effects(g, p, k, depth)


cdef int n_prog(NGame* g, int p, int f) noexcept nogil:
    """Progress of a pawn of player p on field f (pub: -1)."""
    cdef int s = g.seat[p]
    if f < 0:
        return -1
    return g.b.dist[s][g.b.start[s]] - g.b.dist[s][f]


cdef int n_pick_opponent(NGame* g, int p, int k, bint need_vulnerable, bint for_swap) noexcept nogil:
    """An opponent pawn on the main loop for a capture or swap card: q*4+j, or -1 if none."""
    cdef int q, j, f, best = -1, n = 0, sc, bsc = -1000000
    cdef int cand[16]
    cdef int s = g.seat[p], mine = g.pw[p][k].pos
    for q in range(g.np):
        if q == p:
            continue
        for j in range(4):
            f = g.pw[q][j].pos
            if f < 0 or g.pw[q][j].held or g.b.zone[f] != Z_LOOP:
                continue
            if need_vulnerable and g.pw[q][j].immune > 0:
                continue
            cand[n] = q * 4 + j
            n += 1
            if for_swap:
                sc = g.b.dist[s][mine] - g.b.dist[s][f]
            else:
                sc = n_prog(g, q, f)
            if sc > bsc:
                bsc = sc
                best = q * 4 + j
    if n == 0:
        return -1
    if g.ask != NULL and n > 1:
        return n_asked_target(g, p, cand, n, best, for_swap)
    if g.strat[p] == S_RANDOM:
        return cand[rng_below(g.rng, n)]
    return best


cdef int n_asked_target(NGame* g, int p, int* cand, int n, int best, bint for_swap) noexcept nogil:
    """A card target asked of the caller (``NGame.ask``): the next forced one, checked against the
    candidates; else the first unforced choice is recorded and played as the seat strategy's pick."""
    cdef TargetAsk* a = g.ask
    cdef int i, o
    if a.used < a.nforced:
        o = a.forced[a.used]
        a.used += 1
        for i in range(n):
            if cand[i] == o:
                return o
        a.bad = 1
        return -1
    o = best
    if g.strat[p] == S_RANDOM:
        o = cand[rng_below(g.rng, n)]
    if not a.asked:
        a.asked = 1
        a.who = p
        a.kind = C_SWAP if for_swap else C_CAPTURE
        a.nopts = n
        for i in range(n):
            a.opts[i] = cand[i]
        a.pick = o
        if a.at != NULL:
            memcpy(a.at, g, sizeof(NGame))
    return o


cdef void n_card(NGame* g, int p, int k, int depth) noexcept nogil:
    """Draw the top card for pawn k of player p, obey it, put it under the deck."""
    cdef Board* b = g.b
    cdef int c = g.order[g.top], kd, arg, f, i, t, q, j, o, s = g.seat[p], det, blk
    cdef Pawn ns
    g.top += 1
    if g.top == g.dk.n:
        g.top = 0
    kd = g.dk.kind[c]
    arg = g.dk.arg[c]
    g.cards[kd] += 1
    n_ev(g, EV_CARD, p, k, kd, arg, 0, 0, 0)
    f = g.pw[p][k].pos
    if kd == C_DRINK:
        n_drink(g, p, D_CARD, arg)
        return
    if kd == C_GLASS:
        n_drink(g, p, D_CARD, 1)
        g.glass[p] += 1
        return
    if kd == C_BLANK:
        return
    if kd == C_FROMPUB:
        for j in range(4):
            if g.pw[p][j].pos < 0:
                if n_walk(g, p, j, 0, 0, 1, &ns, &blk) >= 0:
                    n_place(g, p, j, &ns, depth)
                return
        return
    if f < 0 or b.zone[f] != Z_LOOP:
        return          # movement cards act on pawns of the main loop only
    if kd == C_IMMUNITY:
        g.pw[p][k].immune = arg
        n_ev(g, EV_IMMUNE, p, k, arg, 0, 0, 0, 0)
    elif kd == C_RETURN:
        if g.pw[p][k].immune == 0:
            n_to_pub(g, p, k, D_PUB)
    elif kd == C_POLICE:
        n_ev(g, EV_POLICE, p, k, f, 0, 0, 0, 0)
        g.occ[f] = 0
        det = b.police
        while det >= 0 and b.zone[det] != Z_BLACK:
            det = b.prv[det]
        g.pw[p][k].pos = b.police
        g.pw[p][k].held = 1
        g.pw[p][k].inward = 0
        g.pw[p][k].sent = 1
        g.pw[p][k].ready = g.turn
        if det >= 0:
            g.pw[p][k].bdir = 1 if b.dist[s][b.nxt[det]] <= b.dist[s][b.prv[det]] else -1
    elif kd == C_ADVANCE:
        if n_walk(g, p, k, arg, 0, 0, &ns, &blk) >= 0:
            if blk:
                g.black = 1
                g.pblack[p] = 1
            n_place(g, p, k, &ns, depth)
    elif kd == C_BACK:
        t = f
        for i in range(arg):
            if t == b.start[s]:
                break
            t = b.prv[t]
        if t == f:
            return
        o = g.occ[t]
        if o != 0 and (((o - 1) >> 2) == p or g.pw[(o - 1) >> 2][(o - 1) & 3].immune > 0):
            return
        ns = g.pw[p][k]
        ns.pos = t
        n_place(g, p, k, &ns, depth)
    elif kd == C_CATCHUP or kd == C_FALLIN:
        # catch up: right behind the nearest pawn of another colour ahead on the main loop;
        # fall in: right behind the nearest pawn of another colour behind (our "zařazování")
        if kd == C_FALLIN and f == b.start[s]:
            return
        t = b.nxt[f] if kd == C_CATCHUP else b.prv[f]
        for i in range(b.nloop):
            if kd == C_FALLIN and t == b.start[s]:
                return          # never behind the own start field (as the back cards)
            o = g.occ[t]
            if t == f or (o != 0 and ((o - 1) >> 2) != p):
                break
            t = b.nxt[t] if kd == C_CATCHUP else b.prv[t]
        if t == f:
            return
        t = b.prv[t]
        o = g.occ[t]
        if t == f or (o != 0 and (((o - 1) >> 2) == p or g.pw[(o - 1) >> 2][(o - 1) & 3].immune > 0)):
            return          # already there, or an own or immune pawn stands there: the card is void
        ns = g.pw[p][k]
        ns.pos = t
        n_place(g, p, k, &ns, depth)
    elif kd == C_OFFER:
        # offered capture: the nearest opponent pawn behind on the main loop jumps onto this pawn,
        # captures it and (standing on this card field) draws a card out of turn
        if g.pw[p][k].immune > 0:
            return
        t = b.prv[f]
        for i in range(b.nloop):
            o = g.occ[t]
            if t == f or (o != 0 and ((o - 1) >> 2) != p):
                break
            t = b.prv[t]
        if t == f:
            return
        q = (o - 1) >> 2
        j = (o - 1) & 3
        ns = g.pw[q][j]
        ns.pos = f
        n_place(g, q, j, &ns, depth)
    elif kd == C_CAPTURE:
        o = n_pick_opponent(g, p, k, True, False)
        if o < 0:
            return
        ns = g.pw[p][k]
        ns.pos = g.pw[o >> 2][o & 3].pos
        n_place(g, p, k, &ns, depth)
    elif kd == C_SWAP:
        o = n_pick_opponent(g, p, k, False, True)
        if o < 0:
            return
        q = o >> 2
        j = o & 3
        n_ev(g, EV_SWAP, p, k, q, j, 0, 0, 0)
        t = g.pw[q][j].pos
        g.pw[q][j].pos = f
        g.pw[q][j].ready = g.turn
        g.occ[f] = q * 4 + j + 1
        g.pw[p][k].pos = t
        g.pw[p][k].ready = g.turn
        g.occ[t] = p * 4 + k + 1
        n_effects(g, p, k, depth)
        if g.pw[q][j].pos == f:
            n_effects(g, q, j, depth)


card_fn = n_card


cdef void n_bottle(NGame* g, int d) noexcept nogil:
    """Move the Bottle d fields clockwise on the main loop; it captures the pawn it stops on."""
    cdef int f = g.bottle, i
    for i in range(d):
        f = g.b.nxt[f]
    n_bottle_lands(g, f, 0)


cdef int n_danger(NGame* g, int p, int f) noexcept nogil:
    """Opponent pawns (and the Bottle) on the main loop 1..6 fields behind field f."""
    cdef int n = 0, i, o
    if f < 0 or g.b.zone[f] != Z_LOOP:
        return 0
    for i in range(6):
        f = g.b.prv[f]
        if f == g.bottle:
            n += 1
        o = g.occ[f]
        if o != 0 and ((o - 1) >> 2) != p:
            n += 1
    return n


cdef int n_count_ahead(NGame* g, int p, bint own) noexcept nogil:
    """Value of the pawns 1..6 fields ahead of the Bottle: opponents' progress (own: own pawns)."""
    cdef int f = g.bottle, i, o, q, n = 0
    if f < 0:
        return 0
    for i in range(6):
        f = g.b.nxt[f]
        o = g.occ[f]
        if o != 0:
            q = (o - 1) >> 2
            if g.pw[q][(o - 1) & 3].immune > 0:
                continue
            if own and q == p:
                n += 1
            elif not own and q != p:
                n += 1 + n_prog(g, q, f)
    return n


cdef bint n_use_bottle(NGame* g, int p) noexcept nogil:
    """Strategy: does player p announce a Bottle move (caller checked that it may)?"""
    cdef int s = g.strat[p], opp
    if s == S_RANDOM:
        return rng_below(g.rng, 10) == 0
    if s == S_HUNTER:
        return n_count_ahead(g, p, False) > 0 and n_count_ahead(g, p, True) == 0
    if s == S_BEST:
        opp = n_count_ahead(g, p, False)
        return opp >= 30 and n_count_ahead(g, p, True) == 0
    return False


cdef int n_score(NGame* g0, NGame* g1, int p, int k, int ndice, int choice, int blk) noexcept nogil:
    """How much strategy g0.strat[p] likes the move of pawn k that turned g0 into g1."""
    cdef int s = g0.strat[p], q, j, pb, pa, gain, opp_lost = 0, own_lost = 0, sc
    cdef int home_in = g1.nhome[p] - g0.nhome[p]
    for q in range(g0.np):
        for j in range(4):
            if g0.pw[q][j].pos >= 0 and g1.pw[q][j].pos < 0:
                if q == p:
                    own_lost += 1
                else:
                    opp_lost += 1
    pb = n_prog(g0, p, g0.pw[p][k].pos)
    pa = n_prog(g1, p, g1.pw[p][k].pos)
    if g0.pw[p][k].pos >= 0 and g0.b.zone[g0.pw[p][k].pos] == Z_HOME:
        pb = -3                              # home pawns move last for the runner family
    gain = pa - pb
    if s == S_RUNNER:
        return 100 * pb * ndice + gain
    if s == S_HUNTER:
        return 100000 * opp_lost + 100 * pb * ndice + gain
    if s == S_CAUTIOUS:
        return (-100000 * blk - 10000 * n_danger(g1, p, g1.pw[p][k].pos) - 50000 * own_lost
                + 100 * pb * ndice + gain)
    if s == S_SHORTCUT:
        return 100000 * (choice if g0.b.zone[g0.pw[p][k].pos] != Z_BRANCH else 0) + 100 * pb * ndice + gain
    # best
    sc = 30 * gain + 400 * opp_lost - 600 * own_lost + 300 * home_in - 1000 * blk * choice
    sc -= 80 * n_danger(g1, p, g1.pw[p][k].pos)
    if g0.pw[p][k].pos >= 0:
        sc += 60 * n_danger(g0, p, g0.pw[p][k].pos)
    if g0.pw[p][k].pos < 0 and g1.pw[p][k].pos >= 0:
        sc += 150
    if g1.pw[p][k].held:
        sc -= 300
    sc += pb * ndice
    return sc


cdef int n_moves(NGame* g, int p, int steps, bint may_enter, int enter_steps, int* mk, int* mc, int* mp,
                 Pawn* ns, int* bl) noexcept nogil:
    """Legal moves of player p: pawns in play move ``steps``; if ``may_enter``, a pawn in the pub or
    held uses a 6 to enter / get free and then moves ``enter_steps``.  Fills pawn, choice, pre6 flag,
    the pawn's state after the move and whether it used the Black path; returns the count (<= 8)."""
    cdef int k, c, n = 0
    for k in range(4):
        if g.pw[p][k].pos < 0 or g.pw[p][k].held:
            if may_enter and n_walk(g, p, k, enter_steps, 0, 1, &ns[n], &bl[n]) >= 0:
                mk[n] = k
                mc[n] = 0
                mp[n] = 1
                n += 1
            continue
        for c in range(2 if n_can_choose(g, p, k) else 1):
            if n_walk(g, p, k, steps, c, 0, &ns[n], &bl[n]) >= 0:
                mk[n] = k
                mc[n] = c
                mp[n] = 0
                n += 1
    return n


cdef inline int n_single_moves(NGame* g, int p, int d, int* mk, int* mc, int* mp, Pawn* ns,
                               int* bl) noexcept nogil:
    """Legal moves for one die."""
    return n_moves(g, p, d, d == 6, 0, mk, mc, mp, ns, bl)


cdef inline int n_sum_moves(NGame* g, int p, int total, int* mk, int* mc, int* mp, Pawn* ns,
                            int* bl) noexcept nogil:
    """Legal moves of one pawn by the sum of all dice (a pawn outside play uses the first 6)."""
    return n_moves(g, p, total, True, total - 6, mk, mc, mp, ns, bl)


cdef inline int n_apply(NGame* g, int p, int k, Pawn* ns, int blk) noexcept nogil:
    """Apply a move whose end state n_moves computed on this same position."""
    if blk:
        g.black = 1
        g.pblack[p] = 1
    n_place(g, p, k, ns, 0)
    return blk


cdef int n_do(NGame* g, int p, int k, int steps, int choice, int pre6) noexcept nogil:
    """Apply one legal move; returns 1 if it used the Black path, -1 if the move is illegal."""
    cdef Pawn ns
    cdef int blk
    if n_walk(g, p, k, steps, choice, pre6, &ns, &blk) < 0:
        return -1
    return n_apply(g, p, k, &ns, blk)


cdef void n_exec(NGame* g, int p, int k, int steps, int choice, int pre6, int by_sum) noexcept nogil:
    """Make one move that n_moves listed as legal, and log the decision."""
    n_ev(g, EV_MOVE, p, k, steps, choice, pre6, by_sum, 0)
    n_do(g, p, k, steps, choice, pre6)


# where a napij-se turn stands, for the batch loop (n_turn) and the decision API (NapijState)
cdef struct Turn:
    int phase           # T_START .. T_DONE
    int player
    int tries           # rolls left before the dice are complete without a 6 (3 if nothing in play)
    int nd              # dice rolled (6s, then the die that ended the rolling)
    int di              # next die to use die by die
    int coin            # random strategy: the sum-or-not toss of this turn is made
    int dice[MAXDICE]

cdef enum:
    T_START = 0         # the player may announce that the roll moves the Bottle
    T_BOTTLE = 1        # announced: one die moves the Bottle
    T_ROLL = 2          # rolling: 6s roll again, a miss uses up a try
    T_MOVE = 3          # the dice are to be used: one pawn by the sum, or die by die in roll order
    T_DONE = 4          # the turn is over


cdef struct Move:
    int pawn
    int steps
    int choice          # 1: turn off at a crossroads
    int pre6            # a 6 first enters the pawn or frees it
    int by_sum


cdef int n_turn_moves(NGame* g, Turn* t, Move* out) noexcept nogil:
    """The legal moves now (T_MOVE): the next die's moves, and while no die is used yet and there
    are several, one pawn by the sum.  Returns the count (<= 16)."""
    cdef int mk[8]
    cdef int mc[8]
    cdef int mp[8]
    cdef int bl[8]
    cdef Pawn ns[8]
    cdef int n, m, total = 0, i, d = t.dice[t.di], p = t.player, nout = 0
    n = n_single_moves(g, p, d, mk, mc, mp, ns, bl)
    for m in range(n):
        out[nout] = Move(mk[m], d - 6 * mp[m], mc[m], mp[m], 0)
        nout += 1
    if t.di == 0 and t.nd > 1:
        for i in range(t.nd):
            total += t.dice[i]
        n = n_sum_moves(g, p, total, mk, mc, mp, ns, bl)
        for m in range(n):
            out[nout] = Move(mk[m], total - 6 * mp[m], mc[m], mp[m], 1)
            nout += 1
    return nout


cdef void n_turn_move(NGame* g, Turn* t, Move* mv) noexcept nogil:
    """Make one legal move (listed by n_turn_moves) and see whether the turn goes on: it ends after
    a move by the sum, the last die, a win, or when the next die cannot be used."""
    cdef int mk[8]
    cdef int mc[8]
    cdef int mp[8]
    cdef int bl[8]
    cdef Pawn ns[8]
    n_exec(g, t.player, mv.pawn, mv.steps, mv.choice, mv.pre6, mv.by_sum)
    t.di += 1
    if mv.by_sum or g.winner >= 0 or t.di >= t.nd or \
            n_single_moves(g, t.player, t.dice[t.di], mk, mc, mp, ns, bl) == 0:
        t.phase = T_DONE


cdef int n_random_move(NGame* g, Turn* t, Move* out) noexcept nogil:
    """The random strategy's next move: with several dice, half the time one random pawn by the sum
    (tossed once a turn), else a random legal move per die; the sum too when the first die is
    useless alone.  Returns 0 if there is none."""
    cdef int mk[8]
    cdef int mc[8]
    cdef int mp[8]
    cdef int bl[8]
    cdef Pawn ns[8]
    cdef int n, m, i, total = 0, p = t.player
    for i in range(t.nd):
        total += t.dice[i]
    if t.di == 0 and t.nd > 1 and not t.coin:
        t.coin = 1
        if rng_below(g.rng, 2) == 0:
            n = n_sum_moves(g, p, total, mk, mc, mp, ns, bl)
            if n > 0:
                m = rng_below(g.rng, n)
                out[0] = Move(mk[m], total - 6 * mp[m], mc[m], mp[m], 1)
                return 1
    n = n_single_moves(g, p, t.dice[t.di], mk, mc, mp, ns, bl)
    if n == 0:
        if t.di == 0 and t.nd > 1:         # the first die is useless alone: maybe the sum helps
            n = n_sum_moves(g, p, total, mk, mc, mp, ns, bl)
            if n > 0:
                m = rng_below(g.rng, n)
                out[0] = Move(mk[m], total - 6 * mp[m], mc[m], mp[m], 1)
                return 1
        return 0
    m = rng_below(g.rng, n) if n > 1 else 0
    out[0] = Move(mk[m], t.dice[t.di] - 6 * mp[m], mc[m], mp[m], 0)
    return 1


cdef int n_plan(NGame* g, Turn* t, Move* plan) noexcept nogil:
    """A deterministic strategy's plan for the dice left: greedy die by die from die t.di, then,
    while no die is used yet, compared with every sum move (on copies that do not log).  Returns the
    number of moves to make before planning again (0: none possible): the plan is cut after a die
    whose look-ahead drew random numbers (a random player's card target), since the game itself may
    then go another way than the copy."""
    cdef int mk[8]
    cdef int mc[8]
    cdef int mp[8]
    cdef int bl[8]
    cdef Pawn ns[8]
    cdef int n, i, m, total = 0, blk, sc, bsc, seqsc, bm, nplan = 0, sum_m = -1, p = t.player, cut = MAXDICE
    cdef NGame seq, cand, best
    cdef Rng before
    for i in range(t.nd):
        total += t.dice[i]
    memcpy(&seq, g, sizeof(NGame))
    seq.ev = NULL
    seq.ask = NULL
    seqsc = 0
    for i in range(t.di, t.nd):
        n = n_single_moves(&seq, p, t.dice[i], mk, mc, mp, ns, bl)
        if n == 0:
            if i == 0:
                seqsc = -2000000000     # no move die by die: any sum move is better than none
            break
        bsc = -2000000000
        bm = 0
        before = g.rng[0]
        for m in range(n):
            memcpy(&cand, &seq, sizeof(NGame))
            blk = n_apply(&cand, p, mk[m], &ns[m], bl[m])
            sc = n_score(&seq, &cand, p, mk[m], 1, mc[m], blk)
            if sc > bsc:
                bsc = sc
                bm = m
                memcpy(&best, &cand, sizeof(NGame))
        plan[nplan] = Move(mk[bm], t.dice[i] - 6 * mp[bm], mc[bm], mp[bm], 0)
        nplan += 1
        if cut == MAXDICE and memcmp(&before, g.rng, sizeof(Rng)) != 0:
            cut = nplan
        seqsc += bsc
        memcpy(&seq, &best, sizeof(NGame))
        if seq.winner >= 0:
            break
    if t.di == 0 and t.nd > 1:
        n = n_sum_moves(g, p, total, mk, mc, mp, ns, bl)
        for m in range(n):
            memcpy(&cand, g, sizeof(NGame))
            cand.ev = NULL
            cand.ask = NULL
            blk = n_apply(&cand, p, mk[m], &ns[m], bl[m])
            sc = n_score(g, &cand, p, mk[m], t.nd, mc[m], blk)
            if sc > seqsc:
                seqsc = sc
                sum_m = m
    if sum_m >= 0:
        plan[0] = Move(mk[sum_m], total - 6 * mp[sum_m], mc[sum_m], mp[sum_m], 1)
        return 1
    return nplan if nplan < cut else cut


cdef int n_strategy_moves(NGame* g, Turn* t, Move* plan) noexcept nogil:
    """The moves player t.player's strategy makes next: its whole plan for the dice left
    (deterministic strategies) or its next move (random).  0: it has none."""
    if g.strat[t.player] == S_RANDOM:
        return n_random_move(g, t, plan)
    return n_plan(g, t, plan)


cdef void n_play_dice(NGame* g, Turn* t) noexcept nogil:
    """Use the dice of one turn as the player's strategy plans."""
    cdef Move plan[MAXDICE]
    cdef int n, i
    while t.phase == T_MOVE:
        n = n_strategy_moves(g, t, plan)
        if n == 0:
            t.phase = T_DONE
        for i in range(n):
            if t.phase != T_MOVE:
                break
            n_turn_move(g, t, &plan[i])


cdef bint n_home_can_move(NGame* g, int p) noexcept nogil:
    cdef int k, f, n
    for k in range(4):
        f = g.pw[p][k].pos
        if f >= 0 and g.b.zone[f] == Z_HOME:
            n = g.b.nxt[f]
            if n >= 0 and g.occ[n] == 0:
                return True
    return False


cdef int n_any_inplay(NGame* g, int p) noexcept nogil:
    cdef int k
    for k in range(4):
        if n_inplay(g, p, k):
            return 1
    return 0


cdef void n_turn_begin(NGame* g, Turn* t, int p) noexcept nogil:
    """Player p's turn begins: immunity ticks; the Bottle may be announced if it is on the board and
    the player has a pawn in play, else the rolling starts."""
    cdef int k
    g.turn += 1
    n_ev(g, EV_TURN, p, 0, 0, 0, 0, 0, 0)
    for k in range(4):
        if g.pw[p][k].immune > 0:
            g.pw[p][k].immune -= 1
    t.player = p
    t.nd = 0
    t.di = 0
    t.coin = 0
    t.phase = T_START
    if not (g.bottle >= 0 and n_any_inplay(g, p)):
        n_start_rolling(g, t)


cdef void n_start_rolling(NGame* g, Turn* t) noexcept nogil:
    """No Bottle announced: three tries while nothing of the player's can move, else one."""
    t.tries = 3 if (not n_any_inplay(g, t.player) and not n_home_can_move(g, t.player)) else 1
    t.phase = T_ROLL


cdef void n_announce(NGame* g, Turn* t) noexcept nogil:
    n_ev(g, EV_CALL, t.player, 0, 0, 0, 0, 0, 0)
    t.phase = T_BOTTLE


cdef void n_roll(NGame* g, Turn* t, int d) noexcept nogil:
    """One die rolled in T_BOTTLE (it moves the Bottle; the turn ends) or T_ROLL (a 6 rolls again;
    the first other number completes the dice; a miss with no 6 uses up a try)."""
    g.rolls += 1
    n_ev(g, EV_ROLL, t.player, d, 0, 0, 0, 0, 0)
    if t.phase == T_BOTTLE:
        n_bottle(g, d)
        t.phase = T_DONE
        return
    if d == 6:
        if t.nd < MAXDICE - 1:
            t.dice[t.nd] = 6
            t.nd += 1
        return
    if t.nd > 0:
        t.dice[t.nd] = d
        t.nd += 1
        t.phase = T_MOVE
        return
    t.tries -= 1
    if t.tries == 0:
        t.dice[0] = d
        t.nd = 1
        t.phase = T_MOVE


cdef void n_turn(NGame* g, int p) noexcept nogil:
    """One turn of player p with its strategy: Bottle or dice, moves."""
    cdef Turn t
    n_turn_begin(g, &t, p)
    if t.phase == T_START:
        if n_use_bottle(g, p):
            n_announce(g, &t)
        else:
            n_start_rolling(g, &t)
    while t.phase == T_BOTTLE or t.phase == T_ROLL:
        n_roll(g, &t, <int>rng_below(g.rng, 6) + 1)
    n_play_dice(g, &t)


cdef void n_reset(NGame* g) noexcept nogil:
    cdef int p, k
    memset(g.occ, 0, sizeof(g.occ))
    for p in range(4):
        for k in range(4):
            g.pw[p][k].pos = -1
            g.pw[p][k].bdir = 1
            g.pw[p][k].inward = 0
            g.pw[p][k].held = 0
            g.pw[p][k].immune = 0
            g.pw[p][k].sent = 0
            g.pw[p][k].ready = 0
        g.nhome[p] = 0
        g.pblack[p] = 0
        g.drinks[p] = 0
        g.glass[p] = 0
        for k in range(NCAUSES):
            g.dcause[p][k] = 0
    for k in range(NCARDKINDS):
        g.cards[k] = 0
    g.bottle = -1
    g.nev = 0
    g.top = 0
    g.turn = 0
    g.winner = -1
    g.captures = 0
    g.black = 0
    g.rolls = 0


cdef int n_check(NGame* g) noexcept nogil:
    """Invariant violations: occupancy agrees with the pawns, home counts, drink causes add up."""
    cdef int p, k, f, bad = 0, nh, c, tot
    cdef int seen[MAXF]
    memset(seen, 0, sizeof(seen))
    for p in range(g.np):
        nh = 0
        for k in range(4):
            f = g.pw[p][k].pos
            if f >= g.b.nf:
                bad += 1
                continue
            if f >= 0 and g.b.zone[f] == Z_HOME:
                nh += 1
            if f >= 0 and g.b.zone[f] != Z_HOLD:
                if g.occ[f] != p * 4 + k + 1 or g.b.zone[f] == Z_PIN:
                    bad += 1
                seen[f] += 1
            if g.pw[p][k].held and (f < 0 or g.b.zone[f] != Z_HOLD):
                bad += 1
        if nh != g.nhome[p]:
            bad += 1
        tot = 0
        for c in range(NCAUSES):
            tot += g.dcause[p][c]
        if tot != g.drinks[p] or g.glass[p] > g.dcause[p][3]:
            bad += 1
    for f in range(g.b.nf):
        if (g.occ[f] != 0) != (seen[f] == 1):
            bad += 1
    if g.bottle >= 0 and g.b.zone[g.bottle] != Z_LOOP:
        bad += 1
    return bad


cdef void n_start_game(NGame* g) noexcept nogil:
    """A new game: pawns in the pub, the first player (drawn if the rule says so), everyone's
    drink at the start, the deck shuffled."""
    cdef int i, j, t
    n_reset(g)
    g.first = <int>rng_below(g.rng, g.np) if g.first_random else 0
    for i in range(g.np):
        n_drink(g, i, D_START, 1)      # "at the start of every game all players drink"
    for i in range(g.dk.n):
        g.order[i] = i
    # Fisher-Yates shuffle of the deck
    for i in range(g.dk.n - 1, 0, -1):
        j = <int>rng_below(g.rng, i + 1)
        t = g.order[i]
        g.order[i] = g.order[j]
        g.order[j] = t


cdef int n_play(NGame* g, bint check, int* violations) noexcept nogil:
    """Play one whole game; returns the winner or -1 if abandoned after MAXTURNS turns."""
    n_start_game(g)
    cdef int p = g.first
    while g.turn < MAXTURNS:
        n_turn(g, p)
        if check:
            violations[0] += n_check(g)
        if g.winner >= 0:
            return g.winner
        p += 1
        if p == g.np:
            p = 0
    return -1


cdef class CompiledBoard:
    """A napij-se board graph as C arrays (built by solver.clovece.board.compile_board)."""
    cdef Board b
    cdef Deck dk

    def __init__(self, dict arrays, dict deck):
        cdef int i, s, nf = len(arrays["kind"])
        if nf > MAXF:
            raise ValueError(f"board has {nf} fields, the engine allows {MAXF}")
        if len(deck["kind"]) > MAXCARDS or len(deck["kind"]) == 0:
            raise ValueError(f"deck must have 1..{MAXCARDS} cards")
        memset(&self.b, 0, sizeof(Board))
        self.b.nf = nf
        for i in range(nf):
            self.b.kind[i] = arrays["kind"][i]
            self.b.zone[i] = arrays["zone"][i]
            self.b.nxt[i] = arrays["next"][i]
            self.b.prv[i] = arrays["prev"][i]
            self.b.alt[i] = arrays["alt"][i]
            self.b.arrow_of[i] = arrays["arrow_of"][i]
            for s in range(4):
                self.b.dist[s][i] = arrays["dist"][s][i]
        for s in range(4):
            self.b.start[s] = arrays["start"][s]
            self.b.pin[s] = arrays["pin"][s]
        self.b.police = arrays["police"]
        self.b.nloop = arrays["nloop"]
        self.dk.n = len(deck["kind"])
        for i in range(self.dk.n):
            self.dk.kind[i] = deck["kind"][i]
            self.dk.arg[i] = deck["arg"][i]


cdef void n_init(NGame* g, CompiledBoard board, int nplayers, seats, strategies, bint drink_once,
                 bint first_random, Rng* rng) except *:
    """A fresh game of ``nplayers`` on ``board`` (seats, strategy ids and the rule options)."""
    cdef int p
    _check_setup(nplayers, seats, strategies)
    memset(g, 0, sizeof(NGame))
    g.np = nplayers
    g.drink_once = drink_once
    g.first_random = first_random
    for p in range(nplayers):
        g.seat[p] = seats[p]
        g.strat[p] = strategies[p]
    g.b = &board.b
    g.dk = &board.dk
    g.rng = rng


def napij_simulate(CompiledBoard board, int nplayers, seats, strategies, uint64_t seed, int n_games,
                   bint check=False, bint drink_once=False, bint first_random=False):
    """Play n_games napij-se games; returns a dict of count/sum arrays (see CloveceExperiment).

    ``drink_once``: the house rule "one drink per event"; ``first_random``: the first player is
    drawn at random for every game (else player 0 starts).
    """
    cdef NGame g
    cdef Rng rng
    cdef int i, p, c, w, viol = 0
    n_init(&g, board, nplayers, seats, strategies, drink_once, first_random, &rng)
    wins = np.zeros(nplayers, dtype=np.int64)
    drinks = np.zeros(nplayers, dtype=np.float64)
    drinks_sq = np.zeros(nplayers, dtype=np.float64)
    glass = np.zeros(nplayers, dtype=np.float64)
    causes = np.zeros((nplayers, NCAUSES), dtype=np.float64)
    cards = np.zeros(NCARDKINDS, dtype=np.int64)
    pblack = np.zeros(nplayers, dtype=np.int64)
    pblack_wins = np.zeros(nplayers, dtype=np.int64)
    starts = np.zeros(nplayers, dtype=np.int64)
    start_wins = np.zeros(nplayers, dtype=np.int64)
    cdef long long[::1] vs = starts
    cdef long long[::1] vsw = start_wins
    cdef long long[::1] vpb = pblack
    cdef long long[::1] vpbw = pblack_wins
    cdef long long[::1] vw = wins
    cdef double[::1] vd = drinks
    cdef double[::1] vd2 = drinks_sq
    cdef double[::1] vg = glass
    cdef double[:, ::1] vc = causes
    cdef long long[::1] vk = cards
    cdef double s_rolls = 0, s_rolls2 = 0, s_turns = 0, s_turns2 = 0, s_capt = 0, s_capt2 = 0
    cdef long long abandoned = 0, black = 0, winners = 0
    rng_seed(&rng, seed)
    with nogil:
        for i in range(n_games):
            w = n_play(&g, check, &viol)
            vs[g.first] += 1
            if w >= 0:
                vw[w] += 1
                winners += 1
                if w == g.first:
                    vsw[w] += 1
            else:
                abandoned += 1
            for p in range(nplayers):
                if g.pblack[p]:
                    vpb[p] += 1
                    if w == p:
                        vpbw[p] += 1
                vd[p] += g.drinks[p]
                vd2[p] += <double>g.drinks[p] * g.drinks[p]
                vg[p] += g.glass[p]
                for c in range(NCAUSES):
                    vc[p, c] += g.dcause[p][c]
            for c in range(NCARDKINDS):
                vk[c] += g.cards[c]
            s_rolls += g.rolls
            s_rolls2 += <double>g.rolls * g.rolls
            s_turns += g.turn
            s_turns2 += <double>g.turn * g.turn
            s_capt += g.captures
            s_capt2 += <double>g.captures * g.captures
            black += g.black
    return {"wins": wins, "drinks": drinks, "drinks_sq": drinks_sq, "glass": glass,
            "drink_causes": causes, "cards": cards, "rolls": s_rolls, "rolls_sq": s_rolls2,
            "turns": s_turns, "turns_sq": s_turns2, "captures": s_capt, "captures_sq": s_capt2,
            "black_games": int(black), "player_black_games": pblack, "player_black_wins": pblack_wins, "starts": starts, "start_wins": start_wins,
            "abandoned": int(abandoned), "violations": int(viol)}


def napij_game(CompiledBoard board, int nplayers, seats, strategies, uint64_t seed, bint drink_once=False,
               bint first_random=False):
    """Play one napij-se game with its log: a dict with the winner, the first player, the deck in
    draw order (kind, number), the turns, drinks by cause and the log records (an int array of
    EVW columns: type and arguments, see the EV_* constants; fields are board indices, -1 the pub).

    Seeded like one game of :func:`napij_simulate` with the same seed.
    """
    cdef NGame g
    cdef Rng rng
    cdef int p, w, viol = 0
    n_init(&g, board, nplayers, seats, strategies, drink_once, first_random, &rng)
    buf = np.zeros(EVCAP, dtype=np.int32)
    cdef int[::1] vb = buf
    g.ev = &vb[0]
    g.evcap = EVCAP
    rng_seed(&rng, seed)
    with nogil:
        w = n_play(&g, True, &viol)
    g.ev = NULL
    return {"winner": w, "first": g.first, "turns": g.turn, "violations": viol,
            "deck": [(int(board.dk.kind[g.order[i]]), int(board.dk.arg[g.order[i]])) for i in range(board.dk.n)],
            "causes": [[g.dcause[p][c] for c in range(NCAUSES)] for p in range(nplayers)],
            "events": buf[:g.nev].reshape(-1, EVW).tolist()}


cdef class NapijTable:
    """One napij-se game held in C for tests and exploration: set up a position, apply moves.

    Players are 0..n-1 (sitting on ``seats``); fields are board indices; ``-1`` is the pub.
    """
    cdef NGame g
    cdef Rng rng
    cdef CompiledBoard board

    def __init__(self, CompiledBoard board, int nplayers, seats, strategies, uint64_t seed=1,
                 bint drink_once=False):
        cdef int i
        self.board = board
        n_init(&self.g, board, nplayers, seats, strategies, drink_once, False, &self.rng)
        rng_seed(&self.rng, seed)
        n_reset(&self.g)
        for i in range(board.dk.n):
            self.g.order[i] = i
        self.g.turn = 1

    def set_deck(self, order):
        """Card indices in draw order (the top card first)."""
        cdef int i
        if sorted(order) != list(range(self.board.dk.n)):
            raise ValueError("order must be a permutation of the deck")
        for i in range(len(order)):
            self.g.order[i] = order[i]
        self.g.top = 0

    def place(self, int p, int k, int field, held=False, int immune=0, int bdir=1, inward=False,
              ready=True):
        """Put pawn k of player p on a field (-1: the pub) without any effect."""
        self._check_pawn(p, k)
        if not -1 <= field < self.board.b.nf:
            raise ValueError(f"no field {field}")
        cdef int old = self.g.pw[p][k].pos, z
        if old >= 0 and self.g.occ[old] == p * 4 + k + 1:
            self.g.occ[old] = 0
        if old >= 0 and self.board.b.zone[old] == Z_HOME:
            self.g.nhome[p] -= 1
        self.g.pw[p][k].pos = field
        self.g.pw[p][k].held = held
        self.g.pw[p][k].immune = immune
        self.g.pw[p][k].bdir = bdir
        self.g.pw[p][k].inward = inward
        self.g.pw[p][k].ready = self.g.turn - 1 if ready else self.g.turn
        if field >= 0:
            z = self.board.b.zone[field]
            if z != Z_HOLD:
                if self.g.occ[field] != 0:
                    raise ValueError("field already occupied")
                self.g.occ[field] = p * 4 + k + 1
            if z == Z_HOME:
                self.g.nhome[p] += 1

    def _check_pawn(self, int p, int k=0):
        if not (0 <= p < self.g.np and 0 <= k < 4):
            raise ValueError(f"no pawn {k} of player {p}")

    def set_bottle(self, int field):
        """Put the Bottle on a main-loop field (-1: not on the board yet)."""
        if field != -1 and not (0 <= field < self.board.b.nf and self.board.b.zone[field] == Z_LOOP):
            raise ValueError("the Bottle stands on the main loop")
        self.g.bottle = field

    def next_turn(self):
        """Advance the turn counter (pawns that stopped on a crossroads may now turn)."""
        self.g.turn += 1

    def legal(self, int p, int die):
        """Legal single-die moves: list of (pawn, choice, pre6, destination)."""
        self._check_pawn(p)
        if not 1 <= die <= 6:
            raise ValueError("a die shows 1..6")
        cdef int mk[8]
        cdef int mc[8]
        cdef int mp[8]
        cdef int bl[8]
        cdef Pawn ns[8]
        cdef int n = n_single_moves(&self.g, p, die, mk, mc, mp, ns, bl), i
        return [(mk[i], mc[i], mp[i], ns[i].pos) for i in range(n)]

    def move(self, int p, int k, int steps, int choice=0, bint pre6=False):
        """Move pawn k by steps (pre6: a 6 first enters / frees it); ValueError if illegal."""
        self._check_pawn(p, k)
        if n_do(&self.g, p, k, steps, choice, pre6) < 0:
            raise ValueError("illegal move")
        return self.g.pw[p][k].pos

    def bottle(self, int d):
        """Move the Bottle d fields."""
        if not 1 <= d <= 6:
            raise ValueError("a die shows 1..6")
        if self.g.bottle < 0:
            raise ValueError("the Bottle is not on the board yet")
        n_bottle(&self.g, d)

    def draw(self, int p, int k):
        """Pawn k of player p draws the top card (as if it had stopped on a card field)."""
        self._check_pawn(p, k)
        n_card(&self.g, p, k, 1)

    def play_dice(self, int p, dice):
        """Let player p's strategy use the given dice (one turn without rolling)."""
        cdef Turn t
        cdef int i
        self._check_pawn(p)
        if not 1 <= len(dice) < MAXDICE or any(not 1 <= x <= 6 for x in dice):
            raise ValueError("dice: 1..23 values 1..6")
        memset(&t, 0, sizeof(Turn))
        for i in range(len(dice)):
            t.dice[i] = dice[i]
        t.nd = len(dice)
        t.player = p
        t.phase = T_MOVE
        n_play_dice(&self.g, &t)

    def turn(self, int p):
        """One whole turn of player p with its strategy and random dice."""
        self._check_pawn(p)
        n_turn(&self.g, p)

    def violations(self):
        return n_check(&self.g)

    def state(self):
        """Positions and counters as plain Python data."""
        return n_state(&self.g)


cdef dict n_state(NGame* gp):
    """A napij-se game's positions and counters as plain Python data."""
    cdef int p, k
    g = gp[0]
    return {
            "pawns": [[dict(pos=g.pw[p][k].pos, held=bool(g.pw[p][k].held), immune=g.pw[p][k].immune,
                            bdir=g.pw[p][k].bdir, inward=bool(g.pw[p][k].inward),
                            ready=g.pw[p][k].ready < g.turn)
                       for k in range(4)] for p in range(g.np)],
            "bottle": g.bottle,
            "drinks": [g.drinks[p] for p in range(g.np)],
            "glass": [g.glass[p] for p in range(g.np)],
            "causes": [[g.dcause[p][k] for k in range(NCAUSES)] for p in range(g.np)],
            "home": [g.nhome[p] for p in range(g.np)],
            "winner": g.winner,
            "captures": g.captures,
            "black": bool(g.black),
            "top": g.top,
            "turn": g.turn,
        }


cdef class NapijState:
    """One napij-se game held in C, a decision or a die at a time: the decision API's engine side
    (:mod:`solver.clovece.napij`).  The turn goes through the batch loop's own functions
    (n_turn_begin, n_announce, n_roll, n_turn_moves, n_turn_move) and a strategy's choice through
    n_use_bottle and n_strategy_moves, so a game played here follows the rules exactly as
    ``simulate`` does.  The caller rolls the dice; the deck is shuffled from the seed, as in one
    game of ``simulate`` with that seed.  Every event goes to a log that :meth:`events` drains."""

    cdef NGame g
    cdef Rng rng
    cdef Turn t
    cdef CompiledBoard board
    cdef object buf
    cdef bint abandoned     # MAXTURNS turns played without a winner, as simulate abandons a game

    def __init__(self, CompiledBoard board, int nplayers, seats, strategies, uint64_t seed=1,
                 bint drink_once=False, bint first_random=False):
        self.board = board
        n_init(&self.g, board, nplayers, seats, strategies, drink_once, first_random, &self.rng)
        rng_seed(&self.rng, seed)
        self._attach_log()
        n_start_game(&self.g)
        n_turn_begin(&self.g, &self.t, self.g.first)

    cdef void _attach_log(self):
        self.buf = np.zeros(EVW * 4096, dtype=np.int32)
        cdef int[::1] vb = self.buf
        self.g.ev = &vb[0]
        self.g.evcap = EVW * 4096
        self.g.nev = 0

    def copy(self):
        """An independent game in the same position (its own log, its own random numbers)."""
        cdef NapijState other = NapijState.__new__(NapijState)
        other.board = self.board
        memcpy(&other.g, &self.g, sizeof(NGame))
        memcpy(&other.t, &self.t, sizeof(Turn))
        other.abandoned = self.abandoned
        other.rng = self.rng
        other.g.rng = &other.rng
        other._attach_log()
        return other

    @property
    def phase(self):
        """0 announce-or-roll, 1 a die for the Bottle, 2 rolling, 3 moving, 5 game over (won, or
        abandoned after MAXTURNS turns as simulate abandons a game)."""
        return 5 if self.g.winner >= 0 or self.abandoned else self.t.phase

    @property
    def to_play(self):
        return self.t.player

    @property
    def dice(self):
        return [self.t.dice[i] for i in range(self.t.nd)]

    @property
    def next_die(self):
        """Index of the next die to use die by die."""
        return self.t.di

    @property
    def tries(self):
        return self.t.tries

    def state(self):
        return n_state(&self.g)

    def deck(self):
        """The cards in draw order, (kind, number), and how many are drawn."""
        return [(int(self.board.dk.kind[self.g.order[i]]), int(self.board.dk.arg[self.g.order[i]]))
                for i in range(self.board.dk.n)], self.g.top

    def events(self):
        """The log records written since the last call (EVW ints each, see EV_*)."""
        if self.g.nev + EVW > self.g.evcap:
            raise RuntimeError("the game log buffer filled up within one step; records were lost")
        out = self.buf[:self.g.nev].reshape(-1, EVW).tolist()
        self.g.nev = 0
        return out

    cdef void _next_turn(self):
        """After a finished turn: the next player's turn begins, unless the game is won or has
        run MAXTURNS turns (abandoned, as in simulate)."""
        cdef int p
        if self.t.phase != T_DONE or self.g.winner >= 0:
            return
        if self.g.turn >= MAXTURNS:
            self.abandoned = True
            return
        p = self.t.player + 1
        n_turn_begin(&self.g, &self.t, 0 if p == self.g.np else p)

    cdef void _settle(self):
        cdef Move mv[16]
        if self.t.phase == T_MOVE and n_turn_moves(&self.g, &self.t, mv) == 0:
            self.t.phase = T_DONE
        self._next_turn()

    def _check_live(self):
        if self.g.winner >= 0 or self.abandoned:
            raise ValueError("the game is over")

    def announce(self, bint bottle):
        """At the start of a turn: the roll moves the Bottle (True) or the player rolls to move."""
        self._check_live()
        if self.t.phase != T_START:
            raise ValueError("the Bottle can be announced only at the start of a turn, with the Bottle "
                             "on the board and a pawn of the player's in play")
        if bottle:
            n_announce(&self.g, &self.t)
        else:
            n_start_rolling(&self.g, &self.t)

    def roll(self, int d):
        """One die, for the Bottle or for the dice of the turn."""
        self._check_live()
        if not 1 <= d <= 6:
            raise ValueError("a die shows 1..6")
        if self.t.phase == T_START:
            raise ValueError("first say whether the roll moves the Bottle")
        if self.t.phase != T_BOTTLE and self.t.phase != T_ROLL:
            raise ValueError("the dice are rolled; a move is due")
        n_roll(&self.g, &self.t, d)
        if self.t.phase == T_DONE:
            self._next_turn()
        else:
            self._settle()

    def moves(self):
        """Legal moves now: (pawn, steps, turn-off choice, a 6 first enters/frees, by the sum,
        the field it ends on)."""
        cdef Move mv[16]
        cdef Pawn ns
        cdef int n, i, blk
        if self.g.winner >= 0 or self.abandoned or self.t.phase != T_MOVE:
            return []
        n = n_turn_moves(&self.g, &self.t, mv)
        out = []
        for i in range(n):
            n_walk(&self.g, self.t.player, mv[i].pawn, mv[i].steps, mv[i].choice, mv[i].pre6, &ns, &blk)
            out.append((mv[i].pawn, mv[i].steps, mv[i].choice, mv[i].pre6, mv[i].by_sum, ns.pos))
        return out

    cdef Move _legal(self, int pawn, int steps, int choice, bint pre6, bint by_sum) except *:
        """The legal move with these fields; ValueError if there is none."""
        cdef Move mv[16]
        cdef int n, i
        self._check_live()
        if self.t.phase != T_MOVE:
            raise ValueError("no move is due now")
        n = n_turn_moves(&self.g, &self.t, mv)
        for i in range(n):
            if (mv[i].pawn, mv[i].steps, mv[i].choice, mv[i].pre6, mv[i].by_sum) == \
                    (pawn, steps, choice, pre6, by_sum):
                return mv[i]
        raise ValueError("not a legal move now")

    cdef void _probe(self, Move* mv, targets, TargetAsk* a, int strategy, uint64_t seed, NGame* at) except *:
        """Make ``mv`` on a copy that does not log, its card targets asked (``TargetAsk``): the
        first ones are ``targets`` (pawn ids q * 4 + j); with ``strategy`` >= 0 every seat picks as
        that strategy, random numbers from ``seed``; ``at`` (if not NULL) gets the game as it stands
        when the next target is asked."""
        cdef NGame g
        cdef Turn t
        cdef Rng rng = self.rng
        cdef int i, p
        if len(targets) > 8:
            raise ValueError("more card targets than a move can draw cards")
        memset(a, 0, sizeof(TargetAsk))
        for i in range(len(targets)):
            a.forced[i] = targets[i]
        a.nforced = len(targets)
        a.at = at
        memcpy(&g, &self.g, sizeof(NGame))
        memcpy(&t, &self.t, sizeof(Turn))
        g.ev = NULL
        g.ask = a
        if strategy >= 0:
            rng_seed(&rng, seed)
            for p in range(g.np):
                g.strat[p] = strategy
        g.rng = &rng
        n_turn_move(&g, &t, mv)
        if a.bad:
            raise ValueError("not a legal card target: a capture takes a pawn of another colour on the "
                             "main loop that is not immune, a swap any pawn of another colour there")
        if a.used < a.nforced:
            raise ValueError(f"the move draws {a.used} card(s) with a choice of target, not {a.nforced}")

    def move(self, int pawn, int steps, int choice, bint pre6, bint by_sum, targets=()):
        """Make one of :meth:`moves` (ValueError if it is not among them), with ``targets`` the
        pawns (q * 4 + j) its capture and swap cards take, in the order drawn, where there are two
        or more to choose from.  Returns None when the move is made, or -- the game unchanged --
        the next target it needs: (drawing player, the card's kind C_CAPTURE or C_SWAP, [q * 4 + j,
        ...], the game's :meth:`state` as it stands when that card is drawn)."""
        cdef Move mv = self._legal(pawn, steps, choice, pre6, by_sum)
        cdef TargetAsk a
        cdef NGame at
        self._probe(&mv, targets, &a, -1, 0, &at)
        if a.asked:
            return a.who, a.kind, [a.opts[i] for i in range(a.nopts)], n_state(&at)
        a.used = 0
        self.g.ask = &a
        n_turn_move(&self.g, &self.t, &mv)
        self.g.ask = NULL
        self._settle()
        return None

    def choose_target(self, int pawn, int steps, int choice, bint pre6, bint by_sum, targets, int strategy,
                      uint64_t seed=1):
        """Strategy ``strategy``'s pick (q * 4 + j) for the card target the move needs after
        ``targets`` (as :meth:`move` asks it), None if it needs none; a random pick from ``seed``."""
        cdef Move mv = self._legal(pawn, steps, choice, pre6, by_sum)
        cdef TargetAsk a
        if not 0 <= strategy <= S_BEST:
            raise ValueError(f"unknown strategy id {strategy}")
        self._probe(&mv, targets, &a, strategy, seed, NULL)
        return a.pick if a.asked else None

    def choose(self, int strategy, uint64_t seed=1):
        """Strategy ``strategy``'s decision for the player to play: at the start of a turn whether
        it announces the Bottle (bool), while moving its next move (as in :meth:`moves`, without
        the field), None when neither is due.  Random numbers (the random strategy, and a random
        player's card target inside a look-ahead) come from ``seed``."""
        cdef Rng rng
        cdef Rng* own_rng = self.g.rng
        cdef int p = self.t.player, own = self.g.strat[p], n
        cdef Move plan[MAXDICE]
        cdef Turn t
        if not 0 <= strategy <= S_BEST:
            raise ValueError(f"unknown strategy id {strategy}")
        if self.g.winner >= 0 or self.abandoned or (self.t.phase != T_START and self.t.phase != T_MOVE):
            return None
        rng_seed(&rng, seed)
        self.g.rng = &rng
        self.g.strat[p] = strategy
        if self.t.phase == T_START:
            result = bool(n_use_bottle(&self.g, p))
        else:
            memcpy(&t, &self.t, sizeof(Turn))
            n = n_strategy_moves(&self.g, &t, plan)
            result = (plan[0].pawn, plan[0].steps, plan[0].choice, plan[0].pre6, plan[0].by_sum) if n else None
        self.g.strat[p] = own
        self.g.rng = own_rng
        return result


cdef void c_place_all(Classic* g, positions) except *:
    """Put every pawn where ``positions[p][k]`` says (codes -1 waiting, 0..39 loop, 40..43 home)."""
    cdef int p, k, r
    memset(g.occ, 0, sizeof(g.occ))
    if len(positions) != g.np or any(len(row) != 4 for row in positions):
        raise ValueError("four pawn positions per player")
    for p in range(4):
        g.home[p] = 0
        for k in range(4):
            g.pos[p][k] = -1
    for p in range(g.np):
        for k in range(4):
            r = positions[p][k]
            if not -1 <= r <= 43:
                raise ValueError("positions are -1..43")
            g.pos[p][k] = r
            if 40 <= r:
                if g.home[p] & (1 << (r - 40)):
                    raise ValueError("two pawns on one home field")
                g.home[p] |= 1 << (r - 40)
            elif r >= 0:
                if g.occ[c_abs(g, p, r)]:
                    raise ValueError("two pawns on one field")
                g.occ[c_abs(g, p, r)] = p * 4 + k + 1


cdef class ClassicTable:
    """One classic game held in C, a roll at a time: the decision API's engine side
    (:mod:`solver.clovece.classic`).  Moves, turn order and strategies are the batch loop's own
    functions (c_dest, c_roll_done, c_choose), so what a caller sees here is what the Monte Carlo
    runner plays."""

    cdef Classic g

    def __init__(self, int nplayers, seats, strategies, bint three_after_six=False, int first=0):
        _check_setup(nplayers, seats, strategies)
        if not 0 <= first < nplayers:
            raise ValueError("the first player is one of the players")
        cdef int cseats[4]
        cdef int cstrat[4]
        cdef int p
        memset(&self.g, 0, sizeof(Classic))
        for p in range(nplayers):
            cseats[p] = seats[p]
            cstrat[p] = strategies[p]
        c_setup(&self.g, nplayers, cseats, cstrat, three_after_six, 0)
        c_reset(&self.g, first)

    def set_position(self, positions, int to_play, int tries=0):
        """A hand-built position with ``to_play`` to roll; ``tries`` 0 means a turn just begun
        (three tries while nothing can move, else one)."""
        if not 0 <= to_play < self.g.np:
            raise ValueError("to_play is one of the players")
        if not 0 <= tries <= 3:
            raise ValueError("tries are 0..3")
        c_place_all(&self.g, positions)
        self.g.winner = -1
        for p in range(self.g.np):
            if self.g.home[p] == 15:
                self.g.winner = p
        self.g.to_play = to_play
        self.g.tries = tries if tries else (3 if c_stuck(&self.g, to_play) else 1)

    def copy(self):
        cdef ClassicTable other = ClassicTable.__new__(ClassicTable)
        memcpy(&other.g, &self.g, sizeof(Classic))
        return other

    @property
    def players(self):
        return self.g.np

    @property
    def to_play(self):
        return self.g.to_play

    @property
    def tries(self):
        return self.g.tries

    @property
    def turns(self):
        return self.g.turns

    @property
    def winner(self):
        return self.g.winner

    @property
    def captures(self):
        return self.g.captures

    def positions(self):
        return [[self.g.pos[p][k] for k in range(4)] for p in range(self.g.np)]

    def stuck(self, int p):
        """Nothing of player p's can move whatever the die (the three-tries condition)."""
        self._check_player(p)
        return bool(c_stuck(&self.g, p))

    def _check_player(self, int p):
        if not 0 <= p < self.g.np:
            raise ValueError("no such player")

    def dest(self, int k, int d):
        """Where pawn k of the player to play goes with die d (position code), -2 if it may not."""
        if not 0 <= k < 4 or not 1 <= d <= 6:
            raise ValueError("pawn 0..3, die 1..6")
        return c_dest(&self.g, self.g.to_play, k, d)

    def occupant(self, int k, int d):
        """The pawn (player * 4 + pawn) that moving pawn k by d would capture, or -1."""
        cdef int t = self.dest(k, d)
        return self.g.occ[c_abs(&self.g, self.g.to_play, t)] - 1 if 0 <= t < 40 else -1

    def choose(self, int d, int strategy, uint64_t seed=1):
        """The pawn strategy ``strategy`` moves with die d for the player to play (-1: none can)."""
        if not 1 <= d <= 6:
            raise ValueError("die 1..6")
        if not 0 <= strategy <= S_BEST:
            raise ValueError(f"unknown strategy id {strategy}")
        cdef Rng rng
        cdef int p = self.g.to_play, own = self.g.strat[p], k
        rng_seed(&rng, seed)
        self.g.strat[p] = strategy
        k = c_choose(&self.g, p, d, &rng)
        self.g.strat[p] = own
        return k

    def roll_done(self, int d, int k):
        """The player to play rolled d and moves pawn k (-1 only when no pawn can move)."""
        if self.g.winner >= 0:
            raise ValueError("the game is over")
        if not 1 <= d <= 6 or not -1 <= k < 4:
            raise ValueError("pawn -1..3, die 1..6")
        cdef int p = self.g.to_play, j, t = -2
        if k < 0:
            for j in range(4):
                if c_dest(&self.g, p, j, d) != -2:
                    raise ValueError(f"pawn {j} can move, so a pawn must move")
        else:
            t = c_dest(&self.g, p, k, d)
            if t == -2:
                raise ValueError(f"pawn {k} may not move {d}")
        return c_roll_done(&self.g, d, k, t)


def classic_position(int nplayers, seats, strategies, positions, int player, int die, uint64_t seed=1):
    """For a hand-built classic position: (destinations of the 4 pawns or -2, chosen pawn or -1,
    whether the player is stuck), the player's own strategy choosing."""
    table = ClassicTable(nplayers, seats, strategies)
    table.set_position(positions, player)
    return ([table.dest(k, die) for k in range(4)], table.choose(die, strategies[player], seed),
            table.stuck(player))
