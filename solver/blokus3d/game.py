"""A Blokus 3D game: the C position plus names, turn order, history (undo), scores and rule texts.

Cubes are written ``c2:1``: column letter (a = leftmost), row number (1 = front row), then the
level after the colon (1 = on the ground).

>>> g = Game3D("tower", players=2)
>>> len(g.legal_moves())
223
>>> m = g.play("a1:1,b1:1")
>>> m.piece, g.colour_name(g.to_play)
('D2', 'yellow')
>>> g.scores()
[-8, -11]
>>> _ = g.undo()
>>> g.to_play
0
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import numpy as np

from solver._ext import blokus3d as _ext
from solver.blokus3d.pieces import PIECES, Cube, normalize, piece_of_cubes
from solver.blokus3d.templates import (
    DEFAULT_TEMPLATE,
    MAX_HEIGHT,
    MAX_SIDE,
    PLAYER_COUNTS,
    Template,
    template_by_name,
)
from solver.errors import SolverError

#: colour names in turn order (as in Blokus)
COLOURS = ("blue", "yellow", "red", "green")

#: (piece index, cubes) of every orientation, in the engine's order
ORIENTATIONS: list[tuple[int, tuple[Cube, ...]]] = list(_ext.ORIENTATIONS)
_ORIENT_INDEX = {shape: o for o, (_, shape) in enumerate(ORIENTATIONS)}
_CUBE_RE = re.compile(r"^([a-z])(\d{1,4}):(\d{1,4})$")


@dataclass(frozen=True)
class Move3D:
    """One placement: colour index, engine code, piece name and the cubes it fills."""

    colour: int
    code: int
    piece: str
    cubes: tuple[Cube, ...]


def cube_text(cube: Cube) -> str:
    """``(2, 1, 0)`` -> ``c2:1``."""
    x, y, z = cube
    return f"{chr(ord('a') + x)}{y + 1}:{z + 1}"


def parse_cube(text: str) -> Cube:
    """``c2:1`` -> ``(2, 1, 0)``; SolverError if malformed."""
    m = _CUBE_RE.match(text.strip().lower())
    if not m or int(m.group(2)) < 1 or int(m.group(3)) < 1:
        raise SolverError(f"bad cube {text!r} (write column letter, row, ':' level, e.g. c2:1)")
    return ord(m.group(1)) - ord("a"), int(m.group(2)) - 1, int(m.group(3)) - 1


def parse_cubes(text: str) -> list[Cube]:
    """A comma- or space-separated list of cubes."""
    return [parse_cube(t) for t in re.split(r"[,\s]+", text.strip()) if t]


@cache
def _decode(code: int) -> tuple[int, tuple[Cube, ...]]:
    o, z, x, y = _ext.code_info(code)
    piece, shape = ORIENTATIONS[o]
    return piece, tuple((x + dx, y + dy, z + dz) for dx, dy, dz in shape)


class Game3D:
    """A game in progress: ``legal_moves()``, ``play()``, ``undo()``, ``to_play``, ``is_over``, ``scores()``.

    Colours move in turn order.  A colour that cannot place a piece when its turn comes is out for
    the rest of the game (the rules do not let it come back); ``to_play`` is the next colour that
    can place, None when every colour is out.
    """

    def __init__(self, template: Template | str = DEFAULT_TEMPLATE, players: int = 4,
                 colours_each: int = 1) -> None:
        if isinstance(template, str):
            template = template_by_name(template)
        if players not in PLAYER_COUNTS:
            raise SolverError(f"Blokus 3D is for 2, 3 or 4 players, not {players}")
        if colours_each not in (1, 2) or (colours_each == 2 and players != 2):
            raise SolverError("two colours each is the two-player game only (players 2x2)")
        self.template = template
        self.players = players
        self.colours_each = colours_each
        self.n_colours = players * colours_each
        self.height = template.height(self.n_colours)   # 2x2: four colours build, as with four players
        self.position = _ext.Position(template.mask, self.height, self.n_colours)
        self.moves: list[Move3D] = []
        self._history: list[_ext.Position] = []

    # ------------------------------------------------------------------ names
    @property
    def colours(self) -> tuple[str, ...]:
        return COLOURS[: self.n_colours]

    @property
    def setup_name(self) -> str:
        """``4`` players, or ``2x2`` for two players with two colours each."""
        return f"{self.players}x2" if self.colours_each == 2 else str(self.players)

    def player_of(self, colour: int) -> int:
        """Player moving ``colour`` (colours alternate between the players)."""
        return colour % self.players

    def colour_name(self, colour: int) -> str:
        return COLOURS[colour]

    def colour_index(self, name: str | int) -> int:
        """Colour by index, name or first letter; SolverError if this game has no such colour."""
        if isinstance(name, int) and not isinstance(name, bool):
            if 0 <= name < self.n_colours:
                return name
        elif isinstance(name, str):
            key = name.strip().lower()
            for k, c in enumerate(self.colours):
                if key in (c, c[0], str(k + 1)):
                    return k
        raise SolverError(f"unknown colour {name!r} (colours: {', '.join(self.colours)})")

    @staticmethod
    def move_text(move: Move3D) -> str:
        """The cubes, sorted by level, row, column: ``a1:1,b1:1,b1:2``."""
        return ",".join(cube_text(c) for c in sorted(move.cubes, key=lambda c: (c[2], c[1], c[0])))

    # ------------------------------------------------------------------ moves
    def move_from_code(self, colour: int, code: int) -> Move3D:
        piece, cubes = _decode(int(code))
        return Move3D(colour, int(code), PIECES[piece].name, cubes)

    def move_from_cubes(self, cubes: str | list[Cube], colour: int | str | None = None) -> Move3D:
        """The move filling ``cubes`` (text ``a1:1,b1:1`` or (x, y, z) triples); SolverError if no piece."""
        if isinstance(cubes, str):
            cubes = parse_cubes(cubes)
        cubes = [tuple(int(v) for v in c) for c in cubes]
        if not cubes:
            raise SolverError("empty move")
        for c in cubes:
            if len(c) != 3 or min(c) < 0:
                raise SolverError(f"bad cube {c}")
            if c[0] >= MAX_SIDE or c[1] >= MAX_SIDE:
                raise SolverError(f"cube {cube_text(c)} is outside the {MAX_SIDE}x{MAX_SIDE} board")  # type: ignore[arg-type]
            if c[2] >= MAX_HEIGHT:
                raise SolverError(f"cube {cube_text(c)} is above the height limit {self.height}")  # type: ignore[arg-type]
        piece_of_cubes(cubes)
        o = _ORIENT_INDEX[normalize(cubes)]
        code = _ext.encode(o, min(c[2] for c in cubes), min(c[0] for c in cubes), min(c[1] for c in cubes))
        k = self.to_play if colour is None else self.colour_index(colour)
        if k is None:
            raise SolverError("the game is over")
        return self.move_from_code(k, code)

    def legal_codes(self, colour: int | str | None = None) -> np.ndarray:
        """Engine codes of the legal moves of ``colour`` (default: the colour to play)."""
        k = self.to_play if colour is None else self.colour_index(colour)
        if k is None or self.position.is_out(k):
            return np.empty(0, dtype=np.int32)
        return self.position.legal_codes(k)

    def legal_moves(self, colour: int | str | None = None) -> list[Move3D]:
        """Legal moves of ``colour`` (default: the colour to play); none for a colour that is out."""
        k = self.to_play if colour is None else self.colour_index(colour)
        return [self.move_from_code(k, c) for c in self.legal_codes(colour)] if k is not None else []

    def why_illegal(self, move: Move3D) -> str:
        """A short reason why ``move`` is illegal now ('' if it is legal)."""
        k = move.colour
        due = self.to_play
        if due is None:
            return "the game is over"
        if k != due:
            return f"it is {self.colour_name(due)}'s turn"
        if move.piece not in self.pieces_left(k):
            return f"{self.colour_name(k)} has already placed piece {move.piece}"
        foot = self.template.cells
        heights = self.heights()
        own = {c for m in self.moves if m.colour == k for c in m.cubes}
        for x, y, z in move.cubes:
            if (x, y) not in foot:
                return f"cube {cube_text((x, y, z))} is outside the template's footprint"
            if z >= self.height:
                return f"cube {cube_text((x, y, z))} is above the height limit {self.height}"
            if z < heights.get((x, y), 0):
                return f"cube {cube_text((x, y, z))} is occupied"
        cubes = set(move.cubes)
        for x, y, z in move.cubes:
            if z > heights.get((x, y), 0) and (x, y, z - 1) not in cubes:
                return f"cube {cube_text((x, y, z))} would have empty space under it"
        touch = own if own else ({c for m in self.moves for c in m.cubes} if self.moves else None)
        if touch is not None and not any(
                (x + dx, y + dy, z + dz) in touch for x, y, z in move.cubes
                for dx, dy, dz in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))):
            what = f"a piece of {self.colour_name(k)}" if own else "a placed piece"
            return f"the piece does not touch {what} face to face"
        return "" if self.position.is_legal(k, move.code) else "not legal"

    def play(self, move: Move3D | str, colour: int | str | None = None) -> Move3D:
        """Play ``move`` (a Move3D, or cubes like ``a1:1,b1:1``) for the colour to play; SolverError
        saying why if it is illegal."""
        if isinstance(move, str):
            move = self.move_from_cubes(move, colour)
        elif colour is not None and self.colour_index(colour) != move.colour:
            move = self.move_from_code(self.colour_index(colour), move.code)
        reason = self.why_illegal(move) if (move.colour != self.to_play
                                            or not self.position.is_legal(move.colour, move.code)) else ""
        if reason:
            raise SolverError(f"illegal move {self.move_text(move)} for {self.colour_name(move.colour)}: {reason}")
        self._history.append(self.position.copy())
        self.position.play(move.colour, move.code)
        self.position.to_play = (move.colour + 1) % self.n_colours
        self.moves.append(move)
        return move

    def undo(self) -> Move3D:
        """Take back the last move; SolverError if there is none."""
        if not self.moves:
            raise SolverError("no move to undo")
        self.position = self._history.pop()
        return self.moves.pop()

    # ------------------------------------------------------------------ state
    @property
    def to_play(self) -> int | None:
        """The colour due that can place; colours passed over on the way are out for good."""
        pos = self.position
        for _ in range(self.n_colours):
            k = pos.to_play
            if not pos.is_out(k):
                if pos.has_move(k):
                    return k
                pos.mark_out(k)
            pos.to_play = (k + 1) % self.n_colours
        return None

    @property
    def is_over(self) -> bool:
        """No colour can place any more (a property, as in every game's decision API)."""
        return self.to_play is None

    def is_out(self, colour: int) -> bool:
        self.to_play  # noqa: B018  (settles who is out up to the colour due)
        return self.position.is_out(colour)

    def pieces_left(self, colour: int) -> list[str]:
        return [PIECES[p].name for p in self.position.pieces_left(colour)]

    def scores(self) -> list[int]:
        """Per colour: squares whose top cube is that colour, minus one per unplaced piece."""
        return [self.position.score(k) for k in range(self.n_colours)]

    def player_scores(self) -> list[int]:
        """Per player: its colour's score (two colours each: the better one, as Rumis counts)."""
        s = self.scores()
        return [max(s[p::self.players]) for p in range(self.players)]

    def winners(self) -> list[int]:
        """Players with the best score (more than one: a shared win)."""
        s = self.player_scores()
        return [p for p, v in enumerate(s) if v == max(s)]

    def cubes(self) -> dict[Cube, int]:
        """Cube -> colour index of every placed cube."""
        return {c: m.colour for m in self.moves for c in m.cubes}

    def heights(self) -> dict[tuple[int, int], int]:
        """Square -> number of cubes in its column (squares with none are left out)."""
        out: dict[tuple[int, int], int] = {}
        for x, y, z in self.cubes():
            out[(x, y)] = max(out.get((x, y), 0), z + 1)
        return out

    def top_view(self) -> dict[tuple[int, int], tuple[int, int]]:
        """Square -> (colour index of its top cube, height) for every built square."""
        cubes = self.cubes()
        return {sq: (cubes[(sq[0], sq[1], h - 1)], h) for sq, h in self.heights().items()}
