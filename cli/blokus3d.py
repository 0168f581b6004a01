"""`solver blokus3d` commands: templates, moves, perft, show, selfplay, puzzle."""

from __future__ import annotations

import sys

import click

from solver.blokus3d.templates import DEFAULT_TEMPLATE, PLAYER_COUNTS, TEMPLATES, resolve_template
from solver.cli.options import monte_carlo_options, run_and_report
from solver.montecarlo.output import check_writable, write_text_atomic
from solver.montecarlo.seeding import block_seed

#: at most this many self-play games go into a --record file
RECORD_MAX_GAMES = 1000

template_option = click.option("--template", "-t", "template", default=DEFAULT_TEMPLATE, show_default=True,
                               help=f"Template: {', '.join(TEMPLATES)}, or a template FILE (.toml/.json).")
players_option = click.option("--players", "-p", type=click.Choice([*map(str, PLAYER_COUNTS), "2x2"]),
                              default="4", show_default=True,
                              help="Number of players, one colour each; 2x2: two players with two colours each "
                                   "(Rumis; the better colour counts).")


def _players(text: str) -> tuple[int, int]:
    """``4`` -> (4, 1); ``2x2`` -> (2, 2)."""
    return (2, 2) if text == "2x2" else (int(text), 1)


@click.group(name="blokus3d")
def group() -> None:
    """Blokus 3D (Rumis): templates, legal moves, perft, pictures, self-play and cube puzzles."""


def _game(record: str | None, template: str, players: str):
    from solver.blokus3d.game import Game3D
    from solver.blokus3d.record import read_file

    if record:
        return read_file(record)
    return Game3D(resolve_template(template), *_players(players))


@group.command()
def templates() -> None:
    """The shipped templates: footprint, squares and the height limit for 2, 3 and 4 players."""
    click.echo("name,title,width,depth,squares,height_2p,height_3p,height_4p,description")
    for t in TEMPLATES.values():
        hs = dict(t.heights)
        click.echo(f"{t.name},{t.title},{t.width},{t.depth},{len(t.cells)},"
                   f"{hs.get(2, '')},{hs.get(3, '')},{hs.get(4, '')},\"{t.description}\"")


@group.command()
@click.argument("record", metavar="[GAME.json]", required=False)
@template_option
@players_option
@click.option("--colour", "--color", "colour", default=None,
              help="Colour to list moves for (name, first letter or 1-4; default: the colour to play).")
@click.option("--count", is_flag=True, help="Print only the number of legal moves.")
def moves(record: str | None, template: str, players: str, colour: str | None, count: bool) -> None:
    """Every legal move after the record (or on the empty --template), one per line: piece and cubes."""
    game = _game(record, template, players)
    k = game.to_play if colour is None else game.colour_index(colour)
    found = game.legal_moves(k) if k is not None else []
    if count:
        click.echo(str(len(found)))
    elif found:
        click.echo("\n".join(f"{m.piece} {game.move_text(m)}" for m in found))


@group.command()
@template_option
@players_option
@click.option("--depth", "-d", type=click.IntRange(min=1, max=8), default=2, show_default=True,
              help="Number of plies.")
def perft(template: str, players: str, depth: int) -> None:
    """Placement sequences of each length 1..DEPTH from the empty template."""
    game = _game(None, template, players)
    click.echo("depth,sequences")
    for d, n in enumerate(game.position.perft(depth), start=1):
        click.echo(f"{d},{n}")


@group.command()
@click.argument("record", metavar="GAME.json")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Also write an isometric SVG drawing of the building to this file.")
@click.option("--ansi/--no-ansi", "ansi", default=None, help="Coloured text (default: when the output is a terminal).")
def show(record: str, svg_file: str | None, ansi: bool | None) -> None:
    """The building after the record seen from above (colour of the top cube and height), scores."""
    from solver.render.voxels import svg_isometric, text_top_view

    game = _game(record, "", "4")
    if svg_file:
        check_writable(svg_file)
    t = game.template
    if ansi is None:
        ansi = sys.stdout.isatty()
    tops = {sq: (game.colour_name(k), h) for sq, (k, h) in game.top_view().items()}
    click.echo(text_top_view(t.width, t.depth, t.cells, tops, ansi=ansi), color=ansi)
    for k, (name, score) in enumerate(zip(game.colours, game.scores(), strict=True)):
        state = "out" if game.is_out(k) else "in"
        click.echo(f"{name:7s} score {score:4d}  ({state}) pieces left: {' '.join(game.pieces_left(k)) or '-'}")
    to_play = game.to_play
    if game.colours_each == 2:
        click.echo("players: " + ", ".join(f"{'+'.join(game.colours[p::game.players])} {s}"
                                           for p, s in enumerate(game.player_scores())))
    click.echo(f"template {t.name}, {game.setup_name} players, height {game.height}; {len(game.moves)} moves; "
               + ("game over" if to_play is None else f"{game.colour_name(to_play)} to play"))
    if svg_file:
        cubes = {c: game.colour_name(k) for c, k in game.cubes().items()}
        title = f"Blokus 3D {t.name}, after {len(game.moves)} moves"
        write_text_atomic(svg_file, svg_isometric(t.cells, cubes, title=title))


