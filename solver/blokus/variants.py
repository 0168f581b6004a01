"""Blokus variants as data: board geometry, colours, start cells, who plays which colour, scoring.

Everything the engine, the reference generator, the SGF reader and the CLI need to know about a
variant lives in one :class:`Variant` record, so adding a variant is adding a record.  The board
geometry is a separate object (:class:`SquareGeometry`) so that Trigon's triangular board can
follow as another geometry with the same interface (cells, edge and corner neighbours, names).

Cells are ``(x, y)``: x the column from the left, y the row from the bottom, both from 0.  Their
names follow Pentobi: column letters a, b, ... and row numbers from 1 at the bottom.

>>> v = variant_by_name("classic")
>>> [v.geometry.cell_name(c) for c in v.start_cells]
['a20', 't20', 't1', 'a1']
>>> d = variant_by_name("duo")
>>> [d.geometry.cell_name(c) for c in d.start_cells]
['e10', 'j5']
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import cached_property

from solver.errors import SolverError
from solver.render.grid import column_name

Cell = tuple[int, int]

#: A colour played in turn by every player (classic-3's fourth colour).
ROTATING = -1

FIRST_MOVE_RULES = ("start-cell", "any-corner")


@dataclass(frozen=True)
class SquareGeometry:
    """A rectangular board of square cells (every variant except the future Trigon)."""

    width: int
    height: int

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        return tuple((x, y) for y in range(self.height) for x in range(self.width))

    def on_board(self, cell: Cell) -> bool:
        x, y = cell
        return 0 <= x < self.width and 0 <= y < self.height

    def edge_neighbours(self, cell: Cell) -> list[Cell]:
        """Cells sharing an edge with ``cell`` (on the board)."""
        x, y = cell
        return [c for c in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)) if self.on_board(c)]

    def corner_neighbours(self, cell: Cell) -> list[Cell]:
        """Cells sharing only a corner with ``cell`` (on the board)."""
        x, y = cell
        return [c for c in ((x - 1, y - 1), (x + 1, y - 1), (x - 1, y + 1), (x + 1, y + 1)) if self.on_board(c)]

    @property
    def corners(self) -> tuple[Cell, ...]:
        w, h = self.width - 1, self.height - 1
        return ((0, h), (w, h), (w, 0), (0, 0))

    def cell_name(self, cell: Cell) -> str:
        """Pentobi's name of a cell: ``(0, 19)`` on a 20-row board is ``a20``."""
        return f"{column_name(cell[0])}{cell[1] + 1}"

    def parse_cell(self, text: str) -> Cell:
        """The cell named ``text`` (``a20``); SolverError if malformed or off the board.

        >>> SquareGeometry(20, 20).parse_cell("t1")
        (19, 0)
        """
        m = re.fullmatch(r"([a-z]+)([0-9]+)", text.strip().lower())
        if not m:
            raise SolverError(f"malformed cell {text!r} (expected a column letter and a row number like a20)")
        x = 0
        for ch in m.group(1):
            x = x * 26 + (ord(ch) - ord("a") + 1)
        cell = (x - 1, int(m.group(2)) - 1)
        if not self.on_board(cell):
            raise SolverError(f"cell {text!r} is off the {self.width}x{self.height} board")
        return cell


