"""Time to first solution for each shipped puzzle (one round each; run with --benchmark-only).

    pytest bench/bench_puzzles.py --benchmark-only

The game-rules puzzles (all-84, all-84-descending) get a 60 s limit; the status is recorded in
``extra_info`` (a run that ends "unknown within the limit" still reports its time).
"""

from __future__ import annotations

import pytest

from solver.puzzles.solve import enumerate_solutions, solve
from solver.puzzles.spec import load_puzzle, shipped_names


@pytest.mark.parametrize("name", shipped_names())
def test_first_solution(benchmark, name):
    puzzle = load_puzzle(name)
    result = benchmark.pedantic(solve, args=(puzzle,), kwargs={"time_limit": 60.0, "seed": 0},
                                rounds=1, iterations=1)
    benchmark.extra_info.update(status=result.status, method=result.method, seconds=result.seconds)


def test_count_6x10(benchmark):
    result = benchmark.pedantic(enumerate_solutions, args=(load_puzzle("pentomino-6x10"),), rounds=1, iterations=1)
    assert result.count == 2339
