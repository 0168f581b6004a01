"""Every Člověče table the Python side and the C engine share, checked against the engine's enums.

The engine exports its enums by name (``ENUMS`` in ext/clovece.pyx); each Python table must give
every name the engine's code, and the limits the loaders enforce must be the engine's array sizes.
"""

from __future__ import annotations

import pytest

from solver._ext import clovece as engine
from solver.clovece import board, deck, experiment, play, strategies


def _codes(names: tuple[str, ...]) -> dict[str, int]:
    return {name: i for i, name in enumerate(names)}


@pytest.mark.parametrize("table,names", [
    ("strategies", strategies.STRATEGIES),
    ("field_kinds", board.KINDS),
    ("zones", board.ZONES),
    ("card_kinds", deck.CARD_KINDS),
    ("drink_causes", experiment.DRINK_CAUSES),
])
def test_python_table_matches_engine_enum(table: str, names: tuple[str, ...]) -> None:
    assert _codes(names) == engine.ENUMS[table]


def test_log_record_types_match_engine() -> None:
    assert {name: getattr(play, name) for name in engine.ENUMS["events"]} == engine.ENUMS["events"]
    assert sorted(n for n in vars(play) if n.startswith("EV_")) == sorted(engine.ENUMS["events"])


def test_loader_limits_are_the_engine_sizes() -> None:
    limits = engine.ENUMS["limits"]
    assert board.MAX_FIELDS == limits["fields"]
    assert deck.MAX_CARDS == limits["cards"]
    assert len(deck.CARD_KINDS) == limits["card_kinds"]
    assert len(experiment.DRINK_CAUSES) == limits["drink_causes"]
