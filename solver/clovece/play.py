"""One logged game of either variant: the JSON Lines log that ``clovece play`` writes and
``clovece replay`` checks, and its readable move list.

Log format (one JSON object per line; fields are board field ids, ``"pub"`` is the pub):

1. header ``{"game": "clovece", "variant", "players", "seats", "strategies", "seed", "rules",
   "board", "deck"}`` -- ``rules`` the rule options, ``board`` null (the shipped board) or the board
   document, ``deck`` (napij-se) the cards in draw order after the shuffle, ``[kind, number]``;
2. ``{"turn": 0, "player": null, "events": [...]}`` -- the drinks at the start (napij-se);
3. one line per turn ``{"turn": t, "player": p, "events": [...]}``, the events in the order they
   happen: ``{"roll": d}``, ``{"call": "bottle"}`` (the roll moves the Bottle), the decisions
   ``{"move": pawn, "steps": s, "turn": 0|1, "enter": bool, "sum": bool}`` (classic:
   ``{"move": pawn}``), and what follows from the rules: ``{"place": [p, k], "from", "to"}``,
   ``{"pub": [p, k], "from", "reason"}``, ``{"bottle": to, "from", "why"}``, ``{"card": "advance 3",
   "by": [p, k]}``, ``{"swap": [p, k], "with": [q, j]}``, ``{"police": [p, k], "from"}``,
   ``{"immune": [p, k], "turns": n}``, ``{"drink": p, "reason", "n"}``, ``{"win": p}``;
4. ``{"result": "win", "winner": p, "turns": t, "drinks": [[n per reason] per player]}`` (classic:
   no drinks; ``"result": "abandoned"`` after 20,000 turns).

Classic fields: ``L0``..``L39`` for the loop (start fields L0, L10, L20, L30 as on the napij-se
board) and ``H<seat>.1``..``H<seat>.4`` for the home fields.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from solver.clovece.board import load_board
from solver.clovece.deck import CARD_KINDS, card_label
from solver.clovece.experiment import DRINK_CAUSES, compiled
from solver.clovece.strategies import SEATS, strategy_ids

BOTTLE_WHY = ("rolled", "pushed", "placed")
# record types of the engine's log (ext/clovece.pyx, EV_*; tests/test_clovece_tables.py checks them)
(EV_TURN, EV_ROLL, EV_CALL, EV_MOVE, EV_PLACE, EV_PUB, EV_BOTTLE, EV_CARD, EV_DRINK, EV_SWAP, EV_POLICE,
 EV_IMMUNE, EV_WIN) = range(1, 14)


@dataclass
class GameLog:
    """A finished game as the lines of its log."""

    lines: list[dict[str, Any]]

    def jsonl(self) -> str:
        return "".join(json.dumps(line, ensure_ascii=False, separators=(", ", ": ")) + "\n"
                       for line in self.lines)

    def text(self) -> str:
        """The readable move list: one line per turn."""
        head = self.lines[0]
        lineup = ", ".join(f"P{p} {s} (seat {seat})"
                           for p, (s, seat) in enumerate(zip(head["strategies"], head["seats"], strict=True)))
        rules = ", ".join(f"{k}={v}" for k, v in head["rules"].items())
        out = [f"Člověče {head['variant']}: {head['players']} players: {lineup}; seed {head['seed']}; {rules}"]
        for line in self.lines[1:]:
            if "result" in line:
                out.append(_result_text(line))
            else:
                who = "start" if line["player"] is None else f"turn {line['turn']} P{line['player']}"
                out.append(f"{who}: " + "; ".join(_grouped(line["events"])))
        return "\n".join(out) + "\n"


def _result_text(line: dict[str, Any]) -> str:
    if line["result"] != "win":
        return f"abandoned after {line['turns']} turns"
    text = f"P{line['winner']} wins after {line['turns']} turns"
    if "drinks" in line:
        text += "; drinks " + ", ".join(
            f"P{p} {sum(row)} (" + ", ".join(f"{n} {c}" for c, n in zip(DRINK_CAUSES, row, strict=True) if n) + ")"
            for p, row in enumerate(line["drinks"]))
    return text


def _grouped(events: list[dict[str, Any]]) -> list[str]:
    """Events as phrases; consecutive drinks of one reason become one phrase."""
    out: list[str] = []
    i = 0
    while i < len(events):
        e = events[i]
        if "drink" in e:
            j = i
            while j < len(events) and "drink" in events[j] and events[j]["reason"] == e["reason"]:
                j += 1
            who = ", ".join(f"P{d['drink']}" + (f" {d['n']}x" if d["n"] > 1 else "") for d in events[i:j])
            out.append(f"{who} drink{'s' if j - i == 1 else ''} ({e['reason']})")
            i = j
            continue
        out.append(describe(e))
        i += 1
    return out


def describe(e: dict[str, Any]) -> str:
    """One event as a few words."""
    def pawn(pk: list[int]) -> str:
        return f"P{pk[0]}/{pk[1]}"

    if "roll" in e:
        return f"rolls {e['roll']}"
    if "call" in e:
        return "announces the Bottle"
    if "move" in e:
        if "steps" not in e:
            return f"moves pawn {e['move']}"
        turn = ", turning off" if e["turn"] else ""
        if e["enter"]:
            more = f" and moves {e['steps']}" if e["steps"] else ""
            return f"pawn {e['move']} uses a 6 to enter / get free{more}{' (the sum)' if e['sum'] else ''}{turn}"
        return f"pawn {e['move']} moves {e['steps']}{' (the sum)' if e['sum'] else ''}{turn}"
    if "place" in e:
        return f"{pawn(e['place'])} {e['from']}->{e['to']}"
    if "pub" in e:
        return f"{pawn(e['pub'])} back to the pub from {e['from']} ({e['reason']})"
    if "bottle" in e:
        return f"Bottle {e['why']} {e['from'] + '->' if e['from'] else 'to '}{e['bottle']}"
    if "card" in e:
        return f"{pawn(e['by'])} draws '{e['card']}'"
    if "swap" in e:
        return f"{pawn(e['swap'])} swaps with {pawn(e['with'])}"
    if "police" in e:
        return f"{pawn(e['police'])} to the police cell from {e['from']}"
    if "immune" in e:
        return f"{pawn(e['immune'])} immune for {e['turns']} turns"
    if "drink" in e:
        return f"P{e['drink']} drinks {e['n']} ({e['reason']})"
    if "win" in e:
        return f"P{e['win']} has all pawns home"
    return json.dumps(e)


def log_header(variant: str, players: int, strategies: tuple[str, ...], seed: int, rules: dict[str, str],
               board: Any = None, deck: list[list[Any]] | None = None) -> dict[str, Any]:
    """The log's first line: game, variant, players and seats, strategies, seed, rule options
    (napij-se: the board document or null, the deck in draw order)."""
    head = {"game": "clovece", "variant": variant, "players": players, "seats": list(SEATS[players]),
            "strategies": list(strategies), "seed": seed, "rules": rules}
    if variant == "napij-se":
        head["board"] = board
        head["deck"] = deck
    return head


def play_napij(players: int, strategies: tuple[str, ...], seed: int, drinks: str = "per-reason",
               first: str = "seat0", board_text: str | None = None, deck_text: str | None = None) -> GameLog:
    """Let the engine play one napij-se game (seeded like one game of ``simulate``) and log it."""
    from solver._ext import clovece as engine

    ids = load_board(text=board_text).ids
    game = engine.napij_game(compiled(board_text, deck_text), players, list(SEATS[players]),
                             strategy_ids(strategies), seed, drink_once=drinks == "per-event",
                             first_random=first == "random")
    deck = [[CARD_KINDS[k], n] for k, n in game["deck"]]
    head = log_header("napij-se", players, strategies, seed, {"drinks": drinks, "first": first},
                   json.loads(board_text) if board_text else None, deck)
    lines: list[dict[str, Any]] = [head, {"turn": 0, "player": None, "events": []}]
    add_napij_events(lines, game["events"], ids)
    lines.append(napij_result(game["winner"], game["turns"], game["causes"]))
    return GameLog(lines)


def napij_result(winner: int, turns: int, causes: list[list[int]]) -> dict[str, Any]:
    """The log's last line: the result, the turns played and every player's drinks by cause."""
    result: dict[str, Any] = {"result": "win" if winner >= 0 else "abandoned", "turns": turns}
    if winner >= 0:
        result["winner"] = winner
    result["drinks"] = causes
    return result


def add_napij_events(lines: list[dict[str, Any]], records: list[list[int]], ids: tuple[str, ...]) -> None:
    """Append the engine's log records (EVW ints each) to the log lines: a turn record opens a new
    turn line, every other record becomes an event of the last line."""

    def fid(f: int) -> str:
        return "pub" if f < 0 else ids[f]

    for t, a, b, c, d, e, _f, _g in records:
        if t == EV_TURN:
            lines.append({"turn": lines[-1]["turn"] + 1, "player": a, "events": []})
            continue
        events = lines[-1]["events"]
        if t == EV_ROLL:
            events.append({"roll": b})
        elif t == EV_CALL:
            events.append({"call": "bottle"})
        elif t == EV_MOVE:
            events.append({"move": b, "steps": c, "turn": d, "enter": bool(e), "sum": bool(_f)})
        elif t == EV_PLACE:
            events.append({"place": [a, b], "from": fid(c), "to": fid(d)})
        elif t == EV_PUB:
            events.append({"pub": [a, b], "from": fid(c), "reason": DRINK_CAUSES[d]})
        elif t == EV_BOTTLE:
            events.append({"bottle": fid(b), "from": fid(a) if a >= 0 else None, "why": BOTTLE_WHY[c]})
        elif t == EV_CARD:
            events.append({"card": card_label(c, d), "by": [a, b]})
        elif t == EV_DRINK:
            events.append({"drink": a, "reason": DRINK_CAUSES[b], "n": c})
        elif t == EV_SWAP:
            events.append({"swap": [a, b], "with": [c, d]})
        elif t == EV_POLICE:
            events.append({"police": [a, b], "from": fid(c)})
        elif t == EV_IMMUNE:
            events.append({"immune": [a, b], "turns": c})
        elif t == EV_WIN:
            events.append({"win": a})


def classic_field(seat: int, code: int) -> str:
    """Field id of a classic position code (-1 waiting, 0..39 steps from the start, 40..43 home)."""
    if code < 0:
        return "pub"
    if code >= 40:
        return f"H{seat}.{code - 39}"
    return f"L{(10 * seat + code) % 40}"


def play_classic(players: int, strategies: tuple[str, ...], seed: int, after_six: str = "one-roll",
                 first: str = "seat0") -> GameLog:
    """Let the engine play one classic game and log it."""
    from solver._ext import clovece as engine

    winner, trace = engine.classic_trace(players, list(SEATS[players]), strategy_ids(strategies), seed,
                                         three_after_six=after_six == "three-tries",
                                         first_random=first == "random")
    return classic_log(players, strategies, seed, {"after_six": after_six, "first": first}, trace, winner)


def classic_log(players: int, strategies: tuple[str, ...], seed: int, rules: dict[str, str],
                rolls: list[tuple[int, int, int, int, int, int]], winner: int, ended: bool = True) -> GameLog:
    """The log of a classic game from its rolls as the engine traces them: (player, die, pawn or
    -1, from, to, captured pawn q * 4 + j or -1), positions as codes; ``winner`` -1 if none (then
    the game was abandoned if it ``ended``, else it is still going: no result line)."""
    seats = list(SEATS[players])
    lines: list[dict[str, Any]] = [log_header("classic", players, strategies, seed, rules)]
    for p, die, k, frm, to, victim in rolls:
        if len(lines) == 1 or lines[-1]["player"] != p:   # players alternate: a new player, a new turn
            lines.append({"turn": len(lines), "player": p, "events": []})
        events = lines[-1]["events"]
        events.append({"roll": die})
        if k >= 0:
            events.append({"move": k})
            events.append({"place": [p, k], "from": classic_field(seats[p], frm), "to": classic_field(seats[p], to)})
            if victim >= 0:
                q, j = divmod(victim, 4)
                events.append({"pub": [q, j], "from": classic_field(seats[p], to), "reason": "captured"})
    if winner >= 0:
        lines[-1]["events"].append({"win": winner})
    if winner >= 0 or ended:
        lines.append({"result": "win" if winner >= 0 else "abandoned", "turns": len(lines) - 1,
                      **({"winner": winner} if winner >= 0 else {})})
    return GameLog(lines)
