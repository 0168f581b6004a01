"""Slow, plain pure-Python reference of the classic rules (Člověče, nezlob se), for differential tests.

Written from the rules, not from the engine: a pawn is "waiting", on the loop at a number of steps
from its own start field (0..39), or in the home (home field 0..3).  It knows nothing about the C code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

LOOP = 40
HOME = 4


@dataclass
class Pawn:
    where: str = "waiting"   # "waiting", "loop" or "home"
    steps: int = 0           # loop: steps from the own start field; home: home field 0..3


@dataclass
class ClassicReference:
    """Classic position with seats (start field = 10 * seat) and the rules as methods."""

    seats: list[int]
    pawns: list[list[Pawn]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.pawns:
            self.pawns = [[Pawn() for _ in range(4)] for _ in self.seats]

    @classmethod
    def from_codes(cls, seats: list[int], codes: list[list[int]]) -> ClassicReference:
        """Codes -1 waiting, 0..39 loop, 40..43 home (the engine's test encoding)."""
        pawns = [[Pawn() if c < 0 else Pawn("loop", c) if c < LOOP else Pawn("home", c - LOOP) for c in row]
                 for row in codes]
        return cls(seats, pawns)

    def code(self, p: int, k: int) -> int:
        pw = self.pawns[p][k]
        return -1 if pw.where == "waiting" else pw.steps if pw.where == "loop" else LOOP + pw.steps

    def field_of(self, p: int, steps: int) -> int:
        """Board field (0..39) of a loop pawn of player p."""
        return (10 * self.seats[p] + steps) % LOOP

    def who_is_on(self, board_field: int) -> tuple[int, int] | None:
        for p, row in enumerate(self.pawns):
            for k, pw in enumerate(row):
                if pw.where == "loop" and self.field_of(p, pw.steps) == board_field:
                    return p, k
        return None

    def home_taken(self, p: int, h: int) -> bool:
        return any(pw.where == "home" and pw.steps == h for pw in self.pawns[p])

    def target(self, p: int, k: int, die: int) -> int | None:
        """Code of the field pawn k reaches with the die, or None if it may not move."""
        pw = self.pawns[p][k]
        if pw.where == "waiting":
            if die != 6:
                return None
            occupant = self.who_is_on(self.field_of(p, 0))
            return None if occupant and occupant[0] == p else 0
        total = (pw.steps if pw.where == "loop" else LOOP + pw.steps) + die
        if total >= LOOP + HOME:
            return None                      # home needs an exact count
        if total >= LOOP:
            first = LOOP if pw.where == "loop" else LOOP + pw.steps + 1
            for code in range(first, total + 1):   # no jumping over (or onto) own pawns in the home
                if self.home_taken(p, code - LOOP):
                    return None
            return total
        occupant = self.who_is_on(self.field_of(p, total))
        return None if occupant and occupant[0] == p else total

    def legal(self, p: int, die: int) -> dict[int, int]:
        return {k: t for k in range(4) if (t := self.target(p, k, die)) is not None}

    def move(self, p: int, k: int, die: int) -> int:
        """Move pawn k (must be legal); returns the number of pawns captured (0 or 1)."""
        t = self.target(p, k, die)
        assert t is not None
        if t >= LOOP:
            self.pawns[p][k] = Pawn("home", t - LOOP)
            return 0
        captured = 0
        occupant = self.who_is_on(self.field_of(p, t))
        if occupant:
            q, j = occupant
            self.pawns[q][j] = Pawn()
            captured = 1
        self.pawns[p][k] = Pawn("loop", t)
        return captured

    def nothing_can_move(self, p: int) -> bool:
        """No pawn on the loop and no home pawn with a free home field right in front of it."""
        for pw in self.pawns[p]:
            if pw.where == "loop":
                return False
            if pw.where == "home" and pw.steps < HOME - 1 and not self.home_taken(p, pw.steps + 1):
                return False
        return True

    def won(self, p: int) -> bool:
        return all(pw.where == "home" for pw in self.pawns[p])

    # --- the deterministic strategies, from their definitions ---------------------------------

    def danger(self, p: int, board_field: int) -> int:
        """Opponent loop pawns 1..6 fields behind the field that would not turn home before it."""
        n = 0
        for q, row in enumerate(self.pawns):
            if q == p:
                continue
            for pw in row:
                if pw.where == "loop":
                    dist = (board_field - self.field_of(q, pw.steps)) % LOOP
                    if 1 <= dist <= 6 and pw.steps + dist <= LOOP - 1:
                        n += 1
        return n

    def choose(self, strategy: str, p: int, die: int) -> int:
        """runner: front-most loop pawn, then entering, then home pawns; hunter: capture the most
        advanced victim first; cautious: fewest threats at the destination.  Ties: lowest pawn."""
        moves = self.legal(p, die)
        if not moves:
            return -1

        def front(k: int) -> int:
            pw = self.pawns[p][k]
            return pw.steps if pw.where == "loop" else -1 if pw.where == "waiting" else -3

        def victim(t: int) -> int | None:
            if t >= LOOP:
                return None
            occ = self.who_is_on(self.field_of(p, t))
            return self.pawns[occ[0]][occ[1]].steps if occ else None

        def key(k: int) -> tuple:
            t = moves[k]
            if strategy in ("runner", "shortcut"):
                return (front(k),)
            if strategy == "hunter":
                v = victim(t)
                return (v is not None, v if v is not None else 0, front(k))
            if strategy == "cautious":
                return (-(self.danger(p, self.field_of(p, t)) if t < LOOP else 0), front(k))
            raise ValueError(strategy)

        best = max(moves, key=lambda k: (key(k), -k))
        return best


def replay(nplayers: int, seats: list[int], strategies: list[str], events: list[tuple[int, ...]],
           three_after_six: bool = False, first: int = 0) -> tuple[int | None, int]:
    """Replay an engine trace (player, die, pawn or -1, from, to, captured), checking turn order
    (player ``first`` starts), the three tries (and, with ``three_after_six``, three tries again
    when a 6 leaves nothing to move), legality, where the pawn went and whom it captured, and the
    decisions of deterministic strategies.  Returns (winner, captures)."""
    ref = ClassicReference(list(seats))
    player, tries, captures = first, None, 0
    for i, (p, die, k, frm, to, victim) in enumerate(events):
        if tries is None:
            tries = 3 if ref.nothing_can_move(player) else 1
        assert p == player, f"event {i}: player {p} rolled, expected {player}"
        assert 1 <= die <= 6
        legal = ref.legal(p, die)
        if not legal:
            assert k == -1 and frm == to == -2, f"event {i}: pawn {k} moved without a legal move"
        else:
            assert k in legal, f"event {i}: illegal move of pawn {k} with {die} (legal {legal})"
            if strategies[p] not in ("random", "best"):
                assert k == ref.choose(strategies[p], p, die), f"event {i}: {strategies[p]} chose {k}"
            assert (frm, to) == (ref.code(p, k), legal[k]), f"event {i}: pawn {k} went {frm}->{to}"
            occupant = ref.who_is_on(ref.field_of(p, legal[k])) if legal[k] < LOOP else None
            assert victim == (occupant[0] * 4 + occupant[1] if occupant else -1), f"event {i}: capture"
            captures += ref.move(p, k, die)
            if ref.won(p):
                assert i == len(events) - 1, "the game went on after a win"
                return p, captures
        if die == 6:
            tries = 3 if three_after_six and ref.nothing_can_move(p) else 1
            continue
        tries -= 1
        if tries > 0:
            continue
        player = (player + 1) % nplayers
        tries = None
    return None, captures


# ==================================================================================================
# napij-se: legal single-die moves on a board graph, written from the rules on field ids
# ==================================================================================================

@dataclass
class NapijPawn:
    """A napij-se pawn: field id (None = pub) and the state the rules give it."""

    field: str | None = None
    held: bool = False        # blocked in the police cell / swamp / forest until a 6
    immune: int = 0
    bdir: int = 1             # direction on the Black path: +1 toward "next", -1 toward "prev"
    inward: bool = False      # in a branch: heading for the holding field
    ready: bool = True        # stopped on its field on an earlier turn


class NapijMoves:
    """Legal single-die moves of napij-se from a board document (the JSON file's contents)."""

    def __init__(self, doc: dict) -> None:
        self.f = {f["id"]: f for f in doc["fields"]}
        self.seats = doc["seats"]

    def _next_field(self, seat: int, fid: str, pawn: NapijPawn, first: bool, choice: int) -> str | None:
        f = self.f[fid]
        kind, zone = f["kind"], f["zone"]
        if first:
            if kind == "crossroads" and zone == "branch":     # stopped there: back toward a holding field
                pawn.inward = True
                return f["turn"] if choice else f["next"]
            if kind == "crossroads" and choice:               # turning onto a shortcut
                target = f["turn"]
                if self.f[target]["zone"] == "black":
                    pawn.bdir = 1 if self.f[target].get("prev") == fid else -1
                return target
            if kind == "detour":                              # forced by the arrow
                pawn.inward = True
                return f["turn"]
            if zone == "hold":                                # freed: on the way out
                pawn.inward = False
                return f["prev"]
        if zone == "loop":
            if self.seats[seat]["arrow"] == fid:
                return self.seats[seat]["pin"]
            return f["next"]
        if zone == "black":
            return f["next"] if pawn.bdir > 0 else f["prev"]
        if zone in ("branch", "hold"):
            return f.get("next") if pawn.inward else f.get("prev")
        return f.get("next")

    def card_targets(self, pawns: list[list[NapijPawn]], p: int, kind: str) -> set[tuple[int, int]]:
        """The pawns a capture or swap card drawn by player p may take: the rulebook's "spoluhráč" is
        a pawn of another colour; cards act only on pawns of the main loop ("pouze figurek na
        základním herním plánu"); immunity protects against being captured, not against a swap."""
        return {(q, j) for q, row in enumerate(pawns) for j, pw in enumerate(row)
                if q != p and pw.field is not None and self.f[pw.field]["zone"] == "loop" and not pw.held
                and (kind == "swap" or pw.immune == 0)}

    def _where(self, pawns: list[list[NapijPawn]]) -> dict[str, tuple[int, int]]:
        """Who stands on each ordinary field (holding fields hold any number and are left out)."""
        return {pw.field: (q, j) for q, row in enumerate(pawns) for j, pw in enumerate(row)
                if pw.field is not None and self.f[pw.field]["zone"] != "hold"}

    def walk(self, seats: list[int], pawns: list[list[NapijPawn]], p: int, k: int, steps: int, choice: int,
             pre6: bool) -> NapijPawn | None:
        """The pawn's state after the move, or None if the move is illegal."""
        where = self._where(pawns)
        seat = seats[p]
        pw = pawns[p][k]
        state = NapijPawn(**pw.__dict__)
        if pre6:
            if pw.field is None:
                fid: str | None = self.seats[seat]["start"]
                state.bdir, state.inward, first = 1, False, False
            elif pw.held:
                fid, state.held, first = pw.field, False, True
            else:
                return None
        else:
            if pw.field is None or pw.held or steps <= 0:
                return None
            f = self.f[pw.field]
            if choice and not (f["kind"] == "crossroads" and (f["zone"] == "branch" or pw.ready)):
                return None
            fid, first = pw.field, True
        for _ in range(steps):
            fid = self._next_field(seat, fid, state, first, choice)
            first = False
            if fid is None or (self.f[fid]["zone"] == "home" and fid in where):
                return None
        if self.f[fid]["zone"] != "hold":
            if fid in where:
                q, j = where[fid]
                if q == p or pawns[q][j].immune > 0:
                    return None
            state.held = False
        elif steps > 0:
            state.held = True
        state.field = fid
        return state

    def legal(self, seats: list[int], pawns: list[list[NapijPawn]], p: int, die: int
              ) -> set[tuple[int, int, int, str]]:
        """{(pawn, choice, pre6, destination id)} for player p and one die."""
        out = set()
        for k, pw in enumerate(pawns[p]):
            if pw.field is None or pw.held:
                if die == 6 and (st := self.walk(seats, pawns, p, k, 0, 0, True)) is not None:
                    out.add((k, 0, 1, st.field))
                continue
            for choice in (0, 1):
                if (st := self.walk(seats, pawns, p, k, die, choice, False)) is not None:
                    out.add((k, choice, 0, st.field))
        return out

    def apply(self, seats: list[int], pawns: list[list[NapijPawn]], table: dict, p: int, k: int, steps: int,
              choice: int, pre6: bool) -> None:
        """Make a legal move with a deck of blank cards: capture, home entry, Bottle, rolling pin.

        ``table`` holds "bottle" (field id or None), "drinks" {(player, cause): n} and "captures".
        """
        state = self.walk(seats, pawns, p, k, steps, choice, pre6)
        assert state is not None
        drinks = table["drinks"]

        def drink(q: int, cause: str) -> None:
            drinks[(q, cause)] = drinks.get((q, cause), 0) + 1

        def to_pub(q: int, j: int, cause: str) -> None:
            """Back to the pub: the rulebook's reasons stack (captured / the Bottle, and the return)."""
            pawns[q][j] = NapijPawn()
            drink(q, cause)
            if cause != "pub":
                drink(q, "pub")

        was_pub = pawns[p][k].field is None
        was_home = not was_pub and self.f[pawns[p][k].field]["zone"] == "home"
        where = self._where(pawns)
        pawns[p][k] = state
        fid = state.field
        zone = self.f[fid]["zone"]
        if was_pub and table["bottle"] is None:      # one field behind the first pawn put into play
            table["bottle"] = self.f[self.seats[seats[p]]["start"]]["prev"]
        if zone == "hold":
            return
        if fid in where and where[fid] != (p, k):
            to_pub(*where[fid], "captured")
            table["captures"] += 1
        if zone == "home":
            if not was_home:
                others = [q for q in range(len(pawns)) if q != p]
                for q in others:
                    drink(q, "home")
                if all(pw.field and self.f[pw.field]["zone"] == "home" for pw in pawns[p]):
                    for q in others:
                        drink(q, "toast")
            return
        if fid == table["bottle"]:
            drink(p, "bottle")
            behind = self.f[fid]["prev"]
            table["bottle"] = behind
            victim = self._where(pawns).get(behind)
            if victim and pawns[victim[0]][victim[1]].immune == 0:
                to_pub(*victim, "bottle")
                table["captures"] += 1
        if self.f[fid]["kind"] == "pin":
            to_pub(p, k, "pub")
