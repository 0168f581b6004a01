"""Board geometry shared by the solvers: cell numbering, placements of a shape, edges, symmetries.

>>> from solver.blokus.pieces import piece_by_name
>>> len(placements(piece_by_name("X"), 5, 5, frozenset()))
9
>>> len(board_symmetries(10, 6, frozenset())), len(board_symmetries(20, 20, frozenset()))
(4, 8)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from solver.blokus.pieces import Piece

Cell = tuple[int, int]


def placements(piece: Piece, width: int, height: int, blocked: frozenset[Cell]) -> list[tuple[Cell, ...]]:
    """Every way to put ``piece`` on the board (all orientations and positions) avoiding blocked cells."""
    out = []
    for shape in piece.orientations:
        sw = 1 + max(x for x, _ in shape)
        sh = 1 + max(y for _, y in shape)
        for oy in range(height - sh + 1):
            for ox in range(width - sw + 1):
                cells = tuple((x + ox, y + oy) for x, y in shape)
                if not blocked or not any(c in blocked for c in cells):
                    out.append(cells)
    return out


def edges(width: int, height: int) -> list[tuple[Cell, Cell]]:
    """All pairs of edge-adjacent cells."""
    out = []
    for y in range(height):
        for x in range(width):
            if x + 1 < width:
                out.append(((x, y), (x + 1, y)))
            if y + 1 < height:
                out.append(((x, y), (x, y + 1)))
    return out


def neighbours4(cell: Cell) -> list[Cell]:
    x, y = cell
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


def diagonals(cell: Cell) -> list[Cell]:
    x, y = cell
    return [(x + 1, y + 1), (x - 1, y + 1), (x + 1, y - 1), (x - 1, y - 1)]


def board_symmetries(width: int, height: int, blocked: Iterable[Cell]) -> list[Callable[[Cell], Cell]]:
    """The rotations/reflections mapping the board (and its blocked cells) onto itself, identity first."""
    w, h = width - 1, height - 1
    maps = [
        lambda c: (c[0], c[1]),
        lambda c: (w - c[0], c[1]),
        lambda c: (c[0], h - c[1]),
        lambda c: (w - c[0], h - c[1]),
    ]
    if width == height:
        maps += [
            lambda c: (c[1], c[0]),
            lambda c: (w - c[1], c[0]),
            lambda c: (c[1], h - c[0]),
            lambda c: (w - c[1], h - c[0]),
        ]
    blocked = set(blocked)
    return [m for m in maps if {m(c) for c in blocked} == blocked]


def canonical(solution: Iterable[tuple[str, str, Iterable[Cell]]], symmetries) -> tuple:
    """A key equal for two solutions that differ only by a board symmetry.

    A solution here is ``(colour, piece name, cells)`` triples.
    """
    sol = [(c, p, tuple(cells)) for c, p, cells in solution]
    best = None
    for m in symmetries:
        key = tuple(sorted((c, p, tuple(sorted(m(cell) for cell in cells))) for c, p, cells in sol))
        if best is None or key < best:
            best = key
    return best
