"""`solver blokus` commands: moves, perft, show, selfplay, play (one decision), gtp, match, lines."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click
import numpy as np

from solver.blokus.players import MAX_THREADS
from solver.blokus.selfplay import SelfPlay, strategies_for
from solver.blokus.variants import FIRST_MOVE_RULES, TOUCH_RULES, VARIANTS, variant_by_name
from solver.cli.options import monte_carlo_options, run_and_report
from solver.montecarlo.output import check_writable, write_text_atomic
from solver.montecarlo.seeding import block_seed
from solver.montecarlo.signals import Interrupted, SignalGuard

if TYPE_CHECKING:
    from solver.blokus.match import Match

#: at most this many self-play games go into an --sgf file
SGF_MAX_GAMES = 1000

variant_option = click.option("--variant", default="classic", show_default=True,
                              help=f"Variant: {', '.join(VARIANTS)}.")
first_move_option = click.option("--first-move", type=click.Choice(FIRST_MOVE_RULES), default="start-cell",
                                 show_default=True,
                                 help="start-cell: each colour's own corner (Duo: e10/j5; Trigon: "
                                      "any of the six start points); any-corner: any corner square "
                                      "of the board (square boards).")
touch_option = click.option("--touch", type=click.Choice(TOUCH_RULES), default="standard", show_default=True,
                            help="How pieces of one colour may meet: standard (at corners, never "
                                 "along an edge) or corners-only (Trigon's advanced rule: not even "
                                 "where a side runs straight on; see docs/blokus.md).")


@click.group(name="blokus")
def group() -> None:
    """Blokus: legal moves, perft, board pictures and self-play (Pentobi SGF records)."""


def _load(path: str):
    from solver.blokus.sgf import read_file

    return read_file(path)

ponder_option = click.option("--ponder", is_flag=True,
                             help="mcts with --time: think on (one tree) while the opponent thinks; "
                                  "the moves then depend on the opponent's thinking time.")


@group.command()
@click.argument("game_file", metavar="GAME.blksgf")
@click.option("--color", "--colour", "colour", default=None,
              help="Colour to list moves for (name, first letter, 1-4 or B/W; default: the colour to play).")
@click.option("--count", is_flag=True, help="Print only the number of legal moves.")
def moves(game_file: str, colour: str | None, count: bool) -> None:
    """Every legal move of the colour to play (or --color) after the record, one per line."""
    game = _load(game_file)
    k = game.to_play if colour is None else game.colour_index(colour)
    if k is None:
        click.echo("0" if count else "game over: no colour can move")
        return
    codes = game.legal_codes(k)
    if count:
        click.echo(str(len(codes)))
        return
    lines = [game.move_text(game.move_from_code(k, c)) for c in codes]
    if lines:
        click.echo("\n".join(lines))


@group.command()
@variant_option
@first_move_option
@touch_option
@click.option("--depth", "-d", type=click.IntRange(min=1, max=12), default=3, show_default=True,
              help="Number of plies.")
def perft(variant: str, first_move: str, touch: str, depth: int) -> None:
    """Move sequences of each length 1..DEPTH from the start (a forced pass counts as one move)."""
    from solver.blokus.game import Game

    game = Game(variant_by_name(variant, first_move, touch))
    click.echo("depth,sequences")
    for d, n in enumerate(game.position.perft(depth), start=1):
        click.echo(f"{d},{n}")


@group.command()
@click.argument("game_file", metavar="GAME.blksgf")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Also write the board as an SVG picture to this file.")
@click.option("--ansi/--no-ansi", "ansi", default=None,
              help="Coloured text (default: when the output is a terminal).")
def show(game_file: str, svg_file: str | None, ansi: bool | None) -> None:
    """The board after the record as text, with scores; optionally as SVG."""
    from solver.render.board import svg_board, text_board

    game = _load(game_file)
    if svg_file:
        check_writable(svg_file)
    v = game.variant
    if ansi is None:
        ansi = sys.stdout.isatty()
    click.echo(text_board(v.geometry, game.placements(), ansi=ansi))
    scores = game.colour_scores()
    points = game.pentobi_points()
    for k, name in enumerate(v.colours):
        click.echo(f"{name:7s} score {scores[k]:4d}  points {points[k]:3d}  pieces left: "
                   f"{' '.join(game.pieces_left(k)) or '-'}")
    if v.n_sides != v.n_colours or not all(v.counted):
        click.echo("sides: " + ", ".join(f"{n} {s}" for n, s in zip(v.side_names(), game.scores, strict=True)))
    to_play = game.to_play
    click.echo(f"{len(game.moves)} moves; " + ("game over" if to_play is None
                                               else f"{v.colours[to_play]} to play"))
    if svg_file:
        title = f"Blokus {v.name}, after {len(game.moves)} moves"
        marks = v.start_cells if v.shared_starts else ()
        write_text_atomic(svg_file, svg_board(v.geometry, game.placements(), title=title, marks=marks))


@group.command()
@variant_option
@first_move_option
@touch_option
@click.option("--strategy", "strategy", default="random", show_default=True,
              help="Strategy per seat (player), comma-separated, or one for all: random, greedy, "
                   "mc, mc:CANDIDATES:PLAYOUTS, mcts or mcts:PLAYOUTS[:key=value...] "
                   "(key@SEAT=value: for one seat only).")
@click.option("--sgf", "sgf_file", type=click.Path(dir_okay=False), default=None,
              help="Write the first --sgf-games games (of the first block) as an SGF collection.")
@click.option("--sgf-games", type=click.IntRange(min=1, max=SGF_MAX_GAMES), default=20, show_default=True,
              help="How many games --sgf writes (at most --games and --block-size).")
@click.option("--heatmap", type=click.Path(dir_okay=False), default=None,
              help="Draw per colour how often each cell is covered at the end (all games, and the "
                   "games its side won) to this .svg, .png or .pdf file (needs the plot extra).")
@monte_carlo_options(default_games=1000, default_block_size=200)
def selfplay(variant: str, first_move: str, touch: str, strategy: str, sgf_file: str | None, sgf_games: int,
             heatmap: str | None, games: int, seed: int, workers: int | None, backend: str,
             scheduler: str | None, block_size: int, output: str, fmt: str, quiet: bool, plot: str | None) -> None:
    """Self-play Monte Carlo: per seat win rate (outright and shared), mean score, share of colours
    placing all pieces, mean game length and legal moves per ply."""
    v = variant_by_name(variant, first_move, touch)
    strategies = strategies_for(v, strategy)
    exp = SelfPlay(v.name, first_move, strategies, coverage=bool(heatmap), touch=touch)
    if sgf_file:
        check_writable(sgf_file)
    run_and_report([exp], games=games, seed=seed, workers=workers, backend=backend, scheduler=scheduler,
                   block_size=block_size, output=output, fmt=fmt, quiet=quiet, plot=plot,
                   pictures=[(heatmap, lambda r, path, footer: _draw_heatmap(v, r, path, footer))])
    if sgf_file:
        from solver.blokus.sgf import write_games

        n = min(sgf_games, games, block_size)
        recorded = exp.record(block_seed(seed, 0), n)
        entries = []
        for i, g in enumerate(recorded, start=1):
            comment = (f"self-play {v.name} seed {seed} game {i}; strategies {','.join(strategies)}; "
                       f"side scores {' '.join(map(str, g.scores))}; colour scores "
                       f"{' '.join(map(str, g.colour_scores()))}; Pentobi points "
                       f"{' '.join(map(str, g.pentobi_points()))}")
            entries.append((g, f"selfplay {i}", comment))
        write_text_atomic(sgf_file, write_games(entries))


def _draw_heatmap(v, result, path: str, footer: str) -> None:
    """The --heatmap picture of a self-play run of variant ``v`` (its one experiment's tally)."""
    from solver.blokus.variants import ROTATING
    from solver.plot.heatmap import coverage_title, draw_coverage

    tally, games = result.tallies[0] or {}, result.games[0]
    empty = np.zeros((v.n_colours, v.height, v.width), dtype=np.int64)
    won = tally.get("won_games", np.zeros(v.n_colours, dtype=np.int64))
    won_games = [-1 if v.player_of[k] == ROTATING else int(won[k]) for k in range(v.n_colours)]
    draw_coverage(v.geometry, v.colours, tally.get("covered", empty), games, tally.get("won_covered", empty),
                  won_games, path, title=coverage_title(v.name, games), footer=footer,
                  partial=not result.complete)


strategy_help = ("random, greedy, mc[:CANDIDATES:PLAYOUTS] or mcts[:PLAYOUTS[:key=value...]] "
                 "(key@SEAT=value: for one seat only, 0 first; see docs/blokus.md for the mcts "
                 "parameters).")
time_option = click.option("--time", "seconds", type=click.FloatRange(0.001, 3600), default=None,
                           help="Seconds per move for mcts (instead of its playout budget); gtp and "
                                "match: the mean per move over a game (time a book move saves goes "
                                "to the next moves, and so do three quarters of classic-2's opening "
                                "moves' time: mcts keys open_moves, open_share; Duo grants the early "
                                "middle game more and the endgame less: time_power, time_end).")
book_option = click.option("--book/--no-book", default=True, show_default=True,
                           help="mcts: play the variant's opening book moves where it has them (Duo).")
threads_option = click.option("--threads", type=click.IntRange(1, MAX_THREADS), default=1, show_default=True,
                              help="mcts: threads searching the one tree at once (not reproducible "
                                   "with more than one).")


@group.command()
@click.argument("game_file", metavar="GAME.blksgf")
@click.option("--strategy", default="mcts", show_default=True, help="Strategy: " + strategy_help)
@time_option
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=1, show_default=True,
              help="Seed: the same seed and playout budget give the same move.")
