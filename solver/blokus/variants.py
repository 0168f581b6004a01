"""Blokus variants as data: board geometry, colours, start cells, who plays which colour, scoring.

Everything the engine, the reference generator, the SGF reader and the CLI need to know about a
variant lives in one :class:`Variant` record, so adding a variant is adding a record.  The board
is a geometry of :mod:`solver.blokus.geometry` (square boards, Trigon's hexagon of triangles),
which also names the piece set played on it.

Cells are ``(x, y)``: x the column from the left, y the row from the bottom, both from 0.  Their
names follow Pentobi: column letters a, b, ... and row numbers from 1 at the bottom.

>>> v = variant_by_name("classic")
>>> [v.geometry.cell_name(c) for c in v.start_cells]
['a20', 't20', 't1', 'a1']
>>> d = variant_by_name("duo")
>>> [d.geometry.cell_name(c) for c in d.start_cells]
['e10', 'j5']
>>> t = variant_by_name("trigon")
>>> len(t.geometry.cells), len(t.first_cells(0)), t.pieces.cells
(486, 6, 110)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property

from solver.blokus.geometry import Cell, Geometry, SquareGeometry, TrigonGeometry
from solver.blokus.pieces import PIECE_SETS, PieceSet
from solver.errors import SolverError

#: A colour played in turn by every player (classic-3's fourth colour).
ROTATING = -1

FIRST_MOVE_RULES = ("start-cell", "any-corner")

#: how pieces of one colour may meet: ``standard`` (at corners, never along an edge) or
#: ``corners-only`` (the Trigon article's advanced rule: also never where a side runs straight on)
TOUCH_RULES = ("standard", "corners-only")


@dataclass(frozen=True)
class Variant:
    """One Blokus variant.

    ``player_of[k]`` is the player who plays colour k (``ROTATING``: the players take turns with
    it, as with classic-3's green); ``counted[k]`` says whether colour k's score counts for its
    player (classic-3's green does not).  Colours move in the order of ``colours``.
    ``start_cells[k]`` is colour k's start cell, or with ``shared_starts`` (Trigon) the start
    cells are every colour's to choose from.
    """

    name: str
    sgf_game: str
    geometry: Geometry
    colours: tuple[str, ...]
    start_cells: tuple[Cell, ...]
    player_of: tuple[int, ...]
    counted: tuple[bool, ...]
    n_players: int
    sgf_colour_props: tuple[str, ...]
    side_of: tuple[int, ...] = ()
    first_move: str = "start-cell"
    shared_starts: bool = False
    touch: str = "standard"

    @property
    def pieces(self) -> PieceSet:
        """The piece set every colour gets."""
        return PIECE_SETS[self.geometry.piece_set]

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

    def with_rules(self, first_move: str = "start-cell", touch: str = "standard") -> Variant:
        """This variant with another first-move rule (``start-cell`` or ``any-corner``, square
        boards only) and touching rule (``standard`` or ``corners-only``)."""
        if first_move not in FIRST_MOVE_RULES:
            raise SolverError(f"unknown first-move rule {first_move!r} (known: {', '.join(FIRST_MOVE_RULES)})")
        if touch not in TOUCH_RULES:
            raise SolverError(f"unknown touching rule {touch!r} (known: {', '.join(TOUCH_RULES)})")
        if first_move == "any-corner" and self.shared_starts:
            raise SolverError(f"the any-corner first move is for square boards, not {self.name}")
        return dataclasses.replace(self, first_move=first_move, touch=touch)

    def with_first_move(self, rule: str) -> Variant:
        """This variant with another first-move rule (``start-cell`` or ``any-corner``)."""
        return self.with_rules(rule, self.touch)

    def first_cells(self, colour: int) -> tuple[Cell, ...]:
        """Cells one of which a colour's first piece must cover."""
        if self.first_move == "any-corner":
            return self.geometry.corners
        if self.shared_starts:
            return self.start_cells
        return (self.start_cells[colour],)

    @cached_property
    def symmetries(self) -> tuple[dict[Cell, Cell], ...]:
        """The board's symmetries (``Geometry.board_symmetries``, identity first) that leave
        every colour's first-move cells as they were: positions they map onto each other are
        the same game, so an opening book needs only one of them.

        >>> len(variant_by_name("duo").symmetries), len(variant_by_name("classic-2").symmetries)
        (2, 1)
        """
        return tuple(m for m in self.geometry.board_symmetries
                     if all({m[c] for c in self.first_cells(k)} == set(self.first_cells(k))
                            for k in range(self.n_colours)))

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
_T9 = TrigonGeometry(9)
_T8 = TrigonGeometry(8)


#: Trigon's six start cells per board size (Pentobi's positions, rows from the bottom): the
#: triangles marked on the board half-way between its centre and its six corners
_TRIGON_STARTS: dict[int, tuple[Cell, ...]] = {
    9: ((17, 3), (17, 14), (9, 6), (9, 11), (25, 6), (25, 11)),
    8: ((15, 2), (15, 13), (7, 5), (7, 10), (23, 5), (23, 10)),
}


def _trigon_starts(board: TrigonGeometry) -> tuple[Cell, ...]:
    return _TRIGON_STARTS[board.size]


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
    "trigon": Variant("trigon", "Blokus Trigon", _T9, _CLASSIC_COLOURS, _trigon_starts(_T9), (0, 1, 2, 3),
                      (True,) * 4, 4, _PROPS4, shared_starts=True),
    "trigon-2": Variant("trigon-2", "Blokus Trigon Two-Player", _T9, _CLASSIC_COLOURS, _trigon_starts(_T9),
                        (0, 1, 0, 1), (True,) * 4, 2, _PROPS4, shared_starts=True),
    "trigon-3": Variant("trigon-3", "Blokus Trigon Three-Player", _T8, _CLASSIC_COLOURS[:3], _trigon_starts(_T8),
                        (0, 1, 2), (True,) * 3, 3, _PROPS4[:3], shared_starts=True),
}


def variant_by_name(name: str, first_move: str = "start-cell", touch: str = "standard") -> Variant:
    """The variant called ``name`` with the given first-move and touching rules; SolverError if unknown.

    >>> variant_by_name("classic-2").player_names()
    ['blue+red', 'yellow+green']
    >>> variant_by_name("teams").sides
    (0, 1, 0, 1)
    """
    try:
        v = VARIANTS[str(name).strip().lower()]
    except KeyError:
        raise SolverError(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})") from None
    return v if (first_move, touch) == ("start-cell", "standard") else v.with_rules(first_move, touch)
