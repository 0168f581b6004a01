"""Slow, plain-Python reference of the Squid Game rules, written from the rulebook
(/work/shared/rules/squid-game.cs.txt, quoted below) and knowing nothing of ext/squid.pyx.

The rules leave the players choices (which token to move, whom to push or stab, which of two tokens
a chain reaction moves on).  The engine's policies make those choices; the rules only say which
choices exist.  So each function here returns the **set of every outcome the rules allow** from a
situation, and the tests check that the engine's outcome is one of them (how the policies choose is
tested separately, on hand-built situations).  Where the rulebook is silent, the reading used here is
the one docs/squid.md documents; each is marked "reading:".
"""

from __future__ import annotations

DEF, STAB, PUSH, MOVE = 0, 1, 2, 3
NO_CARD = -1

# ----------------------------------------------------------------------------- red light
# "Každý, kdo zvolil číslo, které je na otočené kartě panenky přeškrtnuté, musí vyřadit jeden svůj
# žeton, který je nejblíže cílové čáře. Ostatní posunou všechny své žetony o zvolený počet polí.
# Žeton, který se dostal až za cílovou čáru, přežívá do další hry. Kdo zahrál kartu s číslem 0,
# neposouvá se, ale může postrčit a tím vyřadit žeton soupeře, který je na stejném poli nebo na poli
# před ním."
# A player's tokens move together, so they form one stack: pos[p] (0 = behind the start line) and
# cnt[p] tokens; done[p] counts those that crossed the finish line this round.


def red_light_outcomes(track: int, pos: list[int], cnt: list[int], cards: list[int],
                       crossed: set[int]) -> set[tuple[tuple[int, ...], ...]]:
    """Every (pos, cnt, done) the rules allow after one round.

    Readings: pushes come after all moves, in seat order; a pusher on the track (field >= 1)
    may push one token of an opponent standing on its field or the next one, or nobody; a player
    whose 0 was crossed out only loses its token.
    """
    n = len(pos)
    pos, cnt, done = list(pos), list(cnt), [0] * n
    pushers = []
    for p in range(n):
        if cards[p] == NO_CARD or cnt[p] == 0:
            continue
        if cards[p] in crossed:
            cnt[p] -= 1                              # the token nearest the line: they share a field
        elif cards[p] == 0:
            pushers.append(p)
        else:
            pos[p] += cards[p]
            if pos[p] > track:                       # over the finish line: they all survive
                done[p], cnt[p] = cnt[p], 0
    out = set()

    def push(i: int, cnt: list[int]) -> None:
        if i == len(pushers):
            out.add((tuple(pos), tuple(cnt), tuple(done)))
            return
        p = pushers[i]
        push(i + 1, cnt)                             # "může postrčit": it may also push nobody
        if cnt[p] == 0 or pos[p] < 1:
            return
        for q in range(n):
            if q != p and cnt[q] > 0 and pos[q] in (pos[p], pos[p] + 1):
                after = list(cnt)
                after[q] -= 1
                push(i + 1, after)

    push(0, cnt)
    return out


# ----------------------------------------------------------------------------- tug of war
# "Žetony z té strany mostu, která nemá na protilehlé straně žádný žeton, automaticky přežívají ...
# Žetony na té straně, která má vyšší součet, přežívají ..., žetony na protilehlé straně jsou
# vyřazeny. Je-li však mezi přiloženými kartami na obou stranách dohromady lichý počet karet s číslem
# 0, vyhrává místo toho strana s nižším součtem."

def tug_outcome(nl: int, nr: int, suml: int, sumr: int, zeros: int, tie_survive: bool) -> int:
    """Surviving sides: 1 left, 2 right, 3 both, 0 none (a tie is not in the rulebook: a parameter)."""
    if nl == 0 or nr == 0:
        return 3
    if suml == sumr:
        return 3 if tie_survive else 0
    higher = 1 if suml > sumr else 2
    return higher if zeros % 2 == 0 else 3 - higher


# ----------------------------------------------------------------------------- dalgona
# "Hráč na tahu pak postupně otáčí karty. Může kdykoliv skončit, ale musí otočit minimálně jednu
# kartu. Otočí-li kartu tvaru, může posunout jeden svůj žeton na tomto tvaru o jednu sekci dál. Nemá-li
# na něm svůj žeton, musí posunout žeton soupeře. Pokud by měl žeton opustit poslední sekci tvaru,
# přežívá do další hry. Otočí-li kartu „Křup!“, musí vyřadit jeden svůj žeton a jeho tah končí. Je-li
# to však první karta, kterou otočil, vyřadí místo svého jeden žeton soupeře."

CRACK = 4


