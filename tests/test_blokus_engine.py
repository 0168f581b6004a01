"""The C Blokus engine against the pure-Python reference (tests/blokus_reference.py)."""

from __future__ import annotations

import random

import pytest
from blokus_reference import RefPosition, score
from hypothesis import given, settings
from hypothesis import strategies as st

from solver._ext import blokus as ext
from solver.blokus.game import Game
from solver.blokus.pieces import PIECES
from solver.blokus.variants import VARIANTS, variant_by_name
from solver.errors import SolverError

#: the square-board variants (the reference here knows squares; Trigon has its own)
SQUARE_VARIANTS = sorted(n for n, v in VARIANTS.items() if v.geometry.piece_set == "square")


def ref_for(game: Game) -> RefPosition:
    v = game.variant
    return RefPosition(v.width, v.height, v.n_colours, [v.first_cells(k) for k in range(v.n_colours)])


def engine_set(game: Game, colour: int) -> set:
    return {(m.piece, frozenset(m.cells)) for m in game.legal_moves(colour)}


def test_known_counts():
    assert ext.orientation_count() == 91
    assert ext.placement_count(Game("classic").position) == 30433
    assert ext.placement_count(Game("duo").position) == 13729
    assert len(Game("classic").legal_moves()) == 58
    assert len(Game("duo").legal_moves()) == 414
    assert len(Game("giant").legal_moves()) == 58


def test_reference_known_counts():
    for name, count in (("classic", 58), ("duo", 414)):
        g = Game(name)
        assert len(ref_for(g).legal_moves(0)) == count
    # the reference's own enumeration agrees with brute force over all 30,433 placements
    g = Game("classic")
    ref = ref_for(g)
    assert ref.legal_moves(0) == ref.legal_moves_brute_force(0)


def test_any_corner_first_moves():
    g = Game("classic", first_move="any-corner")
    ref = ref_for(g)
    moves = engine_set(g, 0)
    assert moves == ref.legal_moves(0)
    assert len(moves) == 4 * 58


# variant, first-move rule, games: about 4,000 positions, every colour checked at every ply
DIFF_CASES = [
    ("classic", "start-cell", 4),
    ("classic-2", "start-cell", 2),
    ("classic-3", "start-cell", 2),
    ("teams", "start-cell", 2),
    ("giant", "start-cell", 1),
    ("classic", "any-corner", 2),
    ("duo", "start-cell", 10),
    ("duo", "any-corner", 5),
]


@pytest.mark.parametrize("variant,rule,games", DIFF_CASES)
def test_differential_random_games(variant, rule, games):
    rnd = random.Random(f"{variant}/{rule}")
    positions = 0
    for _ in range(games):
        g = Game(variant, first_move=rule)
        ref = ref_for(g)
        while not g.is_over:
            for k in range(g.variant.n_colours):
                assert engine_set(g, k) == ref.legal_moves(k), (variant, rule, len(g.moves), k)
                positions += 1
            m = rnd.choice(g.legal_moves())
            g.play(m)
            ref.play(m.colour, m.piece, m.cells)
        # the end: nobody can move in the reference either, and the scores agree
        assert not ref.any_move()
        assert g.colour_scores() == [score(ref, k) for k in range(g.variant.n_colours)]
    assert positions > 50


def test_brute_force_on_midgame_positions():
    rnd = random.Random(7)
    for variant in ("classic", "duo"):
        g = Game(variant)
        ref = ref_for(g)
        for _ in range(rnd.randrange(8, 20)):
            m = rnd.choice(g.legal_moves())
            g.play(m)
            ref.play(m.colour, m.piece, m.cells)
        k = g.to_play
        assert engine_set(g, k) == ref.legal_moves_brute_force(k)


@pytest.mark.parametrize("variant,depth", [("classic", 2), ("duo", 2)])
def test_perft_against_reference(variant, depth):
    g = Game(variant)
    assert g.position.perft(depth) == ref_for(g).perft(depth)


