"""Check a Squid Game log (see :mod:`solver.squid.play`) against every rule.

Written from the rulebook (``squid-game.cs.txt``) and the readings docs/squid.md documents ("The
model"), not from the engine: plain Python tokens, re-deriving from the decisions in the log (the
secret cards, where a token is placed, which token moves, whom a 0 or a stab hits, which tile a
player steps on, when a Dalgona player stops) and from the chance it records (the doll card, the
Dalgona cards, the cracks of the bridge, the marble throws) every consequence -- tokens moved,
crossed out, pushed, stabbed, through or out of time, the survivors of each sub-game, the reserve
token joining the next, the winner -- and comparing it, event by event, with what the log says.  A
decision is checked for being allowed (a card still in the hand, a token that may move there, a
victim in reach); chance for being possible (a doll card not yet turned in this pass, a Dalgona card
still in the deck, as many cracked parts as the box can give).  The first broken rule is reported
as ``line N: ...`` (a :class:`SolverError`, so the command exits with status 2).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.errors import SolverError
from solver.gamelog import Broken, Cursor, line_error, parse_lines, read_lines
from solver.squid.params import SHAPES, SUBGAMES, Params, default_params, validate, zone_distances

VERSION = 1
# a policy of the engine, or "human": the seat's decisions came from outside (solver.squid.decisions)
STRATEGIES = ("random", "careful", "bold", "equilibrium", "human")
SIDES = ("left", "right")
SQUID_CARDS = ("defence", "stab", "push", "move")
HOW = ("head", "last_survivor", "round_cap")

Tok = tuple[int, int]     # (player, k): the k-th token of the player in the current sub-game


@dataclass
class ReplaySummary:
    players: int
    lines: int
    winner: int
    how: str


def _int(v: Any, what: str, low: int, high: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise Broken(f"{what} must be an integer {low}..{high}, the log has {v!r}")
    return v


class Feed:
    """The log's lines in order; each sub-game asks for its next line and walks its events."""

    def __init__(self, objs: list[tuple[int, dict[str, Any]]]) -> None:
        self.objs = objs
        self.i = 1
        self.no = objs[0][0]
        self.cur: Cursor | None = None

    def close(self) -> None:
        if self.cur is not None:
            self.cur.done()
            self.cur = None

    def line(self, subgame: str, rnd: int) -> Cursor:
        """Close the current line; the next one must be round ``rnd`` of ``subgame``."""
        self.close()
        if self.i >= len(self.objs):
            raise Broken(f"the log ends early: {subgame} round {rnd} is missing")
        self.no, obj = self.objs[self.i]
        self.i += 1
        if obj.get("subgame") != subgame or obj.get("round") != rnd:
            where = (f"{obj.get('subgame')} round {obj.get('round')}" if "subgame" in obj
                     else "a result line" if "result" in obj else "an unknown line")
            raise Broken(f"the rules give {subgame} round {rnd} next, the log has {where}")
        self.cur = Cursor(obj.get("events"))
        return self.cur