def dalgona_outcomes(p: int, owners: list[int], shapes: list[int], sections: list[int], deck: list[int],
                     max_flips: int, shape_sections: list[int]) -> set[tuple[tuple[int, ...], ...]]:
    """Every (states, sections) after seat p flips the first ``max_flips`` cards of ``deck`` (when it
    stops is the policy's choice, given here).  States: 1 on the board, 0 out, 2 survived.

    Reading: "může posunout" -- with an own token on the shape, one of them moves (a shape card is
    always used).
    """
    out = set()

    def flip(k: int, state: tuple[int, ...], sec: tuple[int, ...]) -> None:
        if k == min(max_flips, len(deck)):
            out.add((state, sec))
            return
        card = deck[k]
        on = [t for t in range(len(owners)) if state[t] == 1]
        if card == CRACK:
            pool = [t for t in on if (owners[t] != p if k == 0 else owners[t] == p)]
            for t in pool or [None]:
                st = list(state)
                if t is not None:
                    st[t] = 0
                out.add((tuple(st), sec))            # the turn ends
            return
        mine = [t for t in on if shapes[t] == card and owners[t] == p]
        theirs = [t for t in on if shapes[t] == card and owners[t] != p]
        for t in mine or theirs or [None]:
            st, sc = list(state), list(sec)
            if t is not None:
                sc[t] += 1
                if sc[t] >= shape_sections[shapes[t]]:
                    st[t] = 2
            flip(k + 1, tuple(st), tuple(sc))

    flip(0, (1,) * len(owners), tuple(sections))
    return out


# ----------------------------------------------------------------------------- glass bridge
# "Hráči nejprve vytvoří řadu ze svých žetonů v aktivním týmu. V tomto pořadí je pak postaví před
# hranu mostu, který se připraví z tolika dílů, kolik je celkem žetonů ve hře (maximálně osm) ...
# Každý zahraje tajně jednu svoji kartu s čísly 0–4. Pak se karty odhalí a každý hráč v daném pořadí
# posune jeden svůj žeton ve frontě nebo po mostě o zahraný počet míst. Má-li se přesunout na
# neotočený díl mostu, musí si vybrat dlaždici. Je-li nepoškozená, přesune na ni žeton a pokračuje ve
# hře. Je-li prasklá, jeho žeton je vyřazen. Jsou-li na pozici, kam se chce přesunout, již dva
# žetony, nastane řetězová reakce a jeden z žetonů se musí posunout dopředu, aby mu uvolnil místo
# (vlastník posouvaného žetonu sám určí, na kterou dlaždici se přesune) ... Pokud hráč zahrál kartu
# s číslem 0, strčí do žetonu, který je na stejné pozici jako jeho žeton (tentokrát rozhoduje on,
# kam bude žeton postrčen, a může tak soupeřův žeton i vyřadit). Žeton, který se dostane až na
# druhou stranu mostu, přežívá do další hry."
# Reconstruction (docs/squid.md): parts 1..n with two tiles each; tiles[d] 0 no crack, 1 the left,
# 2 the right tile cracked; states 0 face down, 1 turned over; places <= 0 are the queue (0 first in
# line), past n is the other side.

def bridge_outcomes(tiles: list[int], states: list[int], owners: list[int], places: list[int],
                    cards: list[int]) -> set[tuple[tuple[int, ...], ...]]:
    """Every (alive, places, states) after one round, seats acting in order 0, 1, ...
    (alive: 0 out, 1 on the bridge or in the queue, 2 crossed; a token's place is not updated when
    it leaves the bridge).  Every tile choice is allowed (blind on a face-down part, and nothing
    forbids stepping on a crack one has seen).

    Readings: the queue holds any number of tokens; a 0 may push (one place on) a token of another
    player standing on the same part as one of the pusher's tokens, or nobody; in a chain reaction
    either of the two tokens already there moves on.
    """
    n = len(tiles) - 1
    out = set()
    State = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]

    def land(s: State, t: int, d: int) -> list[State]:
        alive, pl, stt = map(list, s)
        if d > n:
            alive[t] = 2
            return [(tuple(alive), tuple(pl), tuple(stt))]
        if d <= 0:
            pl[t] = d
            return [(tuple(alive), tuple(pl), tuple(stt))]
        stt[d] = 1                                   # the part is turned over
        results = []
        for tile in (1, 2):                          # the left or the right tile
            if tiles[d] == tile:
                a = list(alive)
                a[t] = 0
                results.append((tuple(a), tuple(pl), tuple(stt)))
                continue
            there = [u for u in range(len(owners)) if u != t and alive[u] == 1 and pl[u] == d]
            p2 = list(pl)
            p2[t] = d
            s2 = (tuple(alive), tuple(p2), tuple(stt))
            results += [s2] if len(there) < 2 else [r for u in there for r in land(s2, u, d + 1)]
        return results

    def act(p: int, s: State) -> None:
        if p == len(cards):
            out.add(s)
            return
        alive, pl, _ = s
        mine = [t for t in range(len(owners)) if alive[t] == 1 and owners[t] == p]
        k = cards[p]
        if k == NO_CARD or not mine:
            act(p + 1, s)
        elif k > 0:
            for t in mine:
                for r in land(s, t, pl[t] + k):
                    act(p + 1, r)
        else:
            act(p + 1, s)                            # pushing nobody
            spots = {pl[t] for t in mine if pl[t] >= 1}
            for t in range(len(owners)):
                if alive[t] == 1 and owners[t] != p and pl[t] in spots:
                    for r in land(s, t, pl[t] + 1):
                        act(p + 1, r)

    act(0, (tuple([1] * len(owners)), tuple(places), tuple(states)))
    return out


