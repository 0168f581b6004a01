"""Every Squid Game table the Python side shares with the C engine, checked against the engine's enums.

The engine exports its enums and array limits by name (``ENUMS`` in ext/squid.pyx); each Python table
must give every name the engine's code, and every limit the parameter checks enforce must fit the
engine's arrays.
"""

from __future__ import annotations

import pytest

from solver._ext import squid as engine
from solver.squid import equilibrium, experiment, params, play


@pytest.mark.parametrize("table,names", [
    ("policies", experiment.POLICIES),
    ("squid_cards", equilibrium.SQUID_CARDS),
    ("how", experiment.HOW),
])
def test_python_table_matches_engine_enum(table: str, names: tuple[str, ...]) -> None:
    assert {name: i for i, name in enumerate(names)} == engine.ENUMS[table]


def test_log_record_types_match_engine() -> None:
    events = engine.ENUMS["events"]
    assert {name: getattr(play, name) for name in events} == events
    assert sorted(n for n in vars(play) if n.startswith("EV_")) == sorted(events)


def test_parameter_limits_fit_the_engine_arrays() -> None:
    limits = engine.ENUMS["limits"]
    assert len(params.SUBGAMES) == limits["subgames"]
    assert params.MAX_SEATS == limits["seats"]
    assert params.MAX_DALGONA_CARDS == limits["dalgona_cards"]
    assert params.MAX_ZONES == limits["zones"]
    assert params.MAX_BRIDGE_TILES == limits["bridge_tiles"]
    assert params.MAX_BRIDGE_PARTS == limits["bridge_parts"]
    assert params.MAX_DOLL_CARDS <= limits["doll_cards"]


def test_decision_kinds_match_engine_and_are_documented() -> None:
    from solver.squid import decisions

    kinds = engine.ENUMS["decisions"]
    assert sorted(kinds.values()) == list(range(len(kinds)))          # the engine's ids 0..N-1
    assert {name: i for i, name in enumerate(decisions.DECISIONS)} == kinds
    assert all(f"``{name}``" in decisions.__doc__ for name in kinds)  # each kind's actions are described
    assert set(decisions.SECRET) <= set(kinds)
