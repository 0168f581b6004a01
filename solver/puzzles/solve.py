"""Pick the right method for a puzzle, solve it, put the placements in a legal order, double-check.

* full tilings without the game rules: the Cython exact cover (``tiling``): tile first and colour
  the tiling, or, with ``no-same-colour-edge`` and several colours, colour items in the cover, tried
  first (heuristically) on half-turn symmetric solutions;
* the game-rules puzzles (``all-84``...): ``game`` (heuristic packers, then the CP-SAT model);
* anything else (boards that need not be full): the CP-SAT model (``cpsat``).
"""

from __future__ import annotations

import time

from solver.puzzles import tiling
from solver.puzzles.result import IMPOSSIBLE, UNKNOWN, Result, TooLarge
from solver.puzzles.spec import Puzzle
from solver.puzzles.verify import legal_order, verify


def solve(puzzle: Puzzle, time_limit: float = 60.0, workers: int = 2, seed: int = 0,
          symmetric_first: bool = True) -> Result:
    """First solution (or a proof that there is none) within ``time_limit`` seconds.

    ``symmetric_first``: try symmetric solutions first -- a heuristic phase with part of the time
    (4-fold for game-rules puzzles, see game.py; half-turn for no-edge tilings, see tiling.py); what
    it finds is a genuine solution, and when it finds nothing the unrestricted search runs.
    """
    t0 = time.perf_counter()
    try:
        result = _solve(puzzle, time_limit, workers, seed, symmetric_first)
    except TooLarge as exc:
        return Result(UNKNOWN, seconds=time.perf_counter() - t0, method=str(exc))
    if result.solved:
        result.placements = legal_order(puzzle, result.placements)
        problems = verify(puzzle, result.placements)
        if problems:  # a solver bug, never bad input
            raise RuntimeError(f"internal error: solver returned an invalid solution: {problems[0]}")
    return result


def _solve(puzzle: Puzzle, time_limit: float, workers: int, seed: int, symmetric_first: bool) -> Result:
    """The method that fits the puzzle (see the module docstring)."""
    if tiling.one_colour_conflict(puzzle):
        return Result(IMPOSSIBLE, method="one colour: a region of several pieces has an edge")
    if tiling.applicable(puzzle):
        if puzzle.no_same_colour_edge and len(puzzle.colors) > 1:
            result = None
            t0 = time.perf_counter()
            if symmetric_first and tiling.half_turn_ok(puzzle):
                first = tiling.solve_half_turn(puzzle, 0.3 * time_limit, seed)
                if first.solved:
                    result = first
            if result is None:
                result = tiling.solve_coloured(puzzle, time_limit - (time.perf_counter() - t0), seed)
                result.seconds = time.perf_counter() - t0
        else:
            result = tiling.solve_tiling(puzzle, time_limit, seed)
    elif puzzle.game_rules:
        from solver.puzzles import game

        result = game.solve_game(puzzle, time_limit, workers, seed, symmetric_first)
    else:
        from solver.puzzles import cpsat  # OR-Tools loads slowly: only when needed

        result = cpsat.solve_cpsat(puzzle, time_limit, workers, seed)
    return result


def enumerate_solutions(puzzle: Puzzle, limit: int = 0, time_limit: float = 60.0) -> Result:
    """Distinct solutions up to board symmetry (at most ``limit`` if given)."""
    try:
        if tiling.applicable(puzzle):
            result = tiling.enumerate_tiling(puzzle, limit, time_limit)
        else:
            from solver.puzzles import cpsat

            result = cpsat.enumerate_cpsat(puzzle, limit, time_limit)
    except TooLarge as exc:
        return Result(UNKNOWN, method=str(exc), count=0, complete=False)
    result.solutions = [legal_order(puzzle, s) for s in result.solutions]
    if result.solutions:
        result.placements = result.solutions[0]
    return result
