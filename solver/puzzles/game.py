"""The game-rules puzzles (all-84, all-84-descending and user variants): the CP-SAT model.

Every colour's pieces must be placeable as legal Blokus moves (see :mod:`solver.puzzles.cpsat`).
"""

from __future__ import annotations

from solver.puzzles.cpsat import solve_cpsat
from solver.puzzles.result import Result
from solver.puzzles.spec import Puzzle


def solve_game(puzzle: Puzzle, time_limit: float = 60.0, workers: int = 2, seed: int = 0) -> Result:
    """First solution of a game-rules puzzle."""
    return solve_cpsat(puzzle, time_limit, workers, seed)