class Game:
    """The state between sub-games and the six sub-game checkers."""

    def __init__(self, players: int, params: Params, feed: Feed) -> None:
        self.n = players
        self.prm = params
        self.feed = feed
        self.active = [7] * players
        self.reserve = [5] * players
        self.winner = -1
        self.how = ""

    @property
    def cur(self) -> Cursor:
        assert self.feed.cur is not None
        return self.feed.cur

    def order(self, first: int) -> list[int]:
        """Clockwise (increasing seat) from ``first``."""
        return [(first + i) % self.n for i in range(self.n)]

    def player(self, e: dict[str, Any], key: str) -> int:
        return _int(e.get(key), f"{key!r}", 0, self.n - 1)

    def token(self, e: dict[str, Any], key: str, tokens: dict[Tok, Any]) -> Tok:
        v = e.get(key)
        if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v)) or tuple(v) not in tokens:
            raise Broken(f"event {self.cur.i}: {key!r} must name a token [player, k] of this sub-game, "
                         f"the log has {v!r}")
        return (v[0], v[1])

    # ------------------------------------------------------------------------- the whole game

    def play(self) -> None:
        for k, name in enumerate(SUBGAMES):
            if k > 0:   # "na začátku každé další si každý hráč přidá ... jeden žeton ze zásoby"
                for p in range(self.n):
                    if self.reserve[p]:
                        self.reserve[p] -= 1
                        self.active[p] += 1
            cur = self.feed.line(name, 0)
            cur.emit({"tokens": list(self.active)})
            # the starting player: fewest tokens, ties to the highest token number (the lowest seat)
            start = min(range(self.n), key=lambda p: (self.active[p], p))
            cur.emit({"start": start})
            survivors = getattr(self, name)(start)
            self.cur.emit({"survivors": survivors})
            self.active = survivors
        self.feed.close()

    # ------------------------------------------------------------------------- 1 red light

    def red_light(self, start: int) -> list[int]:
        """Stacks on the track (field 0 behind the start line); secret cards 0-4, the doll card
        crosses numbers out, the others move, then unpunished 0s may push (in turn order)."""
        rl = self.prm["red_light"]
        doll = [sorted(c) for c in rl["doll_cards"]]
        pos, cnt, done = [0] * self.n, list(self.active), [0] * self.n
        seen: set[int] = set()
        timer = rnd = 0
        while any(cnt):
            rnd += 1
            cur = self.feed.line("red_light", rnd)
            cards = self.cards(cur, [c > 0 for c in cnt], lambda p, c: _int(c, f"player {p}'s card", 0, 4))
            # (the number cards return to the hand every round: "Použité karty si hráči ... vezmou zpátky")
            e = cur.take("doll", "the doll card")
            i = _int(e["doll"], "the doll card", 0, len(doll) - 1)
            if i in seen:
                raise Broken(f"event {cur.i}: doll card {i} was already turned since the last shuffle")
            seen.add(i)
            cur.i -= 1
            cur.emit({"doll": i, "crossed": doll[i]})
            crossed = [False] * self.n
            for p in self.order(start):
                if cards[p] is None:
                    continue
                if cards[p] in doll[i]:          # "musí vyřadit jeden svůj žeton ... nejblíže cílové čáře"
                    cnt[p] -= 1
                    crossed[p] = True
                    cur.emit({"crossed_out": p})
                elif cards[p] > 0:
                    pos[p] += cards[p]
                    if pos[p] > rl["track_length"]:   # "za cílovou čáru, přežívá"
                        cur.emit({"through": p, "tokens": cnt[p]})
                        done[p] += cnt[p]
                        cnt[p] = 0
                    else:
                        cur.emit({"stack": p, "to": pos[p]})
            for p in self.order(start):          # "může postrčit ... na stejném poli nebo na poli před ním"
                e = cur.peek("push")
                if e is None or e["push"] != p:
                    continue
                if cards[p] != 0 or crossed[p] or cnt[p] == 0 or pos[p] < 1:
                    raise Broken(f"event {cur.i + 1}: player {p} cannot push (it needs an unpunished 0 "
                                 "and tokens on the track)")
                q = self.player(e, "out")
                if q == p or cnt[q] == 0 or pos[q] not in (pos[p], pos[p] + 1):
                    raise Broken(f"event {cur.i + 1}: player {p} on field {pos[p]} cannot push player {q}")
                cur.i += 1
                cnt[q] -= 1
            if cur.peek("push"):
                raise Broken(f"event {cur.i + 1}: a push out of turn order or by a player who cannot push")
            if len(seen) == len(doll):           # "balíček ... prázdný, zamíchá se, časomíra se posune"
                seen = set()
                timer += 1
                cur.emit({"timer": timer})
                if timer >= rl["timer_steps"]:
                    break
        for p in range(self.n):
            if cnt[p]:
                self.cur.emit({"timeout": p, "tokens": cnt[p]})
        return done

    def cards(self, cur: Cursor, playing: list[bool], check) -> list[Any]:
        """The revealed secret cards: one per player still in the sub-game, null for the others."""
        e = cur.take("cards", "the revealed cards")
        cards = e["cards"]
        if not isinstance(cards, list) or len(cards) != self.n:
            raise Broken(f"event {cur.i}: 'cards' must list one card (or null) per player")
        for p, c in enumerate(cards):
            if playing[p] and c is None:
                raise Broken(f"event {cur.i}: player {p} has tokens in play and must play a card")
            if not playing[p] and c is not None:
                raise Broken(f"event {cur.i}: player {p} has no token in play and plays no card")
            if c is not None:
                try:
                    check(p, c)
                except Broken as exc:
                    raise Broken(f"event {cur.i}: {exc}") from None
        return cards

    # ------------------------------------------------------------------------- 2 Dalgona

    def dalgona(self, start: int) -> list[int]:
        """Tokens on the first section of any shape; in turn, a player with tokens on the shapes
        flips cards from the freshly shuffled deck (at least one, then may stop); a shape card moves
        its own token on that shape (else an opponent's), Crack! eliminates an opponent's token as the
        first card, its own token later, and ends the turn; the timer advances after each round."""
        dg = self.prm["dalgona"]
        deck = Counter({**{s: dg["shape_cards"][s] for s in SHAPES}, "crack": dg["crack_cards"]})
        cur = self.cur
        tok: dict[Tok, list[Any]] = {}   # token -> [shape, section, state 'on' / 'through' / 'out']
        for _ in range(sum(self.active)):
            e = cur.take("place", "a token placed on a shape")
            v = e["place"]
            if not (isinstance(v, list) and len(v) == 2 and v[0] in range(self.n)
                    and v[1] in range(self.active[v[0]]) and tuple(v) not in tok):
                raise Broken(f"event {cur.i}: {v!r} is not an unplaced token [player, k]")
            if e.get("shape") not in SHAPES:
                raise Broken(f"event {cur.i}: shape must be one of {', '.join(SHAPES)}")
            tok[(v[0], v[1])] = [e["shape"], 0, "on"]

        def on(p: int | None = None, shape: str | None = None, mine: bool = True) -> list[Tok]:
            return [t for t, (s, _, st) in sorted(tok.items()) if st == "on"
                    and (p is None or (t[0] == p) == mine) and (shape is None or s == shape)]

        for rnd in range(1, dg["timer_steps"] + 1):
            cur = self.feed.line("dalgona", rnd)
            for p in self.order(start):
                if not on(p):                    # nothing left on the shapes: no turn
                    continue
                cur.emit({"turn": p})
                left = Counter(deck)             # "zamíchá balíček karet"
                flips = 0
                while cur.peek("flip"):
                    card = cur.take("flip", "a card")["flip"]
                    if left[card] <= 0:
                        raise Broken(f"event {cur.i}: no {card!r} card is left in the deck")
                    left[card] -= 1
                    flips += 1
                    if card == "crack":          # "Křup!": own token out, the first card: an opponent's
                        victims = on(p, mine=flips > 1)
                        if victims:
                            t = self.token(cur.take("out", "the token the Crack! eliminates"), "out", tok)
                            if t not in victims:
                                raise Broken(f"event {cur.i}: the Crack! takes "
                                             f"{'an own' if flips > 1 else 'an opponent'} token on a shape")
                            tok[t][2] = "out"
                        break
                    victims = on(p, card) or on(p, card, mine=False)   # own token, else an opponent's
                    if victims:
                        e = cur.peek("advance") or cur.peek("through")
                        if e is None:
                            raise Broken(f"event {cur.i + 1}: a {card} card moves a token on the {card}")
                        t = self.token(e, "advance" if "advance" in e else "through", tok)
                        if t not in victims:
                            raise Broken(f"event {cur.i + 1}: the {card} card must move "
                                         f"{'one of the own tokens' if on(p, card) else 'a token'} on the {card}")
                        tok[t][1] += 1
                        if tok[t][1] >= dg["sections"][card]:
                            tok[t][2] = "through"
                            cur.emit({"through": list(t)})
                        else:
                            cur.emit({"advance": list(t), "section": tok[t][1]})
                if flips == 0:
                    raise Broken(f"event {cur.i + 1}: player {p} must flip at least one card")
            cur.emit({"timer": rnd})
            if not on():
                break
        for t in on():
            self.cur.emit({"timeout": list(t)})
        return [sum(1 for t, v in tok.items() if t[0] == p and v[2] == "through") for p in range(self.n)]

    # ------------------------------------------------------------------------- 3 tug of war

    def tug_of_war(self, start: int) -> list[int]:
        """One token at a time in turn order onto a side of three bridges (never two ahead of the
        other side, at most side_capacity); unplaceable tokens are out.  A card per contested token,
        each card once; the higher sum survives, the lower with an odd number of 0s on the bridge."""
        tug = self.prm["tug_of_war"]
        cur = self.cur
        cnt = [[0, 0] for _ in range(3)]
        own = [[[0] * self.n for _ in range(2)] for _ in range(3)]
        unplaced = list(self.active)
        while any(unplaced):
            for p in self.order(start):
                if not unplaced[p]:
                    continue
                spots = [(b, s) for b in range(3) for s in range(2)
                         if cnt[b][s] < tug["side_capacity"] and cnt[b][s] - cnt[b][1 - s] < 1]
                if not spots:                    # "Žetony, na které na mostě nezbyde místo, jsou vyřazeny"
                    for q in range(self.n):
                        if unplaced[q]:
                            cur.emit({"no_room": q, "tokens": unplaced[q]})
                    unplaced = [0] * self.n
                    break
                e = cur.take("place", f"player {p} placing a token")
                if e["place"] != p:
                    raise Broken(f"event {cur.i}: player {p} places next, the log has {e['place']!r}")
                b, s = e.get("bridge"), SIDES.index(e["side"]) if e.get("side") in SIDES else -1
                if (b, s) not in spots:
                    raise Broken(f"event {cur.i}: bridge {b!r} {e.get('side')!r} is full, unknown or two ahead")
                cnt[b][s] += 1
                own[b][s][p] += 1
                unplaced[p] -= 1
        cur = self.feed.line("tug_of_war", 1)
        laid = [[[] for _ in range(2)] for _ in range(3)]
        used: list[set[int]] = [set() for _ in range(self.n)]
        per_side = Counter()
        while cur.peek("card"):
            e = cur.take("card", "a card")
            p = self.player(e, "card")
            b = _int(e.get("bridge"), "bridge", 0, 2)
            s = SIDES.index(e["side"]) if e.get("side") in SIDES else -1
            v = _int(e.get("value"), "card value", 0, 4)
            if s < 0 or not own[b][s][p] or not cnt[b][1 - s]:
                raise Broken(f"event {cur.i}: player {p} has no contested token on bridge {b} {e.get('side')}")
            if v in used[p]:
                raise Broken(f"event {cur.i}: player {p} has already laid its card {v}")
            per_side[(p, b, s)] += 1
            if per_side[(p, b, s)] > own[b][s][p]:
                raise Broken(f"event {cur.i}: player {p} lays more cards than tokens on bridge {b} {SIDES[s]}")
            used[p].add(v)
            laid[b][s].append(v)
        for p in range(self.n):
            contested = sum(own[b][s][p] for b in range(3) for s in range(2) if cnt[b][1 - s])
            if len(used[p]) != min(contested, 5):
                raise Broken(f"player {p} has {contested} contested token(s) and must lay {min(contested, 5)} "
                             f"card(s), the log has {len(used[p])}")
        survivors = [0] * self.n
        for b in range(3):
            sums = [sum(laid[b][0]), sum(laid[b][1])]
            zeros = laid[b][0].count(0) + laid[b][1].count(0)
            if not cnt[b][0] or not cnt[b][1]:   # "nemá na protilehlé straně žádný žeton ... přežívají"
                alive = [0, 1]
            elif sums[0] == sums[1]:
                alive = [0, 1] if tug["tie"] == "both_survive" else []
            else:
                high = 0 if sums[0] > sums[1] else 1
                alive = [high if zeros % 2 == 0 else 1 - high]   # odd number of 0s: the lower sum wins
            cur.emit({"bridge": b, "sums": sums, "survive": [SIDES[s] for s in alive]})
            for s in alive:
                for p in range(self.n):
                    survivors[p] += own[b][s][p]
        return survivors

    # ------------------------------------------------------------------------- 4 marbles

    def marbles(self, start: int) -> list[int]:
        """Pairs formed one token at a time in turn order (join an open pair or open one); leftover
        open pairs join each other, an odd one survives, an own pair keeps one token; then in turn
        each player plays one of its pairs: odd/even or the line."""
        cur = self.cur
        pairs: list[list[int | None]] = []
        unplaced = list(self.active)
        while any(unplaced):
            for p in self.order(start):
                if not unplaced[p]:
                    continue
                e = cur.take("pair", f"player {p} putting a token into a pair")
                if e.get("token") != p:
                    raise Broken(f"event {cur.i}: player {p} places next, the log has {e.get('token')!r}")
                k = e["pair"]
                if k == len(pairs):
                    pairs.append([p, None])
                elif isinstance(k, int) and 0 <= k < len(pairs) and pairs[k][1] is None:
                    pairs[k][1] = p
                else:
                    raise Broken(f"event {cur.i}: pair {k!r} is neither open nor the next new pair")
                unplaced[p] -= 1
        survivors = [0] * self.n
        resolved = [False] * len(pairs)
        j = None
        for k, pair in enumerate(pairs):         # leftover open pairs are joined with each other
            if pair[1] is None:
                if j is None:
                    j = k
                else:
                    cur.emit({"leftover": k, "joins": j})
                    pairs[j][1] = pair[0]
                    resolved[k] = True
                    j = None
        if j is not None:                        # "Zbyde-li lichý žeton, automaticky přežívá"
            cur.emit({"odd": pairs[j][0]})
            survivors[pairs[j][0]] += 1
            resolved[j] = True
        for k, (a, b) in enumerate(pairs):       # "dvojici ... stejného hráče ... jeden žeton přežívá"
            if not resolved[k] and a == b:
                cur.emit({"own_pair": k, "player": a})
                survivors[a] += 1
                resolved[k] = True
        i = rnd = 0
        while not all(resolved):
            p = (start + i) % self.n
            i += 1
            mine = [k for k, pair in enumerate(pairs) if not resolved[k] and p in pair]
            if not mine:
                continue
            rnd += 1
            cur = self.feed.line("marbles", rnd)
            e = cur.take("duel", f"player {p} choosing a pair")
            k = e["duel"]
            if e.get("by") != p or k not in mine:
                raise Broken(f"event {cur.i}: player {p} is on turn and plays one of its pairs {mine}")
            q = pairs[k][1] if pairs[k][0] == p else pairs[k][0]
            if e.get("against") != q:
                raise Broken(f"event {cur.i}: pair {k} is player {p} against player {q}")
            out = self.duel(cur, p, q)
            for loser in (p, q):
                if loser in out:
                    cur.emit({"out": loser})
                else:
                    survivors[loser] += 1
            resolved[k] = True
        return survivors

    def duel(self, cur: Cursor, p: int, q: int) -> set[int]:
        """The losers of one duel of player p (on turn) against q."""
        if cur.peek("odd_even"):                 # p hides 1 or 2 marbles, q guesses the parity
            e = cur.take("odd_even", "")
            hidden = _int(e["odd_even"], "the hidden marbles", 1, 2)
            if e.get("guess") not in ("odd", "even"):
                raise Broken(f"event {cur.i}: the guess is 'odd' or 'even'")
            return {p} if (hidden % 2 == 1) == (e["guess"] == "odd") else {q}
        throws = []
        for who in (q, p):                       # "Nejprve druhý hráč a po něm hráč na tahu hodí"
            e = cur.take("throw", f"player {who}'s throw")
            d = e.get("distance")
            if (e["throw"] != who or not isinstance(e.get("off"), bool) or isinstance(d, bool)
                    or not isinstance(d, int | float) or not 0 <= d <= 1 or math.isnan(d)):
                raise Broken(f"event {cur.i}: player {who} throws now: off (true/false) and a distance 0..1")
            throws.append(e)
        off = {who for who, e in zip((q, p), throws, strict=True) if e["off"]}
        if off:                                  # "Spadne-li kulička ze stolu, žeton ... vyřazen"
            return off
        return {p} if throws[1]["distance"] > throws[0]["distance"] else {q}

    # ------------------------------------------------------------------------- 5 glass bridge

    def glass_bridge(self, start: int) -> list[int]:
        """As many parts (two tiles each) as tokens in play, at most max_tiles; the queue in turn
        order; cards 0-4 not returned until all five are played; a card moves one own token that
        many places, a 0 may push an opponent's token sharing a part one place on; a token landing on
        a part takes the tile its chooser picks, a third token on a part moves the earliest on."""
        br = self.prm["glass_bridge"]
        cur = self.cur
        n = min(sum(self.active), br["max_tiles"])
        crack: dict[int, str | None] = {}
        for d in range(1, n + 1):
            e = cur.take("part", f"part {d} of the bridge")
            if e["part"] != d or e.get("crack") not in (None, *SIDES):
                raise Broken(f"event {cur.i}: part {d} next, with crack null, 'left' or 'right'")
            crack[d] = e["crack"]
        cracked = sum(c is not None for c in crack.values())
        low, high = max(0, br["cracked"] - (br["tiles"] - n)), min(br["cracked"], n)
        if not low <= cracked <= high:
            raise Broken(f"{n} parts drawn from {br['tiles']} with {br['cracked']} cracked hold {low}..{high} "
                         f"cracked parts, the log has {cracked}")
        place: dict[Tok, int] = {}
        for k in range(12):                      # "vytvoří řadu ... V tomto pořadí je pak postaví"
            for p in self.order(start):
                if k < self.active[p]:
                    cur.emit({"queue": [p, k], "place": -len(place)})
                    place[(p, k)] = -len(place)
        state = dict.fromkeys(place, "in")       # in play, through, out
        turned: set[int] = set()
        arrival: dict[Tok, int] = {}
        clock = [0]

        def playing(p: int) -> bool:
            return any(t[0] == p and s == "in" for t, s in state.items())

        def land(t: Tok, d: int, chooser: int) -> None:
            while True:
                if d > n:                        # "na druhou stranu mostu, přežívá"
                    state[t] = "through"
                    cur.emit({"through": list(t)})
                    return
                if d <= 0:                       # still in the queue
                    place[t] = d
                    cur.emit({"at": list(t), "place": d})
                    return
                e = cur.take("tile", f"the tile {list(t)} steps on")
                if e.get("token") != list(t) or e.get("part") != d or e.get("by") != chooser or e["tile"] not in SIDES:
                    raise Broken(f"event {cur.i}: the rules give {list(t)} onto part {d}, the tile chosen by "
                                 f"player {chooser} ('left' or 'right')")
                if d not in turned:
                    turned.add(d)
                    cur.emit({"turned": d, "crack": crack[d]})
                if e["tile"] == crack[d]:        # "Je-li prasklá, jeho žeton je vyřazen"
                    state[t] = "out"
                    cur.emit({"out": list(t), "part": d})
                    return
                others = [u for u, s in state.items() if s == "in" and u != t and place[u] == d]
                place[t] = d
                arrival[t] = clock[0]
                clock[0] += 1
                cur.emit({"at": list(t), "place": d})
                if len(others) < 2:
                    return
                t = min(others, key=arrival.__getitem__)   # chain reaction: the earliest moves on
                cur.emit({"chain": list(t)})
                d += 1
                chooser = t[0]                   # "vlastník posouvaného žetonu sám určí"

        hands = [set(range(5)) for _ in range(self.n)]
        rnd = timer = 0
        while any(s == "in" for s in state.values()):
            rnd += 1
            cur = self.feed.line("glass_bridge", rnd)
            cards = self.cards(cur, [playing(p) for p in range(self.n)], lambda p, c: _int(c, "a card", 0, 4))
            for p, c in enumerate(cards):       # "Zahrané karty se tentokrát do ruky nevrací"
                if c is not None and c not in hands[p]:
                    raise Broken(f"event {cur.i}: player {p} has already played its {c} (hand {sorted(hands[p])})")
                hands[p].discard(c)
            for p in self.order(start):
                if cards[p] is None or not playing(p):
                    continue
                if cards[p] > 0:                 # "posune jeden svůj žeton ve frontě nebo po mostě"
                    e = cur.take("move", f"player {p} moving a token {cards[p]}")
                    t = self.token(e, "move", state)
                    if t[0] != p or state[t] != "in" or e.get("card") != cards[p]:
                        raise Broken(f"event {cur.i}: player {p} moves one of its tokens in play by {cards[p]}")
                    land(t, place[t] + cards[p], p)
                    continue
                e = cur.peek("push")             # a 0 pushes a token on the same part; the pusher picks
                if e is None or e.get("by") != p:
                    continue
                t = self.token(e, "push", state)
                cur.i += 1
                if (t[0] == p or state[t] != "in" or place[t] < 1 or
                        not any(u[0] == p and s == "in" and place[u] == place[t] for u, s in state.items())):
                    raise Broken(f"event {cur.i}: player {p} can push only an opponent's token on a part "
                                 "where it has a token")
                land(t, place[t] + 1, p)
            if rnd % 5 == 0:                     # "až všichni hráči vyčerpají své karty ... časomíra se posune"
                hands = [set(range(5)) for _ in range(self.n)]
                timer += 1
                cur.emit({"timer": timer})
                if timer >= br["timer_steps"]:
                    break
        for t, s in state.items():
            if s == "in":
                self.cur.emit({"timeout": list(t)})
        return [sum(1 for t, s in state.items() if t[0] == p and s == "through") for p in range(self.n)]

    # ------------------------------------------------------------------------- 6 squid

    @staticmethod
    def squid_card(p: int, c: Any) -> None:
        if c not in SQUID_CARDS:
            raise Broken(f"player {p}'s card must be one of {', '.join(SQUID_CARDS)}, the log has {c!r}")

    def squid(self, start: int) -> list[int]:
        """One token in the start zone, the rest in the safe zone; the fewest tokens take the speed
        token.  Each round: secret cards; stabs, pushes, moves, each from the speed token clockwise;
        the triangle advances; the speed token passes on.  First into the head, or the last player
        with tokens, wins."""
        sq = self.prm["squid"]
        zones, fields = sq["zones"], sq["triangle_fields"]
        adjacent = {z: set() for z in zones}
        for a, b in sq["adjacent"]:
            adjacent[a].add(b)
            adjacent[b].add(a)
        dist = zone_distances(self.prm)
        cur = self.cur
        zone: dict[Tok, str] = {}
        field: dict[Tok, int] = {}
        for p in range(self.n):
            for k in range(self.active[p]):
                zone[(p, k)] = sq["start"] if k == 0 else "safe"
                field[(p, k)] = 0
        alive = set(zone)
        speed = start                            # the fewest tokens, ties: the highest token number
        cur.emit({"speed": speed})
        last_out = -1

        def count(p: int) -> int:
            return sum(1 for t in alive if t[0] == p)

        def kill(t: Tok) -> None:
            nonlocal last_out
            alive.discard(t)
            if not count(t[0]):
                last_out = t[0]

        def reach(p: int, cards: list[Any], ok: tuple[str, ...]) -> list[Tok]:
            spots = {zone[t] for t in alive if t[0] == p and zone[t] != "safe"}
            return [t for t in alive if t[0] != p and zone[t] in spots and cards[t[0]] in ok]

        for rnd in range(1, sq["max_rounds"] + 1):
            cur = self.feed.line("squid", rnd)
            cards = self.cards(cur, [count(p) > 0 for p in range(self.n)], self.squid_card)
            for kind in ("stab", "push", "move"):   # "v pořadí 1, 2, 3, 4 ... začíná hráč s žetonem rychlosti"
                for p in self.order(speed):
                    if cards[p] != kind or not count(p):
                        continue
                    if kind == "move":
                        e = cur.peek("move") or cur.peek("head")
                        if e is None:
                            continue
                        key = "move" if "move" in e else "head"
                        t = self.token(e, key, zone)
                        if t[0] != p:
                            continue             # p does not move; the event is someone else's
                        cur.i += 1
                        if t not in alive:
                            raise Broken(f"event {cur.i}: {list(t)} is no longer in play")
                        if key == "head":        # "Do hlavy olihně se lze přesunout pouze z pole číslo 8"
                            if zone[t] != "triangle" or field[t] < fields:
                                raise Broken(f"event {cur.i}: only a token on triangle field {fields} can "
                                             "enter the head")
                            cur.emit({"win": p, "how": "head"})
                            self.winner, self.how = p, "head"
                            return [count(q) for q in range(self.n)]
                        if e.get("to") not in adjacent[zone[t]]:
                            raise Broken(f"event {cur.i}: {list(t)} in the {zone[t]} cannot move to "
                                         f"{e.get('to')!r} (adjacent: {', '.join(sorted(adjacent[zone[t]]))})")
                        zone[t] = e["to"]
                        field[t] = 1 if zone[t] == "triangle" else 0
                        continue
                    ok = ("push", "move") if kind == "stab" else ("defence",)
                    victims = reach(p, cards, ok)
                    if victims:                  # a stab or push that has a victim hits one
                        t = self.token(cur.take(kind, f"player {p}'s {kind}"), kind, zone)
                        if cur.events[cur.i - 1].get("by") != p or t not in victims:
                            raise Broken(f"event {cur.i}: player {p}'s {kind} hits one of "
                                         f"{sorted(list(v) for v in victims)}")
                        kill(t)
                    elif kind == "stab":         # "žádný jeho žeton nemůže nikoho bodnout ... vyřazen"
                        t = self.token(cur.take("miss", f"player {p}'s stab without a target"), "miss", zone)
                        if t[0] != p or t not in alive:
                            raise Broken(f"event {cur.i}: the stab finds no target: one of player {p}'s "
                                         "own tokens is out")
                        kill(t)
                for key in {"stab": ("stab", "miss"), "push": ("push",), "move": ("move", "head")}[kind]:
                    if cur.peek(key):
                        raise Broken(f"event {cur.i + 1}: a {key} by a player who did not play "
                                     f"{kind}, out of turn order, or with no token left")
            for t in sorted(alive):              # "Každý žeton v trojúhelníku se ... posune"
                if zone[t] == "triangle" and field[t] < fields:
                    field[t] += 1
                    cur.emit({"advance": list(t), "field": field[t]})
            players = [p for p in range(self.n) if count(p)]
            if len(players) <= 1:
                self.winner = players[0] if players else last_out
                self.how = "last_survivor"
                cur.emit({"win": self.winner, "how": self.how})
                return [count(q) for q in range(self.n)]
            speed = next(q for q in self.order(speed)[1:] + [speed] if count(q))
            cur.emit({"speed": speed})

        def progress(t: Tok) -> int:
            return 100 + field[t] if zone[t] == "triangle" else 50 - dist[zone[t]]  # type: ignore[operator]

        # the safety cap: the most advanced token, then more tokens, then the lower seat
        best = max(alive, key=lambda t: (progress(t) * 1000 + count(t[0]), -t[0]))
        self.winner, self.how = best[0], "round_cap"
        cur.emit({"win": self.winner, "how": self.how})
        return [count(q) for q in range(self.n)]


