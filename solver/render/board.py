"""Pictures of Blokus boards of any geometry (squares or Trigon's triangles): text and SVG.

The cell shapes come from the board's geometry (:mod:`solver.blokus.geometry`: each cell's
corner points and their drawing coordinates), so this module has no square-only arithmetic: a
piece's outline is every side of its cells that no other cell of the same piece shares.

>>> from solver.blokus.geometry import TrigonGeometry
>>> print(text_board(TrigonGeometry(2), [("blue", [(1, 3), (2, 3)])], coordinates=False))
 BB△▽△
△▽△▽△▽△
▽△▽△▽△▽
 ▽△▽△▽
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any
from xml.sax.saxutils import escape

from solver.render.grid import _ANSI_BG, Placement, colour_fill, colour_letter, column_name

Point = tuple[float, float]

#: empty cells in text: squares, upward and downward triangles
_EMPTY = {("square", 0): ".", ("triangle", 0): "△", ("triangle", 1): "▽"}


def text_board(geometry: Any, placements: Iterable[Placement], *, ansi: bool = False,
               coordinates: bool = True) -> str:
    """The board as text, top row first: a colour letter per covered cell, the empty cells as
    ``.`` (squares) or ``△``/``▽`` (triangles), blanks off the board.  Square boards put a space
    between cells; triangles sit side by side as on the board."""
    grid: dict[tuple[int, int], str] = {}
    for colour, cells in placements:
        for cell in cells:
            grid[tuple(cell)] = colour
    lattice = geometry.lattice.name
    sep = " " if lattice == "square" else ""
    lines = []
    for y in range(geometry.height - 1, -1, -1):
        parts = []
        for x in range(geometry.width):
            if not geometry.on_board((x, y)):
                parts.append(" ")
            elif (x, y) in grid:
                colour = grid[(x, y)]
                letter = colour_letter(colour)
                parts.append(f"\x1b[{_ANSI_BG.get(colour, 47)};97m{letter}\x1b[0m" if ansi else letter)
            else:
                parts.append(_EMPTY[(lattice, geometry.kind((x, y)))])
        row = sep.join(parts).rstrip()
        lines.append(f"{y + 1:>2} {row}" if coordinates else row)
    if coordinates:
        names = [column_name(x) for x in range(geometry.width)]
        if sep:
            lines.append("   " + sep.join(names))
        else:   # column names of two letters: one letter per line
            for i in range(max(len(n) for n in names)):
                lines.append("   " + "".join(n[i] if i < len(n) else " " for n in names).rstrip())
    return "\n".join(lines)


def _frame(geometry: Any, scale: float, margin: float, top: float) -> tuple[Any, float, float]:
    """A function from drawing to picture coordinates (y downwards), and the picture's size."""
    pts = [p for c in geometry.cells for p in geometry.polygon(c)]
    x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
    y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)

    def to_picture(p: Point) -> Point:
        return margin + (p[0] - x0) * scale, top + (y1 - p[1]) * scale
    return to_picture, (x1 - x0) * scale + 2 * margin, (y1 - y0) * scale + top + margin


def cell_outline_edges(geometry: Any, cells: Iterable[tuple[int, int]]) -> list[tuple[Point, Point]]:
    """The sides of ``cells`` that no other of these cells shares (a piece's outline), as pairs
    of drawing points."""
    count: Counter = Counter()
    for cell in cells:
        poly = geometry.corner_points(cell)
        for a, b in zip(poly, poly[1:] + poly[:1], strict=True):
            count[frozenset((a, b))] += 1
    point = geometry.lattice.point
    return [tuple(point(v) for v in sorted(edge)) for edge, n in count.items() if n == 1]


def svg_board(geometry: Any, placements: Iterable[Placement], *, title: str = "", cell: int = 24,
              marks: Iterable[tuple[int, int]] = ()) -> str:
    """An SVG picture of the board: every cell outlined in light grey, each piece filled in its
    colour with a dark outline, ``marks`` (start cells) dotted, and a title."""
    margin = 8.0
    top = 28.0 if title else margin
    to_picture, w, h = _frame(geometry, float(cell), margin, top)

    def path(points: list[Point]) -> str:
        return "M" + "L".join(f"{x:.1f} {y:.1f}" for x, y in points) + "Z"

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
           f'viewBox="0 0 {w:.0f} {h:.0f}">',
           f'<rect width="{w:.0f}" height="{h:.0f}" fill="white"/>']
    if title:
        out.append(f'<text x="{margin:.0f}" y="20" font-family="sans-serif" font-size="16">{escape(title)}</text>')
    board = " ".join(path([to_picture(p) for p in geometry.polygon(c)]) for c in geometry.cells)
    out.append(f'<path d="{board}" fill="#f4f4f4" stroke="#cccccc" stroke-width="1"/>')
    for c in marks:
        x, y = to_picture(geometry.cell_centre(c))
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{cell / 8:.1f}" fill="#999999"/>')
    for colour, cells in placements:
        cells = [tuple(c) for c in cells]
        fill = colour_fill(colour)
        shapes = " ".join(path([to_picture(p) for p in geometry.polygon(c)]) for c in cells)
        out.append(f'<path d="{shapes}" fill="{fill}" stroke="{fill}" stroke-width="0.5"/>')
        edges = cell_outline_edges(geometry, cells)
        d = " ".join("M{:.1f} {:.1f}L{:.1f} {:.1f}".format(*to_picture(a), *to_picture(b)) for a, b in edges)
        out.append(f'<path d="{d}" stroke="#111111" stroke-width="2" stroke-linecap="round" fill="none"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
