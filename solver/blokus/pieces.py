"""The 21 Blokus pieces (free polyominoes of 1-5 squares) with Pentobi's names, and their orientations.

Shared by the game engine and the puzzle solver: a piece's shape lives here and nowhere else.
Cells are ``(x, y)`` with x the column to the right and y the row upwards.

>>> len(PIECES), sum(p.size for p in PIECES)
(21, 89)
>>> sum(len(p.orientations) for p in PIECES)
91
>>> piece_by_name("L4").orientations[0]
((0, 0), (0, 1), (0, 2), (1, 0))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from solver.errors import SolverError

Cell = tuple[int, int]
Shape = tuple[Cell, ...]

#: Pentobi's piece names in Pentobi's order, with one fixed shape each.
PIECE_SHAPES: dict[str, Shape] = {
    "1": ((0, 0),),
    "2": ((0, 0), (1, 0)),
    "I3": ((0, 0), (0, 1), (0, 2)),
    "V3": ((0, 0), (0, 1), (1, 0)),
    "I4": ((0, 0), (0, 1), (0, 2), (0, 3)),
    "L4": ((0, 0), (0, 1), (0, 2), (1, 0)),
    "T4": ((0, 0), (1, 0), (2, 0), (1, 1)),
    "O": ((0, 0), (0, 1), (1, 0), (1, 1)),
    "Z4": ((0, 0), (1, 0), (1, 1), (2, 1)),
    "I5": ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4)),
    "L5": ((0, 0), (0, 1), (0, 2), (0, 3), (1, 0)),
    "Y": ((0, 0), (0, 1), (0, 2), (0, 3), (1, 1)),
    "N": ((0, 0), (0, 1), (1, 1), (1, 2), (1, 3)),
    "V5": ((0, 0), (0, 1), (0, 2), (1, 0), (2, 0)),
    "U": ((0, 0), (0, 1), (1, 0), (2, 0), (2, 1)),
    "T5": ((0, 2), (1, 2), (2, 2), (1, 1), (1, 0)),
    "P": ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2)),
    "W": ((0, 0), (0, 1), (1, 1), (1, 2), (2, 2)),
    "Z5": ((0, 2), (1, 2), (1, 1), (1, 0), (2, 0)),
    "F": ((1, 0), (1, 1), (1, 2), (0, 1), (2, 2)),
    "X": ((1, 0), (0, 1), (1, 1), (2, 1), (1, 2)),
}


def normalize(cells) -> Shape:
    """Translate cells so the minimum x and y are 0, and sort them."""
    cells = list(cells)
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return tuple(sorted((x - mx, y - my) for x, y in cells))


def transforms(cells) -> list[Shape]:
    """All 8 rotations/reflections of a shape (normalized, possibly repeated)."""
    out = []
    for flip in (False, True):
        cur = [(-x, y) if flip else (x, y) for x, y in cells]
        for _ in range(4):
            out.append(normalize(cur))
            cur = [(-y, x) for x, y in cur]  # rotate 90 degrees
    return out


def orientations_of(cells) -> tuple[Shape, ...]:
    """The distinct fixed orientations of a shape, in a stable order."""
    seen: dict[Shape, None] = {}
    for shape in transforms(cells):
        seen.setdefault(shape, None)
    return tuple(seen)


@dataclass(frozen=True)
class Piece:
    """One free polyomino: its Pentobi name, index in :data:`PIECES` and canonical shape."""

    index: int
    name: str
    shape: Shape

    @property
    def size(self) -> int:
        return len(self.shape)

    @cached_property
    def orientations(self) -> tuple[Shape, ...]:
        return orientations_of(self.shape)


PIECES: tuple[Piece, ...] = tuple(Piece(i, n, normalize(s)) for i, (n, s) in enumerate(PIECE_SHAPES.items()))
_BY_NAME = {p.name.lower(): p for p in PIECES}


def piece_by_name(name: str) -> Piece:
    """Look a piece up by its Pentobi name (case-insensitive); SolverError if unknown."""
    try:
        return _BY_NAME[str(name).lower()]
    except KeyError:
        raise SolverError(f"unknown piece {name!r} (known: {', '.join(p.name for p in PIECES)})") from None


def pieces_of_size(size: int) -> list[Piece]:
    """All pieces with ``size`` squares.

    >>> [p.name for p in pieces_of_size(4)]
    ['I4', 'L4', 'T4', 'O', 'Z4']
    """
    return [p for p in PIECES if p.size == size]


def identify(cells) -> Piece:
    """The piece whose shape (in any orientation) the given cells form; SolverError if none.

    >>> identify([(5, 5), (6, 5), (7, 5), (6, 6)]).name
    'T4'
    """
    shape = normalize(cells)
    for piece in PIECES:
        if piece.size == len(shape) and shape in piece.orientations:
            return piece
    raise SolverError(f"cells {sorted(cells)} do not form a Blokus piece")
