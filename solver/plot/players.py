"""Win rate against the number of players, one line per strategy, for cooperative games (The
Game's tables, seat ``team``), with the 95 % Wilson interval as error bars."""

from __future__ import annotations

from typing import Any

from solver.plot.style import colour, game_title, interval, percent_axis, series_label, vary
from solver.plot.table import Table

KIND = "player-count curves"
EXPECTS = "a cooperative result table (players, seat 'team', win_rate, ci_low, ci_high)"


def fits(table: Table) -> bool:
    return (table.has("seat") and table.numeric("players", "win_rate", "ci_low", "ci_high")
            and all(row.get("seat") == "team" and isinstance(row["players"], int) for row in table.rows)
            and len(table.distinct("players")) > 1)


def draw(tables: list[Table], plt: Any) -> tuple[Any, str]:
    series: dict[tuple, list[dict[str, Any]]] = {}
    for t in tables:
        for row in t.rows:
            key = (("strategy", row.get("strategy")), ("variant", row.get("variant")), ("table", t.name))
            series.setdefault(key, []).append(row)
    shown = vary(list(series)) or ["strategy"]
    fig, ax = plt.subplots(figsize=(7.0, 4.6), layout="constrained")
    markers = "osD^vP*X"
    for i, (key, rows) in enumerate(series.items()):
        rows = sorted(rows, key=lambda r: r["players"])
        xs = [r["players"] for r in rows]
        ys, below, above = zip(*(interval(r) for r in rows), strict=True)
        err = [below, above]
        ax.errorbar(xs, ys, yerr=err, color=colour(i), marker=markers[i % len(markers)], capsize=3,
                    linewidth=1.5, markersize=5, label=series_label(key, shown))
    ax.set_xlabel("players")
    ax.set_xticks(sorted({r["players"] for rows in series.values() for r in rows}))
    ax.set_ylabel("win rate (share of games won), 95 % interval")
    ax.set_ylim(bottom=0)
    percent_axis(ax.yaxis)
    ax.grid(axis="y", color="#dddddd", linewidth=0.6)
    ax.legend(fontsize=8, frameon=False)
    return fig, game_title(tables) + "win rate by number of players"
