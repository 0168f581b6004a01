"""Win rate per seat against a swept parameter (``--sweep NAME=V1,V2,...``: the variant column
reads ``NAME=VALUE``), one line per seat with its 95 % interval as a band."""

from __future__ import annotations

import re
from typing import Any

from solver.plot.style import colour, game_title, percent_axis, series_label, vary
from solver.plot.table import Table

KIND = "sweep curves"
EXPECTS = "a sweep table (variant NAME=VALUE with numbers, seat, win_rate, ci_low, ci_high)"

#: a swept variant label, optionally after the label of a parameter file: [params=FILE+]NAME=VALUE
SWEPT = re.compile(r"(?:.*\+)?([A-Za-z_][\w.]*)=(-?\d+(?:\.\d+)?)")


def swept(variant: Any) -> tuple[str, float] | None:
    """(parameter, value) of a swept variant label, None otherwise.

    >>> swept("glass_bridge.cracked=3"), swept("params=my.toml+marbles.rounds=2"), swept("napij-se")
    (('glass_bridge.cracked', 3.0), ('marbles.rounds', 2.0), None)
    """
    m = SWEPT.fullmatch(str(variant))
    return (m.group(1), float(m.group(2))) if m else None


def parameter(table: Table) -> str | None:
    """The parameter a table sweeps (every variant NAME=number, one NAME, two values or more)."""
    found = [swept(v) for v in table.distinct("variant")]
    if not found or None in found or len({f[0] for f in found}) != 1 or len(found) < 2:
        return None
    return found[0][0]


def fits(table: Table) -> bool:
    return (table.has("variant", "seat") and table.numeric("win_rate", "ci_low", "ci_high")
            and parameter(table) is not None)


def draw(tables: list[Table], plt: Any) -> tuple[Any, str]:
    series: dict[tuple, list[tuple[float, dict[str, Any]]]] = {}
    names = []
    for t in tables:
        names.append(parameter(t))
        for row in t.rows:
            key = (("table", t.name), ("players", row.get("players")), ("seat", row.get("seat")),
                   ("strategy", row.get("strategy")))
            series.setdefault(key, []).append((swept(row["variant"])[1], row))
    shown = vary(list(series)) or ["seat"]
    fig, ax = plt.subplots(figsize=(7.5, 4.8), layout="constrained")
    for i, (key, points) in enumerate(series.items()):
        points.sort(key=lambda p: p[0])
        xs = [p[0] for p in points]
        ys = [p[1]["win_rate"] or 0.0 for p in points]
        ax.fill_between(xs, [p[1]["ci_low"] or 0 for p in points], [p[1]["ci_high"] or 0 for p in points],
                        color=colour(i), alpha=0.2, linewidth=0)
        ax.plot(xs, ys, color=colour(i), marker="o", markersize=4, label=series_label(key, shown))
    ax.set_xticks(sorted({x for points in series.values() for x, _ in points}))
    name = " / ".join(dict.fromkeys(names))
    ax.set_xlabel(f"{name} (swept parameter)")
    ax.set_ylabel("win rate (share of games won), 95 % band")
    ax.set_ylim(bottom=0)
    percent_axis(ax.yaxis)
    ax.grid(axis="y", color="#dddddd", linewidth=0.6)
    ax.legend(fontsize=7, frameon=False, ncols=2 if len(series) > 6 else 1)
    return fig, game_title(tables) + f"win rate against {name}"
