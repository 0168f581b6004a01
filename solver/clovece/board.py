"""Napij-se board graphs: load a JSON board file, validate it, compile it into engine arrays.

A board is a list of fields.  Every field has an ``id``, a ``kind`` (what happens there) and a
``zone`` (which part of the board it belongs to, which decides how pawns step through it):

* zones: ``loop`` (main loop, clockwise ``next`` / counter-clockwise ``prev``), ``shortcut``
  (one-way ``next``), ``black`` (the two-way Black path: ``next`` one way, ``prev`` the other),
  ``branch`` (toward a holding field by ``next``, back out by ``prev``), ``hold`` (police cell,
  swamp, forest: dead ends, ``prev`` leads out), ``pin`` and ``home`` (a seat's way into its home).
* kinds: normal, start, arrow, crossroads and detour (both need ``turn``: the alternative field),
  police, swamp, forest, card, pin, home.

Each of the four ``seats`` names its start field, its arrow field (where its pawns turn off the
loop), its rolling pin and its four home fields.  Errors are one line naming the field.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from solver.errors import SolverError
from solver.inputs import parse_json, read_text

#: field kinds, zones and the field limit in engine order (tests/test_clovece_tables.py checks them)
KINDS = ("normal", "start", "arrow", "crossroads", "detour", "police", "swamp", "forest", "card", "pin", "home")
ZONES = ("loop", "shortcut", "black", "branch", "hold", "pin", "home")
HOLD_KINDS = ("police", "swamp", "forest")
MAX_FIELDS = 200
UNREACHABLE = 999


@dataclass(frozen=True)
class Board:
    """A validated board: field ids in file order plus the arrays the engine needs."""

    name: str
    ids: tuple[str, ...]
    arrays: dict[str, Any]

    def index(self, field_id: str) -> int:
        """Engine index of a field id."""
        try:
            return self.ids.index(field_id)
        except ValueError:
            raise SolverError(f"board {self.name!r} has no field {field_id!r}") from None


def default_board_path() -> Path:
    """The shipped default board (our reconstruction of the printed one)."""
    return Path(str(resources.files("solver.clovece") / "napij-se.board.json"))


def read_board_text(path: str | Path | None = None) -> str:
    """The text of a board file, validated (so that it can travel to workers instead of a path)."""
    text = read_text(path, "board file") if path is not None else default_board_path().read_text(encoding="utf-8")
    load_board(path or default_board_path(), text)
    return text


def load_board(path: str | Path | None = None, text: str | None = None) -> Board:
    """Read and validate a board file (default: the shipped reconstruction) or a board's JSON text."""
    name = "board" if text is not None and path is None else str(path or default_board_path())
    if text is None:
        text = read_text(name, "board file")
    doc = parse_json(text, f"board file {name!r}")
    return compile_board(doc, name=name)


def _field_error(fid: str, msg: str) -> SolverError:
    return SolverError(f"board field {fid!r}: {msg}")