# ---------------------------------------------------------------------------------------------
# the log
# ---------------------------------------------------------------------------------------------

_fail = line_error


def _header(no: int, head: dict[str, Any]) -> tuple[int, Params]:
    if head.get("game") != "squid":
        raise _fail(no, "not a Squid Game log (the header needs \"game\": \"squid\")")
    if head.get("version") != VERSION:
        raise _fail(no, f"log version {head.get('version')!r} is not supported (this replay reads version {VERSION})")
    players = head.get("players")
    if players not in range(3, 7) or isinstance(players, bool):
        raise _fail(no, f"players must be 3 to 6, got {players!r}")
    strategies = head.get("strategies")
    if not isinstance(strategies, list) or len(strategies) != players or any(s not in STRATEGIES for s in strategies):
        raise _fail(no, f"strategies must name one of {', '.join(STRATEGIES)} per player")
    params = head.get("params")
    if not isinstance(params, dict) or set(params) != set(default_params()):
        raise _fail(no, "params must be the complete parameter set (see `solver squid params`)")
    try:
        for name, table in default_params().items():
            if not isinstance(params[name], dict) or set(params[name]) != set(table):
                raise SolverError(f"params.{name} must give exactly {', '.join(table)}")
        validate(params)
    except SolverError as exc:
        raise _fail(no, str(exc)) from None
    return players, params


