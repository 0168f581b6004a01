"""An opening book of our own: the first moves of a game, searched long once, offline.

Early moves decide much of a Blokus game, and a search given a few milliseconds per move plays
them poorly (against Pentobi level 5 in Duo, a third of a second for each of the first three
moves lifts the score by about a tenth).  The book holds the move a long ``mcts`` search chose
in each position of the opening it covers, so the player answers those at once and keeps its
time for later.  The entries are made by :func:`build` (``python -m solver.blokus.book``) from
our own search; where matches showed a search's choice to be a poor one, an entry can be set by
hand from the match results (:func:`choose`, ``--choose``): those entries are listed in the
book's ``about`` block under ``matched`` and a rebuild keeps them.

A position is known by the colour to play and the set of placements on the board, in any order
(so transpositions share an entry), seen from the side of the board that gives the smallest key
(Duo's board looks the same mirrored in the diagonal through both start cells, so mirrored
positions share an entry too: ``Variant.symmetries``); moves are written as cell lists, the
record's notation, in that same view.

>>> book = OpeningBook.for_variant("duo")
>>> book is not None and len(book) > 100
True
>>> from solver.blokus.game import Game
>>> book.lookup(Game("duo")) is not None
True
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from functools import cache
from pathlib import Path

from solver.blokus.game import Game, Move
from solver.blokus.geometry import Cell
from solver.blokus.variants import variant_by_name
from solver.errors import SolverError

BOOK_DIR = Path(__file__).parent


def book_path(variant: str) -> Path:
    """Where the book of ``variant`` ships (it may not exist)."""
    return BOOK_DIR / f"book_{variant}.json"


def position_key(game: Game, view: dict[Cell, Cell] | None = None) -> str:
    """The colour to play and the placements on the board, sorted: ``b|b:e10,e9,...|w:...``;
    with ``view`` (a symmetry of the board) the placements' cells as it maps them."""
    k = game.to_play
    props = game.variant.sgf_colour_props
    name = game.cell_name if view is None else (lambda c: game.cell_name(view[c]))
    placed = sorted(f"{props[m.colour].lower()}:{','.join(sorted(name(c) for c in m.cells))}"
                    for m in game.setup + game.moves)
    return "|".join([props[k].lower() if k is not None else "-"] + placed)


def book_key(game: Game) -> tuple[str, dict[Cell, Cell]]:
    """The key a book files the position under -- the smallest :func:`position_key` over the
    variant's symmetries -- and the symmetry that gives it (a book move is written in its view).

    >>> a, b = Game("duo"), Game("duo")
    >>> _ = a.play("e10,e11,e12,f12,g12")
    >>> _ = b.play("e10,d10,c10,c9,c8")   # the same move mirrored in the diagonal
    >>> book_key(a)[0] == book_key(b)[0]
    True
    """
    return min(((position_key(game, view), view) for view in game.variant.symmetries), key=lambda kv: kv[0])


def map_cells(game: Game, text: str, view: dict[Cell, Cell]) -> str:
    """A move's cell list ``text`` as ``view`` maps its cells (its names, comma-separated)."""
    return ",".join(game.cell_name(view[game.variant.geometry.parse_cell(c)]) for c in text.split(","))


def game_from_key(variant: str, key: str) -> Game:
    """The position a :func:`position_key` names, rebuilt from its text alone (the placements
    as setup, in the key's order)."""
    to_play, *placed = key.split("|")
    game = Game(variant)
    props = [p.lower() for p in game.variant.sgf_colour_props]
    for item in placed:
        colour, cells = item.split(":")
        game.add_setup(game.move_from_cells(cells, props.index(colour)))
    game.set_to_play(props.index(to_play))
    return game