@threads_option
@book_option
@click.option("--verbose", "-v", is_flag=True, help="Also list the best candidates (mcts: visits and values).")
def play(game_file: str, strategy: str, seconds: float | None, seed: int, threads: int, book: bool,
         verbose: bool) -> None:
    """The move the strategy plays for the colour to play after the record."""
    from solver.blokus.players import MctsPlayer, choose_move, parse_strategy

    game = _load(game_file)
    spec = parse_strategy(strategy)
    if seconds is not None and spec.name != "mcts":
        raise click.UsageError(f"--time is for mcts, not {spec.name}")
    if threads > 1 and spec.name != "mcts":
        raise click.UsageError(f"--threads is for mcts, not {spec.name}")
    k = game.to_play
    if k is None:
        click.echo("game over: no colour can move")
        return
    colour = game.colour_name(k)
    if spec.name != "mcts":
        move = choose_move(game, spec, seed=seed)
        click.echo(f"{colour} {game.move_text(move)}")
        return
    player = MctsPlayer(game.variant, spec, seed=seed, threads=threads, reuse=False, book=book)
    move, cands, stats = player.genmove(game, seconds=seconds)
    click.echo(f"{colour} {game.move_text(move)}")
    if verbose and stats.get("book"):
        click.echo("# from the opening book (--no-book to search instead)")
    elif verbose and stats.get("solved"):
        click.echo(f"# the exact endgame search proved a {stats['solved']} for {colour}'s side "
                   f"({stats['solved_nodes']} positions; no simulations run)")
    elif verbose:
        settled = " (the choice was settled: stopped early, stop_early)" if stats.get("stopped_early") else ""
        click.echo(f"# {stats['playouts']} playouts{settled}; candidates by visits (value: win share blended "
                   "with score margin, for the mover's side)")
        click.echo("move,piece,visits,value,rave_visits,rave_value")
        for c in cands[:10]:
            click.echo(f"{game.move_text(c.move)},{c.move.piece},{c.visits:.0f},{c.value:.3f},"
                       f"{c.rave_visits:.0f},{c.rave_value:.3f}")


