"""Stop signals during a multi-worker Monte Carlo run: the finished blocks are written (marked
incomplete), every worker ends, and the exit status is 128 + the signal (130, 143, 129)."""

import csv
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solver.montecarlo.signals import Interrupted, SignalGuard

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc and process groups")


def _children(pid: int) -> set[int]:
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out.update(int(c) for c in (task / "children").read_text().split())
        except OSError:
            pass
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize("signals,group,status", [
    (["SIGINT"], True, 130),
    (["SIGINT", "SIGINT"], True, 130),          # twice within milliseconds, as `timeout -s INT` may
    (["SIGINT", "SIGINT", "SIGINT"], False, 130),
    (["SIGTERM"], False, 143),                  # the main process only: workers must not be left
    (["SIGTERM"], True, 143),
    (["SIGHUP"], False, 129),
])
def test_stop_signals_save_the_finished_games(tmp_path, signals, group, status):
    out = tmp_path / "partial.csv"
    args = [sys.executable, "-m", "solver", "thegame", "simulate", "--players", "2", "--strategy", "greedy",
            "--games", "100000000", "--block-size", "500", "-j", "2", "-q", "-o", str(out)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    workers: set[int] = set()
    for _ in range(300):  # until both workers run (the pool starts them on the first submissions)
        workers = _children(proc.pid)
        if len(workers) >= 2 or proc.poll() is not None:
            break
        time.sleep(0.05)
    time.sleep(2)  # some blocks finish
    for name in signals:
        if group:
            os.killpg(proc.pid, getattr(signal, name))
        else:
            os.kill(proc.pid, getattr(signal, name))
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("the run hung after the signal")
    assert proc.returncode == status, err
    assert "Traceback" not in err and err.count("\n") == 1 and "wrote the" in err, err
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert rows and rows[0]["complete"] == "false"
    assert 0 < int(rows[0]["games"]) < 100_000_000
    assert workers, "no worker process was seen"
    for _ in range(100):  # the kernel reaps killed workers asynchronously
        if not any(_alive(w) for w in workers):
            break
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers), "a worker process outlived the run"


def test_guard_raises_once_and_records_later_signals():
    with SignalGuard() as guard:
        guard.arm()
        with pytest.raises(Interrupted):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1)  # the handler runs at the next bytecode; the sleep is interrupted
        os.kill(os.getpid(), signal.SIGINT)  # recorded, not raised
        os.kill(os.getpid(), signal.SIGHUP)
        guard.disarm()
        assert guard.signum == signal.SIGTERM and guard.exit_status == 143
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_signal_before_the_run_stops_it_at_once():
    from solver.montecarlo.example import CoinExperiment
    from solver.montecarlo.runner import run_experiments

    with SignalGuard() as guard:
        os.kill(os.getpid(), signal.SIGHUP)
        time.sleep(0.01)
        result = run_experiments([CoinExperiment()], 10_000, 1, guard=guard)
    assert not result.complete and result.total_games == 0 and guard.exit_status == 129


@pytest.mark.parametrize("name,status", [("SIGTERM", 143), ("SIGINT", 130)])
def test_a_stopped_match_writes_its_finished_games(tmp_path, name, status):
    """`blokus match` under a stop signal (even one ignored by its parent, as for a job started in
    the background with nohup): the games finished so far are written, marked incomplete."""
    out, summ, sgf = tmp_path / "m.csv", tmp_path / "s.csv", tmp_path / "m.blksgf"
    engine = f"{sys.executable} -m solver blokus gtp --variant duo --strategy greedy"
    args = [sys.executable, "-m", "solver", "blokus", "match", "--variant", "duo", "--strategy", "mcts:30",
            "--opponent", engine, "--games", "100000", "-o", str(out), "--summary", str(summ),
            "--sgf", str(sgf)]
    log = tmp_path / "err.txt"
    with log.open("w") as err_file:
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=err_file, text=True,
                                start_new_session=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
        for _ in range(600):   # until a few games are over
            time.sleep(0.1)
            if proc.poll() is not None or log.read_text().count("game ") >= 3:
                break
        os.kill(proc.pid, getattr(signal, name))
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            pytest.fail("the match hung after the signal")
    err = log.read_text()
    last = err.strip().splitlines()[-1]
    assert proc.returncode == status, err
    assert "Traceback" not in err and last.startswith("solver: ") and "wrote the" in last, err
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) >= 3 and all(r["complete"] == "false" for r in rows)
    assert f"wrote the {len(rows)} finished games" in last
    assert next(csv.DictReader(summ.open()))["played"] == str(len(rows))
    assert sgf.read_text().count("(;") == len(rows)
