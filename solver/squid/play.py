"""One logged game: the JSON Lines log that ``squid play`` writes and ``squid replay`` checks, and
its readable move list.

The C engine plays the game (``solver._ext.squid.play_traced``, the same code as the Monte Carlo
loop) and returns event records; this module names them.  Tokens are ``[player, k]``: the k-th
token of the player in the current sub-game (Dalgona: in the order placed, glass bridge: in the
queue, squid: k = 0 is the token that starts in the start zone).

Log format (one JSON object per line):

1. header ``{"game": "squid", "version": 1, "players", "strategies", "seed", "params"}`` --
   ``params`` the complete parameter set (``solver squid params``) the game was played with;
2. per sub-game (``red_light``, ``dalgona``, ``tug_of_war``, ``marbles``, ``glass_bridge``,
   ``squid``, in this order) one set-up line ``{"subgame": name, "round": 0, "events": [...]}`` and
   one line per round (red light, Dalgona, glass bridge, squid: card rounds; tug of war: the cards;
   marbles: one line per duel) ``{"subgame": name, "round": r, "events": [...]}``.  The last line of a
   sub-game ends with ``{"survivors": [tokens per player]}``;
3. ``{"result": "head" | "last_survivor" | "round_cap", "winner": p}``.

Events (the first key names the kind).  Every sub-game: ``{"tokens": [n per player]}`` entering,
``{"start": p}``, ``{"cards": [card or null per player]}`` the secret cards revealed,
``{"timer": steps run}``, ``{"survivors": [...]}``.
Red light: ``{"doll": i, "crossed": [numbers]}``, ``{"crossed_out": p}`` (p loses its front token),
``{"stack": p, "to": field}``, ``{"through": p, "tokens": n}``, ``{"push": p, "out": q}``,
``{"timeout": p, "tokens": n}``.
Dalgona: ``{"place": tok, "shape": s}``, ``{"turn": p}``, ``{"flip": shape | "crack"}``,
``{"advance": tok, "section": s}``, ``{"through": tok}``, ``{"out": tok}``, ``{"timeout": tok}``.
Tug of war: ``{"place": p, "bridge": b, "side": "left" | "right"}``, ``{"no_room": p, "tokens": n}``,
``{"card": p, "bridge": b, "side": s, "value": v}``, ``{"bridge": b, "sums": [l, r], "survive": [sides]}``.
Marbles: ``{"pair": k, "token": p}`` (opens pair k or joins it), ``{"leftover": k, "joins": j}``,
``{"odd": p}``, ``{"own_pair": k, "player": p}``, ``{"duel": k, "by": p, "against": q}``,
``{"odd_even": hidden, "guess": "odd" | "even"}``, ``{"throw": p, "off": bool, "distance": x}``,
``{"out": p}``.
Glass bridge: ``{"part": d, "crack": null | "left" | "right"}`` (hidden from the players until the
part is turned), ``{"queue": tok, "place": -i}``, ``{"move": tok, "card": c}``, ``{"push": tok, "by": p}``,
``{"tile": "left" | "right", "token": tok, "part": d, "by": p}``, ``{"turned": d, "crack": ...}``,
``{"out": tok, "part": d}``, ``{"at": tok, "place": d}``, ``{"chain": tok}``, ``{"through": tok}``,
``{"timeout": tok}``.
Squid: ``{"speed": p}``, ``{"stab": tok, "by": p}``, ``{"miss": tok}`` (a stab without a target:
the stabber's own token is out), ``{"push": tok, "by": p}``, ``{"move": tok, "to": zone}``,
``{"head": tok}``, ``{"advance": tok, "field": f}``, ``{"win": p, "how": ...}``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from solver.squid.experiment import HOW, POLICIES
from solver.squid.params import SHAPES, SUBGAMES, Params, engine_dict

LOG_VERSION = 1
SIDES = ("left", "right")
SQUID_CARDS = ("defence", "stab", "push", "move")
DALGONA_CARDS = (*SHAPES, "crack")

# event record types of ext/squid.pyx (EV_*; tests/test_squid_tables.py checks them against the engine)
(EV_SUB, EV_COUNT, EV_ROUND, EV_CARD, EV_TIMER, EV_SURV) = range(1, 7)
(EV_DOLL, EV_RL_CROSSED, EV_RL_MOVE, EV_RL_THROUGH, EV_RL_PUSH, EV_RL_TIMEOUT) = range(10, 16)
(EV_DG_PLACE, EV_DG_TURN, EV_DG_FLIP, EV_DG_ADV, EV_DG_THROUGH, EV_DG_OUT, EV_DG_TIMEOUT) = range(20, 27)
(EV_TUG_PLACE, EV_TUG_NOROOM, EV_TUG_CARD, EV_TUG_BRIDGE) = range(30, 34)
(EV_MB_TOKEN, EV_MB_LEFTOVER, EV_MB_ODD, EV_MB_OWN, EV_MB_DUEL, EV_MB_HIDE, EV_MB_THROW,
 EV_MB_OUT) = range(40, 48)
(EV_BR_PART, EV_BR_QUEUE, EV_BR_MOVE, EV_BR_PUSH, EV_BR_TILE, EV_BR_TURN, EV_BR_OUT, EV_BR_AT,
 EV_BR_CHAIN, EV_BR_THROUGH, EV_BR_TIMEOUT) = range(50, 61)
(EV_SQ_SPEED, EV_SQ_STAB, EV_SQ_MISS, EV_SQ_PUSH, EV_SQ_MOVE, EV_SQ_HEAD, EV_SQ_ADV) = range(70, 77)
EV_WIN = 80


def crack_name(c: int) -> str | None:
    return None if c < 0 else SIDES[c]


def squid_zones(params: Params) -> list[str]:
    """The engine's zone order: the safe zone first, then the others as listed."""
    return ["safe"] + [z for z in params["squid"]["zones"] if z != "safe"]


