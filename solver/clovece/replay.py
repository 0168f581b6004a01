"""Check a Člověče game log (see :mod:`solver.clovece.play`) against every rule.

Written from the rules (docs/clovece.md, "Rules as implemented"), not from the engine: plain Python
pawns on field ids, re-deriving from the decisions in the log (rolls, which pawn moves with which
dice, a turn off at a crossroads, the Bottle announced, the target of a capture or swap card) every
consequence -- where the pawn ends, captures, the Bottle, cards drawn and what they do, drinks by
reason, home entries, the winner -- and comparing it, event by event, with what the log says.  It
checks the turn order, the three tries, the 6 that earns another roll, the choice between the sum and
die-by-die use, that a die that can be used is used, and the result line.  The first broken rule is
reported as ``line N: ...`` (a :class:`SolverError`, so the command exits with status 2).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from solver.clovece.board import KINDS, ZONES, compile_board, load_board
from solver.clovece.deck import compile_deck
from solver.clovece.strategies import AFTER_SIX, DRINK_RULES, FIRST, HUMAN, SEATS, STRATEGIES
from solver.errors import SolverError
from solver.gamelog import Broken, Cursor, line_error, parse_lines, read_lines

REASONS = ("captured", "bottle", "pub", "card", "home", "start", "toast")
MAX_TURNS = 20000   # a game still running after this many turns is abandoned
MAX_DRAWS = 4       # a chain card -> card field -> card stops after this many draws
MAX_SIXES = 23      # sixes kept in one turn


@dataclass
class ReplaySummary:
    variant: str
    players: int
    turns: int
    winner: int | None


def _roll(cur: Cursor) -> int:
    d = cur.take("roll", "a roll")["roll"]
    if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
        raise Broken(f"event {cur.i}: a die shows 1..6, the log has {d!r}")
    return d


def _pawn_index(e: dict[str, Any], key: str, players: int) -> tuple[int, int]:
    v = e.get(key)
    if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v)
            and 0 <= v[0] < players and 0 <= v[1] < 4):
        raise Broken(f"{key!r} must be [player, pawn], the log has {v!r}")
    return v[0], v[1]


# ---------------------------------------------------------------------------------------------
# classic
# ---------------------------------------------------------------------------------------------

class Classic:
    """Classic rules on position codes: -1 in the pub, 0..39 steps from the own start, 40..43 home."""

    def __init__(self, players: int, rules: dict[str, Any]) -> None:
        self.n = players
        self.seats = SEATS[players]
        self.three_after_six = rules["after_six"] == "three-tries"
        self.pos = [[-1] * 4 for _ in range(players)]
        self.winner: int | None = None

    def field(self, p: int, code: int) -> str:
        if code < 0:
            return "pub"
        if code >= 40:
            return f"H{self.seats[p]}.{code - 39}"
        return f"L{(10 * self.seats[p] + code) % 40}"

    def on(self, square: int) -> tuple[int, int] | None:
        """The pawn on loop field ``square`` (0..39 counted from seat 0's start)."""
        for q in range(self.n):
            for j in range(4):
                c = self.pos[q][j]
                if 0 <= c < 40 and (10 * self.seats[q] + c) % 40 == square:
                    return q, j
        return None

    def target(self, p: int, k: int, die: int) -> int | None:
        c = self.pos[p][k]
        if c < 0:
            if die != 6:
                return None
            o = self.on(10 * self.seats[p])
            return None if o and o[0] == p else 0
        t = c + die
        if t > 43:
            return None
        if t >= 40:
            homes = {x for x in self.pos[p] if x >= 40}
            if any(h in homes for h in range(max(c + 1, 40), t + 1)):
                return None          # no jumping over or onto own pawns in the home
            return t
        o = self.on((10 * self.seats[p] + t) % 40)
        return None if o and o[0] == p else t

    def stuck(self, p: int) -> bool:
        homes = {x for x in self.pos[p] if x >= 40}
        return not any(0 <= c < 40 or (40 <= c < 43 and c + 1 not in homes) for c in self.pos[p])

    def turn(self, p: int, cur: Cursor) -> None:
        tries = 3 if self.stuck(p) else 1
        while True:
            die = _roll(cur)
            legal = {k: t for k in range(4) if (t := self.target(p, k, die)) is not None}
            mv = cur.peek("move")
            if legal:
                if mv is None:
                    raise Broken(f"event {cur.i + 1}: a {die} moves one of pawns {sorted(legal)}: "
                                 "a pawn that can move must move")
                k = mv["move"]
                if k not in legal:
                    raise Broken(f"event {cur.i + 1}: pawn {k!r} cannot move {die} (movable: {sorted(legal)})")
                cur.i += 1
                t = legal[k]
                victim = self.on((10 * self.seats[p] + t) % 40) if t < 40 else None
                cur.emit({"place": [p, k], "from": self.field(p, self.pos[p][k]), "to": self.field(p, t)})
                self.pos[p][k] = t
                if victim:
                    q, j = victim
                    cur.emit({"pub": [q, j], "from": self.field(p, t), "reason": "captured"})
                    self.pos[q][j] = -1
                if all(c >= 40 for c in self.pos[p]):
                    self.winner = p
                    cur.emit({"win": p})
                    return
            elif mv is not None:
                raise Broken(f"event {cur.i + 1}: no pawn can move {die}, the log moves pawn {mv['move']!r}")
            if die == 6:
                tries = 3 if self.three_after_six and self.stuck(p) else 1
                continue
            tries -= 1
            if tries == 0:
                return

    def drinks(self) -> None:
        return None


# ---------------------------------------------------------------------------------------------
# napij-se
# ---------------------------------------------------------------------------------------------

@dataclass
class Pawn:
    field: int = -1          # board index, -1 in the pub
    held: bool = False       # blocked in the police cell / swamp / forest until a 6
    immune: int = 0          # own turns of immunity left
    bdir: int = 1            # direction on the two-way Black path (+1: toward "next")
    inward: bool = False     # in a branch: on the way to the holding field
    stopped: int = 0         # turn on which it stopped on its field


class Napij:
    """Napij-se rules on the board graph (field kinds and zones as names)."""

    def __init__(self, players: int, rules: dict[str, Any], board: Any, deck: list[tuple[str, int]]) -> None:
        a = board.arrays
        self.ids = board.ids
        self.kind = [KINDS[k] for k in a["kind"]]
        self.zone = [ZONES[z] for z in a["zone"]]
        self.next, self.prev, self.alt = a["next"], a["prev"], a["alt"]
        self.arrow_of, self.start, self.pin = a["arrow_of"], a["start"], a["pin"]
        self.police, self.dist = a["police"], a["dist"]
        self.n = players
        self.seats = SEATS[players]
        self.once = rules["drinks"] == "per-event"
        self.deck = deck
        self.top = 0
        self.pawns = [[Pawn() for _ in range(4)] for _ in range(players)]
        self.bottle = -1
        self.turn_no = 0
        self.winner: int | None = None
        self.home = [0] * players
        self.drunk = [[0] * len(REASONS) for _ in range(players)]
        self.cur: Cursor = Cursor([])

    # --- positions ------------------------------------------------------------------------
    def fid(self, f: int) -> str:
        return "pub" if f < 0 else self.ids[f]

    def who(self, f: int) -> tuple[int, int] | None:
        """The pawn on an ordinary field (holding fields hold any number and are not asked)."""
        for q in range(self.n):
            for j in range(4):
                if self.pawns[q][j].field == f:
                    return q, j
        return None

    def in_play(self, p: int, k: int) -> bool:
        pw = self.pawns[p][k]
        return pw.field >= 0 and not pw.held and self.zone[pw.field] not in ("home", "pin")

    # --- drinks, the pub, the Bottle ------------------------------------------------------
    def drink(self, p: int, reason: str, n: int = 1) -> None:
        self.drunk[p][REASONS.index(reason)] += n
        self.cur.emit({"drink": p, "reason": reason, "n": n})

    def to_pub(self, q: int, j: int, reason: str) -> None:
        """Back to the pub; every reason that applies is a drink (or one per event)."""
        self.cur.emit({"pub": [q, j], "from": self.fid(self.pawns[q][j].field), "reason": reason})
        self.pawns[q][j] = Pawn()
        self.drink(q, reason)
        if reason != "pub" and not self.once:
            self.drink(q, "pub")

    def bottle_to(self, f: int, why: str) -> None:
        """The Bottle is rolled or pushed to f and captures the pawn there (not an immune one);
        when it is first placed it captures nobody."""
        self.cur.emit({"bottle": self.fid(f), "from": self.fid(self.bottle) if self.bottle >= 0 else None,
                       "why": why})
        self.bottle = f
        victim = self.who(f) if why != "placed" else None
        if victim and self.pawns[victim[0]][victim[1]].immune == 0:
            self.to_pub(*victim, "bottle")

    # --- walking --------------------------------------------------------------------------
    def may_turn(self, p: int, k: int) -> bool:
        """On a crossroads it stopped on before this turn (the swamp/forest one: any time)."""
        pw = self.pawns[p][k]
        if pw.field < 0 or pw.held or self.kind[pw.field] != "crossroads":
            return False
        return self.zone[pw.field] == "branch" or pw.stopped < self.turn_no

    def step(self, seat: int, f: int, st: Pawn, first: bool, turn: int) -> int:
        kind, zone = self.kind[f], self.zone[f]
        if first:
            if kind == "crossroads" and zone == "branch":      # back into the swamp or the forest
                st.inward = True
                return self.alt[f] if turn else self.next[f]
            if kind == "crossroads" and turn:                   # onto the shortcut
                to = self.alt[f]
                if self.zone[to] == "black":
                    st.bdir = 1 if self.prev[to] == f else -1
                return to
            if kind == "detour":                                # the arrow decides
                st.inward = True
                return self.alt[f]
            if zone == "hold":                                  # freed: on the way out
                st.inward = False
                return self.prev[f]
        if zone == "loop":
            return self.pin[seat] if self.arrow_of[f] == seat else self.next[f]
        if zone == "black":
            return self.next[f] if st.bdir > 0 else self.prev[f]
        if zone in ("branch", "hold"):
            return self.next[f] if st.inward else self.prev[f]
        return self.next[f]

    def walk(self, p: int, k: int, steps: int, turn: int, enter: bool) -> Pawn | None:
        """The pawn after the move, or None if the rules forbid it."""
        pw = self.pawns[p][k]
        st = replace(pw)
        if enter:
            if pw.field < 0:
                f, st.bdir, st.inward, first = self.start[self.seats[p]], 1, False, False
            elif pw.held:
                f, st.held, first = pw.field, False, True
            else:
                return None
        else:
            if pw.field < 0 or pw.held or steps <= 0 or (turn and not self.may_turn(p, k)):
                return None
            f, first = pw.field, True
        for _ in range(steps):
            f = self.step(self.seats[p], f, st, first, turn)
            first = False
            if f < 0 or (self.zone[f] == "home" and self.who(f)):
                return None
        if self.zone[f] != "hold":
            o = self.who(f)
            if o and o != (p, k) and (o[0] == p or self.pawns[o[0]][o[1]].immune > 0):
                return None
            st.held = False
        elif steps > 0:
            st.held = True
        st.field = f
        return st

    def moves(self, p: int, steps: int, sum_move: bool) -> dict[tuple[int, int, bool], Pawn]:
        """{(pawn, turn, enter): pawn after} for one die (``steps``) or the sum of all dice."""
        out = {}
        for k, pw in enumerate(self.pawns[p]):
            if pw.field < 0 or pw.held:
                if (sum_move or steps == 6) and (st := self.walk(p, k, steps - 6, 0, True)):
                    out[(k, 0, True)] = st
                continue
            for turn in (0, 1):
                if st := self.walk(p, k, steps, turn, False):
                    out[(k, turn, False)] = st
        return out

    # --- a pawn arrives -------------------------------------------------------------------
    def place(self, p: int, k: int, st: Pawn, depth: int) -> None:
        old = self.pawns[p][k]
        f = st.field
        self.cur.emit({"place": [p, k], "from": self.fid(old.field), "to": self.fid(f)})
        victim = self.who(f) if self.zone[f] != "hold" else None
        st.stopped = self.turn_no
        self.pawns[p][k] = st
        if old.field < 0 and self.bottle < 0:    # one field behind the first pawn's start field
            self.bottle_to(self.prev[self.start[self.seats[p]]], "placed")
        if self.zone[f] == "hold":
            return
        if victim and victim != (p, k):
            self.to_pub(*victim, "captured")
        if self.zone[f] == "home":
            if old.field < 0 or self.zone[old.field] != "home":
                self.home[p] += 1
                for q in range(self.n):
                    if q != p:
                        self.drink(q, "home")
                if self.home[p] == 4 and self.winner is None:
                    self.winner = p
                    self.cur.emit({"win": p})
                    for q in range(self.n):
                        if q != p:
                            self.drink(q, "toast")
            return
        self.effects(p, k, depth)

    def effects(self, p: int, k: int, depth: int) -> None:
        """The Bottle pushed, the rolling pin, a card field."""
        f = self.pawns[p][k].field
        if f == self.bottle:
            self.drink(p, "bottle")
            self.bottle_to(self.prev[f], "pushed")
        if self.kind[f] == "pin":
            self.to_pub(p, k, "pub")
        elif self.kind[f] == "card" and depth < MAX_DRAWS:
            self.card(p, k, depth + 1)

    # --- cards ----------------------------------------------------------------------------
    def card(self, p: int, k: int, depth: int) -> None:
        kind, n = self.deck[self.top]
        self.top = (self.top + 1) % len(self.deck)
        self.cur.emit({"card": f"{kind} {n}" if kind in ("advance", "back", "immunity", "drink") else kind,
                       "by": [p, k]})
        pw = self.pawns[p][k]
        f, seat = pw.field, self.seats[p]
        if kind in ("drink", "finish-glass"):
            self.drink(p, "card", n if kind == "drink" else 1)
            return
        if kind == "from-pub":
            waiting = [j for j in range(4) if self.pawns[p][j].field < 0]
            if waiting and (st := self.walk(p, waiting[0], 0, 0, True)):
                self.place(p, waiting[0], st, depth)
            return
        if kind == "blank" or f < 0 or self.zone[f] != "loop":
            return                              # movement cards act on the main loop only
        if kind == "immunity":
            pw.immune = n
            self.cur.emit({"immune": [p, k], "turns": n})
        elif kind == "return-to-pub":
            if pw.immune == 0:
                self.to_pub(p, k, "pub")
        elif kind == "police":
            self.cur.emit({"police": [p, k], "from": self.fid(f)})
            detour = self.police
            while detour >= 0 and self.zone[detour] != "black":
                detour = self.prev[detour]
            pw.field, pw.held, pw.inward, pw.stopped = self.police, True, False, self.turn_no
            if detour >= 0:     # it will leave toward its home by the shorter way
                d = self.dist[seat]
                pw.bdir = 1 if d[self.next[detour]] <= d[self.prev[detour]] else -1
        elif kind == "advance":
            if st := self.walk(p, k, n, 0, False):
                self.place(p, k, st, depth)
        elif kind == "back":
            t = f
            for _ in range(n):
                if t == self.start[seat]:
                    break
                t = self.prev[t]
            o = self.who(t)
            if t != f and not (o and (o[0] == p or self.pawns[o[0]][o[1]].immune)):
                self.place(p, k, replace(pw, field=t), depth)
        elif kind in ("catch-up", "fall-in"):
            self.line_up(p, k, kind == "catch-up", depth)
        elif kind in ("capture", "swap"):
            self.card_target(p, k, kind, depth)
        elif kind == "offer-capture":
            if pw.immune:
                return
            t = self.prev[f]
            while t != f and not ((o := self.who(t)) and o[0] != p):
                t = self.prev[t]
            if t != f:
                q, j = self.who(t)  # type: ignore[misc]
                self.place(q, j, replace(self.pawns[q][j], field=f), depth)

    def line_up(self, p: int, k: int, ahead: bool, depth: int) -> None:
        """Catch up (right behind the nearest pawn of another colour ahead) or fall in (right behind
        the nearest one behind, never behind the own start field)."""
        f = self.pawns[p][k].field
        start = self.start[self.seats[p]]
        if not ahead and f == start:
            return
        t = self.next[f] if ahead else self.prev[f]
        while True:
            if not ahead and t == start:
                return
            o = self.who(t)
            if t == f or (o and o[0] != p):
                break
            t = self.next[t] if ahead else self.prev[t]
        if t == f:
            return
        t = self.prev[t]
        o = self.who(t)
        if t == f or (o and (o[0] == p or self.pawns[o[0]][o[1]].immune)):
            return
        self.place(p, k, replace(self.pawns[p][k], field=t), depth)

    def card_target(self, p: int, k: int, kind: str, depth: int) -> None:
        """Capture or swap: the drawer picks a pawn of another colour on the main loop (the log
        says which; a capture cannot pick an immune pawn)."""
        cands = {(q, j) for q in range(self.n) if q != p for j in range(4)
                 if (pw := self.pawns[q][j]).field >= 0 and not pw.held and self.zone[pw.field] == "loop"
                 and (kind == "swap" or pw.immune == 0)}
        if not cands:
            return
        cur = self.cur
        f = self.pawns[p][k].field
        if kind == "capture":
            e = cur.peek("place")
            target = self.who(self.ids.index(e["to"])) if e and e.get("to") in self.ids else None
            if e is None or e.get("place") != [p, k] or target not in cands:
                raise Broken(f"event {cur.i + 1}: the capture card must take a pawn of another colour "
                             "on the main loop that is not immune")
            self.place(p, k, replace(self.pawns[p][k], field=self.ids.index(e["to"])), depth)
            return
        e = cur.take("swap", "the swap card's choice")
        q, j = _pawn_index(e, "with", self.n)
        if e.get("swap") != [p, k] or (q, j) not in cands:
            raise Broken(f"event {cur.i}: the swap card must swap with a pawn of another colour on the main loop")
        other = self.pawns[q][j]
        t = other.field
        other.field, other.stopped = f, self.turn_no
        mine = self.pawns[p][k]
        mine.field, mine.stopped = t, self.turn_no
        self.effects(p, k, depth)
        if self.pawns[q][j].field == f:
            self.effects(q, j, depth)

    # --- a turn ---------------------------------------------------------------------------
    def turn(self, p: int, cur: Cursor) -> None:
        self.cur = cur
        self.turn_no += 1
        for pw in self.pawns[p]:
            pw.immune = max(0, pw.immune - 1)
        playing = any(self.in_play(p, k) for k in range(4))
        if cur.peek("call"):
            if self.bottle < 0 or not playing:
                raise Broken(f"event {cur.i + 1}: the Bottle can be announced only when it is on the board "
                             "and the player has a pawn in play")
            cur.i += 1
            d = _roll(cur)
            f = self.bottle
            for _ in range(d):
                f = self.next[f]
            self.bottle_to(f, "rolled")
            return
        home_moves = any(pw.field >= 0 and self.zone[pw.field] == "home" and self.next[pw.field] >= 0
                         and not self.who(self.next[pw.field]) for pw in self.pawns[p])
        tries = 1 if playing or home_moves else 3
        dice: list[int] = []
        while True:
            d = _roll(cur)
            if d == 6:
                if len(dice) < MAX_SIXES:
                    dice.append(6)
                continue
            if dice or tries == 1:
                dice.append(d)
                break
            tries -= 1
        self.use(p, dice)

    def use(self, p: int, dice: list[int]) -> None:
        """One pawn by the sum of all dice, or the dice one by one in the order rolled."""
        cur = self.cur
        e = cur.peek("move")
        if e is not None and e.get("sum"):
            if len(dice) < 2:
                raise Broken(f"event {cur.i + 1}: a sum needs two dice or more")
            self.make(p, self.moves(p, sum(dice), True), e, sum(dice))
            return
        for i, d in enumerate(dice):
            if self.winner is not None:
                return
            e = cur.peek("move")
            if e is None or e.get("sum"):
                if self.moves(p, d, False):
                    raise Broken(f"event {cur.i + 1}: die {i + 1} ({d}) can be used, so it must be")
                if i == 0 and len(dice) > 1 and self.moves(p, sum(dice), True):
                    raise Broken(f"event {cur.i + 1}: no die can be used alone, so the sum must be played")
                return
            self.make(p, self.moves(p, d, False), e, d)

    def make(self, p: int, legal: dict[tuple[int, int, bool], Pawn], e: dict[str, Any], total: int) -> None:
        cur = self.cur
        key = (e.get("move"), e.get("turn"), e.get("enter"))
        steps = total - 6 if e.get("enter") else total
        if key not in legal or e.get("steps") != steps:
            options = ", ".join(f"pawn {k}{' turning off' if t else ''}{' entering' if en else ''}"
                                for k, t, en in sorted(legal)) or "none"
            raise Broken(f"event {cur.i + 1}: pawn {e.get('move')!r} cannot make that move of {total} "
                         f"(legal: {options})")
        cur.i += 1
        self.place(p, key[0], legal[key], 0)

    def drinks(self) -> list[list[int]]:
        return self.drunk


# ---------------------------------------------------------------------------------------------
# the log
# ---------------------------------------------------------------------------------------------

_fail = line_error


def _header(no: int, head: dict[str, Any]) -> tuple[Classic | Napij, int, dict[str, Any]]:
    if head.get("game") != "clovece":
        raise _fail(no, "not a Člověče log (the header needs \"game\": \"clovece\")")
    players = head.get("players")
    if players not in (2, 3, 4):
        raise _fail(no, f"players must be 2, 3 or 4, got {players!r}")
    if head.get("seats") != list(SEATS[players]):
        raise _fail(no, f"{players} players sit on seats {list(SEATS[players])}")
    strategies = head.get("strategies")
    if not isinstance(strategies, list) or len(strategies) != players or \
            any(s not in (*STRATEGIES, HUMAN) for s in strategies):
        raise _fail(no, f"strategies must name one of {', '.join((*STRATEGIES, HUMAN))} per player")
    rules = head.get("rules")
    variant = head.get("variant")
    options = {"classic": {"after_six": AFTER_SIX, "first": FIRST},
               "napij-se": {"drinks": DRINK_RULES, "first": FIRST}}.get(variant)  # type: ignore[arg-type]
    if options is None:
        raise _fail(no, f"unknown variant {variant!r}")
    if not isinstance(rules, dict) or set(rules) != set(options) or any(rules[k] not in v for k, v in options.items()):
        raise _fail(no, "rules must give " + ", ".join(f"{k} ({'|'.join(v)})" for k, v in options.items()))
    if variant == "classic":
        return Classic(players, rules), players, rules
    try:
        board = load_board() if head.get("board") is None else compile_board(head["board"], "log board")
        cards = head.get("deck")
        if not isinstance(cards, list) or not all(isinstance(c, list) and len(c) == 2 for c in cards):
            raise SolverError("deck must list the cards in draw order as [kind, number]")
        compile_deck({"cards": [{"card": c, "n": n} if n else {"card": c} for c, n in cards]}, "log deck")
    except SolverError as exc:
        raise _fail(no, str(exc)) from None
    return Napij(players, rules, board, [(c, n) for c, n in cards]), players, rules


def check_lines(lines: list[str]) -> ReplaySummary:
    """Replay the log lines; raise SolverError naming the first line that breaks a rule."""
    objs = parse_lines(lines)
    game, players, rules = _header(*objs[0])
    body = objs[1:]
    if isinstance(game, Napij):                 # everyone drinks at the start
        if not body or body[0][1].get("turn") != 0:
            raise _fail(objs[0][0] + 1, "the start line (turn 0: everyone drinks) is missing")
        no, line = body.pop(0)
        try:
            game.cur = Cursor(line.get("events"))
            for q in range(players):
                game.drink(q, "start")
            game.cur.done()
        except Broken as exc:
            raise _fail(no, str(exc)) from None
    player: int | None = None
    turns = 0
    for no, line in body:
        if "result" in line:
            if no != objs[-1][0]:
                raise _fail(objs[-1][0], "lines follow the result line")
            return _result(no, line, game, turns)
        if game.winner is not None:
            raise _fail(no, f"player {game.winner} has already won, but a turn follows")
        if turns >= MAX_TURNS:
            raise _fail(no, f"the game is abandoned after {MAX_TURNS} turns, but a turn follows")
        who = line.get("player")
        if player is None:
            if rules["first"] == "seat0" and who != 0:
                raise _fail(no, f"player 0 starts (first=seat0), the log says {who!r}")
            if not isinstance(who, int) or not 0 <= who < players:
                raise _fail(no, f"player must be 0..{players - 1}, the log says {who!r}")
            player = who
        elif who != player:
            raise _fail(no, f"turn {turns + 1}: player {player} is to move, the log says {who!r}")
        turns += 1
        if line.get("turn") != turns:
            raise _fail(no, f"turns are numbered from 1: this is turn {turns}, the log says {line.get('turn')!r}")
        try:
            cur = Cursor(line.get("events"))
            game.turn(player, cur)
            cur.done()
        except Broken as exc:
            raise _fail(no, f"turn {turns}: {exc}") from None
        except (KeyError, TypeError, ValueError) as exc:
            raise _fail(no, f"turn {turns}: malformed event ({exc})") from None
        player = (player + 1) % players
    raise SolverError(f"line {objs[-1][0]}: the log ends without a result line")


def _result(no: int, line: dict[str, Any], game: Classic | Napij, turns: int) -> ReplaySummary:
    result = line.get("result")
    if game.winner is not None:
        if result != "win" or line.get("winner") != game.winner:
            raise _fail(no, f"player {game.winner} has won: the result must say so")
    elif result != "abandoned" or turns < MAX_TURNS:
        raise _fail(no, "nobody has all four pawns home yet: the game is not over")
    if line.get("turns") != turns:
        raise _fail(no, f"the game had {turns} turns, the result line says {line.get('turns')!r}")
    drinks = game.drinks()
    if drinks is not None and line.get("drinks") != drinks:
        raise _fail(no, f"drinks by reason are {drinks}, the result line says {line.get('drinks')!r}")
    return ReplaySummary("classic" if isinstance(game, Classic) else "napij-se", game.n, turns, game.winner)


def check_file(path: str | Path) -> ReplaySummary:
    """Read and check a log file (unreadable file or broken rule -> SolverError)."""
    return check_lines(read_lines(path))
