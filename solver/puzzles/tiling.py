"""The exact-cover fast path for tilings (every free cell covered): tile first, then colour.

Identical shapes of all colours are merged into one exact-cover item with a multiplicity (the 48
pentominoes of ``pentomino-15x16`` are 12 shapes x 4), so the search never tries permutations of
copies.  Each complete tiling is then coloured at the leaf of the search (each shape's copies get
their colours, and with ``no-same-colour-edge`` neighbours differ); a tiling that cannot be coloured
is rejected and the search continues, so the method stays complete (exhausting it proves the puzzle
impossible).  Randomised restarts (shuffled option order, growing node budgets) avoid the heavy
tails a single depth-first search has on big boards.

Enumeration (``--all``) uses the same engine with one item per (colour, shape) and secondary items
(boundary edge, colour) for the no-edge rule, so every coloured solution is found exactly once.
"""

from __future__ import annotations

import time

import numpy as np

from solver._ext.exact_cover import ExactCover
from solver.puzzles.geometry import board_symmetries, canonical, edges, placements
from solver.puzzles.result import IMPOSSIBLE, SOLVED, UNKNOWN, Result, TooLarge
from solver.puzzles.spec import Puzzle

#: Most options (placements of a colour's shape) one exact-cover problem may have: about 200 bytes
#: each while it is built (pentomino-15x16-no-edge has 46,384).  Larger problems answer "unknown".
MAX_OPTIONS = 1_000_000


def _check_size(n_options: int) -> None:
    if n_options > MAX_OPTIONS:
        raise TooLarge(f"exact cover skipped: {n_options:,} options, more than the {MAX_OPTIONS:,} "
                       f"a problem may have")


def applicable(puzzle: Puzzle) -> bool:
    """Exact cover handles full tilings without the game rules."""
    return puzzle.full and not puzzle.game_rules


def one_colour_conflict(puzzle: Puzzle) -> bool:
    """Proof of impossibility for a one-colour full tiling without same-colour edges: two pieces that
    tile a connected region share an edge, so every region of free cells must be a single piece.

    >>> from solver.puzzles.spec import parse_puzzle
    >>> one_colour_conflict(parse_puzzle({"width": 4, "height": 2, "pieces": ["I4", "I4"], "full": True,
    ...                                   "constraints": ["no-same-colour-edge"]}))
    True
    """
    if not (puzzle.full and puzzle.no_same_colour_edge and len(puzzle.colors) == 1):
        return False
    largest = max(p.size for _, p in puzzle.pieces)
    free, seen = set(puzzle.free_cells), set()
    for start in free:
        if start in seen:
            continue
        seen.add(start)
        stack, size = [start], 0
        while stack:
            x, y = stack.pop()
            size += 1
            for nb in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if nb in free and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        if size > largest:
            return True
    return False


def _cell_index(puzzle: Puzzle) -> dict:
    return {c: i for i, c in enumerate(puzzle.free_cells)}


def build_tiling(puzzle: Puzzle):
    """The merged-shape problem: (ExactCover, option list of (shape name, cells), colour table)."""
    index = _cell_index(puzzle)
    n_cells = len(index)
    counts = puzzle.piece_counts()
    shapes = sorted({p.name for _, p in puzzle.pieces}, key=lambda n: [q.name for _, q in puzzle.pieces].index(n))
    piece_of = {p.name: p for _, p in puzzle.pieces}
    colours = list(puzzle.colors)
    need = np.zeros((len(shapes), len(colours)), dtype=np.intc)
    for (c, name), k in counts.items():
        need[shapes.index(name), colours.index(c)] = k
    options, meta, groups = [], [], []
    for g, name in enumerate(shapes):
        for cells in placements(piece_of[name], puzzle.width, puzzle.height, puzzle.blocked):
            options.append([index[c] for c in cells] + [n_cells + g])
            meta.append((name, cells))
            groups.append(g)
    mult = [1] * n_cells + [int(need[g].sum()) for g in range(len(shapes))]
    edge_items = [(index[a], index[b]) for a, b in edges(puzzle.width, puzzle.height)
                  if a in index and b in index]
    ec = ExactCover(n_cells + len(shapes), n_cells + len(shapes), options, mult, groups=groups, need=need,
                    edges=edge_items, n_cells=n_cells, no_edge=puzzle.no_same_colour_edge)
    return ec, meta, colours


