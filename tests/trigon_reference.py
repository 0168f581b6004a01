"""A slow, simple pure-Python Blokus Trigon: the independent check of the C engine's triangle board.

Written from the rules (issue 11) and Pentobi's board mapping only, with the standard library.

Geometry.  The board is the regular hexagon of edge ``size`` cut into 6 * size**2 unit
triangles (9 -> 486, 8 -> 384), mapped onto a rectangle of 4*size - 1 columns and 2*size rows
as Pentobi does: cell ``(x, y)``, x the column from 0 at the left, y the row from 0 at the
bottom.  Row y holds the columns ``size-1-dy <= x <= 3*size-1+dy`` where
``dy = min(y, 2*size-1-y)``; triangle (x, y) points up iff ``x + y + size`` is even.  The
hexagon of edge 2 (A = up, V = down, . = off the board)::

    y=3   . A V A V A .
    y=2   A V A V A V A
    y=1   V A V A V A V
    y=0   . V A V A V .
    x  =  0 1 2 3 4 5 6

Lattice vertices get exact integer coordinates ``(h, v)``: v is the height in rows, h the
horizontal position in half triangle sides, so that the point is ``(h / 2, v * sqrt(3) / 2)``
in the plane (side 1).  The up triangle (x, y) has the corners (x-1, y), (x+1, y), (x, y+1);
the down triangle (x, y) has (x-1, y+1), (x+1, y+1), (x, y).  Two triangles are *edge
neighbours* when they share two vertices, *corner neighbours* when they share exactly one;
everything about adjacency is derived from these vertex sets.

Pieces are the free polyiamonds of 1..6 triangles, enumerated here by growing edge-connected
sets and reducing by the 12 symmetries of the lattice (rotations by 60 degrees about a vertex,
``(h, v) -> ((h - 3v) / 2, (h + v) / 2)``, and the mirror ``(h, v) -> (-h, v)``).  Shapes live
on the lattice of vertices with h + v even; every translation by a lattice vector keeps each
triangle's up/down type, so a *fixed orientation* is a shape up to such translations.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

from blokus_reference import perft

Cell = tuple[int, int]
Vertex = tuple[int, int]
Triangle = frozenset  # of three Vertex
Shape = frozenset  # of Triangle

# The six unit steps from a vertex to its neighbouring vertices, counter-clockwise from east.
DIRECTIONS: tuple[Vertex, ...] = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))

START_CELLS: dict[int, tuple[Cell, ...]] = {
    9: ((17, 3), (17, 14), (9, 6), (9, 11), (25, 6), (25, 11)),
    8: ((15, 2), (15, 13), (7, 5), (7, 10), (23, 5), (23, 10)),
}

TOUCH_RULES = ("edges", "corners-only")


# ---------------------------------------------------------------------------------------------
# Lattice geometry, independent of any board


def rotate60(p: Vertex) -> Vertex:
    """Rotate a lattice point (h + v even) by 60 degrees counter-clockwise about the origin."""
    h, v = p
    assert (h + v) % 2 == 0, p
    return ((h - 3 * v) // 2, (h + v) // 2)


def mirror(p: Vertex) -> Vertex:
    """Reflect a lattice point in the vertical line through the origin."""
    return (-p[0], p[1])


def symmetries() -> list[Callable[[Vertex], Vertex]]:
    """The 12 symmetries of the triangle lattice fixing the origin (6 rotations x mirror)."""
    out = []
    for flip in (False, True):
        for turns in range(6):
            def f(p: Vertex, flip: bool = flip, turns: int = turns) -> Vertex:
                if flip:
                    p = mirror(p)
                for _ in range(turns):
                    p = rotate60(p)
                return p
            out.append(f)
    return out


def triangle_is_up(tri: Iterable[Vertex]) -> bool:
    """A triangle points up when two of its corners are at its lowest height."""
    heights = sorted(v for _, v in tri)
    return heights[0] == heights[1]


def triangle_edge_neighbours(tri: Triangle) -> list[Triangle]:
    """The three triangles sharing an edge with ``tri``: reflect each corner across the opposite side."""
    out = []
    for r in tri:
        p, q = (c for c in tri if c != r)
        out.append(frozenset((p, q, (p[0] + q[0] - r[0], p[1] + q[1] - r[1]))))
    return out


def shape_key(shape: Shape) -> tuple:
    """A sortable, hashable spelling of a shape (for choosing canonical forms)."""
    return tuple(sorted(tuple(sorted(t)) for t in shape))


def translate_to_origin(shape: Iterable[Triangle]) -> Shape:
    """Translate so the lowest (then leftmost) vertex is the origin: equal results iff the two
    shapes differ by a lattice translation (which keeps every triangle's up/down type)."""
    shape = list(shape)
    h0, v0 = min(((h, v) for t in shape for h, v in t), key=lambda p: (p[1], p[0]))
    return frozenset(frozenset((h - h0, v - v0) for h, v in t) for t in shape)


def transform(shape: Shape, f: Callable[[Vertex], Vertex]) -> Shape:
    return translate_to_origin(frozenset(f(p) for p in t) for t in shape)


@cache
def free_key(shape: Shape) -> tuple:
    """The same key for all 12 images of a shape (its free polyiamond)."""
    return min(shape_key(transform(shape, f)) for f in symmetries())


def is_edge_connected(shape: Shape) -> bool:
    shape = set(shape)
    if not shape:
        return False
    seen = {next(iter(shape))}
    todo = list(seen)
    while todo:
        for n in triangle_edge_neighbours(todo.pop()):
            if n in shape and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(shape)


@dataclass(frozen=True)
class TrigonPiece:
    """A free polyiamond: ``id`` (its index in PIECES), ``size`` in triangles, and its fixed
    orientations (shapes translated to the origin; every rotation and reflection, deduplicated)."""

    id: int
    size: int
    orientations: tuple[Shape, ...]


def enumerate_fixed_shapes(max_size: int = 6) -> dict[int, set[Shape]]:
    """All edge-connected sets of n triangles up to translation, n = 1..max_size, by growth:
    each shape of n triangles is a shape of n - 1 triangles plus an edge neighbour."""
    up, down = frozenset({(0, 0), (2, 0), (1, 1)}), frozenset({(1, 1), (-1, 1), (0, 0)})
    by_size = {1: {translate_to_origin([up]), translate_to_origin([down])}}
    for n in range(2, max_size + 1):
        grown = set()
        for shape in by_size[n - 1]:
            for t in shape:
                for nb in triangle_edge_neighbours(t):
                    if nb not in shape:
                        grown.add(translate_to_origin(shape | {nb}))
        by_size[n] = grown
    return by_size


def _build_pieces() -> tuple[TrigonPiece, ...]:
    classes: dict[tuple, set[Shape]] = {}
    for n, shapes in enumerate_fixed_shapes().items():
        for shape in shapes:
            classes.setdefault((n, free_key(shape)), set()).add(shape)
    return tuple(TrigonPiece(i, n, tuple(sorted(orients, key=shape_key)))
                 for i, ((n, _), orients) in enumerate(sorted(classes.items())))


PIECES: tuple[TrigonPiece, ...] = _build_pieces()
"""The 22 pieces, sorted by size then by canonical form; PIECES[0] is the single triangle."""

PIECES_BY_SIZE: dict[int, tuple[TrigonPiece, ...]] = {
    n: tuple(p for p in PIECES if p.size == n) for n in sorted({p.size for p in PIECES})}

_PIECE_BY_KEY: dict[tuple, int] = {free_key(p.orientations[0]): p.id for p in PIECES}


# ---------------------------------------------------------------------------------------------
# The board


class TriangleBoard:
    """The hexagon of edge ``size`` in Pentobi's rectangular mapping (see the module docstring)."""

    def __init__(self, size: int) -> None:
        s = self.size = size
        self.width, self.height = 4 * s - 1, 2 * s
        cells = []
        for y in range(2 * s):
            dy = min(y, 2 * s - 1 - y)
            cells.extend((x, y) for x in range(s - 1 - dy, 3 * s - 1 + dy + 1))
        self.cells: tuple[Cell, ...] = tuple(cells)
        self._cell_set = frozenset(cells)
        self.start_cells: tuple[Cell, ...] = START_CELLS.get(s, ())
        self._by_vertices = {self.vertices(c): c for c in cells}
        self._around: dict[Vertex, dict[int, Cell]] = {}
        for c in cells:
            for p in self.vertices(c):
                self._around.setdefault(p, {})[self._sector(p, c)] = c
        self._edge = {c: self._sharing(c, 2) for c in cells}
        self._corner = {c: self._sharing(c, 1) for c in cells}
        # the centre of the hexagon, a lattice vertex
        self.centre: Vertex = (2 * s - 1, s)

    def on_board(self, cell: Cell) -> bool:
        return tuple(cell) in self._cell_set

    def is_up(self, cell: Cell) -> bool:
        x, y = cell
        return (x + y + self.size) % 2 == 0

    def vertices(self, cell: Cell) -> Triangle:
        """The triangle's three corners: an up triangle has two at the bottom of its row and one
        at the top, a down triangle the opposite; row neighbours share a slanted side."""
        x, y = cell
        if self.is_up(cell):
            return frozenset({(x - 1, y), (x + 1, y), (x, y + 1)})
        return frozenset({(x - 1, y + 1), (x + 1, y + 1), (x, y)})

    def cell_at(self, vertices: Iterable[Vertex]) -> Cell | None:
        """The board cell with exactly these three corners, if any."""
        return self._by_vertices.get(frozenset(vertices))

    def _sector(self, p: Vertex, cell: Cell) -> int:
        """Which of the six 60-degree sectors around vertex p the triangle fills: k when its
        other corners are p + DIRECTIONS[k] and p + DIRECTIONS[k + 1]."""
        steps = {(h - p[0], v - p[1]) for h, v in self.vertices(cell) if (h, v) != p}
        for k in range(6):
            if steps == {DIRECTIONS[k], DIRECTIONS[(k + 1) % 6]}:
                return k
        raise AssertionError((p, cell))

    def around(self, vertex: Vertex) -> dict[int, Cell]:
        """The board cells having ``vertex`` as a corner, by sector 0..5 (counter-clockwise)."""
        return self._around.get(vertex, {})

    def _sharing(self, cell: Cell, n: int) -> tuple[Cell, ...]:
        mine = self.vertices(cell)
        near = {c for p in mine for c in self._around[p].values()} - {cell}
        return tuple(sorted(c for c in near if len(self.vertices(c) & mine) == n))

    def edge_neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """Board cells sharing a side (two vertices) with ``cell``."""
        return self._edge[tuple(cell)]

    def corner_neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """Board cells sharing exactly one vertex with ``cell``."""
        return self._corner[tuple(cell)]

    def rotate_cell(self, cell: Cell) -> Cell | None:
        """The cell that ``cell`` becomes under a 60-degree turn about the hexagon's centre."""
        ch, cv = self.centre
        turned = (rotate60((h - ch, v - cv)) for h, v in self.vertices(cell))
        return self.cell_at((h + ch, v + cv) for h, v in turned)

    def shape_of(self, cells: Iterable[Cell]) -> Shape:
        """The cells as a lattice shape translated to the origin (forgetting where they lie)."""
        return translate_to_origin(self.vertices(c) for c in cells)

    @staticmethod
    def cell_name(cell: Cell) -> str:
        """Column letters a..z, aa, ab, ... then the row from 1 at the bottom: (26, 0) -> 'aa1'."""
        x, y = cell
        letters = ""
        x += 1
        while x:
            x, r = divmod(x - 1, 26)
            letters = chr(ord("a") + r) + letters
        return f"{letters}{y + 1}"


@cache
def trigon_board(size: int) -> TriangleBoard:
    """The board of edge ``size``, built once (boards are never modified)."""
    return TriangleBoard(size)


def piece_id(board: TriangleBoard, cells: Iterable[Cell]) -> int | None:
    """The id (index in PIECES) of the piece these board cells form, or None if they form none."""
    cells = list(cells)
    if not cells or len(cells) > 6 or not all(board.on_board(c) for c in cells):
        return None
    shape = board.shape_of(cells)
    return _piece_id_of_shape(shape) if len(shape) == len(cells) else None


@cache
def _piece_id_of_shape(shape: Shape) -> int | None:
    return _PIECE_BY_KEY.get(free_key(shape)) if is_edge_connected(shape) else None


@cache
def _placements(size: int) -> tuple[tuple[int, frozenset], ...]:
    board = trigon_board(size)
    out = []
    for piece in PIECES:
        for shape in piece.orientations:
            anchor = min(shape, key=shape_key)
            a_low = min(anchor, key=lambda p: (p[1], p[0]))
            for c in board.cells:
                if board.is_up(c) != triangle_is_up(anchor):
                    continue
                c_low = min(board.vertices(c), key=lambda p: (p[1], p[0]))
                dh, dv = c_low[0] - a_low[0], c_low[1] - a_low[1]
                cells = [board.cell_at((h + dh, v + dv) for h, v in t) for t in shape]
                if None not in cells:
                    out.append((piece.id, frozenset(cells)))
    return tuple(out)


def placements(board: TriangleBoard) -> list[frozenset]:
    """Every placement (set of cells) of every piece on the empty board."""
    return [cells for _, cells in _placements(board.size)]


def placements_with_ids(board: TriangleBoard) -> tuple[tuple[int, frozenset], ...]:
    """Every placement on the empty board with its piece id."""
    return _placements(board.size)


@cache
def _placements_by_cell(size: int) -> dict[Cell, list[frozenset]]:
    index: dict[Cell, list[frozenset]] = {}
    for _, cells in _placements(size):
        for c in cells:
            index.setdefault(c, []).append(cells)
    return index


def spans_straight_angle(board: TriangleBoard, cells: Iterable[Cell], vertex: Vertex) -> bool:
    """Whether ``cells`` cover three consecutive triangles around ``vertex`` (180 degrees: a side
    of the piece runs straight through the vertex)."""
    cells = set(cells)
    sectors = {k for k, c in board.around(vertex).items() if c in cells}
    return any(all((k + i) % 6 in sectors for i in range(3)) for k in range(6))


# ---------------------------------------------------------------------------------------------
# Positions and the rules


class RefTrigonPosition:
    """Board contents (cell -> colour), the pieces each colour has placed, whose turn it is.

    Rules: a piece lies on empty board cells; it never shares an edge with a piece of its
    colour; the colour's first piece covers one of the six start cells, every further piece
    shares at least a vertex with a piece of its colour.  ``touch="corners-only"`` adds: at any
    vertex where a piece of colour k covers three consecutive triangles (a straight angle), no
    other piece of colour k may have that vertex as a corner.
    """

    def __init__(self, size: int, n_colours: int, touch: str = "edges") -> None:
        if touch not in TOUCH_RULES:
            raise ValueError(f"touch must be one of {TOUCH_RULES}, not {touch!r}")
        self.geometry = trigon_board(size)
        self.n_colours = n_colours
        self.touch = touch
        self.board: dict[Cell, int] = {}
        self.pieces: list[list[frozenset]] = [[] for _ in range(n_colours)]  # cells, in order
        self.placed: list[set[int]] = [set() for _ in range(n_colours)]  # piece ids
        self.last: list[int | None] = [None] * n_colours
        # per colour, the vertices through which one of its pieces runs straight (180 degrees)
        self.straight: list[set[Vertex]] = [set() for _ in range(n_colours)]
        self.to_play = 0

    def copy(self, touch: str | None = None) -> RefTrigonPosition:
        """A copy (optionally judged under another touching rule)."""
        other = RefTrigonPosition(self.geometry.size, self.n_colours, touch or self.touch)
        other.board = dict(self.board)
        other.pieces = [list(p) for p in self.pieces]
        other.placed = [set(p) for p in self.placed]
        other.last = list(self.last)
        other.straight = [set(v) for v in self.straight]
        other.to_play = self.to_play
        return other

    def own_cells(self, colour: int) -> set[Cell]:
        return {c for c, k in self.board.items() if k == colour}

    def is_legal(self, colour: int, cells: Iterable[Cell], own: set[Cell] | None = None) -> bool:
        """The rules, literally (``own``: the colour's cells, if the caller has them)."""
        g = self.geometry
        cells = frozenset(map(tuple, cells))
        if not cells or any(not g.on_board(c) or c in self.board for c in cells):
            return False
        pid = piece_id(g, cells)
        if pid is None or pid in self.placed[colour]:
            return False
        if own is None:
            own = self.own_cells(colour)
        if any(n in own for c in cells for n in g.edge_neighbours(c)):
            return False
        if not self.pieces[colour]:
            touches = any(c in g.start_cells for c in cells)
        else:
            touches = any(n in own for c in cells for n in g.corner_neighbours(c))
        if not touches:
            return False
        return self.touch == "edges" or self._corners_only_allows(colour, cells, own)

    def _corners_only_allows(self, colour: int, cells: frozenset, own: set[Cell]) -> bool:
        """No vertex of the new piece is a straight-angle vertex of an own piece, and where the
        new piece runs straight through a vertex, no own piece touches that vertex."""
        g = self.geometry
        for p in {p for c in cells for p in g.vertices(c)}:
            if p in self.straight[colour]:
                return False
            if own.intersection(g.around(p).values()) and spans_straight_angle(g, cells, p):
                return False
        return True

    def legal_moves(self, colour: int) -> set[frozenset]:
        """Every legal move (a set of cells).  Candidates are the placements covering a free
        start cell (first move) or a free corner neighbour of the colour that avoid the
        *blocked* cells (occupied, or edge neighbours of the colour); each is then judged by
        :meth:`is_legal`."""
        g = self.geometry
        own = self.own_cells(colour)
        blocked = set(self.board) | {n for c in own for n in g.edge_neighbours(c)}
        if not self.pieces[colour]:
            targets = set(g.start_cells)
        else:
            targets = {n for c in own for n in g.corner_neighbours(c)}
        index = _placements_by_cell(g.size)
        candidates = {cells for t in targets - blocked for cells in index.get(t, ())
                      if cells.isdisjoint(blocked)}
        return {cells for cells in candidates if self.is_legal(colour, cells, own)}

    def legal_moves_brute_force(self, colour: int) -> set[frozenset]:
        """Every placement on the board filtered by :meth:`is_legal` (slow)."""
        own = self.own_cells(colour)
        return {cells for cells in placements(self.geometry) if self.is_legal(colour, cells, own)}

    def play(self, colour: int, cells: Iterable[Cell]) -> None:
        cells = frozenset(map(tuple, cells))
        assert self.is_legal(colour, cells), (colour, sorted(cells))
        pid = piece_id(self.geometry, cells)
        for c in cells:
            self.board[c] = colour
        self.pieces[colour].append(cells)
        self.placed[colour].add(pid)
        self.last[colour] = pid
        self.straight[colour].update(p for c in cells for p in self.geometry.vertices(c)
                                     if spans_straight_angle(self.geometry, cells, p))
        self.to_play = (colour + 1) % self.n_colours

    def perft(self, depth: int) -> list[int]:
        """Move sequences of each length 1..depth from here; a colour without a move passes
        (counted as one move) while some colour can still move."""
        return perft(self, depth, lambda pos, colour, cells: pos.play(colour, cells))

    def score(self, colour: int) -> int:
        """Minus one per triangle of unplaced pieces; +15 if all are placed, +20 if the single
        triangle came last."""
        left = sum(p.size for p in PIECES if p.id not in self.placed[colour])
        if left:
            return -left
        return 20 if PIECES[self.last[colour]].size == 1 else 15

    def scores(self) -> list[int]:
        return [self.score(k) for k in range(self.n_colours)]


if __name__ == "__main__":
    for n, ps in PIECES_BY_SIZE.items():
        print(f"size {n}: {len(ps)} pieces, {sum(len(p.orientations) for p in ps)} fixed orientations")
    print("fixed orientations:", sum(len(p.orientations) for p in PIECES))
    for s in (9, 8):
        print(f"edge {s}: {len(TriangleBoard(s).cells)} cells, {len(placements(TriangleBoard(s)))} placements")