@group.command()
@click.argument("game_file", metavar="GAME.blksgf")
@click.option("--max-nodes", type=click.IntRange(0, 10**12), default=0, show_default=True,
              help="Give up after this many positions (0: no limit).")
@click.option("--time", "seconds", type=click.FloatRange(0, 86400), default=60.0, show_default=True,
              help="Give up after this many seconds (0: no limit).")
def endgame(game_file: str, max_nodes: int, seconds: float) -> None:
    """Who wins the record's position with best play of both sides, by how much, and a move
    that does it: the game searched to its end (two-sided variants; feasible in the last
    moves of a game, about ten placements in Duo)."""
    from solver.blokus.endgame import solve_endgame

    game = _load(game_file)
    found = solve_endgame(game, max_nodes=max_nodes, seconds=seconds)
    if found is None:
        raise click.ClickException("the position is too large for the exact search within the limits "
                                   "(--max-nodes, --time)")
    if found.colour is None:
        click.echo(f"game over: margin {found.margin:+d} for {game.variant.side_names()[0]}")
        return
    colour = game.colour_name(found.colour)
    verb = {"win": "wins", "draw": "draws", "loss": "loses"}[found.result]
    click.echo(f"{colour} to play {verb} with best play: margin {found.margin:+d} for its side, "
               f"playing {game.move_text(found.move)} ({found.nodes} positions searched)")


