"""`solver thegame` commands: simulate (Monte Carlo table), play (one logged game), replay (check a log)."""

from __future__ import annotations

import click

from solver.cli.options import MAX_SEED, histogram_rows, monte_carlo_options, parse_int_list, run_and_report


@click.group(name="thegame")
def group() -> None:
    """The Game: simulation, strategies and win probabilities."""


def _strategy_help() -> str:
    from solver.thegame.strategies import STRATEGIES

    parts = [f"{s.name}({', '.join(s.params) or '-'})" for s in STRATEGIES.values()]
    return "Comma-separated strategy specs name[:key=val,...]: " + "; ".join(parts) + "."


@group.command()
@click.option("--players", "-p", default="1-5", show_default=True,
              help="Player counts: 3, 1,3,5 or 1-5.")
@click.option("--strategy", "-s", "strategy", default="greedy,reach,planner", show_default=True,
              help=_strategy_help())
@click.option("--variant", "-v", "variants", default="standard", show_default=True,
              help="Comma-separated variants: standard, hard, on-fire.")
@click.option("--histogram", type=click.Path(dir_okay=False), default=None,
              help="Also write the distribution of cards left (0..98) per configuration to this CSV.")
@monte_carlo_options(default_games=100_000, default_block_size=2000)
def simulate(players, strategy, variants, histogram, games, seed, workers, backend, scheduler, block_size,
             output, fmt, quiet, plot) -> None:
    """Win rate and cards left for every (players, strategy, variant) combination."""
    from solver.thegame.experiment import TheGameExperiment
    from solver.thegame.strategies import parse_strategies
    from solver.thegame.variants import get_variant

    counts = parse_int_list(players, "players", 1, 5)
    specs = parse_strategies(strategy)
    names = [get_variant(v.strip()).name for v in variants.split(",")]
    experiments = [TheGameExperiment(p, spec.label, v) for v in names for spec in specs for p in counts]
    run_and_report(
        experiments, games=games, seed=seed, workers=workers, backend=backend, scheduler=scheduler,
        block_size=block_size, output=output, fmt=fmt, quiet=quiet, plot=plot,
        extra_outputs=[(histogram, lambda r: histogram_rows(r, ["variant", "players", "strategy"]))],
    )


@group.command()
@click.option("--players", "-p", type=int, default=1, show_default=True, help="Number of players (1-5).")
@click.option("--strategy", "-s", default="planner", show_default=True, help="One strategy spec.")
@click.option("--variant", "-v", default="standard", show_default=True, help="standard, hard or on-fire.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=1, show_default=True,
              help="Seed of the shuffle.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Write the replayable JSON Lines log here ('-' is stdout).")
def play(players, strategy, variant, seed, log_path) -> None:
    """Play one game and print its result (and optionally write its log)."""
    from solver.montecarlo.output import check_writable, write_text_atomic
    from solver.thegame.play import play_seed
    from solver.thegame.strategies import parse_strategy
    from solver.thegame.variants import get_variant, hand_size

    hand_size(players)
    spec = parse_strategy(strategy)
    var = get_variant(variant)
    check_writable(log_path)
    log = play_seed(players, var, spec, seed)
    if log_path == "-":
        click.echo(log.jsonl(), nl=False)
        return
    if log_path:
        write_text_atomic(log_path, log.jsonl())
    result = "win" if log.win else "loss"
    click.echo(f"{result}: {log.cards_left} cards left after {len(log.turns)} turns "
               f"({players} players, {spec.label}, {var.name}, seed {seed})")


@group.command()
@click.argument("log_file", type=click.Path(dir_okay=False))
def replay(log_file) -> None:
    """Check a game log against the rules; report the first line that breaks them."""
    from solver.thegame.replay import check_file

    summary = check_file(log_file)
    result = "win" if summary.win else "loss"
    click.echo(f"{log_file}: valid ({summary.players} players, {summary.variant}, {summary.turns} turns, "
               f"{result}, {summary.cards_left} cards left)")