def solve_tiling(puzzle: Puzzle, time_limit: float = 60.0, seed: int = 0, first_budget: int = 20000) -> Result:
    """First solution by randomised restarts of the tile-then-colour search.

    Attempt k has a node budget growing by 1.3x per attempt and gives up after ``1 + k // 4``
    tilings that cannot be coloured (neighbouring tilings of a rejected one usually fail the same
    way, so a fresh random start is better).  The budgets grow without bound, so the search is
    complete: an attempt that exhausts its tree proves the puzzle impossible.
    """
    t0 = time.perf_counter()
    ec, meta, colours = build_tiling(puzzle)
    budget = float(first_budget)
    attempt = 0
    nodes = leaves = 0
    while True:
        left = time_limit - (time.perf_counter() - t0)
        if left <= 0:
            return Result(UNKNOWN, seconds=time.perf_counter() - t0, method="exact cover (restarts)",
                          info={"attempts": attempt, "nodes": nodes, "tilings": leaves})
        r = ec.search(max_solutions=1, time_limit=left, node_limit=int(min(budget, 2.0**62)),
                      seed=(seed * 1_000_003 + attempt) & 0xFFFFFFFFFFFFFFFF, shuffle=True,
                      leaf_limit=min(1 + attempt // 4, 2**62))
        nodes += r["nodes"]
        leaves += r["leaves"]
        attempt += 1
        if r["count"]:
            sol, col = r["solutions"][0], r["colours"][0]
            placed = [(colours[c], meta[o][0], meta[o][1]) for o, c in zip(sol, col, strict=True)]
            return Result(SOLVED, placed, time.perf_counter() - t0, "exact cover: tile, then colour",
                          info={"attempts": attempt, "nodes": nodes, "tilings": leaves})
        if r["status"] == "exhausted":
            return Result(IMPOSSIBLE, seconds=time.perf_counter() - t0, method="exact cover (exhausted)",
                          info={"attempts": attempt, "nodes": nodes, "tilings": leaves})
        budget *= 1.3


def _identical_colours(puzzle: Puzzle) -> bool:
    sets = {c: sorted(q.name for cc, q in puzzle.pieces if cc == c) for c in puzzle.colors}
    return len(set(map(tuple, sets.values()))) == 1


def build_coloured(puzzle: Puzzle, symmetries=(), pin_colour: bool = False):
    """One item per (colour, shape) with its copy count; (boundary edge, colour) secondary items.

    With board ``symmetries``, one piece that has a single copy keeps only one placement per
    symmetry orbit (the one chosen is the piece left with the fewest placements): every class of
    solutions still has a member found, and fewer duplicates are searched.

    ``pin_colour`` (first solution only, colours with identical piece sets): the piece covering the
    first free cell gets the first colour, removing colour permutations (any solution can be
    recoloured that way).
    """
    first_cell = puzzle.free_cells[0]
    pin = pin_colour and len(puzzle.colors) > 1 and _identical_colours(puzzle)
    index = _cell_index(puzzle)
    n_cells = len(index)
    counts = puzzle.piece_counts()
    keys = list(dict.fromkeys((c, p.name) for c, p in puzzle.pieces))
    piece_of = {p.name: p for _, p in puzzle.pieces}
    n_primary = n_cells + len(keys)
    edge_list = [(a, b) for a, b in edges(puzzle.width, puzzle.height) if a in index and b in index]
    edge_id = {e: i for i, e in enumerate(edge_list)}
    colour_id = {c: i for i, c in enumerate(puzzle.colors)}
    options, meta = [], []
    cache = {name: placements(piece_of[name], puzzle.width, puzzle.height, puzzle.blocked)
             for name in dict.fromkeys(n for _, n in keys)}  # once per shape, not per colour
    _check_size(sum(len(cache[name]) for _, name in keys))
    restricted = None
    if len(symmetries) > 1:
        best = None
        for key in keys:
            if counts[key] == 1:
                reps = _orbit_representatives(cache[key[1]], symmetries)
                if best is None or len(reps) < len(best[1]):
                    best = (key, reps)
        restricted = best
    for k, (c, name) in enumerate(keys):
        todo = restricted[1] if restricted and restricted[0] == (c, name) else cache[name]
        for cells in todo:
            if pin and c != puzzle.colors[0] and first_cell in cells:
                continue
            items = [index[x] for x in cells] + [n_cells + k]
            if puzzle.no_same_colour_edge:
                cs = set(cells)
                for x, y in cells:
                    for nb in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                        if nb in index and nb not in cs:
                            e = edge_id[((x, y), nb) if ((x, y), nb) in edge_id else (nb, (x, y))]
                            items.append(n_primary + e * len(puzzle.colors) + colour_id[c])
            options.append(items)
            meta.append((c, name, cells))
    n_items = n_primary + (len(edge_list) * len(puzzle.colors) if puzzle.no_same_colour_edge else 0)
    mult = [1] * n_cells + [counts[k] for k in keys]
    return ExactCover(n_items, n_primary, options, mult), meta


def _orbit_representatives(cells_list, symmetries) -> list:
    """The placements that are the smallest of their orbit under the symmetries."""
    out = []
    for cells in cells_list:
        key = tuple(sorted(cells))
        if all(key <= tuple(sorted(m(c) for c in cells)) for m in symmetries):
            out.append(cells)
    return out


def enumerate_tiling(puzzle: Puzzle, limit: int = 0, time_limit: float = 60.0) -> Result:
    """All distinct solutions up to board symmetry (or the first ``limit`` distinct ones)."""
    t0 = time.perf_counter()
    syms = board_symmetries(puzzle.width, puzzle.height, puzzle.blocked)
    ec, meta = build_coloured(puzzle, syms)
    raw_limit = limit * len(syms) if limit else 0  # duplicates may remain: ask for enough
    r = ec.search(max_solutions=raw_limit, time_limit=time_limit, shuffle=False)
    seen: dict = {}
    for sol in r["solutions"]:
        placed = [meta[o] for o in sol]
        key = canonical(placed, syms)
        if key not in seen:
            seen[key] = placed
    sols = list(seen.values())
    complete = r["status"] == "exhausted"
    if limit and len(sols) > limit:
        sols, complete = sols[:limit], False
    elif limit and len(sols) == limit and r["status"] == "solution-limit":
        complete = False
    status = SOLVED if sols else (IMPOSSIBLE if complete else UNKNOWN)
    return Result(status, sols[0] if sols else [], time.perf_counter() - t0, "exact cover enumeration",
                  count=len(sols), complete=complete, solutions=sols,
                  info={"raw_solutions": r["count"], "nodes": r["nodes"], "symmetries": len(syms)})


def _restarts(ec: ExactCover, time_limit: float, seed: int, first_budget: int) -> tuple[str, list | None, dict]:
    """Randomised restarts of one exact-cover search with node budgets growing 1.3x.

    Returns ("found", options of the first solution, info), ("exhausted", None, info) when a run
    finished its whole tree without a solution, or ("timeout", None, info).
    """
    t0 = time.perf_counter()
    budget = float(first_budget)
    attempt = nodes = 0
    while True:
        left = time_limit - (time.perf_counter() - t0)
        if left <= 0:
            return "timeout", None, {"attempts": attempt, "nodes": nodes}
        r = ec.search(max_solutions=1, time_limit=left, node_limit=int(min(budget, 2.0**62)),
                      seed=(seed * 1_000_003 + attempt) & 0xFFFFFFFFFFFFFFFF, shuffle=True)
        nodes += r["nodes"]
        attempt += 1
        if r["count"]:
            return "found", r["solutions"][0], {"attempts": attempt, "nodes": nodes}
        if r["status"] == "exhausted":
            return "exhausted", None, {"attempts": attempt, "nodes": nodes}
        budget *= 1.3


def solve_coloured(puzzle: Puzzle, time_limit: float = 60.0, seed: int = 0, first_budget: int = 20000) -> Result:
    """First solution of the coloured model (colour chosen with the placement; the no-edge rule as
    secondary items) by randomised restarts with node budgets growing 1.3x (complete in the limit).

    Measured faster than tile-then-colour for the no-edge tilings, where only a few percent of the
    tilings can be coloured.
    """
    t0 = time.perf_counter()
    ec, meta = build_coloured(puzzle)
    outcome, options, info = _restarts(ec, time_limit - (time.perf_counter() - t0), seed, first_budget)
    seconds = time.perf_counter() - t0
    if outcome == "found":
        return Result(SOLVED, [meta[o] for o in options], seconds, "exact cover with colour items", info=info)
    if outcome == "exhausted":
        return Result(IMPOSSIBLE, seconds=seconds, method="exact cover (exhausted)", info=info)
    return Result(UNKNOWN, seconds=seconds, method="exact cover (restarts)", info=info)


def half_turn_ok(puzzle: Puzzle) -> bool:
    """Whether the half-turn heuristic applies: an even number of colours with the same pieces, and
    a board whose half turn maps free cells onto free cells and fixes none."""
    if len(puzzle.colors) % 2 or not _identical_colours(puzzle):
        return False
    w, h = puzzle.width - 1, puzzle.height - 1
    if {(w - x, h - y) for x, y in puzzle.blocked} != set(puzzle.blocked):
        return False
    return not (puzzle.width % 2 and puzzle.height % 2 and (w // 2, h // 2) not in puzzle.blocked)


def build_half_turn(puzzle: Puzzle):
    """Exact cover of the half-turn symmetric solutions: colour ``k + C/2`` gets the half-turn image
    of colour ``k``'s pieces.  Items: cell pairs {v, turn(v)}, the first half of the colours' pieces,
    and (board edge, colour) secondary items for the no-edge rule."""
    index = _cell_index(puzzle)
    w, h = puzzle.width - 1, puzzle.height - 1

    def turn(c):
        return (w - c[0], h - c[1])

    orbit, n_orbits = {}, 0
    for cell in puzzle.free_cells:
        if cell not in orbit:
            orbit[cell] = orbit[turn(cell)] = n_orbits
            n_orbits += 1
    half = puzzle.colors[:len(puzzle.colors) // 2]
    counts = puzzle.piece_counts()
    keys = list(dict.fromkeys((c, p.name) for c, p in puzzle.pieces if c in half))
    piece_of = {p.name: p for _, p in puzzle.pieces}
    n_primary = n_orbits + len(keys)
    edge_list = [(a, b) for a, b in edges(puzzle.width, puzzle.height) if a in index and b in index]
    edge_id = {e: i for i, e in enumerate(edge_list)}
    options, meta = [], []
    cache = {name: placements(piece_of[name], puzzle.width, puzzle.height, puzzle.blocked)
             for name in dict.fromkeys(n for _, n in keys)}  # once per shape, not per colour
    _check_size(sum(len(cache[name]) for _, name in keys))
    for k, (c, name) in enumerate(keys):
        ci = half.index(c)
        for cells in cache[name]:
            cs = set(cells)
            if any(turn(x) in cs for x in cells):
                continue
            items = [orbit[x] for x in cells] + [n_orbits + k]
            if puzzle.no_same_colour_edge:
                for x, y in cells:
                    for nb in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                        if nb in index and nb not in cs:
                            e = edge_id[((x, y), nb) if ((x, y), nb) in edge_id else (nb, (x, y))]
                            items.append(n_primary + e * len(half) + ci)
            options.append(items)
            meta.append((c, name, cells))
    n_items = n_primary + (len(edge_list) * len(half) if puzzle.no_same_colour_edge else 0)
    mult = [1] * n_orbits + [counts[k] for k in keys]
    return ExactCover(n_items, n_primary, options, mult), meta, turn


def solve_half_turn(puzzle: Puzzle, time_limit: float, seed: int = 0, first_budget: int = 5000) -> Result:
    """Restarts on the half-turn symmetric sub-problem (a heuristic: it only finds symmetric
    solutions, each a genuine solution; exhausting it proves nothing about the puzzle)."""
    t0 = time.perf_counter()
    ec, meta, turn = build_half_turn(puzzle)
    half = len(puzzle.colors) // 2
    outcome, options, info = _restarts(ec, time_limit - (time.perf_counter() - t0), seed, first_budget)
    seconds = time.perf_counter() - t0
    if outcome != "found":
        if outcome == "exhausted":
            info["exhausted"] = True
        return Result(UNKNOWN, seconds=seconds, method="half-turn exact cover", info=info)
    placed = []
    for o in options:
        c, name, cells = meta[o]
        placed.append((c, name, cells))
        placed.append((puzzle.colors[puzzle.colors.index(c) + half], name, tuple(turn(x) for x in cells)))
    return Result(SOLVED, placed, seconds, "half-turn symmetric exact cover", info=info)