@dataclass
class GameLog:
    """A finished game as the lines of its log."""

    lines: list[dict[str, Any]]

    def jsonl(self) -> str:
        return "".join(json.dumps(line, separators=(", ", ": ")) + "\n" for line in self.lines)

    def text(self) -> str:
        """The readable move list: a heading per sub-game, one line per round."""
        head = self.lines[0]
        lineup = ", ".join(f"P{p} {s}" for p, s in enumerate(head["strategies"]))
        out = [f"Squid Game: {head['players']} players: {lineup}; seed {head['seed']}"]
        for line in self.lines[1:]:
            if "result" in line:
                how = {"head": "a token in the squid's head", "last_survivor": "the last tokens standing",
                       "round_cap": "the round cap (most advanced token)"}[line["result"]]
                out.append(f"P{line['winner']} wins the game ({how})")
                continue
            if line["round"] == 0:
                out.append(f"== {SUBGAMES.index(line['subgame']) + 1}. {line['subgame'].replace('_', ' ')}")
                out.append("  set-up: " + _phrases(line["events"]))
            else:
                out.append(f"  round {line['round']}: " + _phrases(line["events"]))
        return "\n".join(out) + "\n"


def _phrases(events: list[dict[str, Any]]) -> str:
    """The events of one line as phrases; Dalgona turns are set apart by "|"; a token standing on
    the part whose tile it has just stepped on is said once."""
    text = ""
    for i, e in enumerate(events):
        if "at" in e and e["place"] > 0 and any(x.get("token") == e["at"] for x in events[max(0, i - 2):i]):
            continue
        if "turn" in e:
            text += (" | " if text else "") + f"P{e['turn']}:"
        else:
            text += (" " if text.endswith(":") else "; " if text else "") + describe(e)
    return text


def _tok(t: list[int]) -> str:
    return f"P{t[0]}#{t[1]}"


