"""The ``solver`` command: one group per game, one-line errors, exit codes 0 / 2 / 130."""

from __future__ import annotations

import os
import sys

import click

from solver import __version__
from solver.cli import blokus, blokus3d, clovece, plot, puzzle, squid, thegame
from solver.errors import SolverError
from solver.inputs import one_line


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="solver")
def app() -> None:
    """Solver and analysis engine for Blokus, Blokus puzzles, The Game, Člověče napij se! and Squid Game.

    Every Monte Carlo command takes --games, --seed, -j/--workers, --backend, -o and --format and
    writes CSV (or JSON); the same --seed gives the same numbers whatever the number of workers.
    `solver plot` (or --plot FILE) draws the chart of a table.
    """


for module in (blokus, blokus3d, puzzle, thegame, clovece, squid, plot):
    app.add_command(module.group)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script: bad input is one line on stderr and exit status 2."""
    try:
        args = sys.argv[1:] if argv is None else list(argv)
        rv = app.main(args=args, prog_name="solver", standalone_mode=False, obj={"argv": args})
    except (KeyboardInterrupt, click.exceptions.Abort):
        click.echo("solver: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        click.echo(f"solver: error: {one_line(exc.format_message())}", err=True)
        sys.exit(2)
    except SolverError as exc:
        click.echo(f"solver: error: {one_line(str(exc))}", err=True)
        sys.exit(2)
    except BrokenPipeError:  # output piped into `head` and closed early: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(0)
    except OSError as exc:  # writing the output failed (disk full, device gone, ...)
        click.echo(f"solver: error: cannot write the output: {one_line(str(exc.strerror or exc))}", err=True)
        sys.exit(2)
    sys.exit(rv if isinstance(rv, int) else 0)


if __name__ == "__main__":
    main()
