"""Win rate per seat (or strategy) as bars with the 95 % Wilson interval as error bars and the
fair share marked: the chart of every main result table (one group of bars per configuration)."""

from __future__ import annotations

import textwrap
from typing import Any

from solver.plot.style import PALETTE, game_title, interval, percent_axis
from solver.plot.table import Table
from solver.render.grid import COLOURS, colour_fill

KIND = "win rates"
EXPECTS = "a result table (seat, win_rate, ci_low, ci_high)"


def fits(table: Table) -> bool:
    return table.has("seat") and table.numeric("win_rate", "ci_low", "ci_high")


def fair_share(rows: list[dict[str, Any]]) -> float | None:
    """The win rate every seat of one configuration would have if the game were fair: one over the
    number of sides (Blokus teams share a side), None for cooperative games (seat ``team``)."""
    if any(row.get("seat") == "team" for row in rows):
        return None
    if all(row.get("side") is not None for row in rows):
        return 1.0 / len({row["side"] for row in rows})
    players = rows[0].get("players")
    return 1.0 / players if isinstance(players, int) and players > 0 else 1.0 / len(rows)


def configurations(tables: list[Table]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The rows grouped by configuration (table, variant, players, line-up), named for the chart;
    a cooperative table (seat ``team``) has one row per strategy in each group."""
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for t in tables:
        for row in t.rows:
            groups.setdefault((t.name, row.get("variant"), row.get("players")), []).append(row)
    # a table may hold several line-ups of one variant and player count (tournaments): split them
    split: list[tuple[tuple, list[dict[str, Any]]]] = []
    for key, rows in groups.items():
        lineup: list[dict[str, Any]] = []
        for row in rows:
            if lineup and row.get("seat") != "team" and row.get("seat") in {r.get("seat") for r in lineup}:
                split.append((key, lineup))
                lineup = []
            lineup.append(row)
        split.append((key, lineup))
    names = []
    for (table, variant, players), _ in split:
        parts = [str(variant)] if variant is not None else []
        if players is not None:
            parts.append(f"{players} players")
        if len(tables) > 1:
            parts.append(table)
        names.append(", ".join(parts))
    if len(set(names)) < len(names):  # several line-ups of one configuration: name the line-up
        names = [f"{name}: {', '.join(str(r.get('strategy')) for r in rows)}"
                 for name, (_, rows) in zip(names, split, strict=True)]
    return list(zip(names, [rows for _, rows in split], strict=True))


def _bar_colour(row: dict[str, Any], strategies: list[str]) -> str:
    """Blokus seats in their (first) colour; other games by strategy from the palette."""
    first = str(row.get("colours") or "").split("+")[0]
    if row.get("game") == "blokus" and first in COLOURS:
        return colour_fill(first)
    return PALETTE[strategies.index(str(row.get("strategy"))) % len(PALETTE)]


def _tick(row: dict[str, Any]) -> str:
    if row.get("seat") == "team":  # cooperative (The Game): one row per strategy
        return str(row.get("strategy"))
    lines = [f"seat {row.get('seat')}", str(row.get("strategy"))]
    if row.get("colours"):
        lines.append(str(row["colours"]))
    return "\n".join(lines)


#: more bars than this are drawn sideways, one labelled line each
MAX_UPRIGHT = 40


def draw(tables: list[Table], plt: Any) -> tuple[Any, str]:
    groups = configurations(tables)
    strategies = list(dict.fromkeys(str(r.get("strategy")) for _, rows in groups for r in rows))
    n_bars = sum(len(rows) for _, rows in groups)
    sideways = n_bars > MAX_UPRIGHT
    if sideways:
        fig, ax = plt.subplots(figsize=(8.0, 0.16 * (n_bars + len(groups)) + 1.5), layout="constrained")
    else:
        width = min(max(6.0, 0.55 * n_bars + 1.5 * len(groups)), 22.0)
        fig, ax = plt.subplots(figsize=(width, 4.8), layout="constrained")
    bar, error, fair_line = (ax.barh, "xerr", ax.vlines) if sideways else (ax.bar, "yerr", ax.hlines)
    x = 0.0
    ticks, labels = [], []
    fair_drawn = False
    seen_legend: set[str] = set()
    for name, rows in groups:
        start = x
        for row in rows:
            rate, below, above = interval(row)
            strategy = str(row.get("strategy"))
            legend = strategy if strategy not in seen_legend and row.get("game") != "blokus" else None
            seen_legend.add(strategy)
            bar(x, rate, 0.8, color=_bar_colour(row, strategies), edgecolor="#222222", linewidth=0.5,
                label=legend)
            ax.errorbar(*((rate, x) if sideways else (x, rate)), fmt="none", ecolor="#111111", elinewidth=1,
                        capsize=2 if sideways else 3, **{error: [[below], [above]]})
            ticks.append(x)
            tick = _tick(row)
            labels.append(f"{name} · {tick.replace(chr(10), ' ')}" if sideways else tick)
            x += 1
        fair = fair_share(rows)
        if fair is not None:
            fair_line(fair, start - 0.45, x - 0.55, colors="#111111", linestyles="dashed", linewidth=1,
                      label=None if fair_drawn else "fair share")
            fair_drawn = True
        if len(groups) > 1 and not sideways:
            ax.text((start + x - 1) / 2, 1.0, textwrap.fill(name, max(14, 9 * len(rows))),
                    transform=ax.get_xaxis_transform(), ha="center", va="bottom", fontsize=7)
        x += 0.8
    top = min(1.0, max(1.15 * max((r.get("ci_high") or 0) for _, rows in groups for r in rows), 0.05))
    label = "win rate (share of games won), 95 % interval"
    if sideways:
        ax.set_yticks(ticks, labels, fontsize=6)
        ax.invert_yaxis()  # first configuration on top
        ax.set_xlabel(label)
        ax.set_xlim(0, top)
        percent_axis(ax.xaxis)
    else:
        ax.set_xticks(ticks, labels, fontsize=7 if n_bars > 12 else 8)
        ax.set_ylabel(label)
        ax.set_ylim(0, top)
        percent_axis(ax.yaxis)
    ax.legend(fontsize=7, loc="upper right", frameon=False)
    subject = "win rate per seat"
    if any(r.get("seat") == "team" for _, rows in groups for r in rows):
        subject = "win rate per strategy"
    if len(groups) == 1:
        subject += f" ({groups[0][0]})"
    return fig, game_title(tables) + subject