def compile_board(doc: Any, name: str = "board") -> Board:
    """Validate a parsed board document and build the engine arrays.

    >>> b = load_board()
    >>> len(b.ids), b.ids[b.arrays["start"][1]], b.ids[b.arrays["police"]]
    (87, 'L10', 'POLICE')
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("fields"), list) or not isinstance(
            doc.get("seats"), list):
        raise SolverError(f"board {name!r}: needs a 'fields' list and a 'seats' list")
    fields = doc["fields"]
    if not fields or len(fields) > MAX_FIELDS:
        raise SolverError(f"board {name!r}: needs 1..{MAX_FIELDS} fields, has {len(fields)}")
    ids: list[str] = []
    for i, f in enumerate(fields):
        if not isinstance(f, dict) or not isinstance(f.get("id"), str) or not f["id"]:
            raise SolverError(f"board {name!r}: field number {i + 1} has no id")
        if f["id"] in ids:
            raise _field_error(f["id"], "duplicate id")
        ids.append(f["id"])
    pos = {fid: i for i, fid in enumerate(ids)}
    n = len(ids)
    kind = [0] * n
    zone = [0] * n
    nxt, prv, alt = [-1] * n, [-1] * n, [-1] * n

    def ref(f: dict, key: str) -> int:
        target = f.get(key)
        if target is None:
            return -1
        if not isinstance(target, str) or target not in pos:
            raise _field_error(f["id"], f"{key} {target!r} is not a field (dangling connection)")
        return pos[target]

    for i, f in enumerate(fields):
        fid = f["id"]
        if f.get("kind") not in KINDS:
            raise _field_error(fid, f"unknown field kind {f.get('kind')!r} (known: {', '.join(KINDS)})")
        if f.get("zone") not in ZONES:
            raise _field_error(fid, f"unknown zone {f.get('zone')!r} (known: {', '.join(ZONES)})")
        kind[i] = KINDS.index(f["kind"])
        zone[i] = ZONES.index(f["zone"])
        nxt[i], prv[i], alt[i] = ref(f, "next"), ref(f, "prev"), ref(f, "turn")
    for i, f in enumerate(fields):
        _check_field(f, i, kind, zone, nxt, prv, alt, ids)
    start, pin, arrow_of = _check_seats(doc["seats"], pos, kind, zone, nxt, ids, name)
    police = [i for i in range(n) if KINDS[kind[i]] == "police"]
    dist = _distances(start, pin, arrow_of, kind, zone, nxt, prv, alt, ids)
    arrays = {
        "kind": kind, "zone": zone, "next": nxt, "prev": prv, "alt": alt,
        "arrow_of": [arrow_of.get(i, -1) for i in range(n)], "start": start, "pin": pin,
        "police": police[0] if police else -1, "nloop": sum(1 for z in zone if ZONES[z] == "loop"),
        "dist": dist,
    }
    return Board(str(doc.get("name", name)), tuple(ids), arrays)


def _check_field(f: dict, i: int, kind: list[int], zone: list[int], nxt: list[int], prv: list[int],
                 alt: list[int], ids: list[str]) -> None:
    """Connections that the field's kind and zone require."""
    fid, k, z = f["id"], KINDS[kind[i]], ZONES[zone[i]]
    if k in HOLD_KINDS:
        if z != "hold" or nxt[i] >= 0 or prv[i] < 0:
            raise _field_error(fid, f"a {k} field needs zone 'hold', no next and a prev (the way out)")
    elif z == "hold":
        raise _field_error(fid, "zone 'hold' is only for police, swamp and forest fields")
    if z == "loop":
        if nxt[i] < 0 or prv[i] < 0 or ZONES[zone[nxt[i]]] != "loop" or ZONES[zone[prv[i]]] != "loop":
            raise _field_error(fid, "a loop field needs next and prev on the loop")
        if nxt[prv[i]] != i:
            raise _field_error(fid, f"prev {ids[prv[i]]!r} does not lead back here by next")
    if z in ("shortcut", "black", "pin") and nxt[i] < 0:
        raise _field_error(fid, f"a {z} field needs next")
    if z in ("black", "branch") and prv[i] < 0:
        raise _field_error(fid, f"a {z} field needs prev")
    if k in ("crossroads", "detour"):
        if alt[i] < 0:
            raise _field_error(fid, f"a {k} field needs turn (the other direction)")
        if k == "detour" and z != "black":
            raise _field_error(fid, "detour fields belong to the Black path (zone 'black')")
        if k == "crossroads" and z not in ("loop", "branch"):
            raise _field_error(fid, "crossroads fields belong to the loop or to a branch")
    elif alt[i] >= 0:
        raise _field_error(fid, "only crossroads and detour fields have a turn")
    if k == "card" and z != "loop":
        raise _field_error(fid, "card fields belong to the main loop")
    if k in ("start", "arrow") and z != "loop":
        raise _field_error(fid, f"{k} fields belong to the main loop")
    if (k == "pin") != (z == "pin") or (k == "home") != (z == "home"):
        raise _field_error(fid, "pin and home fields have the zone of the same name")


