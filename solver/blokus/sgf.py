"""Pentobi's SGF game records (``.blksgf``): read them into a :class:`Game` and write them back.

A record is SGF FF[4] with ``GM[Blokus]`` (also ``Blokus Two-Player``, ``Blokus Three-Player``,
``Blokus Duo``, ``Blokus Trigon``, ``Blokus Trigon Two-Player``, ``Blokus Trigon Three-Player``);
a move is a property named after its colour (``1``-``4``, or ``B`` and ``W`` for Duo) whose
value lists the covered cells, ``a20,b20,b19`` (columns a... from the left, rows 1... from the
bottom; Trigon's hexagon is mapped onto such a frame, see :mod:`solver.blokus.geometry`).  Only
the main line (first child at every node) is read; setup pieces (``AB``, ``AW``, ``A1``-``A4``)
and ``PL`` are read in the root node.  Variants that Pentobi does not have (``teams``,
``giant``, the ``any-corner`` first move, the ``corners-only`` touching rule) are written as
Pentobi's nearest game plus the private root properties ``XV`` (variant), ``XF`` (first-move
rule) and ``XT`` (touching rule), which Pentobi ignores.

>>> g = read_game("(;FF[4]GM[Blokus Duo];B[e10,e9,f9];W[j5])")
>>> g.variant.name, len(g.moves), g.colour_name(g.to_play)
('duo', 2, 'purple')
>>> write_game(g).splitlines()[1]
';B[e9,f9,e10]'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from solver import __version__
from solver.blokus.game import Game
from solver.blokus.variants import VARIANTS, Variant, variant_by_name
from solver.errors import SolverError
from solver.inputs import one_line, read_bytes

Node = dict[str, list[str]]

#: SGF game type (GM, case-insensitive) -> our variant; XV names variants sharing a GM (teams, giant)
_GAME_TYPES = {v.sgf_game.lower(): name for name, v in VARIANTS.items()
               if name in ("classic", "classic-2", "classic-3", "duo", "trigon", "trigon-2", "trigon-3")}
_SETUP = {"AB", "AW", "AE", "A1", "A2", "A3", "A4"}

#: a property name: SGF's upper-case letters, Pentobi's colour moves 1-4 and setups A1-A4
_PROPERTY = re.compile(r"[A-Z]+[1-4]?|[1-4]")
#: a move value: cell names (lower-case column letters, a row number without leading zeros)
#: separated by single commas, nothing else (whitespace around the whole value is ignored)
_MOVE = re.compile(r"[a-z]{1,3}[1-9][0-9]{0,2}(,[a-z]{1,3}[1-9][0-9]{0,2})*")
#: records larger than this are refused before parsing (a Blokus game is a few kB; Pentobi's
#: opening books are at most 23 kB)
MAX_FILE_BYTES = 4 * 1024 * 1024
#: nodes in one game's main line: every colour's pieces and passes fit many times over
MAX_NODES = 2000


class _Parser:
    """A small SGF parser: a collection of game trees, each reduced to its main line."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def error(self, what: str) -> SolverError:
        line = self.text.count("\n", 0, self.i) + 1
        return SolverError(f"malformed SGF at line {line}: {what}")

    def skip_ws(self) -> None:
        while self.i < len(self.text) and self.text[self.i].isspace():
            self.i += 1

    def peek(self) -> str:
        self.skip_ws()
        return self.text[self.i] if self.i < len(self.text) else ""

    def collection(self) -> list[list[Node]]:
        trees = []
        while self.peek() == "(":
            trees.append(self.tree())
        if self.peek():
            raise self.error(f"unexpected {self.peek()!r}")
        if not trees:
            raise self.error("no game tree (a record starts with '(;')")
        return trees

    def tree(self) -> list[Node]:
        if self.peek() != "(":
            raise self.error("expected '('")
        self.i += 1
        nodes: list[Node] = []
        while self.peek() == ";":
            self.i += 1
            nodes.append(self.node())
            if len(nodes) > MAX_NODES:
                raise self.error(f"more than {MAX_NODES} nodes in one game")
        if not nodes:
            raise self.error("a game tree needs at least one node ';'")
        first_child: list[Node] | None = None
        while self.peek() == "(":
            child = self.tree()
            if first_child is None:
                first_child = child
        if self.peek() != ")":
            raise self.error("expected ')'" if self.peek() else "unexpected end of file (missing ')')")
        self.i += 1
        return nodes + (first_child or [])

    def node(self) -> Node:
        props: Node = {}
        while True:
            self.skip_ws()
            start = self.i
            while self.i < len(self.text) and (self.text[self.i].isalnum()):
                self.i += 1
            ident = self.text[start:self.i]
            if not ident:
                return props
            if not _PROPERTY.fullmatch(ident):
                raise self.error(f"malformed property name {one_line(ident)!r}")
            if ident in props:
                raise self.error(f"property {ident} twice in one node")
            values = []
            while self.peek() == "[":
                values.append(self.value())
            if not values:
                raise self.error(f"property {ident} without a value")
            props[ident] = values

    def value(self) -> str:
        self.i += 1
        out = []
        while self.i < len(self.text):
            ch = self.text[self.i]
            if ch == "\\":
                self.i += 1
                if self.i < len(self.text):
                    out.append(self.text[self.i])
            elif ch == "]":
                self.i += 1
                return "".join(out)
            else:
                out.append(ch)
            self.i += 1
        raise self.error("unterminated property value (missing ']')")


