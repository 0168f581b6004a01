"""Distributions from ``--histogram`` tables (histogram, value, count): the share of games at
each value, one step line per configuration, with each configuration's mean marked."""

from __future__ import annotations

from typing import Any

from solver.plot.style import colour, game_title, percent_axis, series_label, vary
from solver.plot.table import RUN_COLUMNS, Table

KIND = "histograms"
EXPECTS = "a histogram table (histogram, value, count)"

#: axis labels (with units) of the histograms the analyses write; others use their name
AXIS_LABELS = {
    "cards_left": "cards left at the end (cards)",
    "length": "game length (turns)",
    "game_length": "game length (turns)",
    "drinks": "drinks per player (drinks)",
}

#: more configurations than this in one panel are split into panels by their first varying column
MAX_LINES = 6


def fits(table: Table) -> bool:
    return (table.has("histogram") and table.numeric("value", "count")
            and all(isinstance(row["value"], int) for row in table.rows))


def _series(tables: list[Table]) -> dict[tuple, dict[tuple, dict[int, int]]]:
    """histogram name -> configuration key -> value -> count."""
    out: dict[tuple, dict[tuple, dict[int, int]]] = {}
    for t in tables:
        ident = [c for c in t.columns if c not in ("histogram", "value", "count", "game", *RUN_COLUMNS)]
        for row in t.rows:
            key = (("table", t.name), *((c, row.get(c)) for c in ident))
            counts = out.setdefault((str(row["histogram"]),), {}).setdefault(key, {})
            counts[row["value"]] = counts.get(row["value"], 0) + (row["count"] or 0)
    return out


def _with_gaps(values: list[int]) -> list[int]:
    """The values with the ends of every gap between them added (drawn at zero), so a step line
    drops to zero across values no game had, however wide the gap.

    >>> _with_gaps([0, 1, 5, 6, 8])
    [0, 1, 2, 4, 5, 6, 7, 8]
    """
    out: list[int] = []
    for v in values:
        if out and v > out[-1] + 1:
            out.extend(dict.fromkeys((out[-1] + 1, v - 1)))
        out.append(v)
    return out


def draw(tables: list[Table], plt: Any) -> tuple[Any, str]:
    by_name = _series(tables)
    panels: list[tuple[str, str, dict[tuple, dict[int, int]]]] = []  # (histogram, panel title, series)
    for (name,), series in by_name.items():
        keys = list(series)
        varying = vary(keys)
        if len(keys) > MAX_LINES and len(varying) > 1:
            split = varying[0]
            for value in dict.fromkeys(dict(k)[split] for k in keys):
                part = {k: v for k, v in series.items() if dict(k)[split] == value}
                panels.append((name, series_label(((split, value),), [split]), part))
        else:
            panels.append((name, "", series))
    cols = min(len(panels), 3)
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.4 * cols + 0.6, 3.4 * rows + 0.6), squeeze=False,
                             sharey=len({p[0] for p in panels}) == 1, layout="constrained")
    all_keys = [k for _, _, s in panels for k in s]
    split_by = {k for _, title, s in panels if title for k in vary(list(s))} if len(panels) > 1 else set()
    shown = [c for c in vary(all_keys) if not split_by or c in split_by]  # panel titles name the rest
    labels = list(dict.fromkeys(series_label(k, shown) for k in all_keys))
    for ax, (name, panel_title, series) in zip(axes.flat, panels, strict=False):
        for key, counts in series.items():
            label = series_label(key, shown)
            c = colour(labels.index(label))
            total = sum(counts.values())
            xs = _with_gaps(sorted(counts))
            ys = [counts.get(v, 0) / total if total else 0.0 for v in xs]
            mean = sum(v * n for v, n in counts.items()) / total if total else float("nan")
            ax.step(xs, ys, where="mid", color=c, linewidth=1.3, label=f"{label} (mean {mean:.2f})")
            ax.axvline(mean, color=c, linestyle="dashed", linewidth=1)
        ax.set_title(panel_title, fontsize=9)
        ax.set_xlabel(AXIS_LABELS.get(name, name.replace("_", " ")))
        ax.set_ylabel("share of games")
        percent_axis(ax.yaxis)
        ax.legend(fontsize=6.5, frameon=False, title="dashed: mean", title_fontsize=6.5)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    names = " and ".join(AXIS_LABELS.get(n, n.replace("_", " ")).split(" (")[0] for (n,) in by_name)
    return fig, game_title(tables) + f"distribution of {names}"
