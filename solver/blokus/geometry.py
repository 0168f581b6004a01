"""Board geometries: the one place that knows what a cell is (as Pentobi's ``Geometry``).

Every Blokus board is drawn in a rectangular frame of ``width`` columns and ``height`` rows,
cells ``(x, y)`` with x the column from the left and y the row from the bottom, both from 0, so
that one 64-bit word per row holds a row of the board for the C engine.  What differs between
boards is asked of the geometry and nowhere else:

* which frame cells are on the board (a rectangle, or Trigon's hexagon),
* the *kind* of a cell (squares: all alike; triangles: pointing up or down),
* its edge and corner (vertex) neighbours, derived from the cell's corner points,
* the symmetries of the lattice (how pieces turn and flip), so the orientation tables of a piece
  set are computed, not listed,
* names (Pentobi's: column letters ``a``.., ``aa``.., row numbers from 1 at the bottom),
* drawing coordinates (the polygon of each cell).

Two lattices implement it: :class:`SquareLattice` and :class:`TriangleLattice`.  A triangle
lattice cell's kind depends on the parity of ``x + y``: cell ``(x, y)`` of a frame with parity
``u`` points up iff ``(x + y + u)`` is even.  A shape (a piece orientation) carries its own
parity, and may be put at an offset ``(c, r)`` of a board only if the kinds agree, i.e. iff
``(c + r + shape parity + board parity)`` is even.  Square shapes and boards have parity 0.

Trigon's board, the hexagon of edge 9 (486 triangles) or 8 (384), as Pentobi maps it; here the
hexagon of edge 2 in a frame of 7 columns (a…g) and 4 rows, △ pointing up, ▽ down::

    4  △▽△▽△
    3 △▽△▽△▽△
    2 ▽△▽△▽△▽
    1  ▽△▽△▽
      abcdefg

>>> t = TrigonGeometry(9)
>>> len(t.cells), t.width, t.height
(486, 35, 18)
>>> t.is_up((17, 3)), len(t.edge_neighbours((17, 3))), len(t.corner_neighbours((17, 3)))
(False, 3, 9)
>>> s = SquareGeometry(20, 20)
>>> len(s.edge_neighbours((5, 5))), len(s.corner_neighbours((5, 5)))
(4, 4)
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from functools import cached_property

from solver.errors import SolverError
from solver.render.grid import column_name

Cell = tuple[int, int]
Vertex = tuple[int, int]
Shape = tuple[Cell, ...]
Point = tuple[float, float]


# ---------------------------------------------------------------------------- lattices


class Lattice:
    """Cells of an infinite plane, their corner points and symmetries (no board edge)."""

    name = ""
    #: cells a cell's neighbours can be found among (offsets (dx, dy)), see ``neighbours``
    window: tuple[Cell, ...] = ()

    def vertices(self, cell: Cell, parity: int) -> frozenset[Vertex]:
        """The corner points of a cell in integer lattice coordinates."""
        raise NotImplementedError

    def cell_of(self, vertices: Iterable[Vertex]) -> tuple[Cell, int]:
        """The cell with these corner points, and the parity under which it has them."""
        raise NotImplementedError

    def symmetries(self) -> list[Callable[[Vertex], Vertex]]:
        """The maps of corner points that turn or flip the plane onto itself (identity first)."""
        raise NotImplementedError

    def point(self, v: Vertex) -> Point:
        """Drawing coordinates of a corner point (x to the right, y upwards, edge length 1)."""
        raise NotImplementedError

    def kind(self, cell: Cell, parity: int) -> int:
        """0 for squares and upward triangles, 1 for downward triangles."""
        return 0

    def neighbours(self, cell: Cell, parity: int) -> tuple[list[Cell], list[Cell]]:
        """(edge neighbours, corner-only neighbours): cells sharing two corner points, or one."""
        own = self.vertices(cell, parity)
        edge, corner = [], []
        for dx, dy in self.window:
            other = (cell[0] + dx, cell[1] + dy)
            shared = len(own & self.vertices(other, parity))
            if shared >= 2:
                edge.append(other)
            elif shared == 1:
                corner.append(other)
        return edge, corner

    def normalize(self, cells: Iterable[Cell], parity: int) -> tuple[Shape, int]:
        """Cells moved so the lowest x and y are 0, sorted, with the parity they then have."""
        cells = list(cells)
        mx = min(x for x, _ in cells)
        my = min(y for _, y in cells)
        return tuple(sorted((x - mx, y - my) for x, y in cells)), self.shift_parity(parity, mx + my)

    def shift_parity(self, parity: int, offset: int) -> int:
        return 0

    def orientations(self, shape: Shape, parity: int = 0) -> tuple[tuple[Shape, int], ...]:
        """The distinct fixed orientations (normalized shape, parity) of a shape, in the order
        of :meth:`symmetries`."""
        seen: dict[tuple[Shape, int], None] = {}
        for sym in self.symmetries():
            cells = [self.cell_of(sym(v) for v in self.vertices(c, parity)) for c in shape]
            moved = [c for c, _ in cells]
            seen.setdefault(self.normalize(moved, cells[0][1] if cells else 0), None)
        return tuple(seen)

    def straight_sides(self, shape: Shape, parity: int) -> set[Cell]:
        """Cells that another piece of the same colour may not cover under the corners-only
        rule: at a corner point where this shape's outline runs straight on (its cells there
        fill exactly a half turn), every other cell having that point as a corner."""
        cells = set(shape)
        out: set[Cell] = set()
        corner_points = set().union(*(self.vertices(c, parity) for c in cells))
        for v in corner_points:
            around = self.cells_around(v, parity)
            mine = [c for c in around if c in cells]
            if len(mine) * 2 == len(around) and self._contiguous(around, cells):
                out.update(c for c in around if c not in cells)
        return out

    def cells_around(self, v: Vertex, parity: int) -> list[Cell]:
        """The cells having corner point ``v``, in turning order around it."""
        raise NotImplementedError

    @staticmethod
    def _contiguous(around: list[Cell], cells: set[Cell]) -> bool:
        flags = [c in cells for c in around]
        runs = sum(1 for i in range(len(flags)) if flags[i] and not flags[i - 1])
        return runs == 1


class SquareLattice(Lattice):
    """Unit squares; cell (x, y) has corner points (x, y) … (x + 1, y + 1)."""

    name = "square"
    window = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0))

    def vertices(self, cell: Cell, parity: int) -> frozenset[Vertex]:
        x, y = cell
        return frozenset(((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)))

    def cell_of(self, vertices: Iterable[Vertex]) -> tuple[Cell, int]:
        vs = list(vertices)
        return (min(a for a, _ in vs), min(b for _, b in vs)), 0

    def symmetries(self) -> list[Callable[[Vertex], Vertex]]:
        # identity and the quarter turns, then the same after a mirror (Pentobi's order of old)
        def turn(v: Vertex, n: int, flip: bool) -> Vertex:
            a, b = (-v[0], v[1]) if flip else v
            for _ in range(n):
                a, b = -b, a
            return a, b
        return [lambda v, n=n, f=f: turn(v, n, f) for f in (False, True) for n in range(4)]

    def point(self, v: Vertex) -> Point:
        return float(v[0]), float(v[1])

    def cells_around(self, v: Vertex, parity: int) -> list[Cell]:
        a, b = v
        return [(a, b), (a - 1, b), (a - 1, b - 1), (a, b - 1)]


class TriangleLattice(Lattice):
    """Equilateral triangles in rows (Pentobi's Trigon coordinates).

    Corner points are ``(a, j)``: j the row of points from the bottom, a the position along it
    in half edge lengths.  An upward triangle (x, y) has corners (x - 1, y), (x + 1, y) and
    (x, y + 1); a downward one (x - 1, y + 1), (x + 1, y + 1) and (x, y): the two triangles
    beside one another in a row share a side, and an upward triangle shares its bottom side
    with the downward triangle under it.
    """

    name = "triangle"
    window = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-2, -1, 0, 1, 2) if (dx, dy) != (0, 0))

    def kind(self, cell: Cell, parity: int) -> int:
        return (cell[0] + cell[1] + parity) & 1

    def shift_parity(self, parity: int, offset: int) -> int:
        return (parity + offset) & 1

    def vertices(self, cell: Cell, parity: int) -> frozenset[Vertex]:
        x, y = cell
        if self.kind(cell, parity) == 0:
            return frozenset(((x - 1, y), (x + 1, y), (x, y + 1)))
        return frozenset(((x - 1, y + 1), (x + 1, y + 1), (x, y)))

    def cell_of(self, vertices: Iterable[Vertex]) -> tuple[Cell, int]:
        vs = sorted(vertices, key=lambda v: (v[1], v[0]))
        if vs[0][1] == vs[1][1]:      # two corners below: upward
            x, y, up = vs[2][0], vs[0][1], True
        else:                          # one corner below: downward
            x, y, up = vs[0][0], vs[0][1], False
        parity = (x + y) & 1 if up else (x + y + 1) & 1
        return (x, y), parity

    def symmetries(self) -> list[Callable[[Vertex], Vertex]]:
        # turns by 60 degrees about the corner point (1, 0), each also after a mirror; on the
        # corner points of a parity-1 shape the halving rounds every point alike, which adds
        # the same half step to all of them: a turn about another point, equally good as
        # shapes are moved to the origin afterwards
        def turn(v: Vertex, n: int, flip: bool) -> Vertex:
            a, j = v[0] - 1, v[1]
            if flip:
                a = -a
            for _ in range(n):
                a, j = (a - 3 * j) // 2, (a + j) // 2
            return a + 1, j
        return [lambda v, n=n, f=f: turn(v, n, f) for f in (False, True) for n in range(6)]

    def point(self, v: Vertex) -> Point:
        return v[0] / 2.0, v[1] * math.sqrt(3) / 2.0

    def cells_around(self, v: Vertex, parity: int) -> list[Cell]:
        a, j = v
        # the six triangles with corner v, counter-clockwise from the one right above-right
        ring = [(a + 1, j), (a, j), (a - 1, j), (a - 1, j - 1), (a, j - 1), (a + 1, j - 1)]
        return [c for c in ring if v in self.vertices(c, parity)]


# ---------------------------------------------------------------------------- boards


class Geometry:
    """A board: the cells of a rectangular frame that are on it, on a lattice with a parity."""

    lattice: Lattice
    width: int
    height: int
    parity: int = 0
    #: name of the piece set played on this board (solver.blokus.pieces.PIECE_SETS)
    piece_set: str = ""

    def on_board(self, cell: Cell) -> bool:
        raise NotImplementedError

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        """The board's cells, row by row from the bottom."""
        return tuple((x, y) for y in range(self.height) for x in range(self.width) if self.on_board((x, y)))

    @cached_property
    def row_masks(self) -> tuple[int, ...]:
        """Per row, the cells on the board as bits (bit x = column x): the C engine's board."""
        masks = [0] * self.height
        for x, y in self.cells:
            masks[y] |= 1 << x
        return tuple(masks)

    @cached_property
    def _neighbours(self) -> dict[Cell, tuple[list[Cell], list[Cell]]]:
        out = {}
        for cell in self.cells:
            edge, corner = self.lattice.neighbours(cell, self.parity)
            out[cell] = ([c for c in edge if self.on_board(c)], [c for c in corner if self.on_board(c)])
        return out

    def edge_neighbours(self, cell: Cell) -> list[Cell]:
        """Cells on the board sharing a side with ``cell``."""
        return list(self._neighbours[tuple(cell)][0])

    def corner_neighbours(self, cell: Cell) -> list[Cell]:
        """Cells on the board sharing only a corner point with ``cell``."""
        return list(self._neighbours[tuple(cell)][1])

    def kind(self, cell: Cell) -> int:
        return self.lattice.kind(cell, self.parity)

    def is_up(self, cell: Cell) -> bool:
        """Triangles: whether the cell points up (squares: always True)."""
        return self.kind(cell) == 0

    def normalize(self, cells: Iterable[Cell]) -> tuple[Shape, int]:
        """The shape (moved to the origin) and parity that cells of this board form."""
        return self.lattice.normalize(cells, self.parity)

    def fits(self, shape_parity: int, dx: int, dy: int) -> bool:
        """Whether a shape of this parity may be moved by (dx, dy) onto this board's lattice."""
        return self.lattice.shift_parity(shape_parity, dx + dy) == self.parity

    @cached_property
    def centre_distances(self) -> tuple[tuple[float, ...], ...]:
        """Per row y and column x, the distance in drawing units from the cell's centre to the
        board's centre (the mean of its cells' centres); cells off the board get 1e6.  The search
        uses it to steer its first moves towards the middle (``centre_moves``)."""
        centres = {cell: self.cell_centre(cell) for cell in self.cells}
        mx = sum(p[0] for p in centres.values()) / len(centres)
        my = sum(p[1] for p in centres.values()) / len(centres)
        return tuple(tuple(math.hypot(centres[x, y][0] - mx, centres[x, y][1] - my) if (x, y) in centres
                           else 1e6 for x in range(self.width)) for y in range(self.height))

    def cell_centre(self, cell: Cell) -> Point:
        """Drawing coordinates of the cell's centre (the mean of its corners)."""
        pts = self.polygon(cell)
        return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)

    def corner_points(self, cell: Cell) -> list[Vertex]:
        """The cell's corner points (lattice coordinates) in counter-clockwise order."""
        pts = {v: self.lattice.point(v) for v in self.lattice.vertices(cell, self.parity)}
        cx = sum(p[0] for p in pts.values()) / len(pts)
        cy = sum(p[1] for p in pts.values()) / len(pts)
        return sorted(pts, key=lambda v: math.atan2(pts[v][1] - cy, pts[v][0] - cx))

    def polygon(self, cell: Cell) -> list[Point]:
        """Drawing coordinates of the cell's corners (y upwards, edge length 1), counter-clockwise."""
        return [self.lattice.point(v) for v in self.corner_points(cell)]

    @cached_property
    def board_symmetries(self) -> tuple[dict[Cell, Cell], ...]:
        """The turns and flips of the lattice that map the board onto itself, each as a map of
        its cells (the identity first): the same position seen from another side of the table.

        >>> [len(g.board_symmetries) for g in (SquareGeometry(14, 14), SquareGeometry(20, 10),
        ...                                    TrigonGeometry(9))]
        [8, 4, 12]
        >>> SquareGeometry(14, 14).board_symmetries[1][0, 0]    # a quarter turn
        (13, 0)
        """
        lattice, cells = self.lattice, self.cells
        board = set(cells)
        out = []
        for sym in lattice.symmetries():
            images = [lattice.cell_of(sym(v) for v in lattice.vertices(c, self.parity)) for c in cells]
            moved = [c for c, _ in images]
            dx = min(x for x, _ in cells) - min(x for x, _ in moved)
            dy = min(y for _, y in cells) - min(y for _, y in moved)
            if not self.fits(images[0][1], dx, dy):
                continue
            mapping = {c: (m[0] + dx, m[1] + dy) for c, m in zip(cells, moved, strict=True)}
            if set(mapping.values()) == board and mapping not in out:
                out.append(mapping)
        return tuple(out)

    @property
    def corners(self) -> tuple[Cell, ...]:
        """The corner cells (square boards' any-corner first-move rule)."""
        raise SolverError(f"the {self.lattice.name} board has no corner cells")

    def cell_name(self, cell: Cell) -> str:
        """Pentobi's name of a cell: column letters then the row number from 1 at the bottom."""
        return f"{column_name(cell[0])}{cell[1] + 1}"

    def parse_cell(self, text: str) -> Cell:
        """The cell named ``text`` (``a20``); SolverError if malformed or off the board.

        >>> SquareGeometry(20, 20).parse_cell("t1")
        (19, 0)
        >>> TrigonGeometry(9).parse_cell("a9")
        (0, 8)
        """
        m = re.fullmatch(r"([a-z]{1,3})([1-9][0-9]{0,2})", text.strip().lower())
        if not m:
            raise SolverError(f"malformed cell {text!r} (expected column letters and a row number like a20)")
        x = 0
        for ch in m.group(1):
            x = x * 26 + (ord(ch) - ord("a") + 1)
        cell = (x - 1, int(m.group(2)) - 1)
        if not (0 <= cell[0] < self.width and 0 <= cell[1] < self.height and self.on_board(cell)):
            raise SolverError(f"cell {text!r} is not on the {self.describe()}")
        return cell

    def describe(self) -> str:
        raise NotImplementedError