def canonical_entries(variant: str, entries: dict[str, str]) -> dict[str, str]:
    """``entries`` filed under their :func:`book_key` (a book written before the keys took the
    board's symmetries), each move in that key's view; of two entries for mirrored positions
    the one already in its key's view is kept."""
    out: dict[str, tuple[bool, str]] = {}
    for key, text in sorted(entries.items()):
        game = game_from_key(variant, key)
        canon, view = book_key(game)
        own = canon == key
        if canon not in out or (own and not out[canon][0]):
            out[canon] = (own, map_cells(game, text, view))
    return {key: text for key, (_, text) in out.items()}


def invert(view: dict[Cell, Cell]) -> dict[Cell, Cell]:
    """The symmetry that undoes ``view``."""
    return {b: a for a, b in view.items()}


def choose(book: OpeningBook, line: list[str], move: str) -> OpeningBook:
    """A copy of ``book`` that plays ``move`` after the moves ``line`` (cell lists from the
    start; the colour to play there plays ``move``), listed under ``matched`` in its about block
    so that :func:`build` keeps it: for entries chosen by match results, not by a search.
    SolverError for an illegal line or move.

    >>> book = choose(OpeningBook("duo", {}), ["e10,e9,f8,f9,g9"], "j5,i6,j6,h7,i7")
    >>> g = Game("duo"); _ = g.play("e9,e10,f8,g9,f9")
    >>> g.move_text(book.lookup(g)), book.about["matched"] == book.entries
    ('j5,i6,j6,h7,i7', True)
    """
    game = Game(book.variant)
    for number, text in enumerate(line, 1):
        try:
            game.play(text)
        except SolverError as exc:
            raise SolverError(f"move {number} of the line ({text}): {exc}") from None
    try:
        chosen = game.move_from_cells(move, game.to_play)
        if not game.is_legal(chosen):
            raise SolverError(game.why_illegal(chosen))
    except SolverError as exc:
        raise SolverError(f"the chosen move {move}: {exc}") from None
    key, view = book_key(game)
    text = map_cells(game, game.move_text(chosen), view)
    matched = {**book.about.get("matched", {}), key: text}
    return OpeningBook(book.variant, {**book.entries, key: text}, {**book.about, "matched": matched})


class OpeningBook:
    """Book moves by position key for one variant."""

    def __init__(self, variant: str, entries: dict[str, str], about: dict | None = None) -> None:
        self.variant = variant
        self.entries = entries
        self.about = about or {}
        #: most placements in any entry: deeper positions are not looked up at all
        self.depth = max((key.count("|") for key in entries), default=0)

    def __len__(self) -> int:
        return len(self.entries)

    @classmethod
    def load(cls, path: str | Path) -> OpeningBook:
        """Read a book file (SolverError if it is not one)."""
        try:
            data = json.loads(Path(path).read_text())
            return cls(str(data["variant"]), {str(k): str(v) for k, v in data["positions"].items()},
                       dict(data.get("about", {})))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise SolverError(f"cannot read opening book {path}: {exc}") from None

    @classmethod
    def for_variant(cls, variant: str) -> OpeningBook | None:
        """The book shipped for ``variant``, or None if there is none (read once per process)."""
        return _shipped(variant)

    def lookup(self, game: Game) -> Move | None:
        """The book move for the colour to play in ``game``, or None if the position is not in
        the book (or the entry is not a legal move here)."""
        if game.to_play is None or game.variant.name != self.variant \
                or len(game.setup) + len(game.moves) > self.depth:
            return None
        key, view = book_key(game)
        text = self.entries.get(key)
        if text is None:
            return None
        try:
            move = game.move_from_cells(map_cells(game, text, invert(view)), game.to_play)
        except SolverError:
            return None
        return move if game.is_legal(move) else None

    def save(self, path: str | Path) -> None:
        """Write the book atomically (a temporary file renamed over ``path``)."""
        path = Path(path)
        data = {"variant": self.variant, "about": self.about,
                "positions": dict(sorted(self.entries.items()))}
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        try:
            with os.fdopen(fd, "w") as out:
                json.dump(data, out, indent=0, sort_keys=False)
                out.write("\n")
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise


@cache
def _shipped(variant: str) -> OpeningBook | None:
    path = book_path(variant)
    return OpeningBook.load(path) if path.exists() else None


def largest_piece_moves(variant: str, moves: list[Move | str]) -> list[Game]:
    """The positions after ``moves`` and then each legal move of a largest piece by the colour
    to play (the openings a book covers: strong players open with big pieces)."""
    before = Game(variant)
    for m in moves:
        before.play(m)
    largest = max(p.size for p in before.pieces.pieces)
    out = []
    for m in before.legal_moves():
        if len(m.cells) == largest:
            g = Game(variant)
            for earlier in moves:
                g.play(earlier)
            g.play(m)
            out.append(g)
    return out


def _check_two_colours(variant: str) -> None:
    if variant_by_name(variant).n_colours != 2:
        raise SolverError(f"opening books are built for two-colour variants (duo), not {variant}")


def opening_positions(variant: str, first: Move | None = None) -> list[Game]:
    """The positions a book of ``variant`` covers (two-player variants with one colour each):
    the empty board; the second colour's reply to every first move of a largest piece; and the
    first colour's second move after ``first`` (its book move) and every such reply."""
    _check_two_colours(variant)
    out = [Game(variant)] + largest_piece_moves(variant, [])
    if first is not None:
        out += largest_piece_moves(variant, [first])
    return out


def _book_move(task: tuple[str, list[str], str, int]) -> tuple[str, list[str]]:
    """One book entry: the move the mcts strategy ``spec`` (its simulations included) plays after
    ``moves`` (texts), and the root's moves by visits -- a task of :func:`build`, top level so
    that worker processes can run it."""
    from solver.blokus.players import MctsPlayer

    variant, moves, spec, seed = task
    game = Game(variant)
    for text in moves:
        game.play(text)
    player = MctsPlayer(game.variant, spec, seed=seed, reuse=False, book=False)
    move, cands, _ = player.genmove(game)
    return game.move_text(move), [game.move_text(c.move) for c in cands]


def deep_spec(spec: str) -> str:
    """``spec`` checked as a book's deep search: an mcts strategy with a simulation budget
    (SolverError otherwise).

    >>> deep_spec("mcts:200000:explore=0.3")
    'mcts:200000:explore=0.3'
    """
    from solver.blokus.players import parse_strategy

    s = parse_strategy(spec)
    if s.name != "mcts" or s.playouts < 1 or s.seconds:
        raise SolverError(f"a deep book search is an mcts strategy with simulations, not {spec!r}")
    return spec


def second_replies(variant: str, first: str, reply: str) -> list[Game]:
    """The second colour's second move: after ``first``, its book ``reply`` and every second
    move of a largest piece by the first colour."""
    return largest_piece_moves(variant, [first, reply])