def parse(text: str) -> list[list[Node]]:
    """The main line (list of nodes) of every game tree in an SGF text."""
    try:
        return _Parser(text).collection()
    except RecursionError:
        raise SolverError("malformed SGF: variations nested too deeply") from None


def variant_of(root: Node) -> Variant:
    """The variant a record's root node describes (GM, plus our XV / XF extensions)."""
    if "GM" not in root:
        raise SolverError("not a Blokus record: the root node has no GM property")
    gm = root["GM"][0].strip()
    name = _GAME_TYPES.get(gm.lower())
    if name is None:
        known = ", ".join(VARIANTS[n].sgf_game for n in _GAME_TYPES.values())
        raise SolverError(f"unsupported game type GM[{one_line(gm)}] (supported: {known})")
    if "XV" in root:
        own = root["XV"][0].strip().lower()
        if own not in VARIANTS or VARIANTS[own].sgf_game.lower() != gm.lower():
            raise SolverError(f"variant XV[{one_line(own)}] does not fit GM[{one_line(gm)}]")
        name = own
    rule = root.get("XF", ["start-cell"])[0].strip().lower()
    touch = root.get("XT", ["standard"])[0].strip().lower()
    return variant_by_name(name, rule, touch)   # (its messages show the names with repr)


def _colour_props(variant: Variant) -> dict[str, int]:
    """SGF property -> colour index (B/W in two-colour games, 1-4 with four colours)."""
    return {p: k for k, p in enumerate(variant.sgf_colour_props)}


def _apply_setup(game: Game, root: Node, colours: dict[str, int]) -> None:
    """Setup pieces (``AB``, ``AW``, ``A1``-``A4``) and ``PL`` of the root node."""
    if "AE" in root:
        raise SolverError("setup property AE (removing pieces) is not supported")
    for prop in sorted(_SETUP.intersection(root) - {"AE"}):
        colour_prop = prop[1:]
        if colour_prop not in colours:
            raise SolverError(f"setup property {prop} does not exist in {game.variant.name}")
        k = colours[colour_prop]
        for text in root[prop]:
            try:
                game.add_setup(game.move_from_cells(text, k))
            except SolverError as exc:
                raise SolverError(f"setup {prop}[{one_line(text)}]: {exc}") from None
    if "PL" in root:
        pl = root["PL"][0].strip()
        if pl not in colours:
            raise SolverError(f"PL[{one_line(pl)}] is not a colour of {game.variant.name}")
        game.set_to_play(colours[pl])