def check_lines(lines: list[str]) -> ReplaySummary:
    """Replay the log lines; raise SolverError naming the first line that breaks a rule."""
    objs = parse_lines(lines)
    players, params = _header(*objs[0])
    feed = Feed(objs)
    game = Game(players, params, feed)
    try:
        game.play()
    except Broken as exc:
        raise _fail(feed.no, str(exc)) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise _fail(feed.no, f"malformed event ({exc!r})") from None
    if feed.i >= len(objs):
        raise _fail(objs[-1][0], "the log ends without a result line")
    no, line = objs[feed.i]
    if "result" not in line:
        raise _fail(no, "the squid game is decided: the result line comes next")
    if line.get("result") != game.how or line.get("winner") != game.winner:
        raise _fail(no, f"player {game.winner} has won ({game.how}): the result line says "
                        f"{line.get('winner')!r} ({line.get('result')!r})")
    if set(line) != {"result", "winner"}:
        raise _fail(no, "the result line holds exactly 'result' and 'winner'")
    if feed.i + 1 < len(objs):
        raise _fail(objs[feed.i + 1][0], "lines follow the result line")
    return ReplaySummary(players, len(objs), game.winner, game.how)


def check_file(path: str | Path) -> ReplaySummary:
    """Read and check a log file (unreadable file or broken rule -> SolverError)."""
    return check_lines(read_lines(path))