@group.command()
@variant_option
@click.option("--strategy", default="mcts", show_default=True, help="Strategy: " + strategy_help)
@time_option
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=1, show_default=True, help="Seed.")
@threads_option
@book_option
@ponder_option
def gtp(variant: str, strategy: str, seconds: float | None, seed: int, threads: int, book: bool,
        ponder: bool) -> None:
    """A GTP engine on stdin/stdout in the dialect of Pentobi's (set_game, play, genmove, undo,
    all_legal, final_score, showboard, loadsgf, savesgf, ...)."""
    from solver.blokus.gtp import GtpEngine

    engine = GtpEngine(variant_by_name(variant), strategy, seed=seed, seconds=seconds, threads=threads,
                       book=book, ponder=ponder)

    def write(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    engine.run(sys.stdin.readline, write)


@group.command()
@click.option("--variant", type=click.Choice([n for n, v in VARIANTS.items() if v.n_players == 2]),
              default="duo", show_default=True, help="Two-player variant.")
@click.option("--strategy", default="mcts", show_default=True, help="Our strategy: " + strategy_help)
@click.option("--opponent", required=True,
              help='Command line of the opponent GTP engine, e.g. "pentobi-gtp --game duo --level 1 '
                   '--noresign --quiet --book book_duo.blksgf" or "solver blokus gtp --variant duo".')
@click.option("--games", "-n", type=click.IntRange(1, 100000), default=20, show_default=True,
              help="Games; our player moves first in the even ones.")
@time_option
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=1, show_default=True, help="Seed.")
@threads_option
@book_option
@ponder_option
@click.option("--equal-time", is_flag=True,
              help="With --time (the first game's budget): after each game set our time per move so "
                   "that our mean follows the opponent's mean time per move so far -- a match at "
                   "equal time on any machine, whatever a fixed level of the opponent takes there.")
@click.option("--game-timeout", type=click.FloatRange(1, 86400), default=600, show_default=True,
              help="Seconds a game may last before it is abandoned (counted as not played).")
@click.option("--openings", "openings_file", type=click.Path(dir_okay=False), default=None,
              help="SGF collection of openings (moves only): games 2i and 2i+1 start from opening "
                   "i (cycled), one with each colour (with --seat first/second, game i from "
                   "opening i); the CSV's opening column names it.")
