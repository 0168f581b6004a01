"""The Dask backend: same numbers as the local runner, survives a killed worker, clear errors."""

import _thread
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from solver.montecarlo import run_experiments
from solver.montecarlo.example import CoinExperiment
from solver.montecarlo.output import render

distributed = pytest.importorskip("distributed")

from solver.montecarlo.dask_backend import dask_executor  # noqa: E402

pytestmark = pytest.mark.slow


def _local_table(exps, games, seed, block_size):
    return render(run_experiments(exps, games, seed, workers=1, block_size=block_size).rows())


def test_local_cluster_matches_local_runner():
    exps = [CoinExperiment(0.25), CoinExperiment(0.5)]
    with dask_executor(None, 2) as (executor, n):
        assert n == 2
        result = run_experiments(exps, 30_000, seed=11, workers=n, block_size=1000, executor=executor)
    assert result.complete
    assert render(result.rows()) == _local_table(exps, 30_000, 11, 1000)


def test_killed_worker_loses_nothing():
    exps = [CoinExperiment(0.4, slow=0.05)]
    with dask_executor(None, 2) as (executor, _):
        client = executor._client
        pids = list(client.run(os.getpid).values())
        killer = threading.Timer(1.0, os.kill, (pids[0], signal.SIGKILL))
        killer.start()
        try:
            result = run_experiments(exps, 120_000, seed=3, workers=2, block_size=1000, executor=executor)
        finally:
            killer.cancel()
        assert pids[0] not in client.run(os.getpid).values()  # the worker really died and was replaced
    assert result.complete
    assert render(result.rows()) == _local_table([CoinExperiment(0.4)], 120_000, 3, 1000)


def test_ctrl_c_keeps_finished_blocks():
    exps = [CoinExperiment(0.5, slow=0.05)]
    with dask_executor(None, 2) as (executor, _):
        timer = threading.Timer(1.5, _thread.interrupt_main)
        timer.start()
        try:
            result = run_experiments(exps, 1_000_000, seed=4, workers=2, block_size=1000, executor=executor)
        finally:
            timer.cancel()
    assert not result.complete
    assert 0 < result.games[0] < 1_000_000


def test_unreachable_scheduler_is_a_quick_one_line_error():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "solver", "thegame", "simulate", "--players", "1", "--strategy", "greedy",
         "--games", "100", "--backend", "dask", "--scheduler", f"tcp://127.0.0.1:{port}", "-q"],
        capture_output=True, text=True, timeout=60,
    )
    elapsed = time.monotonic() - start
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "Dask scheduler" in proc.stderr
    assert elapsed < 20


def test_scheduler_option_needs_dask_backend():
    proc = subprocess.run(
        [sys.executable, "-m", "solver", "thegame", "simulate", "--players", "1", "--strategy", "greedy",
         "--games", "100", "--scheduler", "tcp://127.0.0.1:1", "-q"],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2 and "--backend dask" in proc.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["thegame", "simulate", "--players", "1-3", "--strategy", "greedy,reach", "--games", "6000"],
        ["blokus", "selfplay", "--variant", "duo", "--strategy", "greedy,random", "--games", "200"],
    ],
    ids=["thegame", "blokus"],
)
def test_game_aggregates_identical_local_and_dask(args):
    from click.testing import CliRunner

    from solver.cli.main import app

    common = ["--seed", "9", "--block-size", "100", "-q"]
    local = CliRunner().invoke(app, args + common + ["-j", "1"], catch_exceptions=False)
    dask = CliRunner().invoke(app, args + common + ["-j", "2", "--backend", "dask"], catch_exceptions=False)
    assert local.exit_code == 0 and dask.exit_code == 0, dask.output
    assert local.output == dask.output
