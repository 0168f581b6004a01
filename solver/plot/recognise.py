"""Which chart fits a table, recognised from its columns; and drawing tables into one picture."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from solver.errors import SolverError
from solver.plot import histogram, matrix, players, subgames, sweep, winrate
from solver.plot.style import finish, games_text, pyplot
from solver.plot.table import Table

#: chart kinds, the most specific first (a sweep table is also a win-rate table)
CHARTS: tuple[ModuleType, ...] = (matrix, histogram, subgames, sweep, players, winrate)


def recognise(table: Table) -> ModuleType:
    """The chart module that draws ``table``; a one-line SolverError naming what was expected."""
    for chart in CHARTS:
        if chart.fits(table):
            return chart
    expected = "; ".join(chart.EXPECTS for chart in CHARTS if chart is not players)
    shown = ", ".join(table.columns[:8]) + (", ..." if len(table.columns) > 8 else "")
    raise SolverError(f"cannot chart {table.name}: expected {expected}, with numbers in the numeric "
                      f"columns; found the columns {shown}")


def _games(tables: Sequence[Table]) -> str:
    """The number of games for the title (per configuration when the tables hold several)."""
    counts = [row.get("games") for t in tables for row in t.rows]
    if all(c is None for c in counts):  # histograms: the games of a configuration are its counts
        totals: dict[tuple, int] = {}
        for t in tables:
            for row in t.rows:
                key = (t.name, *(v for c, v in row.items() if c not in ("value", "count")))
                totals[key] = totals.get(key, 0) + (row.get("count") or 0)
        return games_text(totals.values(), len(totals))
    configurations = {(t.name, row.get("variant"), row.get("players"),
                       row.get("strategy") if row.get("seat") in ("team", None) else None)
                      for t in tables for row in t.rows}
    return games_text(counts, len(configurations))


def draw_tables(tables: Sequence[Table], output: str | Path, *, title: str | None = None, footer: str = "",
                partial: bool | None = None) -> str:
    """Draw the chart that fits ``tables`` (one kind: overlaid or side by side) into ``output``
    (.svg, .png or .pdf); returns the kind drawn.  ``partial`` None: from the tables' ``complete``."""
    tables = list(tables)
    kinds = [recognise(t) for t in tables]
    if len(set(kinds)) > 1:
        mixed = ", ".join(f"{t.name} ({k.KIND})" for t, k in zip(tables, kinds, strict=True))
        raise SolverError(f"cannot draw different kinds of table in one chart: {mixed}")
    chart = kinds[0]
    plt = pyplot()
    fig, subject = chart.draw(tables, plt)
    if partial is None:
        partial = not all(t.complete for t in tables)
    finish(fig, output, title or f"{subject[:1].upper()}{subject[1:]}, {_games(tables)}", footer, partial)
    return chart.KIND
