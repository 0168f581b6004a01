"""Strategy specs: ``name`` or ``name:key=val,key=val`` -> engine kind + parameter vector.

The engine reads a strategy as a kind number and up to 16 doubles; this module owns the names of
those slots and their defaults.  ``planner`` defaults depend on the player count (tuned with
short runs, see docs/thegame.md); any parameter given explicitly overrides the default.

>>> [s.label for s in parse_strategies("greedy,reach:reach=1,endgame=7,planner")]
['greedy', 'reach:reach=1,endgame=7', 'planner']
>>> parse_strategies("reach:endgame=5")[0].vector(1)[:2].tolist()
[2.0, 5.0]
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from solver.errors import SolverError

NPARAM = 16


@dataclass(frozen=True)
class StrategyType:
    """One strategy of the engine: its kind number and named parameter slots with defaults."""

    name: str
    kind: int
    params: tuple[str, ...]
    defaults: dict[str, float]
    help: str
    #: per player count overrides of the defaults
    by_players: dict[int, dict[str, float]] = field(default_factory=dict)
    #: allowed range of each parameter (beyond it a value overflows the engine or reverses its meaning)
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)

    def defaults_for(self, players: int) -> dict[str, float]:
        return {**self.defaults, **self.by_players.get(players, {})}


_PLANNER_PARAMS = ("dead", "w1", "w2", "w3", "extra", "maxx", "eextra", "emaxx",
                   "sig", "sigpen", "fire", "margin", "jump", "own")
#: a gap between a pile's top and a card: -10 (the 10-jump) or 1..98
GAP = (-10.0, 98.0)
#: a number of live cards skipped, 0..98
SKIP = (0.0, 98.0)
#: costs and weights: non-negative (a negative one would reward what it is meant to penalise), and
#: small enough for the engine's int arithmetic (signal's pen is added to an int gap)
COST = (0.0, 1000.0)
BONUS = (-100.0, 100.0)

STRATEGIES: dict[str, StrategyType] = {
    "greedy": StrategyType(
        "greedy", 0, (), {},
        "each card onto the pile with the smallest gap, backward-10 moves first, exactly the minimum"),
    "reach": StrategyType(
        "reach", 1, ("reach", "endgame"), {"reach": 2.0, "endgame": 3.0},
        "greedy, then extra cards while the best gap is <= reach (endgame: once the draw pile is empty)",
        ranges={"reach": GAP, "endgame": GAP}),
    "signal": StrategyType(
        "signal", 2, ("reach", "endgame", "sig", "pen"),
        {"reach": 2.0, "endgame": 10.0, "sig": 1.0, "pen": 10.0},
        "reach + pile signals: mates holding a pile's 10-jump or a card within sig of its top ask to "
        "keep it; others add pen to the gap there",
        ranges={"reach": GAP, "endgame": GAP, "sig": SKIP, "pen": COST}),
    "planner": StrategyType(
        "planner", 3, _PLANNER_PARAMS,
        {"dead": 20.0, "w1": 2.0, "w2": 0.5, "w3": 0.1, "extra": -0.5, "maxx": 3.0, "eextra": 0.5,
         "emaxx": 3.0, "sig": 1.0, "sigpen": 2.0, "fire": 20.0, "margin": 12.0, "jump": 0.0, "own": 0.5},
        "searches every play sequence of the turn; scores piles by how many piles still accept each "
        "live card, plus signals and fire cards",
        by_players={1: {"extra": -0.25, "own": 0.0}, 4: {"sigpen": 1.0}, 5: {"sigpen": 1.0}},
        ranges={"dead": COST, "w1": COST, "w2": COST, "w3": COST, "extra": BONUS, "maxx": SKIP,
                "eextra": BONUS, "emaxx": SKIP, "sig": SKIP, "sigpen": COST, "fire": COST, "margin": SKIP,
                "jump": BONUS, "own": COST}),
}


@dataclass(frozen=True)
class StrategySpec:
    """A strategy name with the parameters the user set explicitly."""

    name: str
    params: tuple[tuple[str, float], ...] = ()

    @property
    def type(self) -> StrategyType:
        return STRATEGIES[self.name]

    @property
    def kind(self) -> int:
        return self.type.kind

    @property
    def label(self) -> str:
        """Canonical text of the spec (round-trips through :func:`parse_strategies`)."""
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={_fmt(v)}" for k, v in self.params)

    def values(self, players: int) -> dict[str, float]:
        """All parameter values for a game with ``players`` players."""
        return {**self.type.defaults_for(players), **dict(self.params)}

    def vector(self, players: int) -> np.ndarray:
        """The engine's parameter vector (float64, length 16)."""
        vec = np.zeros(NPARAM, dtype=np.float64)
        vals = self.values(players)
        for i, name in enumerate(self.type.params):
            vec[i] = vals[name]
        return vec


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _spec(name: str, pairs: list[str]) -> StrategySpec:
    name = name.strip()
    if name not in STRATEGIES:
        raise SolverError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)})")
    stype = STRATEGIES[name]
    params: dict[str, float] = {}
    for pair in pairs:
        key, _, text = pair.partition("=")
        key = key.strip()
        if key not in stype.params:
            known = ", ".join(stype.params) or "none"
            raise SolverError(f"unknown parameter {key!r} for strategy {name} (known: {known})")
        try:
            value = float(text)
        except ValueError:
            raise SolverError(f"parameter {key} of strategy {name} must be a number, got {text!r}") from None
        lo, hi = stype.ranges[key]
        if not lo <= value <= hi:   # also rejects nan and infinities
            raise SolverError(f"parameter {key} of strategy {name} must be between {_fmt(lo)} and {_fmt(hi)}, "
                              f"got {text.strip()}")
        params[key] = value
    return StrategySpec(name, tuple(params.items()))


def parse_strategies(text: str) -> list[StrategySpec]:
    """Parse a comma-separated list of specs.

    A token with ``=`` but no ``:`` continues the previous spec's parameters, so
    ``reach:reach=1,endgame=7`` is one spec.

    >>> parse_strategies("signal:pen=3,sig=1")[0].params
    (('pen', 3.0), ('sig', 1.0))
    """
    groups: list[tuple[str, list[str]]] = []
    for token in text.split(","):
        token = token.strip()
        if not token:
            raise SolverError(f"empty strategy in {text!r}")
        if ":" in token:
            name, _, first = token.partition(":")
            if "=" not in first:
                raise SolverError(f"strategy parameters must look like key=value, got {first!r}")
            groups.append((name, [first]))
        elif "=" in token:
            if not groups:
                raise SolverError(f"parameter {token!r} has no strategy before it")
            groups[-1][1].append(token)
        else:
            groups.append((token, []))
    return [_spec(name, pairs) for name, pairs in groups]


def parse_strategy(text: str) -> StrategySpec:
    """Exactly one strategy spec (for ``thegame play``)."""
    specs = parse_strategies(text)
    if len(specs) != 1:
        raise SolverError(f"give exactly one strategy, got {len(specs)}")
    return specs[0]
