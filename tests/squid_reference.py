"""Slow, plain-Python reference of the Squid Game resolution rules (independent of ext/squid.pyx).

It covers the deterministic parts: one red-light round, the tug-of-war bridge outcome, one
Dalgona turn with given cards, one glass-bridge round and one squid round, with the choices a
non-random seat makes (documented in docs/squid.md).  Tests compare it with the engine's test API.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DEF, STAB, PUSH, MOVE = 0, 1, 2, 3


# ----------------------------------------------------------------------------- red light

def red_light_round(track: int, pos: list[int], cnt: list[int], cards: list[int], crossed: set[int]):
    """Crossed-out numbers lose one token; the others move; then each unpunished 0 (on the track)
    removes one opponent token on its field or the next (most tokens first, then turn order)."""
    n = len(pos)
    pos, cnt, done = list(pos), list(cnt), [0] * n
    punished = [False] * n
    for p in range(n):
        if cards[p] < 0 or cnt[p] == 0:
            continue
        if cards[p] in crossed:
            cnt[p] -= 1
            punished[p] = True
        elif cards[p] > 0:
            pos[p] += cards[p]
            if pos[p] > track:
                done[p], cnt[p] = cnt[p], 0
    for p in range(n):
        if cards[p] != 0 or punished[p] or cnt[p] == 0 or pos[p] < 1:
            continue
        targets = [(p + k) % n for k in range(1, n)]
        targets = [q for q in targets if cnt[q] > 0 and pos[q] in (pos[p], pos[p] + 1)]
        if targets:
            victim = max(targets, key=lambda q: (cnt[q], -targets.index(q)))
            cnt[victim] -= 1
    return pos, cnt, done


# ----------------------------------------------------------------------------- tug of war

def tug_outcome(nl: int, nr: int, suml: int, sumr: int, zeros: int, tie_survive: bool) -> int:
    """Surviving sides: 1 left, 2 right, 3 both, 0 none."""
    if nl == 0 or nr == 0:
        return 3
    if suml == sumr:
        return 3 if tie_survive else 0
    higher = 1 if suml > sumr else 2
    lower = 3 - higher
    return higher if zeros % 2 == 0 else lower


# ----------------------------------------------------------------------------- dalgona

def dalgona_turn(p: int, owners, shapes, sections, deck, max_flips, shape_sections, n_players):
    """Seat p flips cards (4 = Crack!) until max_flips or a Crack!; returns (states, sections).
    Ties between equally advanced tokens go to the owner nearest clockwise after p."""
    state = [1] * len(owners)
    sec = list(sections)
    on = [t for t in range(len(owners))]

    def rel(t: int) -> int:
        return (owners[t] - p) % n_players

    def board(mine: bool, shape: int | None):
        return [t for t in on if state[t] == 1 and (owners[t] == p) == mine
                and (shape is None or shapes[t] == shape)]

    for k, card in enumerate(deck[:max_flips]):
        if card == 4:
            pool = board(False, None) if k == 0 else board(True, None)
            if pool:
                if k == 0:
                    victim = max(pool, key=lambda t: (sec[t], -rel(t), -t))
                else:
                    victim = min(pool, key=lambda t: (sec[t], t))
                state[victim] = 0
            break
        mine = board(True, card)
        if mine:
            t = max(mine, key=lambda t: (sec[t], -t))
        else:
            theirs = board(False, card)
            t = min(theirs, key=lambda t: (sec[t], rel(t), t)) if theirs else None
        if t is not None:
            sec[t] += 1
            if sec[t] >= shape_sections[shapes[t]]:
                state[t] = 2
    return state, sec


# ----------------------------------------------------------------------------- glass bridge

@dataclass
class BridgeState:
    tiles: list[int]            # index 1..n: 1 cracked
    states: list[int]           # 0 face down, 1 intact, 2 broken
    owners: list[int]
    places: list[int]
    n_players: int = 6
    alive: list[int] = field(default_factory=list)   # 0 out, 1 in play, 2 crossed
    arrival: list[int] = field(default_factory=list)
    clock: int = 0

    def __post_init__(self) -> None:
        self.alive = [1] * len(self.owners)
        self.arrival = list(range(len(self.owners)))
        self.clock = len(self.owners)

    @property
    def n(self) -> int:
        return len(self.tiles) - 1

    def value(self, d: int) -> int:
        if d > self.n:
            return 3
        return {1: 2, 0: 1, 2: 0}[self.states[d]]

    def land(self, t: int, d: int) -> None:
        if d > self.n:
            self.alive[t] = 2
            return
        if self.states[d] == 2:
            self.alive[t] = 0
            return
        if self.states[d] == 0:
            if self.tiles[d]:
                self.states[d] = 2
                self.alive[t] = 0
                return
            self.states[d] = 1
        others = [u for u in range(len(self.owners)) if u != t and self.alive[u] == 1 and self.places[u] == d]
        self.places[t] = d
        self.arrival[t] = self.clock
        self.clock += 1
        if len(others) >= 2:
            bumped = min(others, key=lambda u: self.arrival[u])
            self.land(bumped, d + 1)

    def move(self, p: int, k: int, bold: bool = False) -> None:
        """Seat p's move with card k as a careful (or bold) seat makes it."""
        mine = [t for t in range(len(self.owners)) if self.alive[t] == 1 and self.owners[t] == p]
        if k > 0:
            if not mine:
                return

            def score(t: int) -> tuple[int, int, int]:
                v = self.value(self.places[t] + k)
                if bold and v > 0:
                    v = 1
                return (v, self.places[t], -t)

            t = max(mine, key=score)
            self.land(t, self.places[t] + k)
            return
        my_places = {self.places[t] for t in mine}
        targets = [t for t in range(len(self.owners)) if self.alive[t] == 1 and self.owners[t] != p
                   and self.places[t] >= 1 and self.places[t] in my_places]
        targets = [t for t in targets if self.value(self.places[t] + 1) < 2]
        if targets:
            n = self.n_players
            t = min(targets, key=lambda t: (self.value(self.places[t] + 1), (self.owners[t] - p) % n, t))
            self.land(t, self.places[t] + 1)