def _check_seats(seats: list, pos: dict[str, int], kind: list[int], zone: list[int], nxt: list[int],
                 ids: list[str], name: str) -> tuple[list[int], list[int], dict[int, int]]:
    if len(seats) != 4:
        raise SolverError(f"board {name!r}: needs exactly 4 seats, has {len(seats)}")
    start, pin, arrow_of = [], [], {}
    for s, seat in enumerate(seats):
        try:
            st, ar, pn, home = pos[seat["start"]], pos[seat["arrow"]], pos[seat["pin"]], seat["home"]
            hs = [pos[h] for h in home]
        except (KeyError, TypeError):
            raise SolverError(f"board {name!r}: seat {s} needs start, arrow, pin and home naming fields") from None
        if KINDS[kind[st]] != "start" or KINDS[kind[ar]] != "arrow":
            raise _field_error(ids[st], f"seat {s}: start must be a start field and arrow an arrow field")
        if KINDS[kind[pn]] != "pin" or len(hs) != 4 or any(KINDS[kind[h]] != "home" for h in hs):
            raise _field_error(ids[pn], f"seat {s}: pin must be a pin field followed by 4 home fields")
        chain = [pn, *hs]
        for a, b in zip(chain, chain[1:], strict=False):
            if nxt[a] != b:
                raise _field_error(ids[a], f"seat {s}: next must be {ids[b]!r} (the way into the home)")
        if nxt[hs[-1]] != -1:
            raise _field_error(ids[hs[-1]], f"seat {s}: the last home field has no next")
        if ar in arrow_of:
            raise _field_error(ids[ar], "arrow field of two seats")
        arrow_of[ar] = s
        start.append(st)
        pin.append(pn)
    return start, pin, arrow_of


def _successors(f: int, seat: int, kind: list[int], zone: list[int], nxt: list[int], prv: list[int],
                alt: list[int], arrow_of: dict[int, int], pin: list[int]) -> list[int]:
    """Every field a pawn of ``seat`` may step to from f (all choices, both directions)."""
    z = ZONES[zone[f]]
    out = []
    if z == "loop" and arrow_of.get(f) == seat:
        out.append(pin[seat])
    elif z in ("black", "branch", "hold"):
        out += [nxt[f], prv[f]]
    else:
        out.append(nxt[f])
    out.append(alt[f])
    if KINDS[kind[f]] == "crossroads" and z == "branch":
        out.append(prv[f])
    return [t for t in out if t >= 0]


def _distances(start: list[int], pin: list[int], arrow_of: dict[int, int], kind: list[int], zone: list[int],
               nxt: list[int], prv: list[int], alt: list[int], ids: list[str]) -> list[list[int]]:
    """Per seat: fewest steps from every field to the seat's last home field (optimistic)."""
    n = len(ids)
    dist = []
    for s in range(4):
        succ = [_successors(f, s, kind, zone, nxt, prv, alt, arrow_of, pin) for f in range(n)]
        pred: list[list[int]] = [[] for _ in range(n)]
        for f in range(n):
            for t in succ[f]:
                pred[t].append(f)
        last = pin[s]
        while nxt[last] >= 0:
            last = nxt[last]
        d = [UNREACHABLE] * n
        d[last] = 0
        queue = deque([last])
        while queue:
            f = queue.popleft()
            for g in pred[f]:
                if d[g] == UNREACHABLE:
                    d[g] = d[f] + 1
                    queue.append(g)
        if d[start[s]] == UNREACHABLE:
            raise _field_error(ids[last], f"seat {s}: home unreachable from start {ids[start[s]]!r}")
        dist.append(d)
    return dist