def build(variant: str, playouts: int, seed: int = 1, workers: int = 1, limit: int | None = None,
          second_lines: int = 0, base: OpeningBook | None = None, log=None,
          deep: str | None = None, deep_plies: int = 2,
          matched: dict[str, str] | None = None) -> OpeningBook:
    """Search every position of :func:`opening_positions` (the first ``limit`` of them if
    given) with ``playouts`` mcts simulations, in ``workers`` processes; with ``second_lines``
    also the second colour's second move (:func:`second_replies`) after that many of the first
    moves the search liked best (a mirror image of one before it adds nothing).  With ``deep``
    (an mcts strategy with its simulations, :func:`deep_spec`) the positions every game meets --
    the first move and the reply to each first move (the first ``deep_plies`` moves; 3 takes in
    the first colour's second move on the book's lines too) -- are searched with it instead:
    there one short search locks onto one of several near-equal moves, a different one for each
    seed.
    A position whose mirror image (``book_key``) is in the book already is not searched again.
    Every position has its own seed (by its place in that order), so the same arguments give
    the same book whatever ``workers``.  Entries of ``base`` (a book built with the same
    playouts and seed) are taken over instead of searched again where they were searched as
    they would be now: with the same ``deep`` and ``deep_plies`` all of them stay -- extending a
    book keeps its first move, whatever the search now likes best (the ranking of the first
    moves, which picks the lines, is the search's), and adds lines without dropping any; with
    only ``deep_plies`` changed, the moves that now take the other search are searched anew;
    with another ``deep`` the first move and replies are searched anew, and only the base's
    entries for positions the new lines still meet are kept.  ``matched`` (entries chosen by
    match results, :func:`choose`; the base's own unless given) replace what the search chose
    and are listed in the new book's about block again."""
    from concurrent.futures import ProcessPoolExecutor

    _check_two_colours(variant)
    if playouts < 1 or workers < 1 or second_lines < 0 or deep_plies < 1:
        raise SolverError("playouts, workers and deep plies must be at least 1, second lines at least 0")
    about = {"playouts": playouts, "seed": seed, "strategy": "mcts", "second_lines": second_lines}
    if deep is not None:
        about["deep"] = deep_spec(deep)
        if deep_plies != 2:     # books from before the option searched 2 plies deep
            about["deep_plies"] = deep_plies
    if base is not None and (base.variant != variant or base.about.get("playouts") != playouts
                             or base.about.get("seed") != seed):
        raise SolverError("the book to extend was built with other arguments")
    known = canonical_entries(variant, base.entries) if base is not None else {}
    plain = f"mcts:{playouts}"

    def spec(placed: int, deep_search: str | None, plies: int) -> str:
        """The search a position with ``placed`` pieces on the board gets in a build with
        ``deep_search`` for its first ``plies`` moves."""
        return deep_search if deep_search is not None and placed < plies else plain

    def reusable(placed: int) -> bool:
        """Whether the base searched a position with ``placed`` pieces as this build would."""
        return base is not None and (spec(placed, base.about.get("deep"), base.about.get("deep_plies", 2))
                                     == spec(placed, deep, deep_plies))

    entries: dict[str, str] = {}
    start = Game(variant)
    first_text, ranked = _book_move((variant, [], spec(0, deep, deep_plies), seed))
    key, view = book_key(start)
    if key in known and reusable(0):    # extending a book keeps its first move (and its lines)
        entries[key] = known[key]
        first = OpeningBook(variant, {key: known[key]}).lookup(start)
    else:
        entries[key] = map_cells(start, first_text, view)
        first = start.move_from_cells(first_text, start.to_play)

    def search(positions: list[Game], offset: int, pool) -> None:
        keys, tasks = [], []
        for i, g in enumerate(positions):
            key, view = book_key(g)
            if key in entries:      # a mirror image of a position searched already
                continue
            placed = len(g.moves)
            if key in known and reusable(placed):
                entries[key] = known[key]
            else:
                entries[key] = ""   # taken: its mirror image later in the list is skipped
                keys.append((offset + i, key, g, view))
                tasks.append((variant, [g.move_text(m) for m in g.moves], spec(placed, deep, deep_plies),
                              seed * 1_000_003 + offset + i))
        for (index, key, g, view), (text, _) in zip(keys, pool.map(_book_move, tasks, chunksize=4), strict=True):
            entries[key] = map_cells(g, text, view)
            if log:
                log(f"{index + 1} {key} -> {entries[key]}")

    with ProcessPoolExecutor(max_workers=workers) as pool:
        positions = opening_positions(variant, first)[1:limit]
        search(positions, 1, pool)
        offset = 1 + len(positions)
        lines: set[str] = set()
        for b in ranked[:second_lines]:
            after = Game(variant)
            after.play(b)
            reply = OpeningBook(variant, entries).lookup(after)
            if reply is None:      # outside ``limit``
                continue
            after.play(reply)
            line = book_key(after)[0]
            if line in lines:      # the mirror image of a line searched already
                continue
            lines.add(line)
            replies = second_replies(variant, b, after.move_text(reply))
            search(replies, offset, pool)
            offset += len(replies)
    if reusable(0) and reusable(1):     # the same lines: what the base holds beyond them stays
        for key, text in known.items():
            if reusable(key.count("|")):
                entries.setdefault(key, text)
    if matched is None and base is not None:
        matched = base.about.get("matched")
    if matched:
        entries.update(matched)
        about["matched"] = dict(matched)
    return OpeningBook(variant, entries, about)


