"""A slow, plain-Python Blokus 3D written from the rules (docs/blokus3d.md and the Blokus article's
Blokus 3D section), sharing no code with the engine: the pieces are found by growing polycubes
and the rotations by composing quarter turns.

* pieces: every polycube of 2, 3 and 4 cubes up to rotation in space (mirror images apart);
* a piece lies inside the footprint, under the height limit, on no other cube, and no cube of
  it has empty space under it (ground, another cube, or a cube of the same piece below);
* contact: the game's first piece anywhere; a colour's first piece touches some placed cube face
  to face; later pieces touch a cube of their own colour face to face;
* a colour that cannot place when its turn comes is out for good; the game ends when all are out;
* score: squares whose top cube has the colour, minus one per piece not placed.
"""

from __future__ import annotations

FACES = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))


def _norm(cubes):
    mx = min(c[0] for c in cubes)
    my = min(c[1] for c in cubes)
    mz = min(c[2] for c in cubes)
    return frozenset((x - mx, y - my, z - mz) for x, y, z in cubes)


def _turn_x(c):
    x, y, z = c
    return (x, -z, y)


def _turn_z(c):
    x, y, z = c
    return (-y, x, z)


def rotations(shape) -> set[frozenset]:
    """Every rotation of a shape: the closure of the shape under quarter turns about x and z."""
    seen = {_norm(shape)}
    todo = list(seen)
    while todo:
        s = todo.pop()
        for turn in (_turn_x, _turn_z):
            t = _norm([turn(c) for c in s])
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def polycube_classes() -> list[set[frozenset]]:
    """The pieces: each a set of its orientations, found by growing polycubes cube by cube."""
    level = {frozenset({(0, 0, 0)})}
    classes = []
    for _size in (2, 3, 4):
        grown = set()
        for s in level:
            for x, y, z in s:
                for dx, dy, dz in FACES:
                    c = (x + dx, y + dy, z + dz)
                    if c not in s:
                        grown.add(_norm(s | {c}))
        level = grown
        found: list[set[frozenset]] = []
        for s in sorted(level, key=sorted):
            if not any(s in cls for cls in found):
                found.append(rotations(s))
        classes.extend(found)
    return classes


PIECE_CLASSES = polycube_classes()


def piece_of(cubes) -> int:
    shape = _norm(cubes)
    return next(i for i, cls in enumerate(PIECE_CLASSES) if shape in cls)


class RefGame:
    """State: cube -> colour, pieces placed per colour, who is out, whose turn."""

    def __init__(self, footprint, height: int, players: int) -> None:
        self.footprint = set(footprint)
        self.height = height
        self.players = players
        self.cubes: dict[tuple[int, int, int], int] = {}
        self.placed: list[set[int]] = [set() for _ in range(players)]
        self.out = [False] * players
        self.turn = 0

    def is_legal(self, colour: int, cubes) -> bool:
        cubes = set(cubes)
        return piece_of(cubes) not in self.placed[colour] and self._stands(cubes) and self._touches(colour, cubes)

    def _stands(self, cubes) -> bool:
        """Inside the footprint and the height limit, on nothing, nothing empty under a cube."""
        for x, y, z in cubes:
            if (x, y) not in self.footprint or not 0 <= z < self.height or (x, y, z) in self.cubes:
                return False
            if z > 0 and (x, y, z - 1) not in self.cubes and (x, y, z - 1) not in cubes:
                return False
        return True

    def _touches(self, colour: int, cubes) -> bool:
        if not self.cubes:
            return True
        own = self.placed[colour]
        for x, y, z in cubes:
            for dx, dy, dz in FACES:
                other = self.cubes.get((x + dx, y + dy, z + dz))
                if other is not None and (other == colour or not own):
                    return True
        return False

    def legal(self, colour: int) -> set[frozenset]:
        """Every legal placement of ``colour`` as a set of cubes.

        A cube on the piece's lowest level has nothing of its own piece under it, so it must
        stand on the top of its square's column: trying each such cube on each square's top
        finds every placement."""
        tops: dict[tuple[int, int], int] = {}
        for x, y, z in self.cubes:
            tops[(x, y)] = max(tops.get((x, y), 0), z + 1)
        out = set()
        for i, cls in enumerate(PIECE_CLASSES):
            if i in self.placed[colour]:
                continue
            for shape in cls:
                bx, by, _ = min(c for c in shape if c[2] == 0)
                for x, y in self.footprint:
                    z0 = tops.get((x, y), 0)
                    cubes = frozenset((x - bx + a, y - by + b, z0 + c) for a, b, c in shape)
                    if self._stands(cubes) and self._touches(colour, cubes):
                        out.add(cubes)
        return out

    def to_play(self) -> int | None:
        """Colour due that can place; those that cannot on their turn drop out for good."""
        for _ in range(self.players):
            k = self.turn
            if not self.out[k]:
                if self.legal(k):
                    return k
                self.out[k] = True
            self.turn = (k + 1) % self.players
        return None

    def play(self, colour: int, cubes) -> None:
        assert self.is_legal(colour, cubes)
        for c in cubes:
            self.cubes[c] = colour
        self.placed[colour].add(piece_of(cubes))
        self.turn = (colour + 1) % self.players

    def scores(self) -> list[int]:
        top: dict[tuple[int, int], tuple[int, int]] = {}
        for (x, y, z), k in self.cubes.items():
            if (x, y) not in top or top[(x, y)][0] < z:
                top[(x, y)] = (z, k)
        return [sum(1 for _, k in top.values() if k == c) - (len(PIECE_CLASSES) - len(self.placed[c]))
                for c in range(self.players)]


