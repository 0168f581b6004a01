"""The progress display: Click's bar with rate and time left on a terminal, nothing otherwise."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

#: two seconds or more of games (planner: under 3,000 games/s solo) in blocks of 200: several redraws
ARGS = [sys.executable, "-m", "solver", "thegame", "simulate", "--players", "1", "--strategy", "planner",
        "--games", "6000", "--block-size", "200", "-j", "1", "-o", os.devnull]


def on_terminal(args: list[str]) -> str:
    """Run ``args`` with stdout and stderr on a pseudo-terminal and return what it showed."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: its terminal is the pty
        os.execv(args[0], args)
    out = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    return out.decode("utf-8", "replace")


def test_terminal_shows_games_rate_and_time_left():
    shown = on_terminal(ARGS)
    assert "games" in shown and "6000/6000" in shown
    assert "games/s" in shown
    assert "00:00:0" in shown  # time left (hh:mm:ss), known to Click after a second of games


def test_quiet_or_not_a_terminal_shows_nothing():
    assert "games/s" not in on_terminal(ARGS + ["--quiet"])
    proc = subprocess.run(ARGS, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == ""
