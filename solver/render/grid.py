"""Pictures of square-grid boards: coloured text for terminals and SVG files.

Used for Blokus positions and for puzzle solutions alike.  A picture is a list of placements
``(colour, cells)``; cells are ``(x, y)`` with x the column from the left and y the row from
the bottom, both from 0 (so row 0 is drawn at the bottom, as on Pentobi's boards).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from xml.sax.saxutils import escape

Cell = tuple[int, int]
Point = tuple[float, float]
Placement = tuple[str, Sequence[Cell]]

#: fill colours for SVG and letters for plain text, by colour name
COLOURS: dict[str, tuple[str, str]] = {
    "blue": ("#2f5fd0", "B"),
    "yellow": ("#e8c020", "Y"),
    "red": ("#d03030", "R"),
    "green": ("#30a040", "G"),
    "orange": ("#f08020", "O"),
    "purple": ("#8040b0", "P"),
}
_ANSI_BG = {"blue": 44, "yellow": 43, "red": 41, "green": 42, "orange": 45, "purple": 45}
_FALLBACK = ["#777777", "#a0522d", "#20b2aa", "#db7093", "#556b2f", "#4682b4"]


def colour_fill(colour: str) -> str:
    """SVG fill for a colour name (a stable grey-ish fallback for unknown names)."""
    if colour in COLOURS:
        return COLOURS[colour][0]
    if colour.startswith("#"):
        return colour
    return _FALLBACK[sum(map(ord, colour)) % len(_FALLBACK)]


def colour_letter(colour: str) -> str:
    """One-letter code of a colour for plain text."""
    return COLOURS.get(colour, (None, colour[:1].upper() or "?"))[1]


def text_grid(width: int, height: int, placements: Iterable[Placement], *, blocked: Iterable[Cell] = (),
              ansi: bool = False, coordinates: bool = True) -> str:
    """The board as text, top row first; '.' empty, '#' blocked, colour letters for pieces.

    >>> print(text_grid(3, 2, [("blue", [(0, 0), (1, 0)]), ("red", [(2, 1)])], coordinates=False))
    . . R
    B B .
    """
    grid: dict[Cell, str] = {}
    for colour, cells in placements:
        for cell in cells:
            grid[tuple(cell)] = colour
    blocked_set = {tuple(c) for c in blocked}
    lines = []
    for y in range(height - 1, -1, -1):
        parts = []
        for x in range(width):
            if (x, y) in blocked_set:
                parts.append("#")
            elif (x, y) in grid:
                colour = grid[(x, y)]
                letter = colour_letter(colour)
                if ansi:
                    parts.append(f"\x1b[{_ANSI_BG.get(colour, 47)};97m{letter}\x1b[0m")
                else:
                    parts.append(letter)
            else:
                parts.append(".")
        row = " ".join(parts)
        lines.append(f"{y + 1:>2} {row}" if coordinates else row)
    if coordinates:
        lines.append("   " + " ".join(column_name(x) for x in range(width)))
    return "\n".join(lines)


def column_name(x: int) -> str:
    """Pentobi column letters: a..z, then aa, ab, ... (x from 0).

    >>> column_name(0), column_name(19), column_name(26)
    ('a', 't', 'aa')
    """
    name = ""
    x += 1
    while x > 0:
        x, rem = divmod(x - 1, 26)
        name = chr(ord("a") + rem) + name
    return name


def square_polygon(cell: Cell, height: int, size: float = 1.0, left: float = 0.0,
                   top: float = 0.0) -> list[Point]:
    """Corners of a square cell in picture coordinates (y grows downwards, so row 0 of the board,
    its bottom row, is drawn lowest), clockwise from the top left.

    >>> square_polygon((0, 0), 2, size=10)
    [(0.0, 10.0), (10.0, 10.0), (10.0, 20.0), (0.0, 20.0)]
    """
    x, y = cell
    px, py = left + x * size, top + (height - 1 - y) * size
    return [(px, py), (px + size, py), (px + size, py + size), (px, py + size)]


def cell_polygons(geometry: Any, size: float = 1.0) -> dict[Cell, list[Point]]:
    """The picture polygon (y downwards) of every cell of a board ``geometry``: a Blokus
    geometry (:mod:`solver.blokus.geometry`, squares or triangles) gives its cells' shapes,
    any other object with ``cells`` and ``height`` is taken as a grid of unit squares."""
    if hasattr(geometry, "polygon"):
        return {tuple(c): [(x * size, (geometry.height - y) * size) for x, y in geometry.polygon(c)]
                for c in geometry.cells}
    return {tuple(c): square_polygon(c, geometry.height, size) for c in geometry.cells}


def svg_grid(width: int, height: int, placements: Iterable[Placement], *, title: str = "",
             blocked: Iterable[Cell] = (), cell: int = 24) -> str:
    """An SVG picture: the grid, each piece filled in its colour with a dark outline, and a title."""
    margin = 8
    top = 28 if title else margin
    w = width * cell + 2 * margin
    h = height * cell + top + margin
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
    ]
    if title:
        out.append(f'<text x="{margin}" y="20" font-family="sans-serif" font-size="16">{escape(title)}</text>')

    def xy(x: int, y: int) -> tuple[int, int]:
        px, py = square_polygon((x, y), height, cell, margin, top)[0]
        return int(px), int(py)

    out.append('<g stroke="#cccccc" stroke-width="1">')
    for x in range(width + 1):
        out.append(f'<line x1="{margin + x * cell}" y1="{top}" x2="{margin + x * cell}" y2="{top + height * cell}"/>')
    for y in range(height + 1):
        out.append(f'<line x1="{margin}" y1="{top + y * cell}" x2="{margin + width * cell}" y2="{top + y * cell}"/>')
    out.append("</g>")
    for x, y in blocked:
        px, py = xy(x, y)
        out.append(f'<rect x="{px}" y="{py}" width="{cell}" height="{cell}" fill="#333333"/>')
    for colour, cells in placements:
        cells = {tuple(c) for c in cells}
        fill = colour_fill(colour)
        out.append(f'<g fill="{fill}" stroke="none">')
        for x, y in sorted(cells):
            px, py = xy(x, y)
            out.append(f'<rect x="{px}" y="{py}" width="{cell}" height="{cell}"/>')
        out.append("</g>")
        # outline: every cell edge that does not border another cell of the same piece
        edges = []
        for x, y in cells:
            px, py = xy(x, y)
            if (x, y + 1) not in cells:
                edges.append((px, py, px + cell, py))
            if (x, y - 1) not in cells:
                edges.append((px, py + cell, px + cell, py + cell))
            if (x - 1, y) not in cells:
                edges.append((px, py, px, py + cell))
            if (x + 1, y) not in cells:
                edges.append((px + cell, py, px + cell, py + cell))
        path = " ".join(f"M{a} {b}L{c} {d}" for a, b, c, d in edges)
        out.append(f'<path d="{path}" stroke="#111111" stroke-width="2" stroke-linecap="square" fill="none"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
