"""The game-rules puzzles (all-84, all-84-descending and user variants): a fast heuristic packer,
then the complete CP-SAT model.

Phase 1 (:class:`solver._ext.exact_cover.RulePacker`, Cython): depth-first placement of legal
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


def build_packer(puzzle: Puzzle) -> tuple[RulePacker, list]:
    """The packer for a puzzle and its placement table ``[(piece name, cells)]``."""
    shapes = list(dict.fromkeys(q for _, q in puzzle.pieces))
    table, flat = [], []
    w = puzzle.width
    for i, q in enumerate(shapes):
        for cells in placements(q, puzzle.width, puzzle.height, puzzle.blocked):
            table.append((q.name, cells))
            flat.append((i, [y * w + x for x, y in cells]))
    counts = [[sum(1 for cc, qq in puzzle.pieces if cc == c and qq == q) for q in shapes] for c in puzzle.colors]
    corners = [y * w + x for x, y in puzzle.corners if (x, y) not in puzzle.blocked][:len(puzzle.colors)]
    packer = RulePacker(puzzle.width, puzzle.height, [y * w + x for x, y in puzzle.blocked],
                        [q.size for q in shapes], flat, counts, corners)
    return packer, table


def pack(puzzle: Puzzle, time_limit: float, seed: int = 0, budget: float = 2000.0) -> Result:
    """Phase 1 alone: restarts of the packer until a solution or the time limit."""
    t0 = time.perf_counter()
    packer, table = build_packer(puzzle)
    attempt = nodes = deepest = exhausted = 0
    while True:
        left = time_limit - (time.perf_counter() - t0)
        if left <= 0 or exhausted >= 50:  # 50 runs in a row without hitting the budget: tiny tree
            return Result(UNKNOWN, seconds=time.perf_counter() - t0, method="rule packer",
                          info={"attempts": attempt, "nodes": nodes, "most_pieces": deepest})
        status, sol, n = packer.search(node_limit=int(budget), time_limit=left,
                                       seed=(seed * 1_000_003 + attempt) & 0xFFFFFFFFFFFFFFFF, branch=2)
        attempt += 1
        nodes += n
        deepest = max(deepest, packer.deepest)
        if status == "solved":
            placed = [(puzzle.colors[c], table[k][0], table[k][1]) for c, k in sol]
            return Result(SOLVED, placed, time.perf_counter() - t0, "rule packer (largest first)",
                          info={"attempts": attempt, "nodes": nodes})
        exhausted = exhausted + 1 if status == "exhausted" else 0
        budget = min(budget * 1.05, 1e12)


def solve_game(puzzle: Puzzle, time_limit: float = 60.0, workers: int = 2, seed: int = 0) -> Result:
    """First solution of a game-rules puzzle: the packer, then CP-SAT with the remaining time."""
    from solver.puzzles.cpsat import solve_cpsat

    t0 = time.perf_counter()
    first = pack(puzzle, time_limit * PACKER_SHARE, seed)
    if first.solved:
        return first
    result = solve_cpsat(puzzle, time_limit - (time.perf_counter() - t0), workers, seed)
    result.seconds = time.perf_counter() - t0
    result.method = "rule packer, then CP-SAT"
    result.info["packer_most_pieces"] = first.info.get("most_pieces")
    return result
