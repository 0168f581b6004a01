"""Write result tables as CSV or JSON that open cleanly in a spreadsheet, atomically."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solver.errors import SolverError


def format_value(value: Any) -> str:
    """A CSV cell: plain decimals (no exponent, no separators), empty for NaN, true/false.

    >>> [format_value(v) for v in (0.5, 1e-7, float("nan"), True, 3, "x")]
    ['0.5', '0.0000001', '', 'true', '3', 'x']
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return ""
        text = f"{value:.10f}".rstrip("0").rstrip(".")
        return "0" if text in ("", "-0") else text
    if hasattr(value, "item"):  # numpy scalar
        return format_value(value.item())
    return str(value)


def _json_value(value: Any) -> Any:
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    return value


def columns_of(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Union of the rows' keys in first-seen order."""
    cols: dict[str, None] = {}
    for row in rows:
        for key in row:
            cols.setdefault(key, None)
    return list(cols)


def render(rows: Sequence[dict[str, Any]], fmt: str = "csv") -> str:
    """The table as text (CSV with a header row, or a JSON list of objects)."""
    if fmt == "json":
        return json.dumps([{k: _json_value(v) for k, v in row.items()} for row in rows], indent=2) + "\n"
    if fmt != "csv":
        raise SolverError(f"unknown output format {fmt!r} (use csv or json)")
    buf = io.StringIO()
    cols = columns_of(rows)
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(cols)
    for row in rows:
        writer.writerow([format_value(row.get(c, "")) for c in cols])
    return buf.getvalue()


def check_writable(path: str | os.PathLike | None) -> None:
    """Fail early (before a long run) when ``path`` cannot be written."""
    if path is None or str(path) == "-":
        return
    target = Path(path)
    parent = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise SolverError(f"cannot write {path}: it is a directory")
    if not parent.is_dir():
        raise SolverError(f"cannot write {path}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise SolverError(f"cannot write {path}: permission denied")
    if target.exists() and not target.is_file():
        return  # /dev/null, a FIFO: written directly, nothing to create
    try:  # what the atomic write will do: create a temporary file next to the target
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=Path(os.path.realpath(target)).parent)
    except OSError as exc:
        raise SolverError(f"cannot write {path}: {exc.strerror or exc}") from None
    os.close(fd)
    os.unlink(tmp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text_atomic(path: str | os.PathLike | None, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file and a rename; '-' or None is stdout.

    A symbolic link is followed (the file it points to is replaced, the link stays); a target
    that exists but is not a regular file (``/dev/null``, a FIFO) is written to directly, since
    it cannot be replaced.  New files get the usual permissions (0666 less the umask); a replaced
    file keeps its mode.
    """
    if path is None or str(path) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically, as :func:`write_text_atomic` does (pictures: PNG, PDF)."""
    target = Path(os.path.realpath(path))
    try:
        if target.exists() and not target.is_file():
            with open(target, "wb") as fh:
                fh.write(data)
            return
        mode = target.stat().st_mode & 0o7777 if target.exists() else 0o666 & ~_umask()
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fchmod(fh.fileno(), mode)
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as exc:
        raise SolverError(f"cannot write {path}: {exc.strerror or exc}") from None


def write_rows(rows: Sequence[dict[str, Any]], path: str | os.PathLike | None, fmt: str = "csv") -> None:
    """Render and atomically write a table."""
    write_text_atomic(path, render(rows, fmt))
