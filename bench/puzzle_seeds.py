"""Print the README's puzzle table: median and worst time to a verified solution over seeds 0-4.

Usage: ``python bench/puzzle_seeds.py [SEEDS]`` (default 5), on an otherwise idle machine.
The time is wall clock around ``solve()`` (which verifies the solution before returning);
the ``solver`` command adds about 0.3 s of start-up.
"""

import statistics
import sys
import time

from solver.puzzles.solve import enumerate_solutions, solve
from solver.puzzles.spec import load_puzzle, shipped_names


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print("| puzzle | median | worst | solved by |")
    print("|---|---:|---:|---|")
    for name in shipped_names():
        puzzle = load_puzzle(name)
        times, methods = [], set()
        for seed in range(seeds):
            start = time.perf_counter()
            result = solve(puzzle, time_limit=60.0, seed=seed)
            times.append(time.perf_counter() - start)
            methods.add(result.method if result.status == "solved" else result.status)
        print(f"| `{name}` | {statistics.median(times):.2f} s | {max(times):.2f} s | {', '.join(sorted(methods))} |")
    start = time.perf_counter()
    count = enumerate_solutions(load_puzzle("pentomino-6x10")).count
    print(f"| `pentomino-6x10 --all` ({count:,} solutions) | {time.perf_counter() - start:.2f} s | | exact cover |")


if __name__ == "__main__":
    main()