@click.option("--seat", "our_seat", type=click.Choice(["both", "first", "second"]), default="both",
              show_default=True,
              help="Our seat: alternating (both), or first / second in every game -- to measure a "
                   "change for one seat (key@SEAT=value) with every game.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              show_default=True, help="Per-game CSV ('-' is stdout; the summary then goes to stderr).")
@click.option("--summary", "summary_file", type=click.Path(dir_okay=False), default=None,
              help="Also write the summary as a one-row CSV.")
@click.option("--sgf", "sgf_file", type=click.Path(dir_okay=False), default=None,
              help="Write every game as an SGF collection.")
@click.option("--quiet", "-q", is_flag=True, help="No line per game on stderr.")
def match(variant: str, strategy: str, opponent: str, games: int, seconds: float | None, seed: int,
          threads: int, book: bool, ponder: bool, equal_time: bool, game_timeout: float,
          openings_file: str | None, our_seat: str, output: str, summary_file: str | None,
          sgf_file: str | None, quiet: bool) -> None:
    """Play our strategy against another GTP engine, colours alternating (or our seat fixed with
    --seat); per-game CSV and a summary (score with Wilson interval, score as first and as second
    player, mean margin, time per move of both sides)."""
    from solver.blokus.match import Match
    from solver.blokus.sgf import read_file_games

    for path in (output, summary_file, sgf_file):
        if path and path != "-":
            check_writable(path)
    openings = read_file_games(openings_file) if openings_file else None
    m = Match(variant_by_name(variant), strategy, opponent, seed=seed, seconds=seconds,
              timeout=game_timeout, threads=threads, book=book, ponder=ponder, equal_time=equal_time,
              openings=openings, seat={"both": None, "first": 0, "second": 1}[our_seat])
    played: list = []

    def report(g) -> None:
        played.append(g)
        if not quiet:
            budget = f" at {g.budget:.4f} s per move" if equal_time else ""
            click.echo(f"game {g.index + 1}/{games}: {g.result} {g.margin:+d}{budget}"
                       + (f" ({g.note})" if g.note else ""), err=True)

    complete = False
    with SignalGuard() as guard:   # SIGINT/SIGTERM/SIGHUP: stop, write the finished games, exit 128+N
        m.start()   # a signal while the opponent starts is kept, and stops the match at once
        try:
            guard.arm()
            m.play(games, on_game=report)
            complete = True
        except Interrupted:
            pass
        finally:
            guard.disarm()
            _write_match(m, played, complete, strategy, opponent, seed, output, summary_file, sgf_file)
        if guard.signum is not None:
            click.echo(guard.stopped_line(len(played)), err=True)
            sys.exit(guard.exit_status)


def _write_match(m: Match, played: list, complete: bool, strategy: str, opponent: str, seed: int,
                 output: str, summary_file: str | None, sgf_file: str | None) -> None:
    """The match's per-game CSV, summary and SGF of the games ``played`` (all, or those finished
    when it was stopped)."""
    from solver.blokus.match import game_rows, record_comment, summary
    from solver.blokus.sgf import write_games
    from solver.montecarlo.output import render, write_rows

    write_rows(game_rows(m, played, complete), output)
    s = summary(m, played)
    if summary_file:
        write_rows([{**s, "complete": complete, "seed": seed}], summary_file)
    text = render([s]).rstrip("\n")
    click.echo(("" if complete else "(interrupted) ") + "summary:\n" + text, err=output == "-")
    if sgf_file:
        entries = [(g.game, f"match {g.index + 1}", record_comment(strategy, opponent, g))
                   for g in played if g.game is not None]
        write_text_atomic(sgf_file, write_games(entries))


@group.command()
@click.argument("records", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--plies", type=click.IntRange(1, 40), default=2, show_default=True,
              help="Moves that make a line (1: the first player's first move; 3: up to the first "
                   "player's second move).")
@click.option("--seat", type=click.Choice(["first", "second", "both"]), default="both", show_default=True,
              help="Lines of the games in which our player moved first, second, or both.")
@click.option("--min-games", type=click.IntRange(1, 10**9), default=1, show_default=True,
              help="Leave out lines played fewer times.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              show_default=True, help="CSV of the lines ('-' is stdout).")
@click.option("--suite", "suite_file", type=click.Path(dir_okay=False), default=None,
              help="Also write the listed lines as an SGF opening suite for match --openings.")
def lines(records: tuple[str, ...], plies: int, seat: str, min_games: int, output: str,
          suite_file: str | None) -> None:
    """Our score per opening line in match records (match --sgf files): games grouped by our
    seat and their first moves, most played first, with Wilson interval and mean margin."""
    from solver.blokus.lines import line_table, read_records, suite_games
    from solver.blokus.sgf import write_games
    from solver.montecarlo.output import write_rows

    for path in (output, suite_file):
        if path and path != "-":
            check_writable(path)
    found = read_records(records)
    rows = [r for r in line_table(found, plies)
            if r.games >= min_games and seat in ("both", ("first", "second")[r.seat])]
    write_rows([r.row() for r in rows], output)
    if suite_file:
        if not rows:
            raise click.ClickException("no line is left to write as a suite (see --min-games, --seat)")
        variant = found[0][0].variant.name
        games = suite_games(rows, variant)
        write_text_atomic(suite_file, write_games([(g, f"line {i + 1}", "") for i, g in enumerate(games)]))
