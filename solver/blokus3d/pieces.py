"""The 11 Blokus 3D pieces (every polycube of 2, 3 and 4 cubes; the two mirror-image screws
count as two pieces) and their rotations in space.

A cube is ``(x, y, z)``: x to the right, y away from the viewer, z upwards (z = 0 is the ground).
Pieces are told apart up to the 24 rotations of space only (no mirror images: a piece is a
solid object), so the two screw tetracubes are different pieces while the flat ones, which a
half turn in space mirrors, are one piece each.

>>> len(PIECES), sum(p.size for p in PIECES)
(11, 40)
>>> [len(p.orientations) for p in PIECES]
[3, 3, 12, 3, 3, 12, 24, 12, 8, 12, 12]
>>> piece_of_cubes([(5, 5, 1), (5, 6, 1)]).name
'D2'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import permutations, product

from solver.errors import SolverError

Cube = tuple[int, int, int]
Shape = tuple[Cube, ...]

#: piece name -> one fixed shape; the order is the engine's piece order
PIECE_SHAPES: dict[str, Shape] = {
    "D2": ((0, 0, 0), (1, 0, 0)),                               # domino
    "I3": ((0, 0, 0), (1, 0, 0), (2, 0, 0)),                    # straight tricube
    "L3": ((0, 0, 0), (1, 0, 0), (0, 1, 0)),                    # bent tricube
    "I4": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)),
    "O4": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)),
    "T4": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)),
    "L4": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)),
    "S4": ((0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)),
    "B4": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)),          # branch (tripod)
    "R4": ((0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)),          # right-handed screw: +x, +y, +z
    "Q4": ((0, 0, 1), (1, 0, 1), (1, 1, 1), (1, 1, 0)),          # left-handed screw: +x, +y, -z
}


def _det(m: tuple[tuple[int, ...], ...]) -> int:
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def _matrices(det: int) -> list[tuple[tuple[int, ...], ...]]:
    out = []
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            m = tuple(tuple(signs[i] if j == perm[i] else 0 for j in range(3)) for i in range(3))
            if _det(m) == det:
                out.append(m)
    return out


#: the 24 rotations of space (signed permutation matrices of determinant +1)
ROTATIONS = _matrices(1)


def apply(m, cube: Cube) -> Cube:
    """Matrix ``m`` applied to one cube."""
    return tuple(sum(m[i][j] * cube[j] for j in range(3)) for i in range(3))  # type: ignore[return-value]


def normalize(cubes) -> Shape:
    """Translate so every coordinate's minimum is 0, and sort."""
    cubes = [tuple(c) for c in cubes]
    lo = [min(c[i] for c in cubes) for i in range(3)]
    return tuple(sorted(tuple(c[i] - lo[i] for i in range(3)) for c in cubes))  # type: ignore[misc]


def rotations_of(cubes) -> list[Shape]:
    """The distinct normalized rotations of a shape, sorted (a fixed, reproducible order)."""
    return sorted({normalize(apply(m, c) for c in cubes) for m in ROTATIONS})


def mirror(cubes) -> Shape:
    """The mirror image (x -> -x), normalized."""
    return normalize((-x, y, z) for x, y, z in cubes)


@dataclass(frozen=True)
class Piece:
    index: int
    name: str
    shape: Shape

    @property
    def size(self) -> int:
        return len(self.shape)

    @cached_property
    def orientations(self) -> list[Shape]:
        return rotations_of(self.shape)


PIECES: list[Piece] = [Piece(i, n, s) for i, (n, s) in enumerate(PIECE_SHAPES.items())]
_BY_SHAPE = {o: p for p in PIECES for o in p.orientations}
_BY_NAME = {p.name.lower(): p for p in PIECES}


def piece_by_name(name: str) -> Piece:
    """The piece called ``name`` (case-insensitive); SolverError for an unknown name."""
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        raise SolverError(f"unknown piece {name!r} (pieces: {', '.join(p.name for p in PIECES)})") from None


def piece_of_cubes(cubes) -> Piece:
    """The piece whose shape the cubes form; SolverError if they form none."""
    cubes = [tuple(c) for c in cubes]
    if len(set(cubes)) != len(cubes):
        raise SolverError("a cube appears twice in the piece")
    if not cubes:
        raise SolverError("a piece needs at least one cube")
    piece = _BY_SHAPE.get(normalize(cubes))
    if piece is None:
        raise SolverError(f"the cubes {sorted(cubes)} form no Blokus 3D piece")
    return piece
