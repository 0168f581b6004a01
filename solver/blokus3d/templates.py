"""Templates (building plans): a footprint of squares and a maximum height per player count.

The four Blokus 3D templates ship as TOML files in ``solver/blokus3d/templates/``; a user may pass
any file of the same form (``--template FILE``)::

    name = "my-plan"
    footprint = \"\"\"
    ###
    #.#
    ###
    \"\"\"
    heights = { 2 = 3, 3 = 4, 4 = 5 }

Footprint lines go from the back row (top line) to the front row; ``#`` is ground one may build
on, ``.`` is not.  The engine keeps one 64-bit word per level, so the footprint must fit in
8 x 8 squares and heights are 1..8.

>>> t = template_by_name("pyramid")
>>> t.width, t.depth, len(t.cells), t.height(4)
(5, 5, 25, 5)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from solver.errors import SolverError
from solver.inputs import parse_json, parse_toml, read_text

Cell = tuple[int, int]

#: the engine's limits: footprint within MAX_SIDE x MAX_SIDE squares, at most MAX_HEIGHT levels
MAX_SIDE = 8
MAX_HEIGHT = 8
PLAYER_COUNTS = (2, 3, 4)
DEFAULT_TEMPLATE = "pyramid"


@dataclass(frozen=True)
class Template:
    """A building plan: footprint cells ``(x, y)`` (y = 0 is the front row) and heights by player count."""

    name: str
    title: str
    description: str
    rows: tuple[str, ...]          # footprint lines, back row first, as in the file
    heights: tuple[tuple[int, int], ...]  # (players, maximum height)
    source: str = ""               # file it came from ('' for a shipped template)

    @property
    def width(self) -> int:
        return max(len(r) for r in self.rows)

    @property
    def depth(self) -> int:
        return len(self.rows)

    @property
    def cells(self) -> frozenset[Cell]:
        d = self.depth
        return frozenset((x, d - 1 - i) for i, row in enumerate(self.rows) for x, ch in enumerate(row) if ch == "#")

    @property
    def mask(self) -> int:
        """The footprint as the engine's 64-bit word (bit ``8 * y + x``)."""
        return sum(1 << (MAX_SIDE * y + x) for x, y in self.cells)

    def height(self, players: int) -> int:
        for p, h in self.heights:
            if p == players:
                return h
        raise SolverError(f"template {self.name} has no height for {players} players "
                          f"(it has: {', '.join(str(p) for p, _ in self.heights)})")

    def to_dict(self) -> dict:
        """The template as plain data (what a game record stores)."""
        return {"name": self.name, "footprint": list(self.rows),
                "heights": {str(p): h for p, h in self.heights}}


def template_from_data(data: dict, where: str) -> Template:
    """Check and build a template from parsed TOML/JSON; SolverError naming ``where`` if malformed."""
    if not isinstance(data, dict):
        raise SolverError(f"{where}: a template is a table with name, footprint and heights")
    unknown = set(data) - {"name", "title", "description", "footprint", "heights"}
    if unknown:
        raise SolverError(f"{where}: unknown template key(s) {', '.join(sorted(unknown))}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or any(c.isspace() for c in name.strip()):
        raise SolverError(f"{where}: the template needs a name without spaces")
    fp = data.get("footprint")
    if isinstance(fp, str):
        lines = fp.strip("\n").split("\n")
    elif isinstance(fp, list) and all(isinstance(r, str) for r in fp):
        lines = list(fp)
    else:
        raise SolverError(f"{where}: footprint must be lines of '#' and '.'")
    lines = [ln.strip() for ln in lines]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    for i, line in enumerate(lines, start=1):
        bad = set(line) - {"#", "."}
        if bad:
            raise SolverError(f"{where}: footprint line {i} has {''.join(sorted(bad))!r} (only '#' and '.')")
    if not any("#" in ln for ln in lines):
        raise SolverError(f"{where}: the footprint has no square to build on")
    if len(lines) > MAX_SIDE or max(len(ln) for ln in lines) > MAX_SIDE:
        far = [(x + 1, len(lines) - i) for i, ln in enumerate(lines) for x, ch in enumerate(ln)
               if ch == "#" and (x >= MAX_SIDE or len(lines) - 1 - i >= MAX_SIDE)]
        where_far = f" (square column {far[0][0]}, row {far[0][1]})" if far else ""
        raise SolverError(f"{where}: the footprint goes outside the {MAX_SIDE}x{MAX_SIDE} board{where_far}")
    heights = data.get("heights")
    if not isinstance(heights, dict) or not heights:
        raise SolverError(f"{where}: heights must be a table like {{ 2 = 3, 3 = 4, 4 = 5 }}")
    hs = []
    for key, h in heights.items():
        try:
            p = int(key)
        except ValueError:
            raise SolverError(f"{where}: heights key {key!r} is not a player count") from None
        if p not in PLAYER_COUNTS:
            raise SolverError(f"{where}: heights for {p} players (Blokus 3D has 2, 3 or 4)")
        if not isinstance(h, int) or isinstance(h, bool) or not 1 <= h <= MAX_HEIGHT:
            raise SolverError(f"{where}: height {h!r} for {p} players must be 1..{MAX_HEIGHT}")
        hs.append((p, h))
    title = data.get("title", name)
    desc = data.get("description", "")
    if not isinstance(title, str) or not isinstance(desc, str):
        raise SolverError(f"{where}: title and description must be text")
    return Template(name.strip(), title, desc, tuple(lines), tuple(sorted(hs)))


def _shipped() -> dict[str, Template]:
    out = {}
    for entry in sorted(resources.files("solver.blokus3d").joinpath("templates").iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            t = template_from_data(tomllib.loads(entry.read_text(encoding="utf-8")), entry.name)
            out[t.name] = t
    return out


TEMPLATES: dict[str, Template] = _shipped()


def load_template(path: str | Path) -> Template:
    """A template from a TOML (or JSON) file; SolverError if it cannot be read or is malformed."""
    text = read_text(path, "template")
    data = parse_json(text, str(path)) if Path(path).suffix.lower() == ".json" else parse_toml(text, str(path))
    t = template_from_data(data, str(path))
    return Template(t.name, t.title, t.description, t.rows, t.heights, str(path))


def template_by_name(name: str) -> Template:
    """A shipped template by name; SolverError listing the known ones."""
    try:
        return TEMPLATES[name.strip().lower()]
    except KeyError:
        raise SolverError(f"unknown template {name!r} (templates: {', '.join(TEMPLATES)}; "
                          "or --template FILE)") from None


def resolve_template(text: str) -> Template:
    """A shipped template's name, or the path of a template file (anything ending .toml/.json
    or naming an existing file)."""
    if text.lower().endswith((".toml", ".json")) or Path(text).is_file():
        return load_template(text)
    return template_by_name(text)