@group.command()
@template_option
@players_option
@click.option("--strategy", default="random", show_default=True,
              help="Strategy per seat, comma-separated, or one for all: random, greedy, mc or mc:CANDIDATES:PLAYOUTS.")
@click.option("--record", "record_file", type=click.Path(dir_okay=False), default=None,
              help="Write the first --record-games games (of the first block) as a JSON list of records.")
@click.option("--record-games", type=click.IntRange(min=1, max=RECORD_MAX_GAMES), default=20, show_default=True,
              help="How many games --record writes (at most --games and --block-size).")
@monte_carlo_options(default_games=1000, default_block_size=200)
def selfplay(template: str, players: str, strategy: str, record_file: str | None, record_games: int,
             games: int, seed: int, workers: int | None, backend: str, scheduler: str | None,
             block_size: int, output: str, fmt: str, quiet: bool, plot: str | None) -> None:
    """Self-play Monte Carlo: per seat win rate (outright and shared), mean score, pieces placed,
    game length and legal moves per ply."""
    from solver.blokus3d.record import write_games
    from solver.blokus3d.selfplay import SelfPlay3D, strategies_for

    t = resolve_template(template)
    n, each = _players(players)
    t.height(n * each)
    exp = SelfPlay3D(t, n, strategies_for(n, strategy), each)
    if record_file:
        check_writable(record_file)
    run_and_report([exp], games=games, seed=seed, workers=workers, backend=backend, scheduler=scheduler,
                   block_size=block_size, output=output, fmt=fmt, quiet=quiet, plot=plot)
    if record_file:
        k = min(record_games, games, block_size)
        entries = [(g, f"self-play {t.name} seed {seed} game {i}; strategies {','.join(exp.strategies)}; "
                       f"scores {' '.join(map(str, g.scores()))}")
                   for i, g in enumerate(exp.record(block_seed(seed, 0), k), start=1)]
        write_text_atomic(record_file, write_games(entries))


#: fill colours of the pieces in the puzzle pictures (one per piece of a way, in building order)
PUZZLE_FILLS = ("#d03030", "#2f5fd0", "#e8c020", "#30a040", "#f08020", "#8040b0", "#20b2aa", "#a0522d",
                "#db7093", "#556b2f", "#4682b4", "#777777", "#b8860b", "#008080")


def _parse_box(text: str) -> tuple[int, int, int]:
    from solver.errors import SolverError

    parts = text.lower().replace("×", "x").split("x")
    try:
        w, d, h = (int(p) for p in parts)
    except ValueError:
        raise SolverError(f"bad box {text!r}: write WIDTHxDEPTHxHEIGHT, e.g. 3x3x3") from None
    return w, d, h


@group.command()
@click.option("--box", default="3x3x3", show_default=True, help="Box to build, WIDTHxDEPTHxHEIGHT (at most 63 cells).")
@click.option("--colours", "--colors", "colours", type=click.Choice(["one", "all"]), default="one",
              show_default=True, help="Pieces of one colour (each piece once) or of all four (each shape 4 times).")
@click.option("--max-nodes", type=click.IntRange(min=0), default=0, show_default=True,
              help="Stop the search after this many nodes (0: no limit); the counts are then lower bounds.")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Write one buildable way as an isometric SVG drawing.")
def puzzle(box: str, colours: str, max_nodes: int, svg_file: str | None) -> None:
    """Build a box (the 3x3x3 cube) from Blokus 3D pieces under the placing rules: count the ways
    (also up to the box's symmetries that keep up up) and show one, level by level."""
    from solver.blokus3d.cube import box_puzzle, building_order
    from solver.render.voxels import svg_isometric

    size = _parse_box(box)
    if svg_file:
        check_writable(svg_file)
    r = box_puzzle(size, colours, max_nodes)
    w, d, h = size
    bound = "" if r.complete else " (stopped at --max-nodes: the counts below are lower bounds)"
    click.echo(f"box {w}x{d}x{h}, pieces of {colours} colour{'s' if colours == 'all' else ''}: "
               f"{r.nodes:,} search nodes in {r.seconds:.2f} s{bound}")
    click.echo(f"exact covers: {r.tilings:,} ({r.classes:,} up to the {r.symmetries} symmetries keeping up up)")
    click.echo(f"buildable under the placing rules: {r.buildable:,} ({r.buildable_classes:,} up to symmetry)")
    if not r.example:
        return
    order = building_order(r.example)
    owner = {c: i for i, (_, cubes) in enumerate(order) for c in cubes}
    click.echo("one way, pieces lettered in a building order (" +
               ", ".join(f"{chr(65 + i)} {name}" for i, (name, _) in enumerate(order)) + "):")
    for z in range(h - 1, -1, -1):
        click.echo(f"level {z + 1}:")
        for y in range(d - 1, -1, -1):
            click.echo("  " + " ".join(chr(65 + owner[(x, y, z)]) for x in range(w)))
    if svg_file:
        cubes = {c: PUZZLE_FILLS[i % len(PUZZLE_FILLS)] for c, i in owner.items()}
        foot = [(x, y) for x in range(w) for y in range(d)]
        write_text_atomic(svg_file, svg_isometric(foot, cubes, title=f"{w}x{d}x{h} from Blokus 3D pieces"))
