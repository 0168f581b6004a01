"""The Monte Carlo runner: determinism across worker counts, merging, statistics, interruption."""

import _thread
import threading

import numpy as np
import pytest

from solver.errors import SolverError
from solver.montecarlo import block_seed, run_experiments
from solver.montecarlo.example import CoinExperiment
from solver.montecarlo.experiment import merge_tallies
from solver.montecarlo.output import format_value, render
from solver.montecarlo.runner import BlockPlan, OrderedMerge
from solver.montecarlo.stats import mean_sd, wilson_interval

EXPS = [CoinExperiment(0.3), CoinExperiment(0.7)]


def _table(result):
    return render(result.rows(), "csv")


def test_same_seed_same_table_for_1_2_3_workers():
    tables = {w: _table(run_experiments(EXPS, 10_500, seed=42, workers=w, block_size=1000)) for w in (1, 2, 3)}
    assert tables[1] == tables[2] == tables[3]
    assert "10500" in tables[1]


def test_different_seed_different_numbers():
    a = run_experiments(EXPS, 5000, seed=1, workers=1).rows()
    b = run_experiments(EXPS, 5000, seed=2, workers=1).rows()
    assert [r["wins"] for r in a] != [r["wins"] for r in b]


def test_block_seed_depends_only_on_seed_and_block():
    seeds = {block_seed(7, b) for b in range(1000)}
    assert len(seeds) == 1000
    assert block_seed(7, 3) == int(np.random.SeedSequence(7, spawn_key=(3,)).generate_state(1, np.uint64)[0])


def test_win_rates_are_plausible_and_intervals_cover():
    rows = run_experiments(EXPS, 20_000, seed=3, workers=1).rows()
    for row, p in zip(rows, (0.3, 0.7), strict=True):
        assert row["ci_low"] < p < row["ci_high"]
        assert row["complete"] is True and row["games"] == 20_000
        assert abs(row["mean_flips"] - 2.0) < 0.05


def test_plan_blocks_covers_every_game_once():
    plan = BlockPlan(3, 10_001, 1000)
    entries = [plan[k] for k in range(len(plan))]
    for i in range(3):
        assert sum(n for e, _, n in entries if e == i) == 10_001
    assert plan.take(30, 10) == entries[30:]


def test_huge_runs_are_planned_lazily():
    plan = BlockPlan(15, 10**9, 1000)
    assert len(plan) == 15 * 10**6 and plan[len(plan) - 1] == (14, 10**6 - 1, 1000)


def test_ordered_merge_holds_only_out_of_order_blocks():
    merge = OrderedMerge(1)
    merge.add(0, 1, {"x": 0.1})
    assert merge.waiting[0].keys() == {1}
    merge.add(0, 0, {"x": 0.2})
    assert merge.waiting[0] == {} and merge.next_block[0] == 2
    merge.add(0, 3, {"x": 0.3})  # a gap (block 2 never finished, e.g. after Ctrl-C)
    assert merge.result() == [{"x": (0.2 + 0.1) + 0.3}]


@pytest.mark.parametrize(
    "k,n,lo,hi",
    [(537, 1000, 0.50601, 0.56770), (0, 10, 0.0, 0.27753), (10, 10, 0.72247, 1.0), (1, 2, 0.09453, 0.90547)],
)
def test_wilson_interval_known_values(k, n, lo, hi):
    got = wilson_interval(k, n)
    assert got == pytest.approx((lo, hi), abs=5e-6)


def test_mean_sd_matches_numpy():
    x = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
    mean, sd = mean_sd(x.sum(), (x * x).sum(), len(x))
    assert mean == pytest.approx(x.mean()) and sd == pytest.approx(x.std(ddof=1))


def test_merge_tallies_pads_histograms():
    merged = merge_tallies({"h": np.array([1, 2])}, {"h": np.array([1, 1, 1])})
    assert merged["h"].tolist() == [2, 3, 1]


def test_csv_cells_open_cleanly():
    assert format_value(1234567.5) == "1234567.5"
    assert format_value(2.5e-9) == "0.0000000025"
    text = render([{"a": 1, "b": 0.25}, {"a": 2, "b": float("nan")}])
    assert text == "a,b\n1,0.25\n2,\n"


def test_bad_arguments_raise_solver_error():
    with pytest.raises(SolverError):
        run_experiments(EXPS, 0, seed=1)
    with pytest.raises(SolverError):
        run_experiments(EXPS, 10, seed=-1)


@pytest.mark.parametrize("workers", [1, 2])
def test_interrupted_run_keeps_finished_blocks(workers):
    """Ctrl-C (simulated by interrupting the main thread) returns a partial, labelled result."""
    exp = [CoinExperiment(0.5, slow=0.05)]
    timer = threading.Timer(0.6, _thread.interrupt_main)
    timer.start()
    try:
        result = run_experiments(exp, 1_000_000, seed=5, workers=workers, block_size=1000)
    finally:
        timer.cancel()
    assert not result.complete
    row = result.rows()[0]
    assert row["complete"] is False
    assert 0 < row["games"] < 1_000_000 and row["games"] % 1000 == 0
    # the finished blocks are exactly the first ones of an uninterrupted run when they are contiguous
    full = run_experiments(exp[:0] + [CoinExperiment(0.5)], row["games"], seed=5, workers=1).rows()[0]
    if workers == 1:
        assert full["wins"] == row["wins"]


class _DyingExperiment(CoinExperiment):
    """Kills its worker process in the middle of a block."""

    def simulate(self, seed, n_games):
        import os

        os._exit(3)


class _RaisingExperiment(CoinExperiment):
    def simulate(self, seed, n_games):
        raise RuntimeError("engine bug")


def test_dead_worker_is_a_clear_error_not_a_hang():
    from solver.montecarlo.runner import WorkerError

    with pytest.raises(WorkerError, match="worker process died"):
        run_experiments([_DyingExperiment()], 10_000, seed=1, workers=2, block_size=1000)


def test_failing_block_is_reported_with_its_cause():
    from solver.montecarlo.runner import WorkerError

    with pytest.raises(WorkerError, match="engine bug"):
        run_experiments([_RaisingExperiment()], 10_000, seed=1, workers=2, block_size=1000)
