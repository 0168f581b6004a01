"""The Blokus piece sets with Pentobi's names, and their orientations.

* ``square``: the 21 pieces of Classic, Duo and Giant (free polyominoes of 1-5 squares);
* ``trigon``: the 22 pieces of Trigon (free polyiamonds of 1-6 triangles).

Shared by the game engine and the puzzle solver: a piece's shape lives here and nowhere else;
how pieces turn is asked of the lattice (:mod:`solver.blokus.geometry`).  Cells are ``(x, y)``
with x the column to the right and y the row upwards.

>>> len(PIECES), sum(p.size for p in PIECES)
(21, 89)
>>> sum(len(p.orientations) for p in PIECES)
91
>>> piece_by_name("L4").orientations[0]
((0, 0), (0, 1), (0, 2), (1, 0))
>>> t = PIECE_SETS["trigon"]
>>> len(t.pieces), t.cells, sum(len(p.forms) for p in t.pieces)
(22, 110, 155)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from solver.blokus.geometry import Lattice, SquareLattice, TriangleLattice
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


#: Trigon's pieces (Pentobi's names), drawn row by row from the top: ``^`` an upward triangle,
#: ``v`` a downward one, ``.`` none.
TRIGON_SHAPES: dict[str, str] = {
    "I6": "..^v/.^v./^v..", "L6": ".^v/^v./v^.", "V": "v^.../.v^v^", "S": "^v/v^/^v",
    "P6": "..^./.^v^/^v..", "F": "^v./v^v/.v.", "W": "..^../v^v^v", "A6": ".^./^v^/v.v",
    "G": ".^./^v./v^v", "Y": "^../v^v/^v.", "X": "v^v/^v^", "O": "^v^/v^v",
    "I5": "..^/.^v/^v.", "L5": ".^/^v/v^", "C5": "^v./v^v", "P5": ".^./^v^/v..",
    "I4": ".^v/^v.", "C4": "^v/v^", "A4": ".^./^v^", "I3": ".^/^v", "2": "^v", "1": "^",
}


def triangles_from_picture(picture: str) -> tuple[Shape, int]:
    """Cells and parity of a shape drawn with ``^``/``v`` rows (top row first, ``/`` between).

    >>> triangles_from_picture(".^/^v")
    (((0, 0), (1, 0), (1, 1)), 0)
    """
    rows = picture.split("/")
    kinds = {(x, len(rows) - 1 - i): ch for i, row in enumerate(rows) for x, ch in enumerate(row) if ch != "."}
    parities = {(x + y + (ch == "v")) & 1 for (x, y), ch in kinds.items()}
    if len(parities) != 1 or set(kinds.values()) - {"^", "v"}:
        raise ValueError(f"inconsistent triangle picture {picture!r}")
    return tuple(sorted(kinds)), parities.pop()


def normalize(cells) -> Shape:
    """Translate cells so the minimum x and y are 0, and sort them."""
    cells = list(cells)
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return tuple(sorted((x - mx, y - my) for x, y in cells))


@dataclass(frozen=True)
class Piece:
    """One free piece: its Pentobi name, index in its set and canonical shape (with the shape's
    parity on a triangle lattice, see :mod:`solver.blokus.geometry`)."""

    index: int
    name: str
    shape: Shape
    parity: int = 0
    lattice: Lattice = field(default=SquareLattice(), compare=False, repr=False)

    @property
    def size(self) -> int:
        return len(self.shape)

    @cached_property
    def forms(self) -> tuple[tuple[Shape, int], ...]:
        """Every fixed orientation as (normalized cells, parity)."""
        return self.lattice.orientations(self.shape, self.parity)

    @cached_property
    def orientations(self) -> tuple[Shape, ...]:
        """The fixed orientations' cells (square pieces: the same as :attr:`forms` without parity)."""
        return tuple(shape for shape, _ in self.forms)


@dataclass(frozen=True)
class PieceSet:
    """The pieces every colour gets on one kind of board."""

    name: str
    lattice: Lattice
    pieces: tuple[Piece, ...]
    title: str = "Blokus"   # for messages: "do not form a Blokus piece"

    @property
    def cells(self) -> int:
        """Cells of all pieces together (a colour's score if it places none)."""
        return sum(p.size for p in self.pieces)

    @cached_property
    def monomino(self) -> int:
        return next(p.index for p in self.pieces if p.size == 1)

    def by_name(self, name: str) -> Piece:
        """A piece by its Pentobi name (case-insensitive); SolverError if unknown."""
        for p in self.pieces:
            if p.name.lower() == str(name).lower():
                return p
        raise SolverError(f"unknown {self.name} piece {name!r} (known: {', '.join(p.name for p in self.pieces)})")

    @cached_property
    def _form_index(self) -> dict[tuple[Shape, int], int]:
        return {form: p.index for p in self.pieces for form in p.forms}

    def identify(self, shape: Shape, parity: int = 0) -> Piece | None:
        """The piece whose orientation is this normalized shape, None if none is."""
        index = self._form_index.get((tuple(sorted(shape)), parity))
        return None if index is None else self.pieces[index]


PIECES: tuple[Piece, ...] = tuple(Piece(i, n, normalize(s)) for i, (n, s) in enumerate(PIECE_SHAPES.items()))
_BY_NAME = {p.name.lower(): p for p in PIECES}

_TRIANGLES = TriangleLattice()
TRIGON_PIECES: tuple[Piece, ...] = tuple(
    Piece(i, n, *triangles_from_picture(pic), lattice=_TRIANGLES) for i, (n, pic) in enumerate(TRIGON_SHAPES.items()))

#: the piece sets by name (a board geometry names the set it is played with)
PIECE_SETS: dict[str, PieceSet] = {
    "square": PieceSet("square", SquareLattice(), PIECES),
    "trigon": PieceSet("trigon", _TRIANGLES, TRIGON_PIECES, "Trigon"),
}


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