USAGE = ("usage: python -m solver.blokus.book VARIANT PLAYOUTS [SEED [WORKERS [SECOND_LINES]]] "
         "[--deep SPEC [--deep-plies N]] | VARIANT --choose 'MOVE;MOVE;...' MOVE")


def main(argv: list[str]) -> int:
    """``python -m solver.blokus.book VARIANT PLAYOUTS [SEED [WORKERS [SECOND_LINES]]] [--deep
    SPEC [--deep-plies N]]``: build the shipped book of VARIANT, taking over the entries of the
    one there if it was built with the same playouts and seed (with another ``--deep``, only
    those its new lines still meet); ``--deep`` searches the first move and the replies (the
    first N moves, 2 unless told) with the mcts strategy SPEC (a developer tool: interrupted,
    it writes nothing).  ``VARIANT --choose 'MOVE;MOVE;...' MOVE`` sets the shipped book's move
    after that line (moves separated by semicolons, each a cell list; an empty line is the start)
    to MOVE, as :func:`choose`; a rebuild keeps it."""
    argv = list(argv)
    if "--choose" in argv:
        i = argv.index("--choose")
        rest = argv[:i] + argv[i + 3:]
        if len(rest) != 1 or len(argv) < i + 3:
            print(USAGE, file=sys.stderr)
            return 2
        line = [m.strip() for m in argv[i + 1].split(";") if m.strip()]
        try:
            book = OpeningBook.for_variant(rest[0])
            if book is None:
                raise SolverError(f"there is no {rest[0]} book to change")
            book = choose(book, line, argv[i + 2].strip())
        except SolverError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        book.save(book_path(rest[0]))
        print(f"{len(book.about['matched'])} entries chosen by matches in {book_path(rest[0])}")
        return 0
    options: dict[str, str] = {}
    for name, example in (("--deep", "an mcts strategy, e.g. --deep mcts:200000:explore=0.3"),
                          ("--deep-plies", "a whole number, e.g. --deep-plies 3")):
        if name in argv:
            i = argv.index(name)
            if i + 1 >= len(argv):
                print(f"error: {name} needs {example}", file=sys.stderr)
                return 2
            options[name] = argv[i + 1]
            del argv[i:i + 2]
    deep = options.get("--deep")
    plies = options.get("--deep-plies", "2")
    if not plies.isdigit() or (deep is None and "--deep-plies" in options):
        print("error: --deep-plies is a whole number and goes with --deep", file=sys.stderr)
        return 2
    if not 2 <= len(argv) <= 5:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        if not all(a.isdigit() for a in argv[1:]):
            raise ValueError("PLAYOUTS, SEED, WORKERS and SECOND_LINES are whole numbers")
        numbers = [int(a) for a in argv[1:]] + [1, 1, 0][len(argv) - 2:]
        playouts, seed, workers, lines = numbers[:4]
        old = OpeningBook.for_variant(argv[0])
        if old is not None and (old.about.get("playouts"), old.about.get("seed")) != (playouts, seed):
            old = None
        shipped = OpeningBook.for_variant(argv[0])
        book = build(argv[0], playouts, seed, workers, second_lines=lines, base=old, deep=deep,
                     deep_plies=int(plies), log=lambda s: print(s, file=sys.stderr, flush=True),
                     matched=shipped.about.get("matched") if shipped is not None else None)
    except (SolverError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: the book was not changed", file=sys.stderr)
        return 130
    book.save(book_path(argv[0]))
    print(f"{len(book)} positions written to {book_path(argv[0])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
