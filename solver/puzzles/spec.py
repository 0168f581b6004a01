"""Puzzle definitions: read and check a puzzle TOML file (shipped in ``puzzles/`` or the user's own).

A puzzle is a rectangular board (optionally with blocked cells), a set of coloured Blokus pieces
and constraints.  The file format is documented in ``docs/puzzles.md``; in short::

    name = "pentomino-6x10"
    width = 10
    height = 6
    blocked = [[0, 0]]            # optional, cells (x, y) nobody may cover
    full = true                   # every free cell must be covered
    colors = ["blue"]
    pieces = [5]                  # the same list for every colour, or a table colour -> list
    constraints = []              # "no-same-colour-edge", "game-rules", "descending-order"

A piece list holds Pentobi names ("L5"), sizes (5 = all pieces of that size) or "all".

>>> p = load_puzzle("pentomino-6x10")
>>> p.width, p.height, len(p.pieces), p.area
(10, 6, 12, 60)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from solver.blokus.pieces import PIECES, Piece, piece_by_name, pieces_of_size
from solver.errors import SolverError
from solver.inputs import parse_toml, read_text

Cell = tuple[int, int]

NO_EDGE = "no-same-colour-edge"
GAME_RULES = "game-rules"
DESCENDING = "descending-order"
CONSTRAINTS = (NO_EDGE, GAME_RULES, DESCENDING)
_ALIASES = {"no-same-color-edge": NO_EDGE, "no-edge": NO_EDGE}
_KEYS = {"name", "description", "width", "height", "blocked", "full", "colors", "colours", "pieces",
         "constraints"}


@dataclass(frozen=True)
class Puzzle:
    """A checked puzzle definition: board, coloured pieces (one entry per physical piece) and rules."""

    name: str
    width: int
    height: int
    colors: tuple[str, ...]
    pieces: tuple[tuple[str, Piece], ...]
    blocked: frozenset[Cell] = frozenset()
    full: bool = False
    constraints: frozenset[str] = frozenset()
    description: str = ""
    source: str = field(default="", compare=False)

    @property
    def no_same_colour_edge(self) -> bool:
        """Pieces of one colour may not share an edge (implied by the game rules)."""
        return NO_EDGE in self.constraints or GAME_RULES in self.constraints

    @property
    def game_rules(self) -> bool:
        return GAME_RULES in self.constraints

    @property
    def descending(self) -> bool:
        return DESCENDING in self.constraints

    @property
    def area(self) -> int:
        """Squares of all pieces together."""
        return sum(p.size for _, p in self.pieces)

    @property
    def free_cells(self) -> list[Cell]:
        return [(x, y) for y in range(self.height) for x in range(self.width) if (x, y) not in self.blocked]

    @property
    def corners(self) -> list[Cell]:
        w, h = self.width - 1, self.height - 1
        return list(dict.fromkeys([(0, 0), (w, 0), (w, h), (0, h)]))

    def piece_counts(self) -> Counter:
        """How many copies of each (colour, piece name) the puzzle has."""
        return Counter((c, p.name) for c, p in self.pieces)


def _expand(entries, where: str) -> list[Piece]:
    if not isinstance(entries, list):
        raise SolverError(f"{where}: a piece list must be a list of names or sizes")
    out: list[Piece] = []
    for e in entries:
        if isinstance(e, bool):
            raise SolverError(f"{where}: bad piece entry {e!r}")
        if isinstance(e, int):
            if not 1 <= e <= 5:
                raise SolverError(f"{where}: no Blokus pieces of size {e} (sizes are 1 to 5)")
            out.extend(pieces_of_size(e))
        elif isinstance(e, str) and e.lower() == "all":
            out.extend(PIECES)
        elif isinstance(e, str):
            try:
                out.append(piece_by_name(e))
            except SolverError as exc:
                raise SolverError(f"{where}: {exc}") from None
        else:
            raise SolverError(f"{where}: bad piece entry {e!r}")
    return out


def _cells(value, where: str) -> list[Cell]:
    if not isinstance(value, list):
        raise SolverError(f"{where}: expected a list of [x, y] cells")
    out = []
    for c in value:
        if (not isinstance(c, list) or len(c) != 2 or not all(isinstance(v, int) and not isinstance(v, bool)
                                                               for v in c)):
            raise SolverError(f"{where}: bad cell {c!r} (expected [x, y])")
        out.append((c[0], c[1]))
    return out


def parse_puzzle(data: dict, name: str = "", source: str = "") -> Puzzle:
    """Build and check a :class:`Puzzle` from parsed TOML; SolverError names the first problem."""
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise SolverError(f"puzzle {name or source}: unknown key {unknown[0]!r}")
    name = str(data.get("name", name))
    where = f"puzzle {name}"
    width, height = data.get("width"), data.get("height")
    for key, v in (("width", width), ("height", height)):
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 64:
            raise SolverError(f"{where}: {key} must be an integer from 1 to 64")
    if "colors" in data and "colours" in data:
        raise SolverError(f"{where}: give either colors or colours, not both")
    colors = data.get("colors", data.get("colours", ["blue"]))
    if isinstance(colors, str):
        colors = [colors]
    if not isinstance(colors, list) or not colors or not all(isinstance(c, str) and c for c in colors):
        raise SolverError(f"{where}: colors must be a non-empty list of names")
    if len(set(colors)) != len(colors):
        raise SolverError(f"{where}: a colour is listed twice")
    spec = data.get("pieces")
    if spec is None:
        raise SolverError(f"{where}: no pieces given")
    pieces: list[tuple[str, Piece]] = []
    if isinstance(spec, dict):
        extra = sorted(set(spec) - set(colors))
        if extra:
            raise SolverError(f"{where}: pieces for colour {extra[0]!r}, which is not in colors")
        for c in colors:
            pieces.extend((c, p) for p in _expand(spec.get(c, []), f"{where}, colour {c}"))
    else:
        for c in colors:
            pieces.extend((c, p) for p in _expand(spec, where))
    if not pieces:
        raise SolverError(f"{where}: the piece list is empty")
    blocked = set()
    for x, y in _cells(data.get("blocked", []), f"{where}, blocked"):
        if not (0 <= x < width and 0 <= y < height):
            raise SolverError(f"{where}: blocked cell ({x}, {y}) is off the {width}x{height} board")
        blocked.add((x, y))
    full = data.get("full", False)
    if not isinstance(full, bool):
        raise SolverError(f"{where}: full must be true or false")
    raw = data.get("constraints", [])
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list):
        raise SolverError(f"{where}: constraints must be a list")
    constraints = set()
    for c in raw:
        c = _ALIASES.get(str(c).lower(), str(c).lower())
        if c not in CONSTRAINTS:
            raise SolverError(f"{where}: unknown constraint {c!r} (known: {', '.join(CONSTRAINTS)})")
        constraints.add(c)
    if DESCENDING in constraints and GAME_RULES not in constraints:
        raise SolverError(f"{where}: {DESCENDING} needs {GAME_RULES} (it orders the legal moves)")
    free = width * height - len(blocked)
    area = sum(p.size for _, p in pieces)
    if area > free:
        raise SolverError(f"{where}: board too small: the pieces have {area} squares, the board {free} free cells")
    from solver.puzzles.geometry import placements

    for piece in dict.fromkeys(p for _, p in pieces):
        if not placements(piece, width, height, frozenset(blocked)):
            raise SolverError(f"{where}: board too small: piece {piece.name} fits nowhere on the "
                              f"{width}x{height} board")
    if full and area != free:
        raise SolverError(f"{where}: full = true but the pieces have {area} squares for {free} free cells")
    full = full or area == free  # pieces that fill the free cells must tile them: the fast solvers apply
    if GAME_RULES in constraints:
        corners = {(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)} - blocked
        if len(colors) > len(corners):
            raise SolverError(f"{where}: game-rules needs a free corner per colour ({len(colors)} colours, "
                              f"{len(corners)} free corners)")
    description = str(data.get("description", ""))
    return Puzzle(name, width, height, tuple(colors), tuple(pieces), frozenset(blocked), full,
                  frozenset(constraints), description, source)


def library_dir():
    """The folder of shipped puzzle files (installed package data, else the source tree)."""
    try:
        root = resources.files("solver.puzzles.library")
        if any(str(f.name).endswith(".toml") for f in root.iterdir()):
            return root
    except (ModuleNotFoundError, FileNotFoundError):  # pragma: no cover - broken installs
        pass
    return Path(__file__).resolve().parents[2] / "puzzles"


def shipped_names() -> list[str]:
    """Names of the shipped puzzles, sorted."""
    return sorted(str(f.name)[:-5] for f in library_dir().iterdir() if str(f.name).endswith(".toml"))


def load_puzzle(name_or_path: str) -> Puzzle:
    """A shipped puzzle by name, or a TOML file by path; SolverError for anything unusable."""
    text = None
    src = str(name_or_path)
    path = Path(src)
    if src.endswith(".toml") or path.exists():
        text = read_text(path, "puzzle file")
        default_name = path.stem
    else:
        entry = library_dir() / f"{src}.toml"
        if not entry.is_file():
            raise SolverError(f"unknown puzzle {src!r} (known: {', '.join(shipped_names())}; or give a .toml file)")
        text = entry.read_text(encoding="utf-8")
        default_name = src
    data = parse_toml(text, f"puzzle file {src}")
    return parse_puzzle(data, default_name, src)
