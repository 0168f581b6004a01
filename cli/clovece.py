"""`solver clovece` commands: simulate (Monte Carlo table per seat), tournament, check (validate board/deck
files), play (one game, move by move, with a JSON Lines log), replay (check such a log) and move (which
pawn each strategy moves in a classic position)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from solver.cli.options import (
    MAX_SEED,
    monte_carlo_options,
    parse_int_list,
    run_and_report,
    write_log,
)
from solver.clovece.strategies import AFTER_SIX as _AFTER_SIX
from solver.clovece.strategies import DRINK_RULES as _DRINKS
from solver.clovece.strategies import FIRST as _FIRST
from solver.errors import SolverError

if TYPE_CHECKING:
    from solver.clovece.play import GameLog


def rule_options(f):
    """The rule options shared by simulate and play (defaults: the rulebook as we read it)."""
    f = click.option("--first", type=click.Choice(_FIRST), default="seat0", show_default=True,
                     help="Who starts: the player on seat 0, or a player drawn at random for every "
                          "game (separates the first-move advantage from the seat).")(f)
    f = click.option("--after-six", type=click.Choice(_AFTER_SIX), default="one-roll", show_default=True,
                     help="Classic: after a 6 that leaves nothing to move, one more roll (rule) or "
                          "three tries again (house rule).")(f)
    f = click.option("--drinks", type=click.Choice(_DRINKS), default="per-reason", show_default=True,
                     help="Napij-se: one drink for every reason that applies (a captured pawn: captured "
                          "+ return to the pub) or one drink per event (house rule).")(f)
    return f


def _rules(variant: str, drinks: str, after_six: str, first: str, board, deck) -> str:
    """The variant column: the variant plus every file and non-default rule option."""
    from solver.errors import SolverError

    if variant == "classic" and (board or deck):
        raise SolverError("--board and --deck apply to --variant napij-se only")
    if variant == "classic" and drinks != _DRINKS[0]:
        raise SolverError("--drinks applies to --variant napij-se only")
    if variant == "napij-se" and after_six != _AFTER_SIX[0]:
        raise SolverError("--after-six applies to --variant classic only (napij-se rolls all dice "
                          "before moving)")
    parts = [variant] + [f"{kind}={Path(f).name}" for kind, f in (("board", board), ("deck", deck)) if f]
    parts += [f"{name}={value}" for name, value, default in (
        ("drinks", drinks, _DRINKS[0]), ("after-six", after_six, _AFTER_SIX[0]), ("first", first, _FIRST[0]))
        if value != default]
    return "+".join(parts)


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
@rule_options
@monte_carlo_options(default_games=20_000, default_block_size=2000)
def simulate(variant, players, strategy, board, deck, drinks, after_six, first, games, seed, workers, backend,
             scheduler, block_size, output, fmt, quiet, plot) -> None:
    """Per seat: win rate with 95 % interval, game length, drinks, captures, Black path use."""
    from solver.clovece.board import read_board_text
    from solver.clovece.deck import read_deck_text
    from solver.clovece.experiment import CloveceExperiment
    from solver.clovece.strategies import parse_strategy_list

    counts = parse_int_list(players, "players", 2, 4)
    label = _rules(variant, drinks, after_six, first, board, deck)
    board_text = deck_text = None
    if variant == "napij-se":   # validate now: a broken file is a one-line error before any work
        board_text = read_board_text(board) if board else None
        deck_text = read_deck_text(deck) if deck else None
    experiments = [
        CloveceExperiment(variant, n, parse_strategy_list(strategy, n), board_text, deck_text, label,
                          drinks, after_six, first)
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
    classes = Counter(c or "unclassified" for c in d.classes)
    click.echo("  " + ", ".join(f"{n} {c}" for c, n in classes.items()))


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


@group.command()
@click.option("--variant", "-v", type=click.Choice(["classic", "napij-se"]), default="napij-se",
              show_default=True, help="Rules.")
@click.option("--players", "-p", type=click.IntRange(2, 4), default=4, show_default=True, help="Players (2-4).")
@click.option("--strategy", "-s", default="random", show_default=True,
              help="One strategy for every seat or one per seat in turn order; 'human' is a seat "
                   "asked at the terminal.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=1, show_default=True,
              help="Seed of the game (without a human seat: the same as one game of simulate with this "
                   "seed; with one, of the dice and the strategies' random picks).")
@click.option("--board", type=click.Path(dir_okay=False), default=None, help="Board graph JSON file (napij-se).")
@click.option("--deck", type=click.Path(dir_okay=False), default=None, help="Card deck JSON file (napij-se).")
@rule_options
@click.option("--log", "log_path", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Write the replayable JSON Lines log here ('-' is stdout instead of the move list).")
def play(variant, players, strategy, seed, board, deck, drinks, after_six, first, log_path) -> None:
    """Play one game and print it move by move: rolls, moves, captures, cards, the Bottle, drinks.
    A ``human`` seat is asked at the terminal for each of its decisions (napij-se: the Bottle call,
    the moves, a capture or swap card's target; classic: the pawn, when two or more may move)."""
    from solver.clovece.board import read_board_text
    from solver.clovece.deck import read_deck_text
    from solver.clovece.play import play_classic, play_napij
    from solver.clovece.strategies import HUMAN, parse_strategy_list
    from solver.montecarlo.output import check_writable

    _rules(variant, drinks, after_six, first, board, deck)
    names = parse_strategy_list(strategy, players, human=True)
    check_writable(log_path)
    board_text = read_board_text(board) if board else None
    deck_text = read_deck_text(deck) if deck else None
    if HUMAN in names:
        if log_path == "-":
            raise SolverError("a human seat is asked on standard output: write the --log to a file")
        log = _play_with_humans(variant, players, names, seed, drinks, after_six, first, board_text, deck_text)
    elif variant == "classic":
        log = play_classic(players, names, seed, after_six, first)
    else:
        log = play_napij(players, names, seed, drinks, first, board_text, deck_text)
    if write_log(log_path, log.jsonl()):
        return
    if HUMAN not in names:
        click.echo(log.text(), nl=False)


def _play_with_humans(variant: str, players: int, names: tuple[str, ...], seed: int, drinks: str,
                      after_six: str, first: str, board_text: str | None, deck_text: str | None) -> GameLog:
    """One game through the decision API: the move list as it grows, and each ``human`` seat asked
    for its decision by number; the other seats play their strategies."""
    from solver.clovece.classic import describe_move
    from solver.clovece.table import classic_game_log, play_classic_seats, play_napij_seats

    shown = [0]   # move-list lines printed in full (the last one grows: printed again)

    def show(text: str) -> None:
        lines = text.splitlines()
        for line in lines[shown[0]:]:
            click.echo(line)
        shown[0] = len(lines) - 1

    def pick(header: str, labels: list[str]) -> int:
        if len(labels) == 1:
            click.echo(f"{header}: {labels[0]} (the only choice)")
            return 0
        click.echo(f"{header}:  " + "  ".join(f"{i}) {text}" for i, text in enumerate(labels, 1)))
        return click.prompt("choice", type=click.IntRange(1, len(labels))) - 1

    if variant == "classic":
        def ask_classic(game, die, pawns):
            show(classic_game_log(game, names, seed, after_six, first).text())
            p = game.to_play
            return pawns[pick(f"P{p} rolled {die}", [describe_move(game, die, k) for k in pawns])]

        log = play_classic_seats(players, names, seed, after_six, first, ask_classic)
    else:
        def ask_napij(game):
            show(game.log().text())
            p = game.to_play
            where = ", ".join(game.pawns()[p]) + (f"; the Bottle on {game.bottle}" if game.bottle else "")
            if game.phase == "announce":
                return pick(f"P{p} (pawns {where})", ["roll for the pawns", "announce: the roll moves the Bottle"]) == 1
            options = game.legal_moves()
            if game.phase == "target":
                return options[pick(f"P{p} (pawns {where}), the {options[0].kind} card takes",
                                    [t.text() for t in options])]
            return options[pick(f"P{p} (pawns {where}), dice {', '.join(map(str, game.dice))}",
                                [m.text() for m in options])]

        log = play_napij_seats(players, names, seed, drinks, first, board_text, deck_text, ask_napij).log()
    show(log.text())
    return log


@group.command()
@click.option("--pawns", "rows", multiple=True, required=True,
              help="One player's four pawns, in turn order, once per player (2-4 times): fields as in "
                   "the game log, e.g. 'L3, pub, pub, H0.1' (pub = waiting, L0..L39 the loop, "
                   "H<seat>.1..4 the player's home; 2 players sit on seats 0 and 2).")
@click.option("--to-play", type=click.IntRange(0, 3), default=0, show_default=True, help="Player who rolled.")
@click.option("--die", type=click.IntRange(1, 6), required=True, help="The die the player rolled.")
@click.option("--strategy", "-s", default="all", show_default=True,
              help="Strategy to ask, or 'all' for every one.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=1, show_default=True,
              help="Seed of the random strategy's pick.")
def move(rows, to_play, die, strategy, seed) -> None:
    """Classic: which pawn each strategy moves in a position (the engine's own decision code)."""
    from solver.clovece.classic import ClassicGame, choose_move, describe_move, position_from_fields
    from solver.clovece.strategies import STRATEGIES
    from solver.errors import SolverError

    names = STRATEGIES if strategy == "all" else (strategy,)
    if strategy != "all" and strategy not in STRATEGIES:
        raise SolverError(f"unknown strategy {strategy!r} (known: all, {', '.join(STRATEGIES)})")
    game = ClassicGame.from_position(position_from_fields(list(rows)), to_play)
    if game.is_over:
        raise SolverError(f"player {game.winner} has already won in this position")
    legal = game.legal_moves(die)
    click.echo(f"P{to_play} (seat {game.seats[to_play]}) rolled {die}: "
               + ("; ".join(describe_move(game, die, k) for k in legal) if legal else "no pawn can move"))
    width = max(len(n) for n in names)
    for name in names:
        k = choose_move(game, die, name, seed)
        click.echo(f"{name:<{width}}  " + ("-" if k is None else describe_move(game, die, k)))


@group.command()
@click.argument("log_file", type=click.Path(dir_okay=False))
def replay(log_file) -> None:
    """Check a game log against every rule; report the first line that breaks one (exit status 2)."""
    from solver.clovece.replay import check_file

    s = check_file(log_file)
    result = f"player {s.winner} wins" if s.winner is not None else "abandoned"
    click.echo(f"{log_file}: valid ({s.variant}, {s.players} players, {s.turns} turns, {result})")


@group.command()
@click.argument("kind", type=click.Choice(["board", "deck"]))
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              show_default=True, help="Where to write the file.")
def template(kind: str, output: str) -> None:
    """Print the shipped napij-se board or deck file, a template to edit for --board / --deck."""
    from solver.clovece.board import default_board_path
    from solver.clovece.deck import default_deck_path

    path = default_board_path() if kind == "board" else default_deck_path()
    write_log(output, path.read_text(encoding="utf-8"))
