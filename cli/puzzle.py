"""`solver puzzle` commands: list, solve and verify Blokus puzzles.

Exit status of ``solve``: 0 solved, 1 proven impossible or unknown within the time limit, 2 bad
input.  ``verify``: 0 correct, 1 wrong (every problem is printed), 2 bad input.
"""

from __future__ import annotations

import json
import sys

import click

from solver.cli.options import Seconds
from solver.errors import SolverError
from solver.montecarlo.output import check_writable, write_text_atomic
from solver.puzzles.solution import read_solutions, svg_picture, text_picture, to_json
from solver.puzzles.solve import enumerate_solutions, solve
from solver.puzzles.spec import load_puzzle, shipped_names
from solver.puzzles.verify import verify


@click.group(name="puzzle")
def group() -> None:
    """Blokus as a solitaire puzzle: the 84-piece board, the 8x10 and 15x16 tilings, your own."""


@group.command(name="list")
def list_cmd() -> None:
    """The shipped puzzles with board size, pieces and constraints."""
    for name in shipped_names():
        p = load_puzzle(name)
        rules = ", ".join(sorted(p.constraints)) or "-"
        click.echo(f"{name:26s} {p.width}x{p.height:<3d} {len(p.pieces):3d} pieces  "
                   f"{'full ' if p.full else '     '} {rules:32s} {p.description}")


@group.command(name="solve")
@click.argument("puzzle")
@click.option("--time-limit", type=Seconds(min=0.01), default=60.0, show_default=True,
              help="Seconds before giving up (status: unknown within the limit).")
@click.option("-j", "--workers", type=click.IntRange(min=1), default=2, show_default=True,
              help="CP-SAT worker threads.")
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=0, show_default=True,
              help="Random seed of the search (CP-SAT takes 31-bit seeds).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the solution as JSON.")
@click.option("--svg", type=click.Path(dir_okay=False), help="Write a picture of the solution as SVG.")
@click.option("--all", "all_", is_flag=True, help="Enumerate distinct solutions up to board symmetry.")
@click.option("--limit", type=click.IntRange(min=1), help="With --all: stop after this many solutions.")
@click.option("--no-symmetric-first", "no_sym", is_flag=True,
              help="Skip the first, heuristic phase that tries symmetric solutions (4-fold for game-rules puzzles, half-turn for no-edge tilings).")
@click.option("--color/--no-color", "colour", default=None, help="ANSI colours (default: on a terminal).")
def solve_cmd(puzzle: str, time_limit: float, workers: int, seed: int, output: str | None, svg: str | None,
              all_: bool, limit: int | None, no_sym: bool, colour: bool | None) -> int:
    """Solve PUZZLE (a shipped name or a .toml file) and print the board, status and time."""
    if limit is not None and not all_:
        raise SolverError("--limit only makes sense with --all")
    p = load_puzzle(puzzle)
    for path in (output, svg):
        check_writable(path)  # before a solve that may take the whole time limit
    ansi = sys.stdout.isatty() if colour is None else colour
    if all_:
        r = enumerate_solutions(p, limit or 0, time_limit)
        for i, sol in enumerate(r.solutions, 1):
            if limit or len(r.solutions) <= 3:
                click.echo(f"solution {i}:")
                click.echo(text_picture(p, sol, ansi))
        how = "all" if r.complete else "at least (search cut short)"
        click.echo(f"{p.name}: {how} {r.count} distinct solution(s) up to board symmetry "
                   f"in {r.seconds:.2f} s ({r.method})")
        data = [to_json(p.name, p.width, p.height, s) for s in r.solutions]
        if output:
            write_text_atomic(output, json.dumps(data, indent=1) + "\n")  # always a list with --all
        if svg and r.solutions:
            write_text_atomic(svg, svg_picture(p, r.solutions[0]))
        return 0 if r.solutions else 1
    r = solve(p, time_limit, workers, seed, symmetric_first=not no_sym)
    if r.solved:
        click.echo(text_picture(p, r.placements, ansi))
        if output:
            write_text_atomic(output, json.dumps(to_json(p.name, p.width, p.height, r.placements)) + "\n")
        if svg:
            write_text_atomic(svg, svg_picture(p, r.placements))
    click.echo(f"{p.name}: {r.status} in {r.seconds:.2f} s ({r.method})")
    return 0 if r.solved else 1


@group.command(name="verify")
@click.argument("solution", type=click.Path(dir_okay=False))
@click.argument("puzzle", required=False)
def verify_cmd(solution: str, puzzle: str | None) -> int:
    """Check SOLUTION (JSON: one solution, or a list of them) against PUZZLE (default: the one named in the file)."""
    solutions = read_solutions(solution)
    wrong = 0
    for k, (data, placements) in enumerate(solutions, 1):
        label = f"solution {k}: " if len(solutions) > 1 else ""
        name = puzzle or data.get("puzzle")
        if not name:
            raise SolverError(f"{solution} names no puzzle; give one: solver puzzle verify FILE.json NAME")
        p = load_puzzle(str(name))
        if (data.get("width"), data.get("height")) not in ((None, None), (p.width, p.height)):
            click.echo(f"{label}board is {data.get('width')}x{data.get('height')} in the file, "
                       f"{p.width}x{p.height} in puzzle {p.name}")
            wrong += 1
            continue
        problems = verify(p, placements)
        for line in problems:
            click.echo(f"{label}{line}")
        click.echo(f"{label}{p.name}: {'correct' if not problems else f'WRONG ({len(problems)} problem(s))'}")
        wrong += bool(problems)
    return 0 if not wrong else 1
