"""`solver plot`: the chart of any result table the project writes, recognised from its columns."""

from __future__ import annotations

from pathlib import Path

import click

from solver.cli.options import command_line


@click.command(name="plot")
@click.argument("tables", nargs=-1, required=True, metavar="RESULT.csv...")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Picture file: .svg, .png or .pdf (default: the first table's name with .svg).")
@click.option("--title", default=None, help="Title instead of the one made from the table.")
def group(tables: tuple[str, ...], output: str | None, title: str | None) -> None:
    """Draw the chart that fits RESULT.csv: win rates per seat with 95 % intervals and the fair
    share, The Game's win rate by player count, sweep curves, histograms, tournament matrices or
    Squid Game's per-sub-game survival.  Several tables of one kind are overlaid (or side by side
    for matrices).  Needs matplotlib: pip install 'tabletop-solver[plot]'."""
    from solver import __version__
    from solver.plot.recognise import draw_tables, recognise
    from solver.plot.style import check_picture_path, require_matplotlib
    from solver.plot.table import read_table

    read = [read_table(path) for path in tables]
    for table in read:
        recognise(table)
    defaulted = output is None
    output = output or str(Path(tables[0]).with_suffix(".svg"))
    check_picture_path(output)
    require_matplotlib()
    seeds = sorted({row["seed"] for t in read for row in t.rows if isinstance(row.get("seed"), int)})
    seed = f" · seed {', '.join(map(str, seeds))}" if seeds else ""
    draw_tables(read, output, title=title, footer=f"{command_line()}{seed} · solver {__version__}")
    if defaulted:
        click.echo(f"wrote {output}", err=True)
