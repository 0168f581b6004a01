"""Result tables read back from the CSV (or JSON) files the analyses write, for the charts.

Values come back typed as the writer formatted them (solver.montecarlo.output): integers, plain
decimals, ``true``/``false``, an empty cell for "not a number"; everything else stays text.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.errors import SolverError
from solver.inputs import parse_json, read_text
from solver.montecarlo.output import columns_of, format_value

#: columns every table ends with; they identify the run, not a configuration
RUN_COLUMNS = ("complete", "seed", "solver_version")


def parse_value(text: str) -> Any:
    """A CSV cell back as a Python value.

    >>> [parse_value(t) for t in ("3", "0.25", "", "true", "napij-se", "1e3")]
    [3, 0.25, None, True, 'napij-se', '1e3']
    """
    if text == "":
        return None
    if text in ("true", "false"):
        return text == "true"
    if text.lstrip("-").isdigit():
        return int(text)
    if text.lstrip("-").replace(".", "", 1).isdigit():
        return float(text)
    return text


@dataclass
class Table:
    """One result table: a short name (its file name), its columns and its typed rows."""

    name: str
    columns: list[str]
    rows: list[dict[str, Any]]

    def has(self, *columns: str) -> bool:
        return all(c in self.columns for c in columns)

    def numeric(self, *columns: str) -> bool:
        """Whether the columns exist and hold numbers (or empty cells) on every row."""
        return self.has(*columns) and all(
            row[c] is None or (isinstance(row[c], int | float) and not isinstance(row[c], bool))
            for row in self.rows for c in columns)

    def distinct(self, column: str) -> list[Any]:
        """The values of a column in first-seen order, without repeats."""
        return list(dict.fromkeys(row.get(column) for row in self.rows))

    @property
    def complete(self) -> bool:
        """False when the run was interrupted (any row says ``complete`` false)."""
        return all(row.get("complete", True) is not False for row in self.rows)


def table_from_rows(rows: Sequence[dict[str, Any]], name: str) -> Table:
    """A table from rows in memory, typed exactly as if written to CSV and read back."""
    columns = columns_of(rows)
    typed = [{c: parse_value(format_value(row[c])) if row.get(c) is not None else None for c in columns}
             for row in rows]
    if not typed:
        raise SolverError(f"{name}: the table has no rows to chart")
    return Table(name, columns, typed)


def read_table(path: str | Path) -> Table:
    """Read a CSV (header row first) or JSON (a list of objects) result table."""
    path = Path(path)
    text = read_text(path, "table")
    if text.lstrip().startswith("["):
        data = parse_json(text, f"{path}: malformed JSON table")
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise SolverError(f"{path}: a JSON table must be a list of objects")
        rows = [{k: ("" if v is None else v) for k, v in r.items()} for r in data]
    else:
        try:
            rows = list(csv.DictReader(io.StringIO(text), restval=""))
        except csv.Error as exc:
            raise SolverError(f"{path}: malformed CSV: {exc}") from None
        if any(None in row for row in rows):
            raise SolverError(f"{path}: malformed CSV: a row has more cells than the header")
    return table_from_rows(rows, path.name)
