"""Fixtures shared by the test modules."""

from __future__ import annotations

from collections.abc import Callable

import pytest


def _run_main(args: list[str]) -> int:
    """Run the ``solver`` console entry point (one-line errors, exit codes) and return its status."""
    from solver.cli.main import main

    try:
        main(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


@pytest.fixture
def solver_main() -> Callable[[list[str]], int]:
    """``solver_main(["squid", "play", ...])`` -> exit status, output in capsys."""
    return _run_main
