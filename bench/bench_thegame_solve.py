"""The Game perfect-information solver: search nodes per second on one core
(``pytest bench/bench_thegame_solve.py --benchmark-only``).

A fixed solo deal that the search does not decide within the node limit, so every round visits
exactly ``NODES`` nodes (the node limit is reproducible, unlike a time limit).
"""

from __future__ import annotations

from conftest import record_rates

from solver._ext import thegame as engine
from solver._ext import thegame_solve as csolve

NODES = 300_000


def test_solver_nodes_per_second(benchmark):
    deck = engine.shuffled_deck(13)
    result = benchmark.pedantic(lambda: csolve.solve_deal(deck, 1, 8, 2, 1, node_limit=NODES),
                                rounds=3, iterations=1, warmup_rounds=1)
    record_rates(benchmark, nodes_per_s=result["nodes"])
    assert result["status"] == "limit" and result["nodes"] == NODES + 1