def test_perft_known_values():
    assert Game("classic").position.perft(3) == [58, 58 * 58, 58 ** 3]
    assert Game("duo").position.perft(2) == [414, 414 * 414]


def test_perft_counts_passes():
    # a position late in a game: reference and engine agree even when colours must pass
    rnd = random.Random(3)
    g = Game("duo")
    ref = ref_for(g)
    while len(g.moves) < 60 and not g.is_over:
        m = rnd.choice(g.legal_moves())
        g.play(m)
        ref.play(m.colour, m.piece, m.cells)
    g.position.to_play = ref.to_play = g.moves[-1].colour ^ 1
    assert g.position.perft(2) == ref.perft(2)


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(SQUARE_VARIANTS), choices=st.lists(st.integers(0, 10 ** 6), max_size=40),
       rule=st.sampled_from(["start-cell", "any-corner"]))
def test_random_prefixes(variant, choices, rule):
    """After any sequence of legal moves: the engine equals the reference for the colour to play,
    every listed move is legal by the rules, and play + undo restores the position."""
    g = Game(variant, first_move=rule)
    ref = ref_for(g)
    for c in choices:
        if g.is_over:
            break
        moves = g.legal_moves()
        m = moves[c % len(moves)]
        g.play(m)
        ref.play(m.colour, m.piece, m.cells)
    if g.is_over:
        return
    k = g.to_play
    assert engine_set(g, k) == ref.legal_moves(k)
    before = g.position.to_bytes()
    own = ref.own_cells(k)
    for m in g.legal_moves()[:30]:
        assert ref.is_legal(k, m.cells, own)
        g.play(m)
        g.undo()
    assert g.position.to_bytes() == before


@settings(max_examples=30, deadline=None)
@given(code=st.integers(-5, 91 * 400 + 5), seed=st.integers(0, 1000))
def test_is_legal_matches_list(code, seed):
    rnd = random.Random(seed)
    g = Game("classic")
    for _ in range(rnd.randrange(0, 12)):
        g.play(rnd.choice(g.legal_moves()))
    k = g.to_play
    assert g.position.is_legal(k, code) == (code in set(g.legal_codes(k).tolist()))


def test_move_parsing_and_errors():
    g = Game("classic")
    m = g.move_from_cells("a20,b20,b19")
    assert m.piece == "V3" and set(g.move_text(m).split(",")) == {"a20", "b20", "b19"}
    with pytest.raises(SolverError, match="must cover a20"):
        g.play("b19,c19")
    with pytest.raises(SolverError, match="do not form"):
        g.move_from_cells("a1,c1")
    with pytest.raises(SolverError, match="not on the 20x20 board"):
        g.move_from_cells("a21")
    g.play(m)
    with pytest.raises(SolverError, match="already placed"):
        g.play("c18,c17,d17", colour="blue")
    with pytest.raises(SolverError, match="along an edge"):
        g.play("c20", colour="blue")
    with pytest.raises(SolverError, match="unknown colour"):
        g.colour_index("pink")
    with pytest.raises(SolverError, match="unknown variant"):
        variant_by_name("hex")


def test_scores_and_bonus():
    g = Game("duo")
    assert g.colour_scores() == [-89, -89]
    assert g.pentobi_points() == [0, 0]
    assert sum(p.size for p in PIECES) == 89


def test_classic3_rotating_green_and_teams():
    g = Game("classic-3")
    for _ in range(3):
        g.play(g.legal_moves()[0])
    assert g.to_play == 3 and g.player_of_colour(3) == 0
    g.play(g.legal_moves()[0])
    assert g.player_of_colour(3) == 1
    assert len(g.scores) == 3
    t = Game("teams")
    assert len(t.scores) == 2 and t.scores[0] == t.colour_scores()[0] + t.colour_scores()[2]
