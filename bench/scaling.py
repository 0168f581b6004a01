"""Print the README's scaling table: 1 vs 2 workers, local processes vs Dask LocalCluster.

Usage: ``python bench/scaling.py [GAMES]``.  Runs The Game's `reach` strategy for 2 players
(GAMES games, default 2,000,000, blocks of 2,000 — the command's default) on each backend, plus the overhead per
task measured with blocks of one trivial game.  Run it on an otherwise idle machine.
"""

import concurrent.futures as cf
import sys
import time

from solver.montecarlo import run_experiments
from solver.montecarlo.dask_backend import dask_executor
from solver.montecarlo.example import CoinExperiment
from solver.montecarlo.runner import local_executor, run_blocks
from solver.thegame.experiment import TheGameExperiment

BLOCK = 2_000
TASKS = 400


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def task_overhead(executor) -> float:
    """Milliseconds per task for TASKS one-game tasks submitted at once (0 without an executor)."""
    if executor is None:
        return 0.0
    null = {0: CoinExperiment(0.5)}
    start = time.perf_counter()
    futures = [executor.submit(run_blocks, null, [(0, k, 1)]) for k in range(TASKS)]
    cf.wait(futures)
    return (time.perf_counter() - start) / TASKS * 1000


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
    exp = [TheGameExperiment(players=2, strategy="reach")]
    null = [CoinExperiment(0.5)]
    rows = []
    reference = None
    for backend in ("local", "dask"):
        for workers in (1, 2):
            if backend == "local":
                executor_cm = local_executor(workers) if workers > 1 else None
                if executor_cm is None:
                    t, res = timed(lambda: run_experiments(exp, games, 1, workers=1, block_size=BLOCK))
                    t0 = 0.0
                else:
                    with executor_cm as pool:
                        run_experiments(null, 10, 1, workers=workers, block_size=1, executor=pool)  # warm up
                        t, res = timed(lambda w=workers: run_experiments(exp, games, 1, workers=w,
                                                               block_size=BLOCK, executor=pool))
                        t0 = task_overhead(pool)
            else:
                with dask_executor(None, workers) as (ex, n):
                    run_experiments(null, 10, 1, workers=n, block_size=1, executor=ex)  # warm up
                    t, res = timed(lambda: run_experiments(exp, games, 1, workers=n, block_size=BLOCK, executor=ex))
                    t0 = task_overhead(ex)
            rows_now = res.rows()
            if reference is None:
                reference = rows_now
            same = rows_now == reference
            rows.append((backend, workers, t, games / t, t0, same))
    base = rows[0][3]
    print("| backend | workers | seconds | games/s | speed-up | overhead per task | same numbers |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for backend, workers, t, rate, overhead, same in rows:
        print(f"| {backend} | {workers} | {t:.2f} | {rate:,.0f} | {rate / base:.2f}× | {overhead:.2f} ms | "
              f"{'yes' if same else 'NO'} |")


if __name__ == "__main__":
    main()
