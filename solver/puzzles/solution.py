"""Solution files (JSON) and pictures (coloured text grid, SVG).

JSON: ``{"puzzle": NAME, "width": W, "height": H, "placements": [{"color": C, "piece": NAME,
"cells": [[x, y], ...]}, ...]}``, x the column from the left and y the row from the bottom, from 0;
for game-rules puzzles the list is in a legal placing order.
"""

from __future__ import annotations

import json
from pathlib import Path

from solver.errors import SolverError
from solver.render.grid import svg_grid, text_grid


def to_json(name: str, width: int, height: int, placements) -> dict:
    return {"puzzle": name, "width": width, "height": height,
            "placements": [{"color": c, "piece": n, "cells": [list(x) for x in cells]}
                           for c, n, cells in placements]}


def _load_json(path: str):
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise SolverError(f"cannot read solution file {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise SolverError(f"malformed solution file {path}: {exc}") from None


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
        try:
            cells = [(int(x), int(y)) for x, y in p["cells"]]
            out.append((str(p["color"]), str(p["piece"]), cells))
        except (KeyError, TypeError, ValueError):
            raise SolverError(f"malformed solution file {path}: placement {i} needs color, piece and "
                              f"cells [[x, y], ...]") from None
    return data, out


def text_picture(puzzle, placements, ansi: bool = False) -> str:
    return text_grid(puzzle.width, puzzle.height, [(c, cells) for c, _, cells in placements],
                     blocked=puzzle.blocked, ansi=ansi)


def svg_picture(puzzle, placements, title: str | None = None) -> str:
    return svg_grid(puzzle.width, puzzle.height, [(c, cells) for c, _, cells in placements],
                    title=title if title is not None else puzzle.name, blocked=puzzle.blocked)