def game_from_nodes(nodes: Sequence[Node]) -> Game:
    """Replay a main line; SolverError naming the move and the reason for a bad one."""
    game = Game(variant_of(nodes[0]))
    colours = _colour_props(game.variant)
    _apply_setup(game, nodes[0], colours)
    number = 0
    for i, node in enumerate(nodes):
        setup = _SETUP.intersection(node)
        if setup and i > 0:
            raise SolverError(f"setup property {sorted(setup)[0]} outside the root node is not supported")
        found = [p for p in node if p in colours or p in ("B", "W") or (p.isdigit() and len(p) == 1)]
        if len(found) > 1:
            raise SolverError(f"move {number + 1}: more than one move in a node ({', '.join(found)})")
        if not found:
            continue
        prop = found[0]
        number += 1
        if prop not in colours:
            raise SolverError(f"move {number}: colour property {prop} does not exist in {game.variant.name}")
        k = colours[prop]
        text = node[prop][0].strip()
        where = f"move {number} ({prop}[{one_line(text)}])"
        due = game.to_play
        if not text:  # an explicit pass: only for a colour without a legal move
            if game.position.has_move(k):
                raise SolverError(f"{where}: {game.colour_name(k)} passes but has a legal move")
            continue
        if due is not None and k != due:
            raise SolverError(f"{where}: {game.colour_name(k)} moves out of turn "
                              f"({game.colour_name(due)} is to play)")
        if not _MOVE.fullmatch(text):
            raise SolverError(f"{where}: malformed move (cells like a20,b20: lower-case column letters "
                              "and a row number, separated by single commas)")
        try:
            move = game.move_from_cells(text, k)
            game.play(move)
        except SolverError as exc:
            raise SolverError(f"{where}: {exc}") from None
    return game


def read_games(text: str) -> list[Game]:
    """Every game of an SGF collection."""
    return [game_from_nodes(nodes) for nodes in parse(text)]


def read_game(text: str) -> Game:
    """The first game of an SGF text."""
    return game_from_nodes(parse(text)[0])


def _file_text(path: str) -> str:
    data = read_bytes(path, "SGF file", limit=MAX_FILE_BYTES)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_file(path: str) -> Game:
    """The first game of an SGF file; SolverError if unreadable, larger than 4 MB or not a valid
    record.  UTF-8 (a byte-order mark is ignored), else SGF's default ISO-8859-1, which Pentobi
    also reads."""
    return read_game(_file_text(path))


def read_file_games(path: str) -> list[Game]:
    """Every game of an SGF collection file (as :func:`read_file`), errors naming the game."""
    return [game for game, _ in read_file_games_and_roots(path)]


def read_file_games_and_roots(path: str) -> list[tuple[Game, Node]]:
    """Every game of an SGF collection file with its root node (whose properties, such as the
    ``GC`` comment, say more about the game), errors naming the game."""
    out = []
    for i, nodes in enumerate(parse(_file_text(path)), 1):
        try:
            out.append((game_from_nodes(nodes), nodes[0]))
        except SolverError as exc:
            raise SolverError(f"{path}, game {i}: {exc}") from None
    return out


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def write_game(game: Game, comment: str = "", name: str = "") -> str:
    """One game as Pentobi-compatible SGF text (one move per line)."""
    v = game.variant
    root = f"(;FF[4]CA[UTF-8]AP[solver:{__version__}]GM[{v.sgf_game}]"
    if _GAME_TYPES.get(v.sgf_game.lower()) != v.name:
        root += f"XV[{v.name}]"
    if v.first_move != "start-cell":
        root += f"XF[{v.first_move}]"
    if v.touch != "standard":
        root += f"XT[{v.touch}]"
    if name:
        root += f"GN[{_escape(name)}]"
    if comment:
        root += f"GC[{_escape(comment)}]"
    for k, prop in enumerate(v.sgf_colour_props):
        pieces = [game.move_text(m) for m in game.setup if m.colour == k]
        if pieces:
            root += f"A{prop}" + "".join(f"[{t}]" for t in pieces)
    if game.setup:
        root += f"PL[{v.sgf_colour_props[game.setup_to_play]}]"
    lines = [root]
    for m in game.moves:
        lines.append(f";{v.sgf_colour_props[m.colour]}[{game.move_text(m)}]")
    return "\n".join(lines) + ")\n"


def write_games(games: Sequence[tuple[Game, str, str]]) -> str:
    """An SGF collection of (game, name, comment) triples."""
    return "".join(write_game(g, comment=c, name=n) for g, n, c in games)
