"""The learned evaluation's move features (docs/blokus.md, "Move evaluation"), recomputed cell by
cell from the rules for any lattice: the caller gives the board's cells, edge and corner
neighbours, and who covers what.  Slow and literal on purpose; the engine's bitboard version
(``Position.move_features``) must agree with it on every legal move."""

from __future__ import annotations

from collections.abc import Callable, Iterable

Cell = tuple[int, int]
#: edge steps of the reach features (docs/blokus.md, "Move evaluation")
REACH_STEPS = 4


class Board:
    """A position as the features see it: ``occupied`` maps cells to colours, ``started[k]`` says
    whether colour k has placed a piece, ``first_cells[k]`` are its start cells."""

    def __init__(self, on_board: Callable[[Cell], bool], edge: Callable[[Cell], Iterable[Cell]],
                 corner: Callable[[Cell], Iterable[Cell]], occupied: dict[Cell, int],
                 started: list[bool], first_cells: list[Iterable[Cell]]) -> None:
        self.on_board = on_board
        self.edge = lambda c: [n for n in edge(c) if on_board(n)]
        self.corner = lambda c: [n for n in corner(c) if on_board(n)]
        self.occupied = occupied
        self.started = started
        self.first_cells = [set(map(tuple, f)) for f in first_cells]

    def own(self, k: int) -> set[Cell]:
        return {c for c, j in self.occupied.items() if j == k}

    def blocked(self, k: int) -> set[Cell]:
        """Cells colour k may not cover: occupied, or sharing an edge with colour k."""
        return set(self.occupied) | {n for c in self.own(k) for n in self.edge(c)}

    def after(self, k: int, cells: Iterable[Cell]) -> Board:
        """The position once colour k has covered ``cells``."""
        occupied = dict(self.occupied) | {c: k for c in cells}
        started = [s or j == k for j, s in enumerate(self.started)]
        return Board(self.on_board, self.edge, self.corner, occupied, started, self.first_cells)

    def reach(self, colours: Iterable[int], steps: int = REACH_STEPS) -> int:
        """Cells free for one of ``colours`` (on the board, not blocked for it) that are at most
        ``steps`` edge steps, over such cells, from a cell where one of them may place a piece
        next (its corner cells): the room those colours can grow into soon, counted together."""
        colours = list(colours)
        if not colours:
            return 0
        free = set().union(*(self.cells() - self.blocked(j) for j in colours))
        reached = set().union(*(self.corner_cells(j) for j in colours))
        frontier = set(reached)
        for _ in range(steps):
            frontier = {n for c in frontier for n in self.edge(c) if n in free and n not in reached}
            reached |= frontier
        return len(reached)

    def cells(self) -> set[Cell]:
        """Every cell of the board (found from the cells the position knows by edge steps)."""
        if not hasattr(self, "_cells"):
            todo = [c for f in self.first_cells for c in f if self.on_board(c)] + list(self.occupied)
            seen = set(todo)
            while todo:
                for n in self.edge(todo.pop()):
                    if n not in seen:
                        seen.add(n)
                        todo.append(n)
            self._cells = seen
        return self._cells

    def corner_cells(self, k: int) -> set[Cell]:
        """Cells where colour k's next piece may touch it (its start cells before its first move)."""
        if self.started[k]:
            near = {n for c in self.own(k) for n in self.corner(c)}
        else:
            near = {c for c in self.first_cells[k] if self.on_board(c)}
        return near - self.blocked(k)


def move_features(b: Board, colour: int, cells: Iterable[Cell], opponents: Iterable[int]) -> list[int]:
    """``EVAL_FEATURES`` of colour ``colour`` covering ``cells`` (legal), against ``opponents``."""
    cells = set(map(tuple, cells))
    opponents = list(opponents)
    f = [0] * 20
    f[len(cells) - 1] = 1                                     # size1 .. size6
    opp_corner: set[Cell] = set()
    hot: set[Cell] = set()
    for j in opponents:
        cj, bj = b.corner_cells(j), b.blocked(j)
        opp_corner |= cj
        hot |= cj | {n for c in cj for n in b.edge(c) if n not in bj}
    f[6] = len(cells & hot)                                   # hot
    f[7] = len(cells & opp_corner)                            # taken
    blocked, corner = b.blocked(colour), b.corner_cells(colour)
    halo = {n for c in cells for n in b.edge(c)} - cells
    f[8] = len(halo & corner)                                 # halo_own_attach
    f[9] = len(halo - blocked - corner)                       # halo_open
    f[10] = len(halo & blocked)                               # halo_closed
    forbidden_after = blocked | cells | halo
    diagonal = {n for c in cells for n in b.corner(c)} - forbidden_after
    new = diagonal - corner

    def open_sides(c: Cell) -> int:
        return sum(1 for n in b.edge(c) if n not in blocked)

    f[11] = len(new)                                          # new_attach
    f[12] = sum(1 for c in new if open_sides(c) >= 2)         # new_attach_2
    f[13] = sum(1 for c in new if open_sides(c) >= 3)         # new_attach_3
    f[14] = sum(1 for c in new if open_sides(c) >= 4)         # new_attach_4
    f[15] = len(diagonal & corner)                            # corner_own_attach
    partners = set(range(len(b.started))) - set(opponents) - {colour}   # the mover's other colours
    f[16] = len({n for n in halo if b.occupied.get(n) in partners})     # partner_touch
    f[17] = len(cells & set().union(*(b.corner_cells(j) for j in partners)))  # partner_attach
    after = b.after(colour, cells)
    f[18] = after.reach([colour])                             # reach_own
    f[19] = after.reach(opponents)                            # reach_opp
    return f


def local_cells(b: Board, recent: Iterable[tuple[int, Iterable[Cell]]], opponents: Iterable[int]) -> set[Cell]:
    """The playouts' local cells: for each of the ``recent`` placements (colour, cells) made by
    an opponent, the cells touching it only at a corner that its colour may still cover, and
    their edge neighbours that colour may cover (where that opponent grows next)."""
    opponents = set(opponents)
    out: set[Cell] = set()
    for colour, cells in recent:
        if colour not in opponents:
            continue
        cells = set(map(tuple, cells))
        blocked = b.blocked(colour)
        opened = {n for c in cells for n in b.corner(c)} - blocked
        out |= opened | ({n for c in opened for n in b.edge(c)} - blocked)
    return out


def local_score(b: Board, colour: int, cells: Iterable[Cell], local: set[Cell]) -> int:
    """Local cells covered, each counted twice if colour may also attach there."""
    cells = set(map(tuple, cells))
    return len(cells & local) + len(cells & local & b.corner_cells(colour))


def opening_min_size(placements: int, colours: int, largest: int, sizes: Iterable[int],
                     rounds: tuple[int, int, int] = (2, 3, 5)) -> int:
    """Smallest piece the playouts consider: in the first ``rounds`` rounds (2, 3, 5 unless
    given; a round is one placement per colour) only pieces at most 0, 1, 2 cells smaller than
    the largest of the set (``largest``), if any legal move has one (``sizes``: the legal moves'
    piece sizes)."""
    if placements < rounds[0] * colours:
        want = largest
    elif placements < rounds[1] * colours:
        want = largest - 1
    elif placements < rounds[2] * colours:
        want = largest - 2
    else:
        return 1
    return want if max(sizes, default=0) >= want else 1
