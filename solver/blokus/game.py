"""A Blokus game: the C position plus names, turn order, history (undo) and scores.

>>> g = Game("duo")
>>> len(g.legal_moves())
414
>>> m = g.move_from_cells("e10,e9,f9")
>>> m.piece, m.colour
('V3', 0)
>>> _ = g.play(m)
>>> g.to_play, g.colour_name(g.to_play)
(1, 'orange')
>>> _ = g.undo()
>>> g.to_play
0
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver._ext import blokus as _ext
from solver.blokus.pieces import PIECE_SETS
from solver.blokus.variants import ROTATING, Cell, Variant, variant_by_name
from solver.errors import SolverError

#: per piece set name: (piece index, cells, parity) of every orientation, in the engine's order
ORIENTATIONS: dict[str, list[tuple[int, tuple[Cell, ...], int]]] = {
    name: list(_ext.ORIENTATIONS[i]) for i, name in enumerate(_ext.SET_NAMES)}
_ORIENT_INDEX = {name: {(shape, parity): o for o, (_, shape, parity) in enumerate(table)}
                 for name, table in ORIENTATIONS.items()}


@dataclass(frozen=True)
class Move:
    """One placement: colour index, engine code, piece name and the covered cells."""

    colour: int
    code: int
    piece: str
    cells: tuple[Cell, ...]


@lru_cache(maxsize=1 << 16)
def _move(colour: int, code: int, piece_set: str, width: int, height: int) -> Move:
    """The :class:`Move` of an engine code (moves are immutable, so one object serves every
    game: a search's candidates are built from its root's codes at every move)."""
    o, r, c = _ext.code_info(code, width, height)
    piece, shape, _ = ORIENTATIONS[piece_set][o]
    return Move(colour, code, PIECE_SETS[piece_set].pieces[piece].name, tuple((c + x, r + y) for x, y in shape))


def start_position(variant: Variant) -> _ext.Position:
    """The engine's empty board of ``variant`` (its geometry, pieces, first cells and rules)."""
    g = variant.geometry
    return _ext.Position(_ext.SET_NAMES.index(g.piece_set), g.width, g.height, g.parity, list(g.row_masks),
                         variant.n_colours, [variant.first_cells(k) for k in range(variant.n_colours)],
                         variant.touch == "corners-only")


