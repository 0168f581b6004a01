"""Reading user files the one safe way: size cap, UTF-8 (with or without BOM), JSON and TOML parsing
that turns every malformed input into a one-line :class:`SolverError`.

Every reader of a user-supplied file (puzzles, solutions, game logs, boards, decks, parameters,
templates, tables) goes through these helpers, so the limits are the same everywhere:

* files larger than :data:`MAX_INPUT_BYTES` are refused before they are read;
* a UTF-8 byte-order mark is accepted (spreadsheets and Windows editors write one), any other
  non-UTF-8 byte is an error naming its position;
* integers of more than Python's 4,300 digits, ``NaN``/``Infinity``/``1e999`` in JSON and
  containers nested deeper than :data:`MAX_DEPTH` are errors, not tracebacks;
* JSON Lines are split on ``\\n`` only, so a raw U+2028 inside a string stays inside it.
"""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path
from typing import Any

from solver.errors import SolverError

#: Largest input file read (bytes); every format we read is far smaller in practice.
MAX_INPUT_BYTES = 16 * 2**20
#: Deepest nesting of arrays/objects accepted in JSON and TOML (our formats need at most 4).
MAX_DEPTH = 32


def read_bytes(path: str | Path, what: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a file, refusing files over ``limit`` bytes (:data:`MAX_INPUT_BYTES` unless
    a format sets a smaller cap) before reading them."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except FileNotFoundError:
        raise SolverError(f"cannot read {what} {path}: no such file") from None
    except OSError as exc:
        raise SolverError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    except ValueError:   # a NUL byte in the name (possible through GTP's loadsgf)
        raise SolverError(f"cannot read {what} {path!r}: not a valid file name") from None
    if len(data) > limit:
        raise SolverError(f"{what} {path} is larger than {limit // 2**20} MB")
    return data


def decode(data: bytes, where: str) -> str:
    """UTF-8 text with an optional byte-order mark; any other encoding is a one-line error.

    >>> decode(b"\\xef\\xbb\\xbfname", "f")
    'name'
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise SolverError(f"{where}: not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line})") from None


def read_text(path: str | Path, what: str) -> str:
    """A user file as text: size-capped, UTF-8 with optional BOM (``what`` names it in errors)."""
    return decode(read_bytes(path, what), f"{what} {path}")


def split_lines(text: str) -> list[str]:
    """Lines split on ``\\n`` only (``\\r\\n`` too), unlike ``str.splitlines`` which also splits on
    U+2028 and other characters that JSON strings may contain raw.

    >>> split_lines('{"a": "x\\u2028y"}\\r\\n\\n{}')
    ['{"a": "x\\u2028y"}', '', '{}']
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:20]} is out of range")
    return value


def parse_json(text: str, where: str) -> Any:
    """Strict JSON: no NaN/Infinity, finite floats, integers within Python's digit limit, bounded depth.

    >>> parse_json('{"a": [1, 2.5]}', "f")
    {'a': [1, 2.5]}
    >>> parse_json('[1e999]', "f")
    Traceback (most recent call last):
    solver.errors.SolverError: f: not valid JSON: number 1e999 is out of range
    """
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        raise SolverError(f"{where}: not valid JSON: {exc.msg} (line {exc.lineno} column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:  # huge integers, NaN, 1e999
        raise SolverError(f"{where}: not valid JSON: {parse_error_reason(exc)}") from None
    _check_depth(data, where, "JSON")
    return data


def parse_toml(text: str, where: str) -> dict[str, Any]:
    """TOML with the same limits as :func:`parse_json` (depth, huge integers, NaN/inf floats)."""
    try:
        data = tomllib.loads(text, parse_float=_finite_float)
    except tomllib.TOMLDecodeError as exc:
        raise SolverError(f"{where}: not valid TOML: {parse_error_reason(exc)}") from None
    except (ValueError, RecursionError) as exc:
        raise SolverError(f"{where}: not valid TOML: {parse_error_reason(exc)}") from None
    _check_depth(data, where, "TOML")
    return data


def load_json(path: str | Path, what: str) -> Any:
    """Read and parse a JSON file (see :func:`read_text` and :func:`parse_json`)."""
    return parse_json(read_text(path, what), f"{what} {path}")


def load_toml(path: str | Path, what: str) -> dict[str, Any]:
    """Read and parse a TOML file (see :func:`read_text` and :func:`parse_toml`)."""
    return parse_toml(read_text(path, what), f"{what} {path}")


def _check_depth(data: Any, where: str, fmt: str) -> None:
    """Refuse parsed data nested deeper than MAX_DEPTH (later code and messages may recurse)."""
    stack = [(data, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise SolverError(f"{where}: not valid {fmt}: nested deeper than {MAX_DEPTH} levels")
        if isinstance(item, dict):
            stack += [(v, depth + 1) for v in item.values()]
        elif isinstance(item, list):
            stack += [(v, depth + 1) for v in item]


def parse_error_reason(exc: BaseException) -> str:
    """The first line of an exception's message, without Python's advice about int digit limits."""
    if isinstance(exc, RecursionError):
        return f"nested deeper than {MAX_DEPTH} levels"
    msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if "integer string conversion" in msg:
        return "an integer has more than 4300 digits"
    return msg


def one_line(message: str, limit: int = 500) -> str:
    """A message fit for one terminal line: control characters escaped, long text shortened.

    >>> one_line("bad name 'a\\nb'")
    "bad name 'a\\\\nb'"
    """
    out = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in message)
    return out if len(out) <= limit else out[:limit - 1] + "…"