def describe(e: dict[str, Any]) -> str:
    """One event as a few words."""
    kind = next(iter(e))
    v = e[kind]
    simple = {
        "tokens": lambda: "tokens " + " ".join(map(str, v)),
        "start": lambda: f"P{v} starts",
        "cards": lambda: "cards " + ", ".join(f"P{p} {c}" for p, c in enumerate(v) if c is not None),
        "timer": lambda: f"the timer advances ({v} step{'s' * (v != 1)} run)",
        "survivors": lambda: "survivors " + " ".join(map(str, v)),
        "doll": lambda: f"doll card {v} crosses out {', '.join(map(str, e['crossed'])) or 'nothing'}",
        "crossed_out": lambda: f"P{v} loses its front token (crossed out)",
        "stack": lambda: f"P{v} to field {e['to']}",
        "flip": lambda: f"flips {v}",
        "advance": lambda: f"{_tok(v)} to " + (f"section {e['section']}" if "section" in e else f"field {e['field']}"),
        "no_room": lambda: f"no room: P{v} loses {e['tokens']} unplaced token(s)",
        "card": lambda: f"P{v} lays {e['value']} on bridge {e['bridge']} {e['side']}",
        "bridge": lambda: f"bridge {v}: {e['sums'][0]} vs {e['sums'][1]}, "
                          + (" and ".join(e["survive"]) + " survive" if e["survive"] else "both sides out"),
        "pair": lambda: f"P{e['token']} to pair {v}",
        "leftover": lambda: f"open pair {v} joins pair {e['joins']}",
        "odd": lambda: f"P{v}'s odd token survives",
        "own_pair": lambda: f"pair {v} is P{e['player']}'s own: one token survives",
        "duel": lambda: f"P{e['by']} plays pair {v} against P{e['against']}",
        "odd_even": lambda: f"hides {v}, guess {e['guess']}",
        "throw": lambda: f"P{v} throws " + ("off the table" if e["off"] else f"{e['distance']:.3f} from the line"),
        "part": lambda: f"part {v} " + ("face down" if e["crack"] == "hidden"   # as a player sees it
                                         else f"cracked {e['crack']}" if e["crack"] else "intact"),
        "queue": lambda: f"{_tok(v)} in line at {e['place']}",
        "move": lambda: f"{_tok(v)} moves " + (f"{e['card']}" if "card" in e
                                                else "to the safe zone" if e["to"] == "safe" else f"to the {e['to']}"),
        "tile": lambda: f"{_tok(e['token'])} onto the {v} tile of part {e['part']} (chosen by P{e['by']})",
        "turned": lambda: f"part {v} turned: " + (f"{e['crack']} tile cracked" if e["crack"] else "no crack"),
        "at": lambda: f"{_tok(v)} on {'part' if e['place'] > 0 else 'queue place'} {e['place']}",
        "chain": lambda: f"{_tok(v)} must move on",
        "speed": lambda: f"P{v} holds the speed token",
        "stab": lambda: f"P{e['by']} stabs {_tok(v)}",
        "miss": lambda: f"the stab finds no target: {_tok(v)} is out",
        "head": lambda: f"{_tok(v)} enters the head",
        "win": lambda: f"P{v} wins ({e['how'].replace('_', ' ')})",
    }
    if kind == "place":
        return (f"{_tok(v)} on the {e['shape']}" if "shape" in e
                else f"P{v} on bridge {e['bridge']} {e['side']}")
    if kind == "through":
        return f"P{v}'s {e['tokens']} token(s) over the line" if "tokens" in e else f"{_tok(v)} through"
    if kind == "out":
        return (f"P{v}'s token out" if isinstance(v, int)
                else f"{_tok(v)} out" + (f" (cracked tile of part {e['part']})" if "part" in e else ""))
    if kind == "timeout":
        return f"time is up: P{v} loses {e['tokens']}" if "tokens" in e else f"time is up: {_tok(v)} out"
    if kind == "push":
        return f"P{v} pushes out a token of P{e['out']}" if "out" in e else f"P{e['by']} pushes {_tok(v)}"
    return simple[kind]() if kind in simple else json.dumps(e)


