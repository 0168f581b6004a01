"""The general CP-SAT model: any puzzle, including the game rules and the descending order.

* one Boolean per placement (colour x piece x orientation x position); identical pieces of one
  colour are merged (their placements must sum to the number of copies);
* every free cell covered at most once (exactly once for ``full`` puzzles);
* no same-colour edge contact: for each board edge and colour, at most one placement of that colour
  meets the edge's two cells (two different pieces there would touch along the edge);
* game rules: each colour has one root, a corner square it covers (when every corner gets a colour
  and the colours have identical piece sets, they take the corners in a fixed order, which only
  removes colour permutations); every
  covered cell of a colour other than its root has an 8-neighbour of its colour with a smaller key, the key being
  a distance label ``d`` (so every piece is linked through corner contacts to the corner piece);
  with ``descending-order`` the key is ``(5 - size) * B + d``, so the pieces of size >= k stay
  connected to the corner for every k, which is exactly "placeable largest first".
"""

from __future__ import annotations

import time
from collections import defaultdict

from ortools.sat.python import cp_model

from solver.puzzles.geometry import board_symmetries, canonical, edges, placements
from solver.puzzles.result import IMPOSSIBLE, SOLVED, UNKNOWN, Result, TooLarge
from solver.puzzles.spec import Puzzle

#: Most placement variables a model may have.  Building costs about 2 KB and 70 µs per placement in
#: Python and OR-Tools (all-84 on 20x20: 121,732 placements, 230 MB, 8 s); the 84 pieces on a 64x64
#: board would need 1.4 million (2.8 GB).  Larger puzzles get "unknown" with the reason.
MAX_PLACEMENTS = 250_000


class OutOfTime(Exception):
    """The time limit ran out while the model was being built."""


