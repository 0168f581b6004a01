"""The model's parameters: the documented default file, user overrides, validation, sweeps.

Component details the publisher does not give (doll cards, track length, Dalgona shapes, cracked
bridge tiles, the squid board, marble skill ...) live in ``params.toml`` next to this module.
``--params FILE`` overrides any subset of its keys; every inconsistency is one ``SolverError``
line.  :func:`engine_dict` flattens a validated parameter set (plus the equilibrium tables) into
the plain dict the C engine reads.
"""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

from solver.errors import SolverError
from solver.inputs import load_toml, parse_error_reason

DEFAULT_FILE = Path(__file__).with_name("params.toml")
SHAPES = ("circle", "triangle", "star", "umbrella")
SUBGAMES = ("red_light", "dalgona", "tug_of_war", "marbles", "glass_bridge", "squid")
#: limits of the engine's arrays (tests/test_squid_tables.py checks them against ext/squid.pyx)
MAX_SEATS = 6
MAX_DALGONA_CARDS = 64
MAX_ZONES = 16
MAX_BRIDGE_TILES = 16
MAX_BRIDGE_PARTS = 8
MAX_DOLL_CARDS = 7          # the equilibrium table of red light has one bit per doll card
#: the sub-games with a timer, each with its own start value ``<game>.timer_steps``
TIMED = ("red_light", "dalgona", "glass_bridge")

Params = dict[str, Any]


def default_params() -> Params:
    """The documented defaults (a fresh copy)."""
    with DEFAULT_FILE.open("rb") as fh:
        return tomllib.load(fh)


def _merge(base: Params, over: Params, where: str = "") -> Params:
    out = copy.deepcopy(base)
    for key, value in over.items():
        name = f"{where}{key}"
        if name == "timer_steps":
            raise SolverError("parameter 'timer_steps' is per sub-game now: set red_light.timer_steps, "
                              "dalgona.timer_steps and glass_bridge.timer_steps")
        if key not in base:
            raise SolverError(f"unknown parameter {name!r}")
        if isinstance(base[key], dict):
            if not isinstance(value, dict):
                raise SolverError(f"parameter {name!r} must be a table")
            out[key] = _merge(base[key], value, f"{name}.")
        else:
            out[key] = value
    return out


def load_params(path: str | None = None) -> Params:
    """Defaults, overridden by the TOML file ``path`` if given, validated.

    >>> load_params()["glass_bridge"]["cracked"]
    3
    """
    params = default_params()
    if path:
        over = load_toml(path, "parameter file")
        params = _merge(params, over)
    validate(params)
    return params


def parse_sweep(text: str) -> tuple[str, list[Any]]:
    """``'glass_bridge.cracked=2,3,4'`` -> ('glass_bridge.cracked', [2, 3, 4]).

    >>> parse_sweep("marbles.off_table=0,0.25")
    ('marbles.off_table', [0, 0.25])
    >>> parse_sweep("tug_of_war.tie=both_survive")
    ('tug_of_war.tie', ['both_survive'])
    """
    if "=" not in text:
        raise SolverError(f"invalid --sweep {text!r}: use NAME=V1,V2,... e.g. glass_bridge.cracked=2,3,4")
    name, values = text.split("=", 1)
    out: list[Any] = []
    for raw in values.split(","):
        raw = raw.strip()
        if not raw:
            raise SolverError(f"invalid --sweep {text!r}: empty value")
        try:
            out.append(tomllib.loads(f"v = {raw}")["v"])
        except tomllib.TOMLDecodeError:
            out.append(raw)
        except (ValueError, RecursionError) as exc:  # a number of more than 4300 digits, deep nesting
            raise SolverError(f"invalid --sweep value {raw[:20]}…: {parse_error_reason(exc)}") from None
    return name.strip(), out


def with_value(params: Params, name: str, value: Any) -> Params:
    """A validated copy of params with the dotted parameter ``name`` set to ``value``."""
    parts = name.split(".")
    over: Any = value
    for part in reversed(parts):
        over = {part: over}
    out = _merge(params, over)
    leaf = out
    for part in parts[:-1]:
        leaf = leaf[part]
    if isinstance(leaf.get(parts[-1]), dict):
        raise SolverError(f"cannot sweep the table {name!r}: sweep one of its keys")
    validate(out)
    return out


# ----------------------------------------------------------------------------- validation

