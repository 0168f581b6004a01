"""Options every Monte Carlo command shares, and the one function that runs and reports them."""

from __future__ import annotations

import math
import os
import shlex
import sys
from collections.abc import Callable, Sequence
from typing import Any

import click

from solver import __version__
from solver.errors import SolverError
from solver.montecarlo.experiment import Experiment
from solver.montecarlo.output import check_writable, write_rows, write_text_atomic
from solver.montecarlo.runner import MAX_GAMES, RunResult, default_workers, run_experiments
from solver.montecarlo.signals import SignalGuard

#: Seeds are at most 2**32 - 1: plenty of streams (every block derives its own), and small enough
#: that the CSV seed column survives a spreadsheet (which keeps only 15 significant digits).
MAX_SEED = 2**32 - 1


class Seconds(click.FloatRange):
    """A number of seconds >= ``min``: finite (``nan`` would never compare as reached, ``inf`` never ends)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        rv = super().convert(value, param, ctx)
        if not math.isfinite(rv):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        return rv


def monte_carlo_options(default_games: int, default_block_size: int = 1000) -> Callable:
    """Decorator adding --games --seed -j --backend --scheduler --block-size -o --format --quiet --plot."""

    def decorate(func: Callable) -> Callable:
        opts = [
            click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=default_games,
                         show_default=True, help="Games per configuration."),
            click.option("--seed", type=click.IntRange(0, MAX_SEED), default=1, show_default=True,
                         help="Seed: the same seed gives the same numbers for any worker count."),
            click.option("-j", "--workers", type=click.IntRange(1, 1024), default=None,
                         help="Worker processes (default: all cores)."),
            click.option("--backend", type=click.Choice(["local", "dask"]), default="local",
                         show_default=True, help="Where the blocks of games run."),
            click.option("--scheduler", envvar="SOLVER_DASK_SCHEDULER", default=None,
                         help="Dask scheduler address tcp://HOST:PORT (env SOLVER_DASK_SCHEDULER)."),
            click.option("--block-size", type=click.IntRange(1, MAX_GAMES), default=default_block_size,
                         show_default=True, help="Games per block (each block has its own seed)."),
            click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-",
                         show_default=True, help="Output file ('-' is stdout)."),
            click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv",
                         show_default=True, help="Output format."),
            click.option("--quiet", "-q", is_flag=True, help="No progress display."),
            click.option("--plot", type=click.Path(dir_okay=False), default=None,
                         help="Also draw the chart of the table to this .svg, .png or .pdf file "
                              "(needs the plot extra: pip install 'tabletop-solver[plot]')."),
        ]
        for opt in reversed(opts):
            func = opt(func)
        return func

    return decorate


def run_and_report(
    experiments: Sequence[Experiment],
    *,
    games: int,
    seed: int,
    workers: int | None,
    backend: str,
    scheduler: str | None,
    block_size: int,
    output: str,
    fmt: str,
    quiet: bool,
    plot: str | None = None,
    extra_outputs: Sequence[tuple[str | None, Callable[[RunResult], list[dict[str, Any]]]]] = (),
    plot_rows: Callable[[RunResult], list[dict[str, Any]]] | None = None,
    pictures: Sequence[tuple[str | None, Callable[[RunResult, str, str], None]]] = (),
) -> RunResult:
    """Run the experiments with the chosen backend, write the table(s), exit 130 if interrupted.

    ``plot`` draws the chart of the main table (or of ``plot_rows``, e.g. a tournament's matrix);
    ``pictures`` are further (path, draw(result, path, footer)) pictures.  Tables and pictures are
    written from the finished games also when the run is interrupted.
    """
    check_writable(output)
    drawings = [(plot, _draw_table(plot_rows))] if plot else []
    drawings += [(path, draw) for path, draw in pictures if path]
    targets = [output] + [path for path, _ in extra_outputs if path] + [path for path, _ in drawings]
    for path in targets[1:]:
        check_writable(path)
    if drawings:
        from solver.plot.style import check_picture_path, require_matplotlib

        for path, _ in drawings:
            check_picture_path(path)
        require_matplotlib()
    resolved = [p if p == "-" else os.path.realpath(p) for p in targets]
    if len(set(resolved)) != len(resolved):
        raise SolverError("two outputs go to the same place: give each table its own file (at most one '-')")
    if scheduler and backend != "dask":
        ctx = click.get_current_context(silent=True)
        from_env = ctx is not None and ctx.get_parameter_source("scheduler") == click.core.ParameterSource.ENVIRONMENT
        if not from_env:  # SOLVER_DASK_SCHEDULER set for cluster work must not break local runs
            raise SolverError("--scheduler needs --backend dask")
        scheduler = None
    workers = workers or default_workers()
    with SignalGuard() as guard:  # SIGINT/SIGTERM/SIGHUP: stop, save the finished games, exit 128+N
        if backend == "dask":
            from solver.montecarlo.dask_backend import dask_executor

            with dask_executor(scheduler, workers) as (executor, n_workers):
                result = run_experiments(experiments, games, seed, workers=n_workers, block_size=block_size,
                                         executor=executor, progress=not quiet, guard=guard)
        else:
            result = run_experiments(experiments, games, seed, workers=workers, block_size=block_size,
                                     progress=not quiet, guard=guard)
        write_rows(result.rows(), output, fmt)
        for path, make_rows in extra_outputs:
            if path:
                write_rows([_with_run_columns(row, result) for row in make_rows(result)], path, "csv")
        footer = f"{command_line()} · seed {result.seed} · solver {__version__}"
        for path, draw in drawings:
            draw(result, path, footer)
        if not quiet and sys.stderr.isatty():
            rate = result.total_games / result.elapsed if result.elapsed > 0 else float("nan")
            click.echo(f"{result.total_games} games in {result.elapsed:.2f} s ({rate:,.0f} games/s)", err=True)
        if not result.complete or guard.signum is not None:
            click.echo(guard.stopped_line(result.total_games), err=True)
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(guard.exit_status)  # the results are written; don't wait for killed workers' queues
    return result


def _draw_table(make_rows: Callable[[RunResult], list[dict[str, Any]]] | None
                ) -> Callable[[RunResult, str, str], None]:
    """The --plot drawer: the chart of the main table, or of the rows ``make_rows`` gives."""

    def draw(result: RunResult, path: str, footer: str) -> None:
        from solver.plot.recognise import draw_tables
        from solver.plot.table import table_from_rows

        rows = result.rows() if make_rows is None else [_with_run_columns(r, result) for r in make_rows(result)]
        draw_tables([table_from_rows(rows, "the result table")], path, footer=footer, partial=not result.complete)

    return draw


def command_line() -> str:
    """The command being run, as typed (for the footer of charts)."""
    ctx = click.get_current_context(silent=True)
    argv = ctx.find_root().obj.get("argv") if ctx and isinstance(ctx.find_root().obj, dict) else None
    return shlex.join(["solver", *(sys.argv[1:] if argv is None else argv)])


def _with_run_columns(row: dict[str, Any], result: RunResult) -> dict[str, Any]:
    """A side table's row with the main table's closing columns (complete, seed, solver_version)."""
    extra = {"complete": result.complete, "seed": result.seed, "solver_version": __version__}
    return {**row, **{k: v for k, v in extra.items() if k not in row}}


def write_log(log_path: str | None, jsonl: str) -> bool:
    """``--log`` of the play commands (and the templates of ``squid params``, ``clovece template``):
    write the text atomically to ``log_path``, or print it when ``log_path`` is ``-``; True when it
    went to stdout (the command then prints nothing else)."""
    if log_path == "-":
        click.echo(jsonl, nl=False)
        return True
    if log_path:
        write_text_atomic(log_path, jsonl)
    return False


def parse_int_list(text: str, name: str, low: int, high: int) -> list[int]:
    """'3', '1,3,5' or '1-5' (or mixed) -> sorted list of ints within [low, high].

    >>> parse_int_list("1-3,5", "players", 1, 5)
    [1, 2, 3, 5]
    """
    values: set[int] = set()
    try:
        for part in text.split(","):
            part = part.strip()
            if "-" in part:
                a, b = part.split("-", 1)
                lo, hi = int(a), int(b)
                if lo > hi:
                    raise ValueError
                _check_range(name, lo, low, high)
                _check_range(name, hi, low, high)  # before building the range: 1-99999999999 is huge
                values.update(range(lo, hi + 1))
            else:
                values.add(_check_range(name, int(part), low, high))
    except SolverError:
        raise
    except ValueError:
        raise SolverError(f"invalid {name} {text!r}: use a number, a list 1,3 or a range 1-5") from None
    return sorted(values)


def _check_range(name: str, value: int, low: int, high: int) -> int:
    if not low <= value <= high:
        raise SolverError(f"{name} must be between {low} and {high}, got {value}")
    return value


def histogram_rows(result: RunResult, key_columns: Sequence[str]) -> list[dict[str, Any]]:
    """Long-format histogram table: identifying columns, histogram name, value, count."""
    rows: list[dict[str, Any]] = []
    for exp, tally in zip(result.experiments, result.tallies, strict=True):
        if not tally:
            continue
        ident_rows = exp.rows(tally, 1)
        ident = {k: ident_rows[0].get(k) for k in key_columns} if ident_rows else {}
        ident = {"game": exp.game, **ident}
        for name, hist in exp.histograms(tally).items():
            for value, count in enumerate(hist):
                if count:
                    rows.append({**ident, "histogram": name, "value": value, "count": int(count)})
    return rows