class SquareGeometry(Geometry):
    """A rectangular board of square cells (Classic, Duo, Giant)."""

    lattice = SquareLattice()
    piece_set = "square"

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SquareGeometry) and (self.width, self.height) == (other.width, other.height)

    def __hash__(self) -> int:
        return hash(("square", self.width, self.height))

    def __repr__(self) -> str:
        return f"SquareGeometry({self.width}, {self.height})"

    def on_board(self, cell: Cell) -> bool:
        x, y = cell
        return 0 <= x < self.width and 0 <= y < self.height

    @property
    def corners(self) -> tuple[Cell, ...]:
        w, h = self.width - 1, self.height - 1
        return ((0, h), (w, h), (w, 0), (0, 0))

    def describe(self) -> str:
        return f"{self.width}x{self.height} board"


class TrigonGeometry(Geometry):
    """The regular hexagon of edge ``size`` made of triangles, in Pentobi's rectangular frame of
    ``4 size - 1`` columns and ``2 size`` rows (see the module's picture)."""

    lattice = TriangleLattice()
    piece_set = "trigon"

    def __init__(self, size: int) -> None:
        self.size = size
        self.width = 4 * size - 1
        self.height = 2 * size
        self.parity = size & 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TrigonGeometry) and self.size == other.size

    def __hash__(self) -> int:
        return hash(("trigon", self.size))

    def __repr__(self) -> str:
        return f"TrigonGeometry({self.size})"

    def on_board(self, cell: Cell) -> bool:
        x, y = cell
        if not 0 <= y < self.height:
            return False
        inset = self.size - 1 - min(y, self.height - 1 - y)
        return inset <= x < self.width - inset

    def describe(self) -> str:
        return f"Trigon board (hexagon of edge {self.size})"