def _int(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SolverError(f"parameter {name} must be an integer between {low} and {high}, got {value!r}")
    return value


def _num(value: Any, name: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise SolverError(f"parameter {name} must be a number between {low} and {high}, got {value!r}")
    return float(value)


def _weights(value: Any, name: str, n: int) -> list[float]:
    if not isinstance(value, list) or len(value) != n:
        raise SolverError(f"parameter {name} must be a list of {n} numbers")
    out = [_num(v, name, 0.0, 1e9) for v in value]
    if sum(out) <= 0:
        raise SolverError(f"parameter {name} needs a positive weight")
    return out


def validate(p: Params) -> None:
    """Raise SolverError naming the first inconsistent parameter."""
    for game in TIMED:
        _int(p[game]["timer_steps"], f"{game}.timer_steps", 1, 20)
    rl = p["red_light"]
    _int(rl["track_length"], "red_light.track_length", 1, 100)
    cards = rl["doll_cards"]
    if not isinstance(cards, list) or not 1 <= len(cards) <= MAX_DOLL_CARDS:
        raise SolverError(f"parameter red_light.doll_cards must be a list of 1 to {MAX_DOLL_CARDS} cards")
    for card in cards:
        if not isinstance(card, list) or len(set(map(str, card))) != len(card):
            raise SolverError("each red_light.doll_cards entry must be a list of distinct numbers 0-4")
        for n in card:
            _int(n, "red_light.doll_cards", 0, 4)
    dg = p["dalgona"]
    for table in ("sections", "shape_cards"):
        if not isinstance(dg[table], dict) or set(dg[table]) != set(SHAPES):
            raise SolverError(f"parameter dalgona.{table} must give exactly {', '.join(SHAPES)}")
    for shape in SHAPES:
        _int(dg["sections"][shape], f"dalgona.sections.{shape}", 1, 50)
        _int(dg["shape_cards"][shape], f"dalgona.shape_cards.{shape}", 0, 60)
    _int(dg["crack_cards"], "dalgona.crack_cards", 0, 60)
    if not 1 <= sum(dg["shape_cards"].values()) + dg["crack_cards"] <= MAX_DALGONA_CARDS:
        raise SolverError(f"the Dalgona deck (shape_cards + crack_cards) must hold 1 to {MAX_DALGONA_CARDS} cards")
    tug = p["tug_of_war"]
    _int(tug["side_capacity"], "tug_of_war.side_capacity", 1, 7)
    if tug["tie"] not in ("both_eliminated", "both_survive"):
        raise SolverError("parameter tug_of_war.tie must be 'both_eliminated' or 'both_survive'")
    mb = p["marbles"]
    _num(mb["off_table"], "marbles.off_table", 0.0, 1.0)
    if not isinstance(mb["skill"], list) or not 1 <= len(mb["skill"]) <= MAX_SEATS:
        raise SolverError(f"parameter marbles.skill must be a list of 1 to {MAX_SEATS} numbers (one per seat)")
    for s in mb["skill"]:
        _num(s, "marbles.skill", 0.01, 100.0)
    br = p["glass_bridge"]
    _int(br["tiles"], "glass_bridge.tiles", 1, MAX_BRIDGE_TILES)
    _int(br["cracked"], "glass_bridge.cracked", 0, br["tiles"])
    _int(br["max_tiles"], "glass_bridge.max_tiles", 1, min(MAX_BRIDGE_PARTS, br["tiles"]))
    sq = p["squid"]
    zones = sq["zones"]
    if (not isinstance(zones, list) or not all(isinstance(z, str) for z in zones)
            or len(set(zones)) != len(zones) or not 3 <= len(zones) <= MAX_ZONES):
        raise SolverError(f"parameter squid.zones must be a list of 3 to {MAX_ZONES} distinct names")
    for need in ("safe", "triangle"):
        if need not in zones:
            raise SolverError(f"parameter squid.zones must contain {need!r}")
    if sq["start"] not in zones or sq["start"] in ("safe", "triangle"):
        raise SolverError("parameter squid.start must be a zone other than 'safe' and 'triangle'")
    if not isinstance(sq["adjacent"], list):
        raise SolverError("parameter squid.adjacent must be a list of [zone, zone] pairs")
    for pair in sq["adjacent"]:
        if (not isinstance(pair, list) or len(pair) != 2 or pair[0] == pair[1]
                or any(z not in zones for z in pair)):
            raise SolverError(f"squid.adjacent entry {pair!r} must be two different known zones")
    if zone_distances(p)[sq["start"]] is None:
        raise SolverError("the squid triangle cannot be reached from the start zone")
    _int(sq["triangle_fields"], "squid.triangle_fields", 1, 50)
    _int(sq["max_rounds"], "squid.max_rounds", 1, 1_000_000)
    pol = p["policies"]
    for key in ("red_light_penalty_careful", "red_light_penalty_bold"):
        _num(pol[key], f"policies.{key}", 0.0, 1e6)
    for key in ("dalgona_stop_careful", "dalgona_stop_bold"):
        _num(pol[key], f"policies.{key}", 0.0, 1.0)
    _weights(pol["squid_careful"], "policies.squid_careful", 4)
    _weights(pol["squid_bold"], "policies.squid_bold", 4)
    for key, value in p["equilibrium"].items():
        low = -100.0 if key == "red_light_zero_value" else 0.0
        _num(value, f"equilibrium.{key}", low, 1e6)


def zone_distances(p: Params) -> dict[str, int | None]:
    """Moves from each squid zone to the triangle (None: unreachable), by breadth-first search."""
    zones = p["squid"]["zones"]
    nbr: dict[str, set[str]] = {z: set() for z in zones}
    for a, b in p["squid"]["adjacent"]:
        nbr[a].add(b)
        nbr[b].add(a)
    dist: dict[str, int | None] = dict.fromkeys(zones)
    dist["triangle"] = 0
    frontier = ["triangle"]
    while frontier:
        nxt = []
        for z in frontier:
            for y in nbr[z]:
                if dist[y] is None:
                    dist[y] = dist[z] + 1  # type: ignore[operator]
                    nxt.append(y)
        frontier = nxt
    return dist


def engine_dict(p: Params) -> dict[str, Any]:
    """Flatten validated params (and the equilibrium tables) for ``solver._ext.squid``."""
    from solver.squid.equilibrium import tables

    sq = p["squid"]
    zones = ["safe"] + [z for z in sq["zones"] if z != "safe"]  # the safe zone is index 0
    index = {z: i for i, z in enumerate(zones)}
    adj = [[0] * len(zones) for _ in zones]
    for a, b in sq["adjacent"]:
        adj[index[a]][index[b]] = adj[index[b]][index[a]] = 1
    dist = zone_distances(p)
    big = len(zones) + 1
    dg = p["dalgona"]
    deck = [i for i, s in enumerate(SHAPES) for _ in range(dg["shape_cards"][s])] + [4] * dg["crack_cards"]
    skill = [float(s) for s in p["marbles"]["skill"]]
    skill += [1.0] * (6 - len(skill))
    pol = p["policies"]
    out: dict[str, Any] = {
        "rl_timer": p["red_light"]["timer_steps"],
        "dg_timer": p["dalgona"]["timer_steps"],
        "br_timer": p["glass_bridge"]["timer_steps"],
        "rl_len": p["red_light"]["track_length"],
        "doll_masks": [sum(1 << n for n in card) for card in p["red_light"]["doll_cards"]],
        "rl_penalty_careful": float(pol["red_light_penalty_careful"]),
        "rl_penalty_bold": float(pol["red_light_penalty_bold"]),
        "dg_sections": [dg["sections"][s] for s in SHAPES],
        "dg_deck": deck,
        "dg_careful": float(pol["dalgona_stop_careful"]),
        "dg_bold": float(pol["dalgona_stop_bold"]),
        "tug_cap": p["tug_of_war"]["side_capacity"],
        "tug_tie_survive": int(p["tug_of_war"]["tie"] == "both_survive"),
        "mb_off": float(p["marbles"]["off_table"]),
        "mb_skill": skill,
        "br_tiles": p["glass_bridge"]["tiles"],
        "br_cracked": p["glass_bridge"]["cracked"],
        "br_max": p["glass_bridge"]["max_tiles"],
        "sq_adj": adj,
        "sq_dist": [dist[z] if dist[z] is not None else big for z in zones],
        "sq_start": index[sq["start"]],
        "sq_tri": index["triangle"],
        "sq_fields": sq["triangle_fields"],
        "sq_max_rounds": sq["max_rounds"],
        "sq_careful": [float(x) for x in pol["squid_careful"]],
        "sq_bold": [float(x) for x in pol["squid_bold"]],
    }
    out.update(tables(p))
    return out
