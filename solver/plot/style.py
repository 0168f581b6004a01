"""What every chart shares: matplotlib behind a non-interactive backend, the colour-blind-safe
palette, titles with the number of games, the footer naming the command and seed, and saving.

matplotlib is an optional extra (``pip install 'tabletop-solver[plot]'``): it is imported only
when a chart is drawn, and its absence is a one-line error.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from solver.errors import SolverError
from solver.montecarlo.output import check_writable, write_bytes_atomic

INSTALL_HINT = "charts need matplotlib: pip install 'tabletop-solver[plot]' (or pip install matplotlib)"

#: picture formats by file extension
FORMATS = {".svg": "svg", ".png": "png", ".pdf": "pdf"}

#: Okabe & Ito's palette, distinguishable with the common colour-vision deficiencies
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#F0E442")

def pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend, with text kept as text in SVG (searchable, small)."""
    try:
        import matplotlib
    except ImportError:
        raise SolverError(INSTALL_HINT) from None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    plt.rcParams.update({
        "svg.fonttype": "none",        # <text> elements instead of glyph outlines
        "svg.hashsalt": "tabletop-solver",  # stable element ids: same table, same file
        "font.size": 9,
        "font.family": "sans-serif",
        "font.sans-serif": ["DejaVu Sans", "Arial", "Helvetica"],  # short font lists in SVG text
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.prop_cycle": matplotlib.cycler(color=PALETTE),
    })
    return plt


def require_matplotlib() -> None:
    """Fail early (before a long run) when charts are asked for but matplotlib is missing."""
    pyplot()


def check_picture_path(path: str | Path) -> None:
    """The output must be a writable .svg, .png or .pdf file."""
    if Path(path).suffix.lower() not in FORMATS:
        raise SolverError(f"cannot draw {path}: the picture file must end in .svg, .png or .pdf")
    check_writable(path)


def colour(i: int) -> str:
    """The i-th colour of the palette (cycling)."""
    return PALETTE[i % len(PALETTE)]


def games_text(counts: Iterable[Any], configurations: int = 1) -> str:
    """'1,000 games', '1,000 games per configuration' or '200–1,000 games per configuration'.

    >>> games_text([1000, 1000]), games_text([1000], 3), games_text([200, 1000])
    ('1,000 games', '1,000 games per configuration', '200–1,000 games per configuration')
    """
    values = sorted({int(c) for c in counts if isinstance(c, int | float)})
    if not values:
        return "games unknown"
    each = " per configuration" if configurations > 1 or len(values) > 1 else ""
    if len(values) == 1:
        return f"{values[0]:,} games{each}"
    return f"{values[0]:,}–{values[-1]:,} games{each}"


def finish(fig: Any, path: str | Path, title: str, footer: str, partial: bool = False) -> None:
    """Title (marked partial for an interrupted run) and footer on ``fig``, then write the file."""
    plt = pyplot()
    if partial:
        title = f"{title} (partial: the run was interrupted)"
    fig.suptitle(textwrap.fill(title, int(fig.get_figwidth() * 11)), fontsize=11)
    if footer:  # as the figure's x label, so that the (constrained) layout makes room for it
        lines = textwrap.wrap(footer, int(fig.get_figwidth() * 19), break_on_hyphens=False)
        fig.supxlabel("\n".join(lines), x=0.01, ha="left", fontsize=6.5, color="#555555")
    fmt = FORMATS[Path(path).suffix.lower()]
    metadata = {"svg": {"Date": None}, "pdf": {"CreationDate": None}, "png": {"Software": None}}[fmt]
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, metadata=metadata, dpi=150 if fmt == "png" else 100)  # 100: rasterised parts
    plt.close(fig)
    write_bytes_atomic(path, buf.getvalue())


#: how the ``game`` column's values are written in titles
GAME_NAMES = {"thegame": "The Game", "blokus": "Blokus", "clovece": "Člověče", "squid": "Squid Game"}


def game_title(tables: Iterable[Any]) -> str:
    """The games the tables are about, as a title prefix ('Blokus: '), or '' when unknown."""
    names = dict.fromkeys(str(row.get("game")) for t in tables for row in t.rows if row.get("game"))
    return ", ".join(GAME_NAMES.get(n, n) for n in names) + ": " if names else ""


def percent_axis(axis: Any) -> None:
    """Show a 0..1 axis as percentages."""
    from matplotlib.ticker import PercentFormatter

    axis.set_major_formatter(PercentFormatter(1.0, decimals=0))


def vary(keys: list[tuple[tuple[str, Any], ...]]) -> list[str]:
    """The columns whose value differs between the given series keys (to name series briefly).

    >>> vary([(("players", 1), ("strategy", "a")), (("players", 2), ("strategy", "a"))])
    ['players']
    """
    columns = dict.fromkeys(c for key in keys for c, _ in key)
    return [c for c in columns if len({dict(key).get(c) for key in keys}) > 1]


def series_label(key: tuple[tuple[str, Any], ...], columns: list[str]) -> str:
    """'players 3, greedy' from a series key, naming only the given columns."""
    parts = []
    for c, v in key:
        if c in columns:
            parts.append(str(v) if c in ("strategy", "variant", "table") else f"{c.replace('_', ' ')} {v}")
    return ", ".join(parts) or "all"


def interval(row: dict[str, Any]) -> tuple[float, float, float]:
    """(win rate, distance down to ci_low, distance up to ci_high) of a row, for error bars; empty
    cells count as 0 and an interval that does not contain the rate is clipped to it."""
    rate, lo, hi = (row.get(c) or 0.0 for c in ("win_rate", "ci_low", "ci_high"))
    return rate, max(rate - lo, 0.0), max(hi - rate, 0.0)
