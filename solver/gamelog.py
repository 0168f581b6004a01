"""Reading JSON Lines game logs (``thegame play --log``, ``clovece play --log``): one JSON object per
line, each kept with its line number so that a replay can name the line that breaks a rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.errors import SolverError
from solver.inputs import parse_json, read_text, split_lines


def line_error(line: int, message: str) -> SolverError:
    """The error a replay reports: ``line N: message``."""
    return SolverError(f"line {line}: {message}")


def parse_lines(lines: list[str]) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line; not JSON or not an object -> SolverError.

    >>> parse_lines(['{"a": 1}', '', '{"b": 2}'])
    [(1, {'a': 1}), (3, {'b': 2})]
    """
    objs: list[tuple[int, dict[str, Any]]] = []
    for no, text in enumerate(lines, 1):
        if not text.strip():
            continue
        obj = parse_json(text, f"line {no}")
        if not isinstance(obj, dict):
            raise line_error(no, "each line must be a JSON object")
        objs.append((no, obj))
    if not objs:
        raise SolverError("the log is empty")
    return objs


def read_lines(path: str | Path) -> list[str]:
    """The lines of a log file, split on newlines only (unreadable -> SolverError)."""
    return split_lines(read_text(path, "log"))
