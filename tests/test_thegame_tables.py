"""The Game's strategy table (solver/thegame/strategies.py) checked against the engine's enums.

The engine reads a strategy as a kind number and a vector of parameters by slot; the Python table
names both.  ``ENUMS`` in ext/thegame.pyx exports the kinds, the slots and the array limits by name,
and every strategy's kind and parameter order must match them.
"""

from __future__ import annotations

import pytest

from solver._ext import thegame as engine
from solver.thegame import strategies
from solver.thegame.variants import hand_size


@pytest.mark.parametrize("name", list(strategies.STRATEGIES))
def test_kind_and_parameter_slots_match_engine(name: str) -> None:
    stype = strategies.STRATEGIES[name]
    assert stype.kind == engine.ENUMS["kinds"][name]
    assert {p: i for i, p in enumerate(stype.params)} == engine.ENUMS["slots"].get(name, {})
    assert set(stype.defaults) == set(stype.params) and set(stype.ranges) == set(stype.params)


def test_every_engine_kind_has_a_strategy() -> None:
    assert set(engine.ENUMS["kinds"]) == set(strategies.STRATEGIES)


def test_limits() -> None:
    limits = engine.ENUMS["limits"]
    assert strategies.NPARAM == limits["params"]
    assert max(len(s.params) for s in strategies.STRATEGIES.values()) <= limits["params"]
    assert max(hand_size(p) for p in range(1, limits["players"] + 1)) <= limits["hand"]