class Model:
    """The CP-SAT model of a puzzle and the bookkeeping to read a solution back.

    ``deadline`` (a ``time.perf_counter()`` value): building stops with :class:`OutOfTime` when it
    passes, so a big model cannot overrun ``--time-limit``; :class:`TooLarge` before anything is
    built when the puzzle needs more than :data:`MAX_PLACEMENTS` placements.
    """

    def __init__(self, puzzle: Puzzle, deadline: float | None = None):
        self.puzzle = puzzle
        self.pinned = False
        self.deadline = deadline
        m = self.model = cp_model.CpModel()
        counts = puzzle.piece_counts()
        keys = list(dict.fromkeys((c, p.name) for c, p in puzzle.pieces))
        piece_of = {p.name: p for _, p in puzzle.pieces}
        free = set(puzzle.free_cells)
        self.vars: list[tuple[cp_model.IntVar, str, str, tuple]] = []
        cover: dict = defaultdict(list)              # cell -> literals
        cover_c: dict = defaultdict(list)            # (colour, cell) -> (literal, size)
        cache = {}
        for _, name in keys:
            if name not in cache:
                cache[name] = placements(piece_of[name], puzzle.width, puzzle.height, puzzle.blocked)
                self._check_time()
        total = sum(len(cache[name]) for _, name in keys)
        if total > MAX_PLACEMENTS:
            raise TooLarge(f"CP-SAT skipped: {total:,} placements, more than the {MAX_PLACEMENTS:,} "
                                f"a model may have")
        for c, name in keys:
            self._check_time()
            lits = []
            for cells in cache[name]:
                v = m.NewBoolVar("")
                lits.append(v)
                self.vars.append((v, c, name, cells))
                for cell in cells:
                    cover[cell].append(v)
                    cover_c[(c, cell)].append((v, len(cells)))
            m.Add(sum(lits) == counts[(c, name)])
        for cell in free:
            if puzzle.full:
                m.Add(sum(cover[cell]) == 1)
            elif len(cover[cell]) > 1:
                m.AddAtMostOne(cover[cell])
        if puzzle.no_same_colour_edge:
            for a, b in edges(puzzle.width, puzzle.height):
                for c in puzzle.colors:
                    lits = {id(v): v for v, _ in cover_c.get((c, a), []) + cover_c.get((c, b), [])}  # no new keys
                    if len(lits) > 1:
                        m.AddAtMostOne(list(lits.values()))
        if puzzle.game_rules:
            self._game_rules(cover_c, free)

    def _check_time(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime("CP-SAT: the time limit ran out while building the model")

    def _game_rules(self, cover_c, free) -> None:
        p, m = self.puzzle, self.model
        corners = [c for c in p.corners if c in free]
        occ = {}
        for (c, cell), lst in cover_c.items():
            b = m.NewBoolVar("")
            m.Add(sum(v for v, _ in lst) == b)
            occ[(c, cell)] = b
        # one root (the first piece's corner square) per colour; colours with identical piece sets
        # take the corners in order (this only removes colour permutations of solutions)
        sets = {c: sorted(q.name for cc, q in p.pieces if cc == c) for c in p.colors}
        # (only when every corner gets a colour: then any assignment is a colour permutation)
        same = len(set(map(tuple, sets.values()))) == 1 and len(p.colors) == len(corners) > 1
        self.pinned = same
        root = {}
        for i, c in enumerate(p.colors):
            for k in corners:
                if (c, k) in occ:
                    root[(c, k)] = m.NewBoolVar("")
                    m.AddImplication(root[(c, k)], occ[(c, k)])
                    if same and k != corners[i]:
                        m.Add(root[(c, k)] == 0)
            m.AddExactlyOne([root[(c, k)] for k in corners if (c, k) in root])
        for c in p.colors:
            self._check_time()
            n_cells = sum(q.size for cc, q in p.pieces if cc == c)
            big = n_cells + 1
            top = big * 5 if p.descending else big
            key = {}
            for cell in free:
                if (c, cell) not in occ:
                    continue
                d = m.NewIntVar(0, n_cells, "")
                if p.descending:  # one key variable per cell, so the long size sum appears once
                    size = sum(s * v for v, s in cover_c[(c, cell)])
                    k = m.NewIntVar(0, 5 * big + n_cells, "")
                    m.Add(k == (5 - size) * big + d)
                    key[cell] = k
                else:
                    key[cell] = d
            for cell in free:
                if (c, cell) not in occ:
                    continue
                self._check_time()
                x, y = cell
                supports = []
                for dx in (-1, 0, 1):
                    for dy in (-1, 0, 1):
                        w = (x + dx, y + dy)
                        if (dx or dy) and (c, w) in occ:
                            s = m.NewBoolVar("")
                            m.AddImplication(s, occ[(c, w)])
                            m.Add(key[w] + 1 <= key[cell] + top * (1 - occ[(c, cell)])).OnlyEnforceIf(s)
                            supports.append(s)
                if (c, cell) in root:
                    supports.append(root[(c, cell)])
                m.AddBoolOr(supports).OnlyEnforceIf(occ[(c, cell)])

    def solve(self, time_limit: float, workers: int, seed: int) -> tuple[str, list, cp_model.CpSolver]:
        """Run CP-SAT; (status, placements, solver)."""
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = max(0.01, time_limit)
        solver.parameters.num_workers = max(1, workers)
        solver.parameters.random_seed = seed
        status = solver.Solve(self.model)
        placed = []
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            placed = [(c, name, cells) for v, c, name, cells in self.vars if solver.BooleanValue(v)]
            return SOLVED, placed, solver
        if status == cp_model.INFEASIBLE:
            return IMPOSSIBLE, [], solver
        return UNKNOWN, [], solver


def solve_cpsat(puzzle: Puzzle, time_limit: float = 60.0, workers: int = 2, seed: int = 0) -> Result:
    """First solution (or a proof of impossibility) with CP-SAT."""
    t0 = time.perf_counter()
    try:
        model = Model(puzzle, t0 + time_limit)
    except (TooLarge, OutOfTime) as exc:
        return Result(UNKNOWN, seconds=time.perf_counter() - t0, method=str(exc))
    left = time_limit - (time.perf_counter() - t0)
    if left <= 0:
        return Result(UNKNOWN, seconds=time.perf_counter() - t0, method="CP-SAT (no time left to search)")
    status, placed, solver = model.solve(left, workers, seed)
    return Result(status, placed, time.perf_counter() - t0, "CP-SAT",
                  info={"variables": len(model.vars), "branches": solver.NumBranches()})


def enumerate_cpsat(puzzle: Puzzle, limit: int = 0, time_limit: float = 60.0) -> Result:
    """All distinct solutions up to board symmetry with CP-SAT (for puzzles exact cover cannot take).

    Solve, then forbid the solution and its symmetric images (a clause over their placements), and
    solve again until CP-SAT proves there is nothing left.  (Enumerating inside one solve would also
    enumerate the auxiliary distance labels of the game-rules model, many per placement set.)
    """
    t0 = time.perf_counter()
    try:
        model = Model(puzzle, t0 + time_limit)
    except (TooLarge, OutOfTime) as exc:
        return Result(UNKNOWN, seconds=time.perf_counter() - t0, method=str(exc), count=0, complete=False)
    syms = board_symmetries(puzzle.width, puzzle.height, puzzle.blocked)
    if model.pinned:
        syms = syms[:1]  # corners are pinned to colours, so mirror images are not the same model
    var_of = {(c, n, frozenset(cells)): v for v, c, n, cells in model.vars}
    seen: dict = {}
    complete = False
    while True:
        left = time_limit - (time.perf_counter() - t0)
        if left <= 0 or (limit and len(seen) >= limit):
            break
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = left
        solver.parameters.num_workers = 1
        status = solver.Solve(model.model)
        if status == cp_model.INFEASIBLE:
            complete = True
            break
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        placed = [(c, n, cells) for v, c, n, cells in model.vars if solver.BooleanValue(v)]
        seen.setdefault(canonical(placed, syms), placed)
        for m in syms:
            lits = [var_of.get((c, n, frozenset(m(x) for x in cells))) for c, n, cells in placed]
            if all(v is not None for v in lits):
                model.model.AddBoolOr([v.Not() for v in lits])
    sols = list(seen.values())
    st = SOLVED if sols else (IMPOSSIBLE if complete else UNKNOWN)
    return Result(st, sols[0] if sols else [], time.perf_counter() - t0, "CP-SAT enumeration",
                  count=len(sols), complete=complete, solutions=sols)
