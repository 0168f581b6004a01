"""The game-rules puzzles (all-84, all-84-descending and user variants): fast heuristic packers,
then the complete CP-SAT model.

Phase 1a, when the board is square and the four colours have the same pieces: the packer below
restricted to 4-fold rotationally symmetric solutions (colour k's pieces are the k-th quarter turn of
colour 0's), which makes the search 4 times shallower.  It solves both all-84 puzzles in well under
a second, but it is a heuristic that looks at symmetric solutions only; it can be switched off
(``--no-symmetric-first``), and when it finds nothing the unrestricted phases below run.

Phase 1b (:class:`solver._ext.exact_cover.RulePacker`, Cython): depth-first placement of legal
moves, largest pieces first, colour ``i`` starting in corner ``i``, the colour with the fewest moves
first, the best-scoring moves first (sides touching walls/pieces, cells wasted for every colour,
new corners), at most two moves per step, restarted with new seeds and growing node budgets.  It is
incomplete (it only looks at part of the solution space), but anything it finds is a legal
descending sequence and so solves both ``all-84`` variants.

Phase 2 (:mod:`solver.puzzles.cpsat`): the full model with the rest of the time; it is complete
and can prove a puzzle impossible.
"""

from __future__ import annotations

import time

from solver._ext.exact_cover import RulePacker
from solver.puzzles.geometry import placements
from solver.puzzles.result import SOLVED, UNKNOWN, Result
from solver.puzzles.spec import Puzzle

#: share of the time limit given to the heuristic packer before CP-SAT takes over
PACKER_SHARE = 0.3


def symmetric_ok(puzzle: Puzzle) -> bool:
    """Whether the 4-fold symmetric packing applies: square board (blocked cells symmetric), four
    colours with the same pieces."""
    if puzzle.width != puzzle.height or len(puzzle.colors) != 4:
        return False
    n = puzzle.width - 1
    if {(n - y, x) for x, y in puzzle.blocked} != set(puzzle.blocked):
        return False
    sets = {c: sorted(q.name for cc, q in puzzle.pieces if cc == c) for c in puzzle.colors}
    return len(set(map(tuple, sets.values()))) == 1


def build_packer(puzzle: Puzzle, symmetric: bool = False) -> tuple[RulePacker, list]:
    """The packer for a puzzle and its placement table ``[(piece name, cells)]``.

    ``symmetric``: only 4-fold rotationally symmetric solutions are searched (see RulePacker).
    """
    shapes = list(dict.fromkeys(q for _, q in puzzle.pieces))
    table, flat = [], []
    w = puzzle.width
    for i, q in enumerate(shapes):
        for cells in placements(q, puzzle.width, puzzle.height, puzzle.blocked):
            table.append((q.name, cells))
            flat.append((i, [y * w + x for x, y in cells]))
    counts = [[sum(1 for cc, qq in puzzle.pieces if cc == c and qq == q) for q in shapes] for c in puzzle.colors]
    corners = [y * w + x for x, y in puzzle.corners if (x, y) not in puzzle.blocked][:len(puzzle.colors)]
    rotation = None
    if symmetric:
        n = puzzle.width - 1
        where = {(name, frozenset(cells)): i for i, (name, cells) in enumerate(table)}
        rotation = []
        for name, cells in table:
            images = [frozenset(cells)]
            for _ in range(3):
                images.append(frozenset((n - y, x) for x, y in images[-1]))
            clash = images[0] & images[1] or images[0] & images[2]
            rotation.append(-1 if clash else where[(name, images[1])])
    packer = RulePacker(puzzle.width, puzzle.height, [y * w + x for x, y in puzzle.blocked],
                        [q.size for q in shapes], flat, counts, corners, rotation)
    return packer, table


def pack(puzzle: Puzzle, time_limit: float, seed: int = 0, budget: float = 2000.0,
         symmetric: bool = False) -> Result:
    """Phase 1 alone: restarts of the packer until a solution or the time limit."""
    t0 = time.perf_counter()
    packer, table = build_packer(puzzle, symmetric)
    name = "symmetric rule packer" if symmetric else "rule packer"
    attempt = nodes = deepest = exhausted = 0
    while True:
        left = time_limit - (time.perf_counter() - t0)
        if left <= 0 or exhausted >= 50:  # 50 runs in a row without hitting the budget: tiny tree
            return Result(UNKNOWN, seconds=time.perf_counter() - t0, method=name,
                          info={"attempts": attempt, "nodes": nodes, "most_steps": deepest})
        status, sol, n = packer.search(node_limit=int(budget), time_limit=left,
                                       seed=(seed * 1_000_003 + attempt) & 0xFFFFFFFFFFFFFFFF, branch=2)
        attempt += 1
        nodes += n
        deepest = max(deepest, packer.deepest)
        if status == "solved":
            placed = [(puzzle.colors[c], table[k][0], table[k][1]) for c, k in sol]
            return Result(SOLVED, placed, time.perf_counter() - t0, f"{name} (largest first)",
                          info={"attempts": attempt, "nodes": nodes})
        exhausted = exhausted + 1 if status == "exhausted" else 0
        budget = min(budget * 1.05, 1e12)


def solve_game(puzzle: Puzzle, time_limit: float = 60.0, workers: int = 2, seed: int = 0,
               symmetric_first: bool = True) -> Result:
    """First solution of a game-rules puzzle.

    Phase 1a (if ``symmetric_first`` and the puzzle allows it, up to 30 % of the time): the packer
    restricted to 4-fold rotationally symmetric solutions -- a heuristic: what it finds is a genuine
    solution of the unrestricted puzzle, and when it finds nothing the unrestricted phases run.
    Phase 1b (up to 20 %): the unrestricted packer.  Phase 2: the complete CP-SAT model.
    """
    from solver.puzzles.cpsat import solve_cpsat

    t0 = time.perf_counter()
    info = {}
    if symmetric_first and symmetric_ok(puzzle):
        first = pack(puzzle, time_limit * 0.3, seed, symmetric=True)
        if first.solved:
            return first
        info["symmetric_packer_steps"] = first.info.get("most_steps")
    second = pack(puzzle, time_limit * 0.2, seed)
    if second.solved:
        second.seconds = time.perf_counter() - t0
        return second
    info["packer_most_pieces"] = second.info.get("most_steps")
    result = solve_cpsat(puzzle, time_limit - (time.perf_counter() - t0), workers, seed)
    result.seconds = time.perf_counter() - t0
    result.method = "rule packers, then " + (result.method if result.method != "CP-SAT" else "CP-SAT")
    result.info.update(info)
    return result
