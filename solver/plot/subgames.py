"""Per-sub-game tables (Squid Game ``--per-game``): the share of tokens entering each sub-game
that survive it, one line per seat and one (black) for all seats together; one panel per
configuration (variant, players, table) when there are several."""

from __future__ import annotations

from typing import Any

from solver.plot.style import colour, game_title, percent_axis, series_label, vary
from solver.plot.table import Table

KIND = "per-sub-game survival"
EXPECTS = "a per-sub-game table (subgame, order, seat, survival_rate)"


def fits(table: Table) -> bool:
    return (table.has("subgame", "order", "seat") and table.numeric("survival_rate")
            and all(isinstance(row["order"], int) for row in table.rows))


def draw(tables: list[Table], plt: Any) -> tuple[Any, str]:
    panels: dict[tuple, dict[tuple, list[dict[str, Any]]]] = {}
    names: dict[int, str] = {}
    for t in tables:
        for row in t.rows:
            panel = (("table", t.name), ("variant", row.get("variant")), ("players", row.get("players")))
            seat = row.get("seat")
            key = (("seat", seat), ("strategy", "all seats" if seat == "all" else row.get("strategy")))
            panels.setdefault(panel, {}).setdefault(key, []).append(row)
            names[row["order"]] = str(row["subgame"])
    titled = vary(list(panels))
    cols = min(len(panels), 3)
    n_rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(n_rows, cols, figsize=(4.8 * cols + 1.0, 3.8 * n_rows + 0.8), squeeze=False,
                             sharey=True, layout="constrained")
    order = sorted(names)
    for ax, (panel, series) in zip(axes.flat, panels.items(), strict=False):
        i = 0
        for key, rows in series.items():
            rows.sort(key=lambda r: r["order"])
            everyone = dict(key)["seat"] == "all"
            label = "all seats" if everyone else series_label(key, ["seat", "strategy"])
            ax.plot([r["order"] for r in rows], [r["survival_rate"] for r in rows], marker="o", markersize=4,
                    color="#000000" if everyone else colour(i), linewidth=2.2 if everyone else 1.2, label=label)
            i += 0 if everyone else 1
        if titled:
            ax.set_title(series_label(panel, titled), fontsize=9)
        ax.set_xticks(order, [names[k].replace("_", " ") for k in order], rotation=20, ha="right")
        ax.set_xlabel("sub-game, in the order played")
        ax.set_ylabel("tokens surviving / tokens entering")
        ax.set_ylim(0, 1.02)
        percent_axis(ax.yaxis)
        ax.grid(axis="y", color="#dddddd", linewidth=0.6)
        ax.legend(fontsize=7, frameon=False)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    return fig, game_title(tables) + "token survival per sub-game"
