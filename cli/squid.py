"""`solver squid` commands: Monte Carlo analysis of the Squid Game board game."""

from __future__ import annotations

from pathlib import Path

import click

from solver.cli.options import echo_or_write, monte_carlo_options, parse_int_list, run_and_report
from solver.squid.params import DEFAULT_FILE, engine_dict, load_params, parse_sweep, with_value


@click.group(name="squid")
def group() -> None:
    """Squid Game board game: the six sub-games and Monte Carlo analysis."""


@group.command()
@click.option("--players", "-p", default="5", show_default=True,
              help="Number of players 3-6 (or a list 3,5 / range 3-6).")
@click.option("--strategy", "-s", default="random", show_default=True,
              help="Policy per seat: random, careful, bold, equilibrium; one name = all seats, "
                   "or a comma-separated list with one name per seat.")
@click.option("--params", "params_file", type=click.Path(dir_okay=False), default=None,
              help="TOML file overriding the documented default parameters (see `solver squid params`).")
@click.option("--sweep", default=None,
              help="Sweep one parameter: NAME=V1,V2,... (e.g. glass_bridge.cracked=2,3,4); one set of "
                   "rows per value.")
@click.option("--per-game", "per_game", type=click.Path(dir_okay=False), default=None,
              help="Also write the per-sub-game table (tokens entering/surviving, rounds) to this CSV.")
@monte_carlo_options(default_games=10000, default_block_size=2000)
def simulate(players: str, strategy: str, params_file: str | None, sweep: str | None,
             per_game: str | None, **mc) -> None:
    """Play whole games and report win rates per seat, token survival per sub-game, rounds and
    how games end (first token into the head, last survivor, or the safety round cap)."""
    from solver.squid.experiment import SquidExperiment, parse_strategies

    counts = parse_int_list(players, "players", 3, 6)
    base = load_params(params_file)
    label = f"params={Path(params_file).name}" if params_file else "default"  # the tables say which rules
    variants = [(label, base)]
    if sweep:
        name, values = parse_sweep(sweep)
        prefix = f"{label}+" if params_file else ""
        variants = [(f"{prefix}{name}={v}", with_value(base, name, v)) for v in values]
    experiments = []
    for label, params in variants:
        engine = engine_dict(params)
        for n in counts:
            experiments.append(SquidExperiment(n, parse_strategies(strategy, n), engine, variant=label))

    def subgame_table(result):
        rows = []
        for exp, tally, games in zip(result.experiments, result.tallies, result.games, strict=True):
            rows.extend(exp.subgame_rows(tally, games))
        return rows

    run_and_report(experiments, extra_outputs=[(per_game, subgame_table)], **mc)


@group.command(name="params")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              show_default=True, help="Where to write the default parameter file.")
def params_cmd(output: str) -> None:
    """Print the documented default parameter file (a template for --params)."""
    echo_or_write(DEFAULT_FILE.read_text(encoding="utf-8"), output)
