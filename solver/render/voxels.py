"""Pictures of cube buildings (Blokus 3D): a top view as text with heights, an isometric SVG.

Cubes are ``(x, y, z)``: x to the right, y away from the viewer (row 1 is the front row), z up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from xml.sax.saxutils import escape

from solver.render.grid import _ANSI_BG, colour_fill, colour_letter, column_name

Square = tuple[int, int]
Cube = tuple[int, int, int]


def text_top_view(width: int, depth: int, footprint: Iterable[Square], tops: Mapping[Square, tuple[str, int]],
                  *, ansi: bool = False) -> str:
    """The building seen from above, back row first: each square shows the colour letter of its
    top cube and the column's height (``B3``), ``..`` for empty ground, blank off the template.

    >>> print(text_top_view(2, 1, [(0, 0), (1, 0)], {(1, 0): ("red", 2)}))
     1 .. R2
       a  b
    """
    foot = set(footprint)
    lines = []
    for y in range(depth - 1, -1, -1):
        parts = []
        for x in range(width):
            if (x, y) in tops:
                colour, h = tops[(x, y)]
                text = f"{colour_letter(colour)}{h}"
                parts.append(f"\x1b[{_ANSI_BG.get(colour, 47)};97m{text}\x1b[0m" if ansi else text)
            else:
                parts.append(".." if (x, y) in foot else "  ")
        lines.append(f"{y + 1:>2} " + " ".join(parts))
    lines.append("  " + " ".join(f"{column_name(x):>2}" for x in range(width)))
    return "\n".join(line.rstrip() for line in lines)


def _shade(fill: str, factor: float) -> str:
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{min(255, int(v * factor)):02x}" for v in (r, g, b))


def svg_isometric(footprint: Iterable[Square], cubes: Mapping[Cube, str], *, title: str = "",
                  size: int = 28) -> str:
    """An isometric SVG of the building seen from the front right: the footprint on the ground,
    each cube with its top, front and right faces (hidden faces are left out)."""
    foot = set(footprint)
    a, b = size * 0.866, size * 0.5

    def proj(x: float, y: float, z: float) -> tuple[float, float]:
        return (x + y) * a, (x - y) * b - z * size

    pts = [proj(x + dx, y + dy, z) for x, y in foot for dx in (0, 1) for dy in (0, 1) for z in (0,)]
    pts += [proj(x + dx, y + dy, z + 1) for x, y, z in cubes for dx in (0, 1) for dy in (0, 1)]
    margin = 10
    top = 30 if title else margin
    minx, maxx = min(p[0] for p in pts), max(p[0] for p in pts)
    miny, maxy = min(p[1] for p in pts), max(p[1] for p in pts)
    w = maxx - minx + 2 * margin
    h = maxy - miny + top + margin

    def poly(corners, fill: str) -> str:
        xy = " ".join(f"{px - minx + margin:.1f},{py - miny + top:.1f}" for px, py in (proj(*c) for c in corners))
        return f'<polygon points="{xy}" fill="{fill}"/>'

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
           f'viewBox="0 0 {w:.0f} {h:.0f}">', f'<rect width="{w:.0f}" height="{h:.0f}" fill="white"/>']
    if title:
        out.append(f'<text x="{margin}" y="20" font-family="sans-serif" font-size="16">{escape(title)}</text>')
    out.append('<g stroke="#bbbbbb" stroke-width="1">')
    for x, y in sorted(foot):
        out.append(poly([(x, y, 0), (x + 1, y, 0), (x + 1, y + 1, 0), (x, y + 1, 0)], "#eeeeee"))
    out.append('</g><g stroke="#222222" stroke-width="1" stroke-linejoin="round">')
    for (x, y, z), colour in sorted(cubes.items(), key=lambda item: (item[0][0] - item[0][1] + item[0][2],
                                                                      item[0][2], item[0])):
        fill = colour_fill(colour)
        if (x, y, z + 1) not in cubes:
            out.append(poly([(x, y, z + 1), (x + 1, y, z + 1), (x + 1, y + 1, z + 1), (x, y + 1, z + 1)],
                            _shade(fill, 1.15)))
        if (x, y - 1, z) not in cubes:
            out.append(poly([(x, y, z), (x + 1, y, z), (x + 1, y, z + 1), (x, y, z + 1)], _shade(fill, 0.85)))
        if (x + 1, y, z) not in cubes:
            out.append(poly([(x + 1, y, z), (x + 1, y + 1, z), (x + 1, y + 1, z + 1), (x + 1, y, z + 1)],
                            _shade(fill, 0.6)))
    out.append("</g></svg>")
    return "\n".join(out) + "\n"