def bridge_round(tiles, states, owners, places, cards, bold=None):
    """One round, seats moving in order 0, 1, ... (cards[p] = -1: no card)."""
    b = BridgeState(list(tiles), list(states), list(owners), list(places), len(cards))
    for p, k in enumerate(cards):
        has = any(b.alive[t] == 1 and b.owners[t] == p for t in range(len(owners)))
        if k >= 0 and has:
            b.move(p, k, bool(bold and bold[p]))
    return b.alive, b.places, b.states


# ----------------------------------------------------------------------------- squid

def squid_round(n_players, owners, zones, fields, cards, speed, adj, dist, tri, nfields):
    """One round with careful/bold/equilibrium choices (deterministic); returns
    (alive, zones, fields, winner or -1, next speed holder)."""
    alive = [1] * len(owners)
    zones, fields = list(zones), list(fields)
    ntok = [sum(1 for o in owners if o == p) for p in range(n_players)]
    last_out = -1

    def progress(t: int) -> int:
        return 100 + fields[t] if zones[t] == tri else 50 - dist[zones[t]]

    def kill(t: int) -> None:
        nonlocal last_out
        alive[t] = 0
        ntok[owners[t]] -= 1
        if ntok[owners[t]] == 0:
            last_out = owners[t]

    order = [(speed + i) % n_players for i in range(n_players)]
    for kind in (STAB, PUSH, MOVE):
        for p in order:
            if cards[p] != kind or ntok[p] == 0:
                continue
            mine = [t for t in range(len(owners)) if alive[t] and owners[t] == p]
            if kind == MOVE:
                head = [t for t in mine if zones[t] == tri and fields[t] >= nfields]
                if head:
                    return alive, zones, fields, p, speed
                best = None
                for t in mine:
                    if zones[t] == tri:
                        continue
                    for z in range(len(adj)):
                        if adj[zones[t]][z] and dist[z] < dist[zones[t]]:
                            if best is None or progress(t) > progress(best[0]):
                                best = (t, z)
                if best:
                    t, z = best
                    zones[t] = z
                    fields[t] = 1 if z == tri else 0
                continue
            my_zones = {zones[t] for t in mine if zones[t] != 0}
            if kind == STAB:
                victims = [t for t in range(len(owners)) if alive[t] and owners[t] != p
                           and zones[t] in my_zones and cards[owners[t]] not in (DEF, STAB)]
            else:
                victims = [t for t in range(len(owners)) if alive[t] and owners[t] != p
                           and zones[t] in my_zones and cards[owners[t]] == DEF]
            if victims:
                kill(max(victims, key=lambda t: (progress(t), -((owners[t] - p) % n_players), -t)))
            elif kind == STAB and mine:
                kill(min(mine, key=lambda t: (progress(t), t)))
    for t in range(len(owners)):
        if alive[t] and zones[t] == tri and fields[t] < nfields:
            fields[t] += 1
    players = [p for p in range(n_players) if ntok[p] > 0]
    if len(players) <= 1:
        return alive, zones, fields, (players[0] if players else last_out), speed
    nxt = next((speed + i) % n_players for i in range(1, n_players + 1) if ntok[(speed + i) % n_players] > 0)
    return alive, zones, fields, -1, nxt
