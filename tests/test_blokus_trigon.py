"""Blokus Trigon: the C engine against the pure-Python reference written from the rules
(tests/trigon_reference.py), plus records, pictures and bad input.

The reference derives the board, the 22 polyiamonds and the legal moves from corner points of
triangles on its own; these tests compare the engine's geometry layer, placements, legal move
lists (both touching rules, every Trigon variant), scores and perft with it.
"""

from __future__ import annotations

import random

import pytest
from trigon_reference import RefTrigonPosition, placements, trigon_board

from solver.blokus.game import Game
from solver.blokus.geometry import TrigonGeometry
from solver.blokus.sgf import read_game, write_game
from solver.blokus.variants import variant_by_name
from solver.errors import SolverError

TRIGON_VARIANTS = ("trigon", "trigon-2", "trigon-3")
REF_TOUCH = {"standard": "edges", "corners-only": "corners-only"}


def reference_for(game: Game) -> RefTrigonPosition:
    v = game.variant
    return RefTrigonPosition(v.geometry.size, v.n_colours, REF_TOUCH[v.touch])


@pytest.mark.parametrize("size", [8, 9])
def test_geometry_layer_matches_reference_board(size):
    ours, ref = TrigonGeometry(size), trigon_board(size)
    assert set(ours.cells) == set(ref.cells)
    for cell in ours.cells:
        assert ours.is_up(cell) == ref.is_up(cell)
        assert set(ours.edge_neighbours(cell)) == set(ref.edge_neighbours(cell))
        assert set(ours.corner_neighbours(cell)) == set(ref.corner_neighbours(cell))
        assert ours.cell_name(cell) == ref.cell_name(cell)
        assert ours.parse_cell(ours.cell_name(cell)) == cell
    starts = set(variant_by_name("trigon" if size == 9 else "trigon-3").start_cells)
    assert starts == set(ref.start_cells)


@pytest.mark.parametrize("variant", ["trigon", "trigon-3"])
def test_every_placement_on_the_empty_board(variant):
    """The engine's orientations put on the board every way they fit are exactly the reference's
    placements (32,131 and 24,859, Pentobi's counts)."""
    from solver._ext import blokus as ext

    game = Game(variant)
    geo = game.variant.geometry
    ours = set()
    for code in range(game.position.code_space):
        try:
            move = game.move_from_code(0, code)
        except (IndexError, SolverError):   # pragma: no cover - every code decodes
            continue
        if all(geo.on_board(c) for c in move.cells) and geo.fits(*_shape_parity(game, move)):
            ours.add(frozenset(move.cells))
    ref = set(placements(trigon_board(geo.size)))
    assert ours == ref
    assert ext.placement_count(game.position) == len(ref) == {9: 32131, 8: 24859}[geo.size]


def _shape_parity(game: Game, move) -> tuple[int, int, int]:
    """(shape parity, dx, dy) of a decoded move, to ask the geometry whether its kinds fit."""
    from solver._ext import blokus as ext
    from solver.blokus.game import ORIENTATIONS

    o, r, c = ext.code_info(move.code, game.variant.width, game.variant.height)
    return ORIENTATIONS["trigon"][o][2], c, r


def play_and_compare(variant: str, touch: str, seed: int, every: int = 1, max_plies: int = 200) -> int:
    """Random game of the engine; at every ``every``-th ply the legal moves of the colour to play
    equal the reference's.  Returns the number of positions compared."""
    rnd = random.Random(seed)
    game = Game(variant, touch=touch)
    ref = reference_for(game)
    compared = 0
    while not game.is_over and len(game.moves) < max_plies:
        k = game.to_play
        moves = game.legal_moves()
        if len(game.moves) % every == 0:
            assert {frozenset(m.cells) for m in moves} == ref.legal_moves(k), (variant, touch, seed, len(game.moves))
            compared += 1
        move = rnd.choice(moves)
        game.play(move)
        ref.play(k, move.cells)
    if game.is_over:
        assert all(not ref.legal_moves(k) for k in range(game.variant.n_colours))
        assert game.colour_scores() == [ref.score(k) for k in range(game.variant.n_colours)]
    return compared


@pytest.mark.parametrize("touch", ["standard", "corners-only"])
@pytest.mark.parametrize("variant", TRIGON_VARIANTS)
def test_legal_moves_match_reference(variant, touch):
    seeds = {"trigon": (1,), "trigon-2": (2,), "trigon-3": (3,)}[variant]
    assert sum(play_and_compare(variant, touch, s, every=2) for s in seeds) > 20


