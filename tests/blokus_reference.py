"""A slow, simple pure-Python Blokus move generator: the independent check of the C engine.

It knows only the rules as written: a piece lies on empty board cells; it may not share an edge
with a piece of its own colour; a colour's first piece covers one of its first cells, every
further piece shares a corner with a piece of its own colour.  Positions are a dict
cell -> colour; moves are (piece name, frozenset of cells).
"""

from __future__ import annotations

from solver.blokus.pieces import PIECES


class RefPosition:
    """Board contents, pieces placed per colour and whose turn it is."""

    def __init__(self, width: int, height: int, n_colours: int, first_cells) -> None:
        self.width = width
        self.height = height
        self.n_colours = n_colours
        self.first_cells = [tuple(map(tuple, fc)) for fc in first_cells]
        self.board: dict[tuple[int, int], int] = {}
        self.placed: list[set[str]] = [set() for _ in range(n_colours)]
        self.last: list[str | None] = [None] * n_colours
        self.to_play = 0

    def copy(self) -> RefPosition:
        other = RefPosition(self.width, self.height, self.n_colours, self.first_cells)
        other.board = dict(self.board)
        other.placed = [set(s) for s in self.placed]
        other.last = list(self.last)
        other.to_play = self.to_play
        return other

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def own_cells(self, colour: int) -> set[tuple[int, int]]:
        return {c for c, k in self.board.items() if k == colour}

    def is_legal(self, colour: int, cells, own: set | None = None) -> bool:
        """The rules, literally (``own``: the colour's cells, if the caller has them)."""
        if own is None:
            own = self.own_cells(colour)
        for x, y in cells:
            if not self.on_board(x, y) or (x, y) in self.board:
                return False
            for n in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                if n in own:
                    return False
        if not self.placed[colour]:
            return any(tuple(c) in self.first_cells[colour] for c in cells)
        return any(n in own for x, y in cells
                   for n in ((x - 1, y - 1), (x + 1, y - 1), (x - 1, y + 1), (x + 1, y + 1)))

    def blocked_cells(self, colour: int) -> set[tuple[int, int]]:
        """Cells the colour may not cover: occupied, or sharing an edge with the colour."""
        blocked = set(self.board)
        for x, y in self.own_cells(colour):
            blocked.update(((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)))
        return blocked

    def corner_cells(self, colour: int) -> set[tuple[int, int]]:
        """Cells where a piece of the colour may touch it: diagonal to it (its first cells before its
        first move), on the board and not blocked."""
        if not self.placed[colour]:
            corner = set(self.first_cells[colour])
        else:
            corner = {(x + dx, y + dy) for x, y in self.own_cells(colour) for dx in (-1, 1) for dy in (-1, 1)}
        blocked = self.blocked_cells(colour)
        return {c for c in corner if self.on_board(*c) and c not in blocked}

    def legal_moves(self, colour: int) -> set[tuple[str, frozenset]]:
        """Every legal move.  From the rules: a cell is *blocked* if occupied or edge-adjacent to
        the colour, a *corner* cell is diagonal to the colour (or a first cell before its first
        move); a move covers only unblocked board cells and at least one corner cell.  Candidates
        are all placements covering a corner cell (:meth:`legal_moves_brute_force` tries all)."""
        blocked = self.blocked_cells(colour)
        corner = self.corner_cells(colour)
        w, h = self.width, self.height
        out = set()
        for piece in PIECES:
            if piece.name in self.placed[colour]:
                continue
            for shape in piece.orientations:
                anchors = {(tx - dx, ty - dy) for tx, ty in corner for dx, dy in shape}
                for ax, ay in anchors:
                    cells = [(ax + x, ay + y) for x, y in shape]
                    if all(0 <= x < w and 0 <= y < h and (x, y) not in blocked for x, y in cells):
                        out.add((piece.name, frozenset(cells)))
        return out

    def legal_moves_brute_force(self, colour: int) -> set[tuple[str, frozenset]]:
        """Every placement of every piece anywhere, filtered by the rules (very slow)."""
        own = self.own_cells(colour)
        out = set()
        for piece in PIECES:
            if piece.name in self.placed[colour]:
                continue
            for shape in piece.orientations:
                for ax in range(self.width):
                    for ay in range(self.height):
                        cells = frozenset((ax + x, ay + y) for x, y in shape)
                        if self.is_legal(colour, cells, own):
                            out.add((piece.name, cells))
        return out

    def play(self, colour: int, piece: str, cells) -> None:
        assert self.is_legal(colour, cells) and piece not in self.placed[colour]
        for c in cells:
            self.board[tuple(c)] = colour
        self.placed[colour].add(piece)
        self.last[colour] = piece
        self.to_play = (colour + 1) % self.n_colours

    def any_move(self) -> bool:
        return any(self.legal_moves(k) for k in range(self.n_colours))

    def perft(self, depth: int) -> list[int]:
        """Move sequences of each length 1..depth; a colour without a move passes (one move)."""
        return perft(self, depth, lambda pos, colour, move: pos.play(colour, *move))


def perft(position, depth: int, play) -> list[int]:
    """Move sequences of each length 1..depth from ``position`` (any reference position with
    ``legal_moves(colour)``, ``copy()``, ``to_play`` and ``n_colours``; ``play(pos, colour, move)``
    plays one of its moves).  A colour without a move passes, counted as one move, while some
    colour can still move."""
    counts = [0] * (depth + 1)

    def rec(pos, ply: int) -> None:
        if ply == depth:
            return
        moves = pos.legal_moves(pos.to_play)
        if not moves:
            if not any(pos.legal_moves(k) for k in range(pos.n_colours)):
                return
            counts[ply + 1] += 1
            child = pos.copy()
            child.to_play = (pos.to_play + 1) % pos.n_colours
            rec(child, ply + 1)
            return
        counts[ply + 1] += len(moves)
        if ply + 1 == depth:
            return
        for move in moves:
            child = pos.copy()
            play(child, pos.to_play, move)
            rec(child, ply + 1)

    rec(position, 0)
    return counts[1:]


def score(pos: RefPosition, colour: int) -> int:
    """Blokus score of a colour: minus the squares left, or +15 for all placed (+20 if the
    monomino came last)."""
    left = sum(p.size for p in PIECES if p.name not in pos.placed[colour])
    if left:
        return -left
    return 20 if pos.last[colour] == "1" else 15
