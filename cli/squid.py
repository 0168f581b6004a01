"""`solver squid` commands: simulate (Monte Carlo analysis of the Squid Game board game), params (the
default parameter file), play (one game, round by round, with a JSON Lines log) and replay (check such a log)."""

from __future__ import annotations

from pathlib import Path

import click

from solver.cli.options import (
    MAX_SEED,
    monte_carlo_options,
    parse_int_list,
    run_and_report,
    write_log,
)
from solver.errors import SolverError
from solver.squid.experiment import HUMAN
from solver.squid.params import DEFAULT_FILE, engine_dict, load_params, parse_sweep, with_value
from solver.squid.play import GameLog


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
    write_log(output, DEFAULT_FILE.read_text(encoding="utf-8"))


@group.command()
@click.option("--players", "-p", type=click.IntRange(3, 6), default=5, show_default=True, help="Players (3-6).")
@click.option("--strategy", "-s", default="random", show_default=True,
              help="Policy per seat: random, careful, bold, equilibrium, or human (asked at the "
                   "terminal); one name = all seats, or a comma-separated list with one name per seat.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=1, show_default=True,
              help="Seed of the game (without a human seat: the first game of simulate with this seed).")
@click.option("--params", "params_file", type=click.Path(dir_okay=False), default=None,
              help="TOML file overriding the documented default parameters.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Write the replayable JSON Lines log here ('-' is stdout instead of the move list).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the winner, not the move list.")
def play(players: int, strategy: str, seed: int, params_file: str | None, log_path: str | None,
         quiet: bool) -> None:
    """Play one game and print it sub-game by sub-game, round by round: secret cards revealed, cards
    turned, tokens moved, eliminated and surviving.  A ``human`` seat is asked for each of its
    decisions, seeing what its player may see (the others' secret cards and the bridge's cracks
    stay hidden until revealed)."""
    from solver.montecarlo.output import check_writable
    from solver.squid.experiment import parse_strategies
    from solver.squid.play import play_game

    names = parse_strategies(strategy, players, human=True)
    params = load_params(params_file)
    check_writable(log_path)
    if HUMAN in names:
        if log_path == "-":
            raise SolverError("a human seat is asked on standard output: write the --log to a file")
        log = _play_with_humans(players, names, seed, params, quiet)
    else:
        log = play_game(players, names, seed, params)
    if write_log(log_path, log.jsonl()):
        return
    if quiet:
        result = log.lines[-1]
        click.echo(f"player {result['winner']} wins ({result['result'].replace('_', ' ')})")
    else:
        click.echo(log.text(), nl=False)


def _play_with_humans(players: int, names: tuple[str, ...], seed: int, params: dict, quiet: bool) -> GameLog:
    """One game through the decision API: each ``human`` seat is asked at the terminal (what it
    may see of the game so far, then its options); the other seats play their policies."""
    from solver.squid.decisions import SquidGame, play_seats

    shown = [0]   # move-list lines already printed in full

    def ask(game: SquidGame) -> int:
        d = game.decision
        lines = game.view(d.player).splitlines()
        if not quiet:
            for line in lines[shown[0]:]:
                if not line.endswith(": "):   # a round with nothing to show yet
                    click.echo(line)
            shown[0] = len(lines) - 1   # the last line grows: print it again next time
        options = "  ".join(f"{i}) {game.label(a)}" for i, a in enumerate(d.options, 1))
        click.echo(f"P{d.player}, {d.kind.replace('_', ' ').replace('.', ': ')}?  {options}")
        return d.options[click.prompt("choice", type=click.IntRange(1, len(d.options))) - 1]

    game = play_seats(SquidGame(players, seed, params, names), ask)
    if not quiet:
        for line in game.view().splitlines()[shown[0]:]:
            click.echo(line)
    return game.log()


@group.command()
@click.argument("log_file", type=click.Path(dir_okay=False))
def replay(log_file: str) -> None:
    """Check a game log against every rule; report the first line that breaks one (exit status 2)."""
    from solver.squid.replay import check_file

    s = check_file(log_file)
    click.echo(f"{log_file}: valid ({s.players} players, {s.lines} lines, player {s.winner} wins by "
               f"{s.how.replace('_', ' ')})")