class Game:
    """A game in progress: ``legal_moves()``, ``play()``, ``undo()``, ``to_play``, ``is_over``, scores.

    Colours move in the variant's order; a colour without a legal move passes (for good: its
    moves only ever disappear).  ``to_play`` is the next colour that can move, None at the end.
    """

    def __init__(self, variant: Variant | str = "classic", first_move: str = "start-cell",
                 touch: str = "standard") -> None:
        if isinstance(variant, str):
            variant = variant_by_name(variant, first_move, touch)
        self.variant = variant
        self.pieces = variant.pieces
        self.position = start_position(variant)
        self.moves: list[Move] = []
        self.setup: list[Move] = []  # pieces put on the board before the first move (SGF AB, A1, ...)
        self.setup_to_play = 0  # colour to move after the setup (SGF PL)
        self._history: list[_ext.Position] = []
        self._to_play: int | None = -1  # -1: not computed yet

    # ------------------------------------------------------------------ names
    def colour_name(self, colour: int) -> str:
        return self.variant.colours[colour]

    def colour_index(self, name: str | int) -> int:
        if isinstance(name, int):
            if not 0 <= name < self.variant.n_colours:
                raise SolverError(f"colour {name} out of range")
            return name
        return self.variant.colour_index(name)

    def cell_name(self, cell: Cell) -> str:
        return self.variant.geometry.cell_name(cell)

    def move_text(self, move: Move) -> str:
        """Pentobi's notation: the covered cells, comma-separated in the order a1, b1, ..., a2, ...
        (``a19,b19,b20``), as Pentobi's format description recommends."""
        return ",".join(self.cell_name(c) for c in sorted(move.cells, key=lambda c: (c[1], c[0])))

    # ------------------------------------------------------------------ moves
    def move_from_code(self, colour: int, code: int) -> Move:
        return _move(int(colour), int(code), self.pieces.name, self.variant.width, self.variant.height)

    def move_from_cells(self, cells: str | list[Cell], colour: int | str | None = None) -> Move:
        """The move covering ``cells`` (a list of (x, y) or text ``a20,b20``); SolverError if no piece."""
        geo = self.variant.geometry
        if isinstance(cells, str):
            cells = [geo.parse_cell(t) for t in cells.split(",") if t.strip()] if cells.strip() else []
        cells = [tuple(c) for c in cells]
        if not cells:
            raise SolverError("empty move")
        if len(set(cells)) != len(cells):
            raise SolverError("a cell appears twice in the move")
        for c in cells:
            if not geo.on_board(c):
                raise SolverError(f"cell {c} is off the board")
        shape, parity = geo.normalize(cells)
        o = _ORIENT_INDEX[self.pieces.name].get((shape, parity))
        if o is None:
            names = ",".join(geo.cell_name(c) for c in sorted(cells, key=lambda c: (c[1], c[0])))
            raise SolverError(f"cells {names} do not form a {self.pieces.title} piece")
        x0 = min(x for x, _ in cells)
        y0 = min(y for _, y in cells)
        code = _ext.encode(o, y0, x0, geo.width, geo.height)
        k = self.to_play if colour is None else self.colour_index(colour)
        if k is None:
            raise SolverError("the game is over")
        return self.move_from_code(k, code)

    def legal_codes(self, colour: int | None = None) -> np.ndarray:
        """Engine codes of the legal moves of ``colour`` (default: the colour to play)."""
        k = self._colour_or_to_play(colour)
        if k is None:
            return np.empty(0, dtype=np.int32)
        return self.position.legal_codes(k)

    def legal_moves(self, colour: int | str | None = None) -> list[Move]:
        """Legal moves of ``colour`` (default: the colour to play) as :class:`Move` objects."""
        k = self._colour_or_to_play(colour)
        if k is None:
            return []
        return [self.move_from_code(k, c) for c in self.position.legal_codes(k)]

    def _colour_or_to_play(self, colour) -> int | None:
        return self.to_play if colour is None else self.colour_index(colour)

    def is_legal(self, move: Move) -> bool:
        return self.position.is_legal(move.colour, move.code)

    def why_illegal(self, move: Move) -> str:
        """A short reason why ``move`` is illegal for its colour ('' if it is legal)."""
        pos = self.position
        k = move.colour
        if move.piece not in self.pieces_left(k):
            return f"{self.colour_name(k)} has already placed piece {move.piece}"
        free, attach = pos.bitboards(k)
        occupied = self.occupancy()
        for x, y in move.cells:
            if (x, y) in occupied:
                return f"cell {self.cell_name((x, y))} is occupied"
        corners_only = (f"the piece meets {self.colour_name(k)} where a side runs straight on "
                        "(corners-only rule)")
        geo = self.variant.geometry
        for x, y in move.cells:
            if not (free[y] >> x) & 1:
                if not any(occupied.get(n) == k for n in geo.edge_neighbours((x, y))):
                    return corners_only
                return f"cell {self.cell_name((x, y))} touches {self.colour_name(k)} along an edge"
        if not any((attach[y] >> x) & 1 for x, y in move.cells):
            if pos.last_piece(k) < 0:
                cells = self.variant.first_cells(k)
                first = ", ".join(self.cell_name(c) for c in cells)
                return f"the first piece of {self.colour_name(k)} must cover {'one of ' if len(cells) > 1 else ''}{first}"
            return f"the piece does not touch {self.colour_name(k)} at a corner"
        return corners_only if self.variant.touch == "corners-only" else ""

    def play(self, move: Move | str, colour: int | str | None = None) -> Move:
        """Play ``move`` (a Move, or cells like ``a20,b20``); SolverError saying why if illegal.

        A colour other than the one to play may move (as when editing a record); the turn then
        passes to the colour after it.
        """
        if isinstance(move, str):
            move = self.move_from_cells(move, colour)
        elif colour is not None and self.colour_index(colour) != move.colour:
            move = self.move_from_code(self.colour_index(colour), move.code)
        if not self.is_legal(move):
            raise SolverError(f"illegal move {self.move_text(move)} for {self.colour_name(move.colour)}: "
                              f"{self.why_illegal(move) or 'not legal'}")
        self._history.append(self.position.copy())
        self.position.play(move.colour, move.code)
        if self.variant.player_of[move.colour] == ROTATING:
            self.position.note_rotating_move()
        self.position.to_play = (move.colour + 1) % self.variant.n_colours
        self.moves.append(move)
        self._to_play = -1
        return move

    def add_setup(self, move: Move) -> None:
        """Put a piece on the board as a setup (no corner or edge rule; only before any move)."""
        if self.moves:
            raise SolverError("setup pieces can only be added before the first move")
        occupied = self.occupancy()
        for cell in move.cells:
            if cell in occupied:
                raise SolverError(f"setup piece {self.move_text(move)}: cell {self.cell_name(cell)} is occupied")
        if move.piece not in self.pieces_left(move.colour):
            raise SolverError(f"setup piece {self.move_text(move)}: {self.colour_name(move.colour)} "
                              f"has already placed piece {move.piece}")
        self.position.place_setup(move.colour, move.code)
        self.setup.append(move)
        self._to_play = -1

    def set_to_play(self, colour: int) -> None:
        """Make ``colour`` the next to move (SGF ``PL``)."""
        self.position.to_play = self.colour_index(colour)
        if not self.moves:
            self.setup_to_play = self.position.to_play
        self._to_play = -1

    def undo(self) -> Move:
        """Take back the last move; SolverError if there is none."""
        if not self.moves:
            raise SolverError("no move to undo")
        self.position = self._history.pop()
        self._to_play = -1
        return self.moves.pop()

    # ------------------------------------------------------------------ state
    @property
    def to_play(self) -> int | None:
        """The next colour (in turn order from the one due) that has a legal move; None when over."""
        if self._to_play == -1:
            n = self.variant.n_colours
            start = self.position.to_play
            self._to_play = None
            for i in range(n):
                k = (start + i) % n
                if self.position.has_move(k):
                    self._to_play = k
                    break
        return self._to_play

    @property
    def is_over(self) -> bool:
        return self.to_play is None

    def player_of_colour(self, colour: int) -> int:
        """The player who moves ``colour`` now (classic-3's green: the players take turns)."""
        p = self.variant.player_of[colour]
        return self.position.rot_count % self.variant.n_players if p == ROTATING else p

    def occupancy(self) -> dict[Cell, int]:
        """Cell -> colour index of every covered cell."""
        return {cell: m.colour for m in self.setup + self.moves for cell in m.cells}

    def placements(self) -> list[tuple[str, tuple[Cell, ...]]]:
        """(colour name, cells) of every piece on the board, for the renderers."""
        return [(self.colour_name(m.colour), m.cells) for m in self.setup + self.moves]

    def pieces_left(self, colour: int) -> list[str]:
        return [self.pieces.pieces[p].name for p in self.position.pieces_left(colour)]

    def colour_scores(self) -> list[int]:
        """Blokus score of each colour: minus cells left, +15 for all placed (+20 monomino last)."""
        return [self.position.score(k) for k in range(self.variant.n_colours)]

    def pentobi_points(self) -> list[int]:
        """Pentobi's convention: cells placed plus the same bonus, per colour."""
        out = []
        for k in range(self.variant.n_colours):
            left = self.position.squares_left(k)
            bonus = 0
            if not self.position.pieces_left(k):
                bonus = 20 if self.position.last_piece(k) == self.pieces.monomino else 15
            out.append(self.pieces.cells - left + bonus)
        return out

    @property
    def scores(self) -> list[int]:
        """Score of each side (player, or team in ``teams``); uncounted colours are left out."""
        v = self.variant
        out = [0] * v.n_sides
        for k, s in enumerate(self.colour_scores()):
            p = v.player_of[k]
            if p != ROTATING and v.counted[k]:
                out[v.sides[p]] += s
        return out

    def winners(self) -> list[int]:
        """Sides with the best score (more than one: a shared win)."""
        s = self.scores
        best = max(s)
        return [i for i, x in enumerate(s) if x == best]
