"""`solver clovece` commands: simulate (Monte Carlo table per seat) and check (validate board/deck files)."""

from __future__ import annotations

from pathlib import Path

import click

from solver.cli.options import monte_carlo_options, parse_int_list, run_and_report


@click.group(name="clovece")
def group() -> None:
    """Člověče, nezlob se (classic) and Člověče, napij se!: rules engine and Monte Carlo analysis."""


@group.command()
@click.option("--variant", "-v", type=click.Choice(["classic", "napij-se"]), default="napij-se",
              show_default=True, help="Rules: classic Člověče, nezlob se or Člověče, napij se!.")
@click.option("--players", "-p", default="4", show_default=True,
              help="Player counts 2..4: 4, 2,4 or 2-4 (2 players sit on seats 0,2; 3 on 0,1,2).")
@click.option("--strategy", "-s", default="random", show_default=True,
              help="random, runner, hunter, cautious, shortcut or best; one for all seats or one per "
                   "seat in turn order, e.g. runner,random,random,random.")
@click.option("--board", type=click.Path(dir_okay=False), default=None,
              help="Board graph JSON file (napij-se; default: our reconstruction).")
@click.option("--deck", type=click.Path(dir_okay=False), default=None,
              help="Card deck JSON file (napij-se; default: our 32-card deck).")
@monte_carlo_options(default_games=20_000, default_block_size=2000)
def simulate(variant, players, strategy, board, deck, games, seed, workers, backend, scheduler,
             block_size, output, fmt, quiet, plot) -> None:
    """Per seat: win rate with 95 % interval, game length, drinks, captures, Black path use."""
    from solver.clovece.board import read_board_text
    from solver.clovece.deck import read_deck_text
    from solver.clovece.experiment import CloveceExperiment
    from solver.clovece.strategies import parse_strategy_list
    from solver.errors import SolverError

    counts = parse_int_list(players, "players", 2, 4)
    if variant == "classic" and (board or deck):
        raise SolverError("--board and --deck apply to --variant napij-se only")
    board_text = deck_text = None
    if variant == "napij-se":   # validate now: a broken file is a one-line error before any work
        board_text = read_board_text(board) if board else None
        deck_text = read_deck_text(deck) if deck else None
    label = "+".join([variant] + [f"{kind}={Path(f).name}" for kind, f in (("board", board), ("deck", deck)) if f])
    experiments = [
        CloveceExperiment(variant, n, parse_strategy_list(strategy, n), board_text, deck_text, label)
        for n in counts
    ]
    run_and_report(experiments, games=games, seed=seed, workers=workers, backend=backend,
                   scheduler=scheduler, block_size=block_size, output=output, fmt=fmt, quiet=quiet, plot=plot)


@group.command()
@click.option("--board", type=click.Path(dir_okay=False), default=None, help="Board graph JSON file.")
@click.option("--deck", type=click.Path(dir_okay=False), default=None, help="Card deck JSON file.")
def check(board, deck) -> None:
    """Validate a board and a deck file (default: the shipped ones) and summarise them."""
    from collections import Counter

    from solver.clovece.board import KINDS, load_board
    from solver.clovece.deck import CARD_KINDS, load_deck

    b = load_board(board)
    d = load_deck(deck)
    kinds = Counter(KINDS[k] for k in b.arrays["kind"])
    click.echo(f"board: {b.name}: {len(b.ids)} fields ("
               + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) + ")")
    for s in range(4):
        start = b.arrays["start"][s]
        click.echo(f"  seat {s}: start {b.ids[start]}, shortest way home {b.arrays['dist'][s][start]} steps")
    cards = Counter(CARD_KINDS[k] for k in d.kind)
    click.echo(f"deck: {d.name}: {len(d.kind)} cards (" + ", ".join(f"{n} {k}" for k, n in cards.items()) + ")")


@group.command()
@click.option("--variant", "-v", type=click.Choice(["classic", "napij-se"]), default="napij-se",
              show_default=True, help="Rules.")
@click.option("--strategies", default="random,runner,hunter,cautious,shortcut,best", show_default=True,
              help="Strategies to pit against each other.")
@click.option("--matrix", type=click.Path(dir_okay=False), default=None,
              help="Also write the matrix: win rate of one S against three X, averaged over S's four seats.")
@monte_carlo_options(default_games=2000, default_block_size=1000)
def tournament(variant, strategies, matrix, games, seed, workers, backend, scheduler, block_size, output,
               fmt, quiet, plot) -> None:
    """Four players: every strategy S against three copies of every X, S on each seat in turn
    (--plot draws the matrix)."""
    from solver.clovece.experiment import CloveceExperiment, tournament_matrix
    from solver.clovece.strategies import parse_strategy_list

    names = parse_strategy_list(strategies, len(strategies.split(",")))
    experiments = []
    for s in names:
        for x in names:
            if s == x:  # four equal players: one run covers every seat
                experiments.append(CloveceExperiment(variant, 4, (x,) * 4))
                continue
            for seat in range(4):
                lineup = [x] * 4
                lineup[seat] = s
                experiments.append(CloveceExperiment(variant, 4, tuple(lineup)))
    run_and_report(experiments, games=games, seed=seed, workers=workers, backend=backend,
                   scheduler=scheduler, block_size=block_size, output=output, fmt=fmt, quiet=quiet,
                   plot=plot, extra_outputs=[(matrix, lambda r: tournament_matrix(r, names))],
                   plot_rows=lambda r: tournament_matrix(r, names))
