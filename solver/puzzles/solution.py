"""Solution files (JSON) and pictures (coloured text grid, SVG).

JSON: ``{"puzzle": NAME, "width": W, "height": H, "placements": [{"color": C, "piece": NAME,
"cells": [[x, y], ...]}, ...]}``, x the column from the left and y the row from the bottom, from 0;
for game-rules puzzles the list is in a legal placing order.
"""

from __future__ import annotations

from solver.errors import SolverError
from solver.inputs import load_json
from solver.render.grid import svg_grid, text_grid


def to_json(name: str, width: int, height: int, placements) -> dict:
    return {"puzzle": name, "width": width, "height": height,
            "placements": [{"color": c, "piece": n, "cells": [list(x) for x in cells]}
                           for c, n, cells in placements]}


def _load_json(path: str):
    return load_json(path, "solution file")


def read_solution(path: str) -> tuple[dict, list]:
    """Read a solution file; SolverError (one line) if it is unreadable or malformed."""
    return _parse_solution(_load_json(path), path)


def read_solutions(path: str) -> list[tuple[dict, list]]:
    """Read a file of one solution (an object) or of several (a list, as ``solve --all`` writes)."""
    data = _load_json(path)
    if isinstance(data, list):
        if not data:
            raise SolverError(f"malformed solution file {path}: the list of solutions is empty")
        return [_parse_solution(item, path) for item in data]
    return [_parse_solution(data, path)]


def _parse_solution(data, path: str) -> tuple[dict, list]:
    if not isinstance(data, dict) or not isinstance(data.get("placements"), list):
        raise SolverError(f"malformed solution file {path}: expected an object with a placements list")
    out = []
    for i, p in enumerate(data["placements"], 1):
        cells = p.get("cells") if isinstance(p, dict) else None
        if (not isinstance(p, dict) or not isinstance(p.get("color"), str) or not isinstance(p.get("piece"), str)
                or not isinstance(cells, list) or not cells
                or not all(isinstance(c, list) and len(c) == 2 and all(_is_int(v) for v in c) for c in cells)):
            raise SolverError(f"malformed solution file {path}: placement {i} needs color and piece names and "
                              f"cells [[x, y], ...] of whole numbers")
        out.append((p["color"], p["piece"], [(x, y) for x, y in cells]))
    return data, out


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def text_picture(puzzle, placements, ansi: bool = False) -> str:
    return text_grid(puzzle.width, puzzle.height, [(c, cells) for c, _, cells in placements],
                     blocked=puzzle.blocked, ansi=ansi)


def svg_picture(puzzle, placements, title: str | None = None) -> str:
    return svg_grid(puzzle.width, puzzle.height, [(c, cells) for c, _, cells in placements],
                    title=title if title is not None else puzzle.name, blocked=puzzle.blocked)
