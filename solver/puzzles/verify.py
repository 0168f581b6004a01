"""Check a solution against a puzzle with plain Python, independently of the solvers.

The placements are replayed in the given order: each must be a Blokus piece (identified from its
cells) that the colour still has, on the board, off blocked cells and not overlapping anything.
Under the game rules each colour's first piece must cover a corner square and every further
piece must touch a piece of its colour at a corner and none along an edge; with the descending
order the sizes may never grow.  At the end every piece must be placed, the board covered if it
must be full, and no two pieces of one colour may share an edge when that is forbidden.

>>> from solver.puzzles.spec import parse_puzzle
>>> p = parse_puzzle({"width": 2, "height": 1, "colors": ["red"], "pieces": ["2"], "full": True})
>>> verify(p, [("red", "2", [(0, 0), (1, 0)])])
[]
>>> verify(p, [("red", "2", [(0, 0), (0, 1)])])
['placement 1 (red 2): cell (0, 1) is off the 2x1 board', '1 free cell(s) not covered, e.g. (1, 0)']
"""

from __future__ import annotations

from collections import Counter

from solver.blokus.pieces import identify
from solver.errors import SolverError
from solver.puzzles.spec import Puzzle


def _n4(x: int, y: int):
    return ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))


def _diag(x: int, y: int):
    return ((x + 1, y + 1), (x - 1, y + 1), (x + 1, y - 1), (x - 1, y - 1))


def verify(puzzle: Puzzle, placements) -> list[str]:
    """All problems found (empty list: the solution is correct).  Placements are (colour, piece, cells)."""
    errors: list[str] = []
    owner: dict = {}                 # cell -> (index, colour)
    left = puzzle.piece_counts()
    placed_of_colour: Counter = Counter()
    corners = set(puzzle.corners)
    last_size = None
    for i, (colour, name, cells) in enumerate(placements, 1):
        cells = [tuple(c) for c in cells]
        label = f"placement {i} ({colour} {name})"
        if len(set(cells)) != len(cells):
            errors.append(f"{label}: a cell is listed twice")
            continue
        try:
            piece = identify(cells)
        except SolverError:
            errors.append(f"{label}: cells {sorted(cells)} do not form a Blokus piece")
            continue
        if piece.name != name:
            errors.append(f"{label}: the cells form {piece.name}, not {name}")
        if colour not in puzzle.colors:
            errors.append(f"{label}: the puzzle has no colour {colour}")
        elif left[(colour, piece.name)] <= 0:
            errors.append(f"{label}: {colour} has no (more) {piece.name} pieces")
        left[(colour, piece.name)] -= 1
        bad = False
        for x, y in cells:
            if not (0 <= x < puzzle.width and 0 <= y < puzzle.height):
                errors.append(f"{label}: cell ({x}, {y}) is off the {puzzle.width}x{puzzle.height} board")
                bad = True
            elif (x, y) in puzzle.blocked:
                errors.append(f"{label}: cell ({x}, {y}) is blocked")
                bad = True
            elif (x, y) in owner:
                errors.append(f"{label}: cell ({x}, {y}) overlaps placement {owner[(x, y)][0]}")
                bad = True
        if puzzle.descending and last_size is not None and piece.size > last_size:
            errors.append(f"{label}: size {piece.size} placed after a piece of size {last_size} "
                          f"(descending order)")
        last_size = piece.size if last_size is None else min(last_size, piece.size)
        if puzzle.game_rules and not bad:
            cs = set(cells)
            if placed_of_colour[colour] == 0:
                if not cs & corners:
                    errors.append(f"{label}: the first {colour} piece covers no corner square")
            else:
                if not any(owner.get(d, (0, None))[1] == colour for x, y in cells for d in _diag(x, y)):
                    errors.append(f"{label}: touches no earlier {colour} piece at a corner (not a legal move)")
        if puzzle.no_same_colour_edge and not bad:
            for x, y in cells:
                for nb in _n4(x, y):
                    if nb in owner and owner[nb][1] == colour:
                        errors.append(f"{label}: touches placement {owner[nb][0]} of its colour {colour} "
                                      f"along an edge at {(x, y)}-{nb}")
                        break
                else:
                    continue
                break
        placed_of_colour[colour] += 1
        for c in cells:
            owner.setdefault(c, (i, colour))
    for (colour, name), k in sorted(left.items()):
        if k > 0:
            errors.append(f"missing piece: {colour} {name}" + (f" ({k} copies)" if k > 1 else ""))
    if puzzle.full:
        empty = [c for c in puzzle.free_cells if c not in owner]
        if empty:
            errors.append(f"{len(empty)} free cell(s) not covered, e.g. {empty[0]}")
    return errors


def legal_order(puzzle: Puzzle, placements) -> list:
    """Reorder placements so that each is a legal move (largest first when descending-order applies).

    Greedy: repeatedly take the first remaining piece (of the largest remaining size, if descending)
    that covers a corner as its colour's first piece or touches its colour at a corner.  Legality only
    grows as pieces are added, so this finds an order whenever one exists; otherwise the leftovers are
    appended and the verifier reports them.
    """
    if not puzzle.game_rules:
        return list(placements)
    rest = [(c, n, [tuple(x) for x in cells]) for c, n, cells in placements]
    corners = set(puzzle.corners)
    colour_cells: dict = {c: set() for c in puzzle.colors}
    out = []
    while rest:
        cand = rest
        if puzzle.descending:
            top = max(len(cells) for _, _, cells in rest)
            cand = [p for p in rest if len(p[2]) == top]
        for p in cand:
            c, _, cells = p
            have = colour_cells.setdefault(c, set())
            ok = (set(cells) & corners) if not have else any(d in have for x, y in cells for d in _diag(x, y))
            if ok:
                out.append(p)
                rest.remove(p)
                have.update(cells)
                break
        else:
            out.extend(rest)
            break
    return out