@pytest.mark.slow
@pytest.mark.parametrize("touch", ["standard", "corners-only"])
@pytest.mark.parametrize("variant", TRIGON_VARIANTS)
def test_legal_moves_match_reference_many_games(variant, touch):
    """Thousands of positions: every ply of 6 games per variant and rule (36 games in all)."""
    assert sum(play_and_compare(variant, touch, 100 + s) for s in range(6)) > 200


def test_corners_only_is_stricter_and_says_why():
    """Every corners-only move is legal under the standard rule; the moves it takes away are
    refused with the corners-only reason."""
    rnd = random.Random(11)
    strict = Game("trigon", touch="corners-only")
    stricter = 0
    while not strict.is_over and len(strict.moves) < 80:
        k = strict.to_play
        loose = Game("trigon")
        for m in strict.moves:
            loose.play(m)
        tight = {frozenset(m.cells) for m in strict.legal_moves()}
        wide = {frozenset(m.cells) for m in loose.legal_moves(k)}
        assert tight <= wide
        for cells in wide - tight:
            assert "corners-only" in strict.why_illegal(strict.move_from_cells(list(cells), k))
            stricter += 1
        strict.play(rnd.choice(strict.legal_moves()))
    assert stricter > 0


def test_perft_matches_reference_near_the_end():
    """perft(2) from late positions (few moves left, so the slow reference can count them)."""
    for seed in (4, 5):
        rnd = random.Random(seed)
        game = Game("trigon-3")
        ref = reference_for(game)
        while not game.is_over and len(game.legal_moves()) > 40:
            k = game.to_play
            move = rnd.choice(game.legal_moves())
            game.play(move)
            ref.play(k, move.cells)
        if game.is_over:
            continue
        ref.to_play = game.to_play
        game.position.to_play = game.to_play
        assert game.position.perft(2) == ref.perft(2)


def test_perft_from_the_start():
    """perft(1) is the 2,478 first placements covering a start triangle (6 x 413); perft(2)
    = 2478 x 2065 (no first piece reaches a second start point) as the reference counts."""
    assert Game("trigon").position.perft(2) == [2478, 2478 * 2065]
    assert Game("trigon-3", touch="corners-only").position.perft(1) == [2478]


@pytest.mark.parametrize("variant", TRIGON_VARIANTS)
def test_sgf_round_trip_and_game_names(variant):
    rnd = random.Random(7)
    game = Game(variant, touch="corners-only" if variant == "trigon-2" else "standard")
    while not game.is_over:
        game.play(rnd.choice(game.legal_moves()))
    text = write_game(game)
    assert f"GM[{game.variant.sgf_game}]" in text
    assert ("XT[corners-only]" in text) == (variant == "trigon-2")
    again = read_game(text)
    assert again.variant == game.variant
    assert [m.cells for m in again.moves] == [m.cells for m in game.moves]
    assert again.colour_scores() == game.colour_scores()


@pytest.mark.parametrize("text,message", [
    ("(;GM[Blokus Trigon];1[a1])", "not on the Trigon board"),
    ("(;GM[Blokus Trigon];1[a20,b20,b19])", "not on the Trigon board"),
    ("(;GM[Blokus Trigon];1[q3,s3])", "do not form a Trigon piece"),
    ("(;GM[Blokus Trigon];1[a9])", "must cover one of"),
    ("(;GM[Blokus Trigon]XF[any-corner])", "any-corner first move is for square boards"),
    ("(;GM[Blokus Trigon]XT[sideways])", "unknown touching rule"),
])
def test_bad_trigon_records_are_one_line_errors(text, message):
    with pytest.raises(SolverError, match=message) as info:
        read_game(text)
    assert "\n" not in str(info.value)


def test_pictures():
    from solver.render.board import svg_board, text_board

    rnd = random.Random(2)
    game = Game("trigon")
    for _ in range(8):
        game.play(rnd.choice(game.legal_moves()))
    text = text_board(game.variant.geometry, game.placements())
    rows = text.splitlines()
    assert len(rows) == 18 + 2 and rows[0].startswith("18 ")
    covered = sum(len(m.cells) for m in game.moves)
    assert sum(row[3:].count(ch) for row in rows[:18] for ch in "BYRG") == covered
    assert sum(row[3:].count(ch) for row in rows[:18] for ch in "△▽") == 486 - covered
    svg = svg_board(game.variant.geometry, game.placements(), title="t", marks=game.variant.start_cells)
    assert svg.count("<circle") == 6 and svg.count('stroke="#111111"') == len(game.moves)
