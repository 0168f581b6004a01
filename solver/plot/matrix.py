"""Tournament matrices (strategy, against, win_rate): an annotated heat map of the win rate of one
player of strategy S (rows) against three of X (columns), one panel per table."""

from __future__ import annotations

from typing import Any

from solver.plot.style import game_title
from solver.plot.table import Table

KIND = "tournament matrix"
EXPECTS = "a tournament matrix (strategy, against, win_rate)"


def fits(table: Table) -> bool:
    return table.has("strategy", "against") and table.numeric("win_rate")


def draw(tables: list[Table], plt: Any) -> tuple[Any, str]:
    import numpy as np
    from matplotlib.colors import TwoSlopeNorm

    sizes = [len(t.distinct("strategy")) for t in tables]
    side = max(3.2, 0.75 * max(sizes) + 1.8)
    fig, axes = plt.subplots(1, len(tables), figsize=(side * len(tables) + 1.2, side), squeeze=False,
                             layout="constrained")
    image = None
    for ax, t in zip(axes.flat, tables, strict=True):
        rows, cols = t.distinct("strategy"), t.distinct("against")
        grid = np.full((len(rows), len(cols)), np.nan)
        for r in t.rows:
            grid[rows.index(r["strategy"]), cols.index(r["against"])] = r["win_rate"] if r["win_rate"] is not None else np.nan
        diagonal = [grid[i, cols.index(s)] for i, s in enumerate(rows) if s in cols]
        fair = float(np.nanmean(diagonal)) if diagonal and not np.all(np.isnan(diagonal)) else 0.25
        norm = TwoSlopeNorm(vcenter=fair, vmin=min(0.0, fair - 1e-6), vmax=max(1.0, fair + 1e-6))
        image = ax.imshow(grid, cmap="PuOr", norm=norm)
        for i in range(len(rows)):
            for j in range(len(cols)):
                if not np.isnan(grid[i, j]):
                    dark = abs(norm(grid[i, j]) - 0.5) > 0.3
                    ax.text(j, i, f"{100 * grid[i, j]:.1f}", ha="center", va="center", fontsize=8,
                            color="white" if dark else "black")
        ax.set_xticks(range(len(cols)), [str(c) for c in cols], rotation=30, ha="right")
        ax.set_yticks(range(len(rows)), [str(r) for r in rows])
        ax.set_xlabel("against three players of strategy X")
        ax.set_ylabel("one player of strategy S")
        ax.spines[:].set_visible(False)
        if len(tables) > 1:
            ax.set_title(t.name, fontsize=9)
    bar = fig.colorbar(image, ax=list(axes.flat), shrink=0.8)
    bar.set_label("win rate of S (%, neutral colour = the diagonal's fair share)")
    bar.ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}")
    return fig, game_title(tables) + "tournament, win rate of S against X"
