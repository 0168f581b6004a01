"""Runner overhead: the cost of one block (task) in-process, on a local process pool and on Dask.

Each block here plays a single trivial game, so the time per block is the runner's and the
backend's overhead (seeding, pickling, scheduling, merging).  Run:
``pytest bench/bench_runner.py --benchmark-only``.
"""

import pytest

from solver.montecarlo import run_experiments
from solver.montecarlo.example import CoinExperiment
from solver.montecarlo.runner import local_executor

BLOCKS = 200
EXP = [CoinExperiment(0.5)]


def test_in_process_overhead_per_block(benchmark):
    result = benchmark(run_experiments, EXP, BLOCKS, 1, workers=1, block_size=1)
    assert result.total_games == BLOCKS


def test_process_pool_overhead_per_block(benchmark):
    with local_executor(2) as pool:
        result = benchmark(run_experiments, EXP, BLOCKS, 1, workers=2, block_size=1, executor=pool)
    assert result.total_games == BLOCKS


def test_dask_overhead_per_block(benchmark):
    pytest.importorskip("distributed")
    from solver.montecarlo.dask_backend import dask_executor

    with dask_executor(None, 2) as (executor, n):
        result = benchmark.pedantic(run_experiments, (EXP, BLOCKS, 1),
                                    dict(workers=n, block_size=1, executor=executor), rounds=3)
    assert result.total_games == BLOCKS
