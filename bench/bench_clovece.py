"""Speed of the Člověče engines: four-player games of random players, one core.

Run with ``pytest bench/bench_clovece.py --benchmark-only``; games/s = games per round / mean time.
Targets (issue 6): classic >= 40,000 games/s, napij-se >= 10,000 games/s per core.
"""

from __future__ import annotations

from conftest import record_rates

from solver._ext import clovece as engine
from solver.clovece.experiment import compiled

GAMES = 4000


def test_classic_random_four_players(benchmark) -> None:
    r = benchmark(engine.classic_simulate, 4, [0, 1, 2, 3], [0, 0, 0, 0], 1, GAMES)
    assert r["wins"].sum() == GAMES
    record_rates(benchmark, games_per_second=GAMES)


def test_napij_random_four_players(benchmark) -> None:
    board = compiled(None, None)
    r = benchmark(engine.napij_simulate, board, 4, [0, 1, 2, 3], [0, 0, 0, 0], 1, GAMES // 4)
    assert r["wins"].sum() == GAMES // 4
    record_rates(benchmark, games_per_second=GAMES // 4)


def test_napij_best_vs_random(benchmark) -> None:
    board = compiled(None, None)
    r = benchmark(engine.napij_simulate, board, 4, [0, 1, 2, 3], [5, 0, 0, 0], 1, GAMES // 4)
    record_rates(benchmark, games_per_second=GAMES // 4)
    assert r["wins"].sum() == GAMES // 4
