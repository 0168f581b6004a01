"""`solver thegame` commands: simulate (Monte Carlo table), play (one logged game), replay (check a log)."""

from __future__ import annotations

import click

from solver.cli.options import (
    MAX_SEED,
    Seconds,
    histogram_rows,
    monte_carlo_options,
    parse_int_list,
    run_and_report,
)


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
    from solver.cli.options import write_log
    from solver.montecarlo.output import check_writable
    from solver.thegame.play import play_seed
    from solver.thegame.strategies import parse_strategy
    from solver.thegame.variants import get_variant, hand_size

    hand_size(players)
    spec = parse_strategy(strategy)
    var = get_variant(variant)
    check_writable(log_path)
    log = play_seed(players, var, spec, seed)
    if write_log(log_path, log.jsonl()):
        return
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


def _limit_options(func):
    """--node-limit and --time-limit (shared by solve and bound)."""
    func = click.option("--time-limit", type=Seconds(min=0), default=10.0, show_default=True,
                        help="CPU seconds of search per deal (0: none); results depend on the machine when it is hit.")(func)
    return click.option("--node-limit", type=click.IntRange(min=0), default=0, show_default=True,
                        help="Search nodes per deal (0: none); reproducible, unlike --time-limit.")(func)


@group.command()
@click.option("--players", "-p", type=int, default=1, show_default=True, help="Number of players (1-5).")
@click.option("--variant", "-v", default="standard", show_default=True, help="standard, hard or on-fire.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=None,
              help="The deal of `thegame play --seed S`.")
@click.option("--from-log", "from_log", type=click.Path(dir_okay=False), default=None,
              help="Take the deal (deck order) from a `thegame play` log.")
@click.option("--deck", default=None, help="The deal as 98 comma-separated cards, in dealing order.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Write the line found as a replayable JSON Lines log ('-' is stdout).")
@_limit_options
def solve(players, variant, seed, from_log, deck, log_path, node_limit, time_limit) -> None:
    """Decide whether a deal can be won when every card's position is known."""
    from solver._ext import thegame as engine
    from solver.cli.options import write_log
    from solver.errors import SolverError
    from solver.montecarlo.output import check_writable
    from solver.thegame.solve import deck_from_log, parse_deck
    from solver.thegame.solve import solve as solve_deal
    from solver.thegame.variants import get_variant, hand_size

    hand_size(players)
    var = get_variant(variant)
    if sum(x is not None for x in (seed, from_log, deck)) != 1:
        raise SolverError("give exactly one deal: --seed, --from-log or --deck")
    check_writable(log_path)
    if seed is not None:
        cards = engine.shuffled_deck(seed)
    elif from_log is not None:
        cards, seed = deck_from_log(from_log)
    else:
        cards = parse_deck(deck)
    sol = solve_deal(cards, players, var, node_limit=node_limit, time_limit=time_limit, seed=seed)
    if write_log(log_path, sol.log.jsonl()):
        return
    where = f"{players} player{'s' if players > 1 else ''}, {var.name}" + (f", seed {seed}" if seed is not None else "")
    stats = f"{sol.nodes:,} nodes, {sol.seconds:.2f} s"
    if sol.status == "win":
        click.echo(f"winnable ({where}): a winning line of {len(sol.log.turns)} turns ({stats})")
    elif sol.status == "proven":
        click.echo(f"not winnable ({where}): at best {sol.min_left} cards left, proven ({stats})")
    elif sol.min_left > 0:
        click.echo(f"not winnable ({where}): at best {sol.min_left} to {sol.best_left} cards left, "
                   f"limit reached ({stats}); the line shown is the planner's")
    else:
        click.echo(f"unknown ({where}): limit reached ({stats}); the planner's line leaves "
                   f"{sol.best_left} cards")
    for i, (player, plays) in enumerate(sol.log.turns, 1):
        cards_text = " ".join(f"{c}>{k}" for c, k in plays)
        click.echo(f"  turn {i:>2}  player {player}:  {cards_text}")


@group.command()
@click.option("--players", "-p", default="1-5", show_default=True, help="Player counts: 3, 1,3,5 or 1-5.")
@click.option("--variant", "-v", "variants", default="standard", show_default=True,
              help="Comma-separated variants: standard, hard, on-fire.")
@_limit_options
@monte_carlo_options(default_games=100, default_block_size=10)
def bound(players, variants, node_limit, time_limit, games, seed, workers, backend, scheduler, block_size,
          output, fmt, quiet, plot) -> None:
    """Share of deals that can be won at all (every card known), against the planner on the same deals."""
    from solver.thegame.bound import BoundExperiment
    from solver.thegame.variants import get_variant

    counts = parse_int_list(players, "players", 1, 5)
    names = [get_variant(v.strip()).name for v in variants.split(",")]
    experiments = [BoundExperiment(p, v, node_limit, time_limit) for v in names for p in counts]
    run_and_report(experiments, games=games, seed=seed, workers=workers, backend=backend, scheduler=scheduler,
                   block_size=block_size, output=output, fmt=fmt, quiet=quiet, plot=plot)


@group.command()
@click.option("--hand", required=True, help="Your cards, e.g. 7,23,58,61,88,90.")
@click.option("--piles", required=True,
              help="The four tops: ascending pile 0, ascending pile 1, descending 2, descending 3 (1 / 100 untouched).")
@click.option("--played", default=None,
              help="Every card already played (default: only the pile tops, which the piles imply).")
@click.option("--draw-left", type=int, default=None,
              help="Cards in the draw pile (default: the unseen cards minus full hands of the team mates).")
@click.option("--players", "-p", type=int, default=1, show_default=True, help="Number of players (1-5).")
@click.option("--keep-signals", default="", help="Piles team mates asked to keep, e.g. 0,2.")
@click.option("--strategy", "-s", default="planner", show_default=True, help="One strategy spec.")
@click.option("--variant", "-v", default="standard", show_default=True,
              help="standard, hard or on-fire (a fire top is taken to be the previous turn's).")
def advise(hand, piles, played, draw_left, players, keep_signals, strategy, variant) -> None:
    """What the strategy would play now, with its reasons."""
    from solver.thegame.advise import advise as advise_turn
    from solver.thegame.advise import describe, parse_cards, situation
    from solver.thegame.strategies import parse_strategy
    from solver.thegame.variants import get_variant

    spec = parse_strategy(strategy)
    var = get_variant(variant)
    s = situation(parse_cards(hand, "--hand"), parse_cards(piles, "--piles"),
                  None if played is None else parse_cards(played, "--played"), draw_left, players,
                  parse_cards(keep_signals, "--keep-signals"))
    for line in describe(s, advise_turn(s, var, spec), var, spec):
        click.echo(line)