def perft(game: RefGame, depth: int) -> list[int]:
    """Placement sequences of each length 1..depth (drop-outs use no ply)."""
    counts = [0] * depth

    def walk(g: RefGame, ply: int) -> None:
        k = g.to_play()
        if k is None:
            return
        moves = sorted(g.legal(k), key=sorted)
        counts[ply] += len(moves)
        if ply + 1 == depth:
            return
        for m in moves:
            child = RefGame(g.footprint, g.height, g.players)
            child.cubes = dict(g.cubes)
            child.placed = [set(p) for p in g.placed]
            child.out = list(g.out)
            child.turn = g.turn
            child.play(k, m)
            walk(child, ply + 1)

    walk(game, 0)
    return counts


def box_ways(box, copies: int):
    """Every exact cover of a W x D x H box by the pieces (each at most ``copies`` times), as a list
    of (tiling, buildable); a tiling is a frozenset of (piece, cubes).  Plain recursion over the
    first empty cell in (z, y, x) order."""
    w, d, h = box
    cells = sorted(((x, y, z) for x in range(w) for y in range(d) for z in range(h)), key=lambda c: (c[2], c[1], c[0]))
    inside = set(cells)
    fits: dict = {c: [] for c in cells}   # cell -> pieces in the box whose first cube is that cell
    for i, cls in enumerate(PIECE_CLASSES):
        for s in cls:
            anchor = min(s, key=lambda c: (c[2], c[1], c[0]))
            for x, y, z in cells:
                cubes = frozenset((x + a - anchor[0], y + b - anchor[1], z + c - anchor[2]) for a, b, c in s)
                if cubes <= inside:
                    fits[(x, y, z)].append((i, cubes))
    out = []
    used = [0] * len(PIECE_CLASSES)

    def rec(filled: set, chosen: list) -> None:
        free = next((c for c in cells if c not in filled), None)
        if free is None:
            out.append(frozenset(chosen))
            return
        for i, cubes in fits[free]:
            if used[i] < copies and not (cubes & filled):
                used[i] += 1
                chosen.append((i, cubes))
                rec(filled | cubes, chosen)
                chosen.pop()
                used[i] -= 1

    rec(set(), [])
    return [(t, buildable(t)) for t in out]


def buildable(tiling) -> bool:
    """Try every order (depth first) of placing the pieces under the placing rules."""
    pieces = [set(c) for _, c in tiling]

    def ok(placed: set, cubes: set) -> bool:
        if any(z > 0 and (x, y, z - 1) not in placed and (x, y, z - 1) not in cubes for x, y, z in cubes):
            return False
        return not placed or any((x + a, y + b, z + c) in placed for x, y, z in cubes for a, b, c in FACES)

    failed: set[frozenset] = set()   # sets of placed pieces from which no order finishes

    def rec(done: frozenset) -> bool:
        if len(done) == len(pieces):
            return True
        if done in failed:
            return False
        placed = set().union(*(pieces[i] for i in done))
        for i, p in enumerate(pieces):
            if i not in done and ok(placed, p) and rec(done | {i}):
                return True
        failed.add(done)
        return False

    return rec(frozenset())
