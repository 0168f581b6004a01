"""The Game: games per second per core for each strategy (``pytest bench/bench_thegame.py --benchmark-only``).

Each benchmark plays one block in this process (one core).  Divide the block size by the mean
time for games/s: the issue's target is >= 200,000 games/s for greedy and reach.
"""

from __future__ import annotations

import pytest

from solver._ext import thegame as engine
from solver.thegame.strategies import parse_strategy
from solver.thegame.variants import VARIANTS

BLOCK = {"greedy": 50_000, "reach": 50_000, "signal": 50_000, "planner": 1_000}


def _block(spec_text: str, players: int, variant: str = "standard"):
    spec = parse_strategy(spec_text)
    var = VARIANTS[variant]
    lo, hi = var.fire_words
    vec = spec.vector(players)
    n = BLOCK[spec.name]
    return lambda: engine.simulate_block(players, var.min_play, var.min_play_empty, lo, hi, spec.kind,
                                         vec, 12345, n)


@pytest.mark.parametrize("players", [1, 3, 5])
@pytest.mark.parametrize("strategy", ["greedy", "reach", "signal", "planner"])
def test_games_per_second(benchmark, strategy, players):
    run = _block(strategy, players)
    wins, hist, _ = benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=1)
    benchmark.extra_info["games_per_block"] = BLOCK[strategy]
    if benchmark.stats:  # None with --benchmark-disable
        benchmark.extra_info["games_per_second"] = BLOCK[strategy] / benchmark.stats.stats.mean
    assert hist.sum() == BLOCK[strategy]


def test_planner_hard_variant(benchmark):
    run = _block("planner", 2, "hard")
    _, hist, _ = benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=1)
    if benchmark.stats:
        benchmark.extra_info["games_per_second"] = BLOCK["planner"] / benchmark.stats.stats.mean
    assert hist.sum() == BLOCK["planner"]
