"""Heat maps of Blokus boards: per colour, the share of games that end with each cell covered by
that colour (top row), and the same over the games that colour's side won (bottom row).

The cells are drawn as the polygons the render layer gives for the board's geometry
(:func:`solver.render.grid.cell_polygons`), so a board of other cells (Trigon's triangles) is
drawn as soon as the render layer knows its shape.  Each colour shades from white to its own
Blokus colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from solver.plot.style import finish, pyplot
from solver.render.grid import cell_polygons, colour_fill, column_name


def coverage_title(variant: str, games: int) -> str:
    """The heat map's title: the variant and the number of games."""
    return f"Blokus {variant}: share of games ending with each cell covered, {games:,} games"


def _panel(ax: Any, geometry: Any, shares: np.ndarray, colour: str, plt: Any, title: str) -> None:
    from matplotlib.collections import PolyCollection
    from matplotlib.colors import LinearSegmentedColormap, Normalize

    polygons = cell_polygons(geometry)
    cmap = LinearSegmentedColormap.from_list(colour, ["#ffffff", colour_fill(colour)])
    norm = Normalize(0.0, 1.0)
    cells = list(polygons)
    values = [shares[y, x] for x, y in cells]
    collection = PolyCollection([polygons[c] for c in cells], array=np.asarray(values), cmap=cmap, norm=norm,
                                edgecolors="#d0d0d0", linewidths=0.3, rasterized=True)
    ax.add_collection(collection)
    ax.autoscale_view()
    ax.set_aspect("equal")
    ax.invert_yaxis()  # picture coordinates: y grows downwards, the board's row 1 at the bottom
    columns = sorted({x for x, _ in cells})
    rows = sorted({y for _, y in cells})
    step = 5 if len(columns) > 10 else 2
    centre = {c: np.mean(polygons[c], axis=0) for c in cells}
    # a tick per labelled column at its lowest cell, per labelled row at its leftmost cell (on a
    # hexagon of triangles the first column and row do not span the board)
    lowest = {x: min(y for cx, y in cells if cx == x) for x in columns[::step]}
    leftmost = {y: min(x for x, cy in cells if cy == y) for y in rows[::step]}
    ax.set_xticks([centre[(x, y)][0] for x, y in lowest.items()], [column_name(x) for x in lowest], fontsize=6)
    ax.set_yticks([centre[(x, y)][1] for y, x in leftmost.items()], [str(y + 1) for y in leftmost], fontsize=6)
    ax.tick_params(length=0)
    ax.spines[:].set_visible(False)
    ax.set_xlabel("column", fontsize=7)
    ax.set_ylabel("row", fontsize=7)
    ax.set_title(title, fontsize=8)
    bar = plt.colorbar(collection, ax=ax, fraction=0.046, pad=0.03)
    bar.ax.tick_params(labelsize=6)
    bar.ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f} %")


def draw_coverage(geometry: Any, colours: Sequence[str], covered: np.ndarray, games: int,
                  won_covered: np.ndarray, won_games: Sequence[int], output: str | Path, *, title: str,
                  footer: str = "", partial: bool = False) -> None:
    """Draw the coverage heat maps: ``covered[k, y, x]`` counts the games ending with cell (x, y)
    covered by colour k, ``won_covered`` the same over the ``won_games[k]`` games colour k's side
    won (ties count as won); colours no player owns (``won_games`` -1) get no bottom panel."""
    plt = pyplot()
    n = len(colours)
    fig, axes = plt.subplots(2, n, figsize=(2.9 * n + 0.6, 6.4), squeeze=False, layout="constrained")
    for k, name in enumerate(colours):
        share = covered[k] / games if games else np.zeros_like(covered[k], dtype=float)
        _panel(axes[0, k], geometry, share, name, plt, f"{name}: all {games:,} games")
        if won_games[k] < 0:
            axes[1, k].set_visible(False)
            continue
        won = won_covered[k] / won_games[k] if won_games[k] else np.zeros_like(covered[k], dtype=float)
        what = f"the {won_games[k]:,} games it won" if won_games[k] else "won no game"
        _panel(axes[1, k], geometry, won, name, plt, f"{name}: {what}")
    finish(fig, output, title, footer, partial)
