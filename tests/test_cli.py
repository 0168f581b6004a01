"""Command-line behaviour shared by every Monte Carlo command: errors, output files, Ctrl-C."""

import csv
import os
import signal
import subprocess
import sys
import time

import pytest

SIM = [sys.executable, "-m", "solver", "thegame", "simulate", "--players", "2", "--strategy", "greedy"]


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=120, **kw)


@pytest.mark.parametrize(
    "extra,needle",
    [
        (["--games", "-5"], "--games"),
        (["--games", "0"], "--games"),
        (["--seed", "-1"], "--seed"),
        (["--strategy", "nonsense"], "nonsense"),
        (["-o", "/nonexistent-dir/out.csv"], "cannot write"),
        (["--format", "xml"], "--format"),
        (["--backend", "spark"], "--backend"),
        (["-j", "0"], "--workers"),
    ],
)
def test_bad_options_are_one_line_errors_with_status_2(extra, needle):
    proc = run(SIM + ["--games", "10", "-q"] + extra)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("solver: error:"), proc.stderr
    assert needle in lines[0]
    assert "Traceback" not in proc.stderr


def test_unwritable_output_file(tmp_path):
    target = tmp_path / "locked.csv"
    target.write_text("old\n")
    tmp_path.chmod(0o500)
    target.chmod(0o400)
    try:
        if os.access(target, os.W_OK):  # root ignores permissions
            pytest.skip("running as root: permissions are not enforced")
        proc = run(SIM + ["--games", "10", "-q", "-o", str(target)])
        assert proc.returncode == 2 and "cannot write" in proc.stderr
    finally:
        tmp_path.chmod(0o700)


def test_output_file_is_complete_csv(tmp_path):
    out = tmp_path / "r.csv"
    proc = run(SIM + ["--games", "1000", "-q", "-o", str(out)])
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert rows[0]["games"] == "1000" and rows[0]["complete"] == "true"
    assert not [p for p in tmp_path.iterdir() if p.name != "r.csv"], "temporary file left behind"


def test_json_format(tmp_path):
    import json

    out = tmp_path / "r.json"
    assert run(SIM + ["--games", "500", "-q", "--format", "json", "-o", str(out)]).returncode == 0
    data = json.loads(out.read_text())
    assert data[0]["games"] == 500 and data[0]["complete"] is True


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_writes_finished_blocks_and_exits_130(tmp_path, workers):
    out = tmp_path / "partial.csv"
    args = [sys.executable, "-m", "solver", "thegame", "simulate", "--players", "1", "--strategy", "planner",
            "--games", "100000000", "--block-size", "200", "-j", workers, "-q", "-o", str(out)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    time.sleep(4)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole process group
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert rows[0]["complete"] == "false"
    games = int(rows[0]["games"])
    assert 0 < games < 100_000_000 and games % 200 == 0