class _Builder:
    """Turns the engine's event records into log lines."""

    def __init__(self, params: Params, players: int) -> None:
        self.params = params
        self.players = players
        self.zones = squid_zones(params)
        self.doll = params["red_light"]["doll_cards"]
        self.lines: list[dict[str, Any]] = []
        self.sub = ""
        self.counts: list[int] = []
        self.tok: dict[int, list[int]] = {}   # engine token index -> [player, k]
        self.pending: dict[str, list[Any]] = {}

    def _events(self) -> list[dict[str, Any]]:
        return self.lines[-1]["events"]

    def _per_player(self, key: str, p: int, value: Any) -> None:
        """EV_COUNT / EV_CARD / EV_SURV come one per player: one event with a list."""
        if p == 0:
            self.pending[key] = []
            self._events().append({key: self.pending[key]})
        self.pending[key].append(value)

    def _new_token(self, t: int, p: int) -> list[int]:
        k = sum(1 for x in self.tok.values() if x[0] == p)
        self.tok[t] = [p, k]
        return self.tok[t]

    def add(self, rec: tuple[int, int, int, int, int, float]) -> None:  # noqa: C901 - one branch per record type
        t, a, b, c, d, x = rec
        tok = self.tok.get
        if t == EV_SUB:
            self.sub = SUBGAMES[a]
            self.tok = {}
            self.lines.append({"subgame": self.sub, "round": 0, "events": []})
            self._events().append({"start": b})
            return
        if t == EV_ROUND:
            self.lines.append({"subgame": self.sub, "round": a, "events": []})
            return
        ev = self._events()
        if t == EV_COUNT:
            self._per_player("tokens", a, b)
            if a == 0:   # tokens first, then the starting seat
                ev.insert(0, ev.pop())
            if a == self.players - 1 and self.sub == "squid":
                self.tok = {}
                for p, n in enumerate(self.pending["tokens"]):
                    for k in range(n):
                        self.tok[len(self.tok)] = [p, k]
        elif t == EV_CARD:
            card = None if b < 0 else (SQUID_CARDS[b] if self.sub == "squid" else b)
            self._per_player("cards", a, card)
        elif t == EV_TIMER:
            ev.append({"timer": a})
        elif t == EV_SURV:
            self._per_player("survivors", a, b)
        elif t == EV_DOLL:
            ev.append({"doll": a, "crossed": sorted(self.doll[a])})
        elif t == EV_RL_CROSSED:
            ev.append({"crossed_out": a})
        elif t == EV_RL_MOVE:
            ev.append({"stack": a, "to": b})
        elif t == EV_RL_THROUGH:
            ev.append({"through": a, "tokens": b})
        elif t == EV_RL_PUSH:
            ev.append({"push": a, "out": b})
        elif t == EV_RL_TIMEOUT:
            ev.append({"timeout": a, "tokens": b})
        elif t == EV_DG_PLACE:
            ev.append({"place": self._new_token(a, b), "shape": SHAPES[c]})
        elif t == EV_DG_TURN:
            ev.append({"turn": a})
        elif t == EV_DG_FLIP:
            ev.append({"flip": DALGONA_CARDS[a]})
        elif t == EV_DG_ADV:
            ev.append({"advance": tok(a), "section": b})
        elif t in (EV_DG_THROUGH, EV_BR_THROUGH):
            ev.append({"through": tok(a)})
        elif t == EV_DG_OUT:
            ev.append({"out": tok(a)})
        elif t in (EV_DG_TIMEOUT, EV_BR_TIMEOUT):
            ev.append({"timeout": tok(a)})
        elif t == EV_TUG_PLACE:
            ev.append({"place": a, "bridge": b, "side": SIDES[c]})
        elif t == EV_TUG_NOROOM:
            ev.append({"no_room": a, "tokens": b})
        elif t == EV_TUG_CARD:
            ev.append({"card": a, "bridge": b, "side": SIDES[c], "value": d})
        elif t == EV_TUG_BRIDGE:
            ev.append({"bridge": a, "sums": [b, c], "survive": [SIDES[s] for s in range(2) if d >> s & 1]})
        elif t == EV_MB_TOKEN:
            ev.append({"pair": b, "token": a})
        elif t == EV_MB_LEFTOVER:
            ev.append({"leftover": b, "joins": a})
        elif t == EV_MB_ODD:
            ev.append({"odd": a})
        elif t == EV_MB_OWN:
            ev.append({"own_pair": a, "player": b})
        elif t == EV_MB_DUEL:
            ev.append({"duel": b, "by": a, "against": c})
        elif t == EV_MB_HIDE:
            ev.append({"odd_even": a, "guess": "odd" if b else "even"})
        elif t == EV_MB_THROW:
            ev.append({"throw": a, "off": bool(b), "distance": x})
        elif t == EV_MB_OUT:
            ev.append({"out": a})
        elif t == EV_BR_PART:
            ev.append({"part": a, "crack": crack_name(b)})
        elif t == EV_BR_QUEUE:
            ev.append({"queue": self._new_token(a, b), "place": -a})
        elif t == EV_BR_MOVE:
            ev.append({"move": tok(a), "card": b})
        elif t == EV_BR_PUSH:
            ev.append({"push": tok(a), "by": b})
        elif t == EV_BR_TILE:
            ev.append({"tile": SIDES[c], "token": tok(a), "part": b, "by": d})
        elif t == EV_BR_TURN:
            ev.append({"turned": a, "crack": crack_name(b)})
        elif t == EV_BR_OUT:
            ev.append({"out": tok(a), "part": b})
        elif t == EV_BR_AT:
            ev.append({"at": tok(a), "place": b})
        elif t == EV_BR_CHAIN:
            ev.append({"chain": tok(a)})
        elif t == EV_SQ_SPEED:
            ev.append({"speed": a})
        elif t == EV_SQ_STAB:
            ev.append({"stab": tok(b), "by": a})
        elif t == EV_SQ_MISS:
            ev.append({"miss": tok(b)})
        elif t == EV_SQ_PUSH:
            ev.append({"push": tok(b), "by": a})
        elif t == EV_SQ_MOVE:
            ev.append({"move": tok(a), "to": self.zones[b]})
        elif t == EV_SQ_HEAD:
            ev.append({"head": tok(a)})
        elif t == EV_SQ_ADV:
            ev.append({"advance": tok(a), "field": b})
        elif t == EV_WIN:
            ev.append({"win": a, "how": HOW[b]})
        else:
            raise ValueError(f"unknown engine event {rec}")


def build_log(players: int, strategies: tuple[str, ...], seed: int, params: Params,
              events: list[tuple[int, int, int, int, int, float]], how: int = -1, winner: int = -1,
              ) -> tuple[GameLog, dict[int, list[int]]]:
    """The log of the engine's event records (with the result line once ``how`` >= 0), and the
    current sub-game's tokens: engine token index -> ``[player, k]``."""
    build = _Builder(params, players)
    build.lines.append({"game": "squid", "version": LOG_VERSION, "players": players,
                        "strategies": list(strategies), "seed": seed, "params": params})
    for rec in events:
        build.add(rec)
    if how >= 0:
        build.lines.append({"result": HOW[how], "winner": winner})
    return GameLog(build.lines), build.tok


def play_game(players: int, strategies: tuple[str, ...], seed: int, params: Params) -> GameLog:
    """Let the engine play one game (the first game of ``simulate`` with this seed) and log it."""
    from solver._ext import squid as engine

    game = engine.play_traced(engine_dict(params), [POLICIES.index(s) for s in strategies], seed)
    return build_log(players, strategies, seed, params, game["events"], game["how"], game["winner"])[0]
