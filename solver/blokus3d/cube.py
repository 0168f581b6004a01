"""Box puzzles: build a box (the 3 x 3 x 3 cube by default) from Blokus 3D pieces under the placing
rules, and count the ways.

A way is a set of pieces filling the box exactly (pieces of one colour: each of the 11 at most
once; of all colours: each shape at most four times, pieces of one shape being interchangeable)
that can be built under the game's placing rules: one piece after the other, every cube standing
on the ground, on a placed cube or on a cube of its own piece, and every piece after the first
touching a placed piece face to face (with one colour that is the own-colour rule; with all
colours we use the first round's rule, see docs/blokus3d.md).  Ways are also counted up to the
symmetries of the box that keep "up" up (for the cube: the 4 quarter turns about the vertical
axis and 4 mirror images; a mirror swaps the two screw pieces).

The count is an exact-cover search in C (``solver._ext.blokus3d.box_count``): fill the lowest
empty cell with every unused piece whose lowest cube fits there, test each full cover for the
placing rules and for being the least of its symmetric images.

>>> r = box_puzzle((3, 3, 2))
>>> r.tilings, r.classes, r.buildable, r.buildable_classes, r.complete
(5696, 712, 5696, 712, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from solver._ext import blokus3d as _ext
from solver.blokus3d.pieces import PIECES, Cube, piece_of_cubes
from solver.errors import SolverError

Box = tuple[int, int, int]


@dataclass
class BoxResult:
    box: Box
    colours: str                     # "one" or "all"
    tilings: int                     # exact covers
    classes: int                     # exact covers up to the symmetries
    buildable: int                   # covers that can be built under the placing rules
    buildable_classes: int           # ... up to the symmetries
    symmetries: int                  # size of the symmetry group used (identity included)
    complete: bool                   # False: stopped at the node limit, counts are lower bounds
    nodes: int
    seconds: float
    example: list[tuple[str, tuple[Cube, ...]]] = field(default_factory=list)  # one buildable way


def _plane_symmetries(w: int, d: int) -> list:
    """Maps (x, y) -> (x', y') of the box's footprint onto itself, keeping z; (map, mirrors?)."""
    cands = [
        (lambda x, y: (x, y), False),
        (lambda x, y: (w - 1 - x, d - 1 - y), False),
        (lambda x, y: (w - 1 - x, y), True),
        (lambda x, y: (x, d - 1 - y), True),
    ]
    if w == d:
        cands += [
            (lambda x, y: (d - 1 - y, x), False),
            (lambda x, y: (y, w - 1 - x), False),
            (lambda x, y: (y, x), True),
            (lambda x, y: (d - 1 - y, w - 1 - x), True),
        ]
    return cands


def _placements(box: Box) -> list[tuple[int, frozenset[Cube]]]:
    w, d, h = box
    out = set()
    for p in PIECES:
        for shape in p.orientations:
            sx = max(c[0] for c in shape)
            sy = max(c[1] for c in shape)
            sz = max(c[2] for c in shape)
            for x0 in range(w - sx):
                for y0 in range(d - sy):
                    for z0 in range(h - sz):
                        out.add((p.index, frozenset((x0 + a, y0 + b, z0 + c) for a, b, c in shape)))
    return list(out)


def box_puzzle(box: Box = (3, 3, 3), colours: str = "one", max_nodes: int = 0) -> BoxResult:
    """Count the ways to build ``box`` (see the module text); ``colours`` is ``one`` or ``all``."""
    w, d, h = box
    if min(box) < 1 or w * d * h > 63:
        raise SolverError(f"box {w}x{d}x{h}: each side at least 1 and at most 63 cells in all")
    if colours not in ("one", "all"):
        raise SolverError(f"colours must be 'one' or 'all', not {colours!r}")
    copies = [1 if colours == "one" else 4] * len(PIECES)
    if sum(p.size * c for p, c in zip(PIECES, copies, strict=True)) < w * d * h:
        raise SolverError(f"the pieces have fewer cubes than the {w}x{d}x{h} box")

    def bit(c: Cube) -> int:
        return c[0] + w * c[1] + w * d * c[2]

    pls = sorted(_placements(box), key=lambda pc: (min(bit(c) for c in pc[1]), pc[0], sorted(pc[1])))
    masks = np.array([sum(1 << bit(c) for c in cubes) for _, cubes in pls], dtype=np.uint64)
    pieces = np.array([p for p, _ in pls], dtype=np.int32)
    lowest = [min(bit(c) for c in cubes) for _, cubes in pls]
    starts = np.searchsorted(np.array(lowest), np.arange(w * d * h + 1)).astype(np.int32)
    index = {(p, cubes): i for i, (p, cubes) in enumerate(pls)}
    syms = _plane_symmetries(w, d)
    images = []
    for f, _mirror in syms[1:]:
        row = []
        for _, cubes in pls:
            moved = frozenset((*f(x, y), z) for x, y, z in cubes)
            row.append(index[(piece_of_cubes(moved).index, moved)])
        images.append(row)
    t0 = time.perf_counter()
    res = _ext.box_count(w, d, h, masks, pieces, starts, np.array(images, dtype=np.int32).reshape(len(images), -1)
                         if images else np.zeros((0, len(pls)), dtype=np.int32), copies, max_nodes)
    seconds = time.perf_counter() - t0
    example = [(PIECES[pls[i][0]].name, tuple(sorted(pls[i][1], key=lambda c: (c[2], c[1], c[0]))))
               for i in res["example"]]
    return BoxResult(box, colours, res["tilings"], res["classes"], res["buildable"], res["buildable_classes"],
                     len(syms), res["complete"], res["nodes"], seconds, example)


def building_order(example: list[tuple[str, tuple[Cube, ...]]]) -> list[tuple[str, tuple[Cube, ...]]]:
    """The pieces of a buildable way in an order that obeys the placing rules."""
    faces = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))

    def placeable(placed: set[Cube], cubes: set[Cube]) -> bool:
        stands = all(z == 0 or (x, y, z - 1) in placed or (x, y, z - 1) in cubes for x, y, z in cubes)
        return stands and (not placed or any((x + a, y + b, z + c) in placed
                                             for x, y, z in cubes for a, b, c in faces))

    for first in example:
        if not placeable(set(), set(first[1])):
            continue
        order, placed = [first], set(first[1])
        left = [item for item in example if item is not first]
        while left:
            item = next((it for it in left if placeable(placed, set(it[1]))), None)
            if item is None:
                break
            order.append(item)
            placed |= set(item[1])
            left.remove(item)
        if not left:
            return order
    raise SolverError("these pieces cannot be built in any order")