# ----------------------------------------------------------------------------- squid
# "Karty se vyhodnocují podle čísel v pořadí 1, 2, 3, 4. U hráčů se stejnými kartami začíná hráč s
# žetonem rychlosti, případně ten, který je mu po směru hodinových ručiček nejblíže: 1. Kdo zahrál
# obranu, je v bezpečí před bodnutím, ale může být strčen. 2. Kdo zahrál bodnutí, může bodnout žeton
# ve stejné zóně, který nezahrál obranu ani bodnutí ... Pokud hráč zahrál bodnutí, ale žádný jeho
# žeton nemůže nikoho bodnout, je jeden jeho žeton vyřazen ze hry. 3. Kdo zahrál strčení, může
# strčit žeton ve stejné zóně, který zahrál obranu ... 4. Kdo zahrál pohyb, může přesunout jeden svůj
# žeton do sousední zóny. Komu se podaří jako prvnímu přesunout svůj žeton do hlavy olihně, vyhrává
# ... Žeton musí projít postupně všecha pole v trojúhelníku od 1 do 8. Do hlavy olihně se lze
# přesunout pouze z pole číslo 8. • Každý žeton v trojúhelníku se ještě automaticky posune o jedno
# očíslované políčko dále. • Žeton rychlosti se předá dalšímu hráči v pořadí ..." and the safe zone:
# "Zde jsou žetony v bezpečí před útoky ostatních."

def squid_outcomes(n_players: int, owners: list[int], zones: list[int], fields: list[int], cards: list[int],
                   speed: int, adj: list[list[int]], tri: int, nfields: int, safe: int = 0) -> set[tuple]:
    """Every (alive, zones, fields, winner or -1, next speed holder) after one round.

    Readings: a stab or push that has a victim hits one (whom is the player's choice); the stabber
    without a victim loses any one of its tokens; a move is optional, takes one token outside the
    triangle to any adjacent zone (into the triangle: field 1) or a token on the last field into the
    head, which wins at once; a player whose last token is gone acts no more; when one player is
    left it wins, when none is left the one whose last token went last wins.
    """
    out = set()
    order = [(speed + i) % n_players for i in range(n_players)]
    actions = [(kind, p) for kind in (STAB, PUSH, MOVE) for p in order if cards[p] == kind]

    def tokens(alive, p):
        return [t for t in range(len(owners)) if alive[t] and owners[t] == p]

    def finish(alive, zs, fs, last_out) -> None:
        fs = list(fs)
        for t in range(len(owners)):
            if alive[t] and zs[t] == tri and fs[t] < nfields:
                fs[t] += 1
        players = [p for p in range(n_players) if tokens(alive, p)]
        if len(players) <= 1:
            out.add((alive, zs, tuple(fs), players[0] if players else last_out, speed))
            return
        nxt = next((speed + i) % n_players for i in range(1, n_players + 1)
                   if tokens(alive, (speed + i) % n_players))
        out.add((alive, zs, tuple(fs), -1, nxt))

    def kill(alive, t):
        a = list(alive)
        a[t] = 0
        return tuple(a), (owners[t] if not tokens(a, owners[t]) else None)

    def step(i: int, alive, zs, fs, last_out) -> None:
        if i == len(actions):
            finish(alive, zs, fs, last_out)
            return
        kind, p = actions[i]
        mine = tokens(alive, p)
        if not mine:
            step(i + 1, alive, zs, fs, last_out)
            return
        if kind == MOVE:
            step(i + 1, alive, zs, fs, last_out)     # "může": moving nothing
            for t in mine:
                if zs[t] == tri:
                    if fs[t] >= nfields:             # into the head: the game is won
                        out.add((alive, zs, fs, p, speed))
                    continue
                for z in range(len(adj)):
                    if adj[zs[t]][z]:
                        z2, f2 = list(zs), list(fs)
                        z2[t], f2[t] = z, (1 if z == tri else 0)
                        step(i + 1, alive, tuple(z2), tuple(f2), last_out)
            return
        spots = {zs[t] for t in mine if zs[t] != safe}
        if kind == STAB:
            victims = [t for t in range(len(owners)) if alive[t] and owners[t] != p and zs[t] in spots
                       and cards[owners[t]] not in (DEF, STAB)]
        else:
            victims = [t for t in range(len(owners)) if alive[t] and owners[t] != p and zs[t] in spots
                       and cards[owners[t]] == DEF]
        if not victims and kind == STAB:
            victims = mine                           # the stab misses: one of its own tokens is out
        if not victims:
            step(i + 1, alive, zs, fs, last_out)
        for t in victims:
            a, gone = kill(alive, t)
            step(i + 1, a, zs, fs, gone if gone is not None else last_out)

    step(0, tuple([1] * len(owners)), tuple(zones), tuple(fields), -1)
    return out