@dataclass(frozen=True)
class Variant:
    """One Blokus variant.

    ``player_of[k]`` is the player who plays colour k (``ROTATING``: the players take turns with
    it, as with classic-3's green); ``counted[k]`` says whether colour k's score counts for its
    player (classic-3's green does not).  Colours move in the order of ``colours``.
    """

    name: str
    sgf_game: str
    geometry: SquareGeometry
    colours: tuple[str, ...]
    start_cells: tuple[Cell, ...]
    player_of: tuple[int, ...]
    counted: tuple[bool, ...]
    n_players: int
    sgf_colour_props: tuple[str, ...]
    side_of: tuple[int, ...] = ()
    first_move: str = "start-cell"

    @property
    def sides(self) -> tuple[int, ...]:
        """Side (scoring unit) of each player: players of one side share its score (teams)."""
        return self.side_of or tuple(range(self.n_players))

    @property
    def n_sides(self) -> int:
        return max(self.sides) + 1

    @property
    def n_colours(self) -> int:
        return len(self.colours)

    @property
    def width(self) -> int:
        return self.geometry.width

    @property
    def height(self) -> int:
        return self.geometry.height

    def with_first_move(self, rule: str) -> Variant:
        """This variant with another first-move rule (``start-cell`` or ``any-corner``)."""
        if rule not in FIRST_MOVE_RULES:
            raise SolverError(f"unknown first-move rule {rule!r} (known: {', '.join(FIRST_MOVE_RULES)})")
        return dataclasses.replace(self, first_move=rule)

    def first_cells(self, colour: int) -> tuple[Cell, ...]:
        """Cells one of which a colour's first piece must cover."""
        if self.first_move == "any-corner":
            return self.geometry.corners
        return (self.start_cells[colour],)

    def colour_index(self, name: str) -> int:
        """Index of a colour given by name, SGF property (1-4, B, W) or first letter."""
        key = str(name).strip().lower()
        for i, c in enumerate(self.colours):
            if key in (c, c[0], str(i + 1), self.sgf_colour_props[i].lower()):
                return i
        if key in ("b", "w") and self.n_colours >= 2:
            return "bw".index(key)
        raise SolverError(f"unknown colour {name!r} for {self.name} (known: {', '.join(self.colours)})")

    def side_names(self) -> list[str]:
        """The counted colours of each side, joined with '+'.

        >>> variant_by_name("teams").side_names()
        ['blue+red', 'yellow+green']
        """
        names: list[list[str]] = [[] for _ in range(self.n_sides)]
        for colour, p, counted in zip(self.colours, self.player_of, self.counted, strict=True):
            if p != ROTATING and counted:
                names[self.sides[p]].append(colour)
        return ["+".join(n) for n in names]

    def player_names(self) -> list[str]:
        """A short name per player (seat): the colours it plays."""
        names = []
        for p in range(self.n_players):
            own = [c for c, q in zip(self.colours, self.player_of, strict=True) if q in (p, ROTATING)]
            names.append("+".join(own))
        return names


_CLASSIC_COLOURS = ("blue", "yellow", "red", "green")
_G20 = SquareGeometry(20, 20)
_G14 = SquareGeometry(14, 14)
_CLASSIC_START = ((0, 19), (19, 19), (19, 0), (0, 0))
_PROPS4 = ("1", "2", "3", "4")

VARIANTS: dict[str, Variant] = {
    "classic": Variant("classic", "Blokus", _G20, _CLASSIC_COLOURS, _CLASSIC_START, (0, 1, 2, 3),
                       (True,) * 4, 4, _PROPS4),
    "classic-2": Variant("classic-2", "Blokus Two-Player", _G20, _CLASSIC_COLOURS, _CLASSIC_START,
                         (0, 1, 0, 1), (True,) * 4, 2, _PROPS4),
    "classic-3": Variant("classic-3", "Blokus Three-Player", _G20, _CLASSIC_COLOURS, _CLASSIC_START,
                         (0, 1, 2, ROTATING), (True, True, True, False), 3, _PROPS4),
    "teams": Variant("teams", "Blokus", _G20, _CLASSIC_COLOURS, _CLASSIC_START, (0, 1, 2, 3),
                     (True,) * 4, 4, _PROPS4, side_of=(0, 1, 0, 1)),
    "duo": Variant("duo", "Blokus Duo", _G14, ("purple", "orange"), ((4, 9), (9, 4)), (0, 1),
                   (True, True), 2, ("B", "W")),
    "giant": Variant("giant", "Blokus", _G20, _CLASSIC_COLOURS, _CLASSIC_START, (0, 1, 2, 3),
                     (True,) * 4, 4, _PROPS4),
}


def variant_by_name(name: str, first_move: str = "start-cell") -> Variant:
    """The variant called ``name`` with the given first-move rule; SolverError if unknown.

    >>> variant_by_name("classic-2").player_names()
    ['blue+red', 'yellow+green']
    >>> variant_by_name("teams").sides
    (0, 1, 0, 1)
    """
    try:
        v = VARIANTS[str(name).strip().lower()]
    except KeyError:
        raise SolverError(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})") from None
    return v if first_move == "start-cell" else v.with_first_move(first_move)
