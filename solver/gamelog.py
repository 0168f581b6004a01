"""Reading JSON Lines game logs (``thegame play --log``, ``clovece play --log``, ``squid play --log``):
one JSON object per line, each kept with its line number so that a replay can name the line that
breaks a rule; and :class:`Cursor`, which walks the events of one line for a replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from solver.errors import SolverError
from solver.inputs import parse_json, read_text, split_lines


class Broken(Exception):
    """A rule broken at the current line (the line number is added by the caller)."""


class Cursor:
    """The logged events of one line: decisions are read from it, consequences compared with it."""

    def __init__(self, events: list[Any]) -> None:
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise Broken("'events' must be a list of objects")
        self.events = events
        self.i = 0

    def peek(self, key: str) -> dict[str, Any] | None:
        """The next event if it is of kind ``key``."""
        if self.i < len(self.events) and key in self.events[self.i]:
            return self.events[self.i]
        return None

    def take(self, key: str, what: str) -> dict[str, Any]:
        e = self.peek(key)
        if e is None:
            got = json.dumps(self.events[self.i]) if self.i < len(self.events) else "the end of the line"
            raise Broken(f"event {self.i + 1}: expected {what}, the log has {got}")
        self.i += 1
        return e

    def emit(self, expected: dict[str, Any]) -> None:
        """The rules say this happens next: the log must say the same."""
        got = self.events[self.i] if self.i < len(self.events) else None
        if got != expected:
            said = json.dumps(got, ensure_ascii=False) if got is not None else "nothing more"
            raise Broken(f"event {self.i + 1}: the rules give {json.dumps(expected, ensure_ascii=False)}, "
                         f"the log has {said}")
        self.i += 1

    def done(self) -> None:
        if self.i < len(self.events):
            raise Broken(f"event {self.i + 1}: {json.dumps(self.events[self.i], ensure_ascii=False)} "
                         "follows the end of the line")


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
