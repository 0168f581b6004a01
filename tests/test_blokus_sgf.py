"""Pentobi SGF records: round trips, hand-written records and one-line errors."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from solver.blokus.game import Game
from solver.blokus.sgf import parse, read_game, read_games, write_game, write_games
from solver.blokus.variants import VARIANTS
from solver.errors import SolverError


def random_game(variant: str, seed: int, rule: str = "start-cell", max_moves: int = 200) -> Game:
    rnd = random.Random(seed)
    g = Game(variant, first_move=rule)
    while not g.is_over and len(g.moves) < max_moves:
        g.play(rnd.choice(g.legal_moves()))
    return g


@settings(max_examples=25, deadline=None)
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 10 ** 6),
       rule=st.sampled_from(["start-cell", "any-corner"]), max_moves=st.integers(0, 100))
def test_round_trip(variant, seed, rule, max_moves):
    assume(rule == "start-cell" or not VARIANTS[variant].shared_starts)   # any-corner: square boards
    g = random_game(variant, seed, rule, max_moves)
    text = write_game(g, comment="a [comment] with \\ and ]", name="test")
    h = read_game(text)
    assert h.variant == g.variant
    assert [(m.colour, m.code) for m in h.moves] == [(m.colour, m.code) for m in g.moves]
    assert h.position.to_bytes() == g.position.to_bytes()
    assert write_game(h, comment="a [comment] with \\ and ]", name="test") == text
    assert parse(text)[0][0]["GC"] == ["a [comment] with \\ and ]"]


def test_collection_round_trip():
    games = [random_game("classic", s) for s in range(3)]
    text = write_games([(g, f"g{i}", "") for i, g in enumerate(games)])
    back = read_games(text)
    assert [len(g.moves) for g in back] == [len(g.moves) for g in games]
    assert all(a.colour_scores() == b.colour_scores() for a, b in zip(games, back, strict=True))


def test_pentobi_style_records():
    duo = """(;FF[4]CA[UTF-8]AP[Pentobi:19.0]GM[Blokus Duo]DT[2024-01-01]
    ;B[e10,e9,f9]
    (;W[j5,j6]C[main line]
     ;B[g8])
    (;W[j5]))"""
    g = read_game(duo)
    assert g.variant.name == "duo" and [m.piece for m in g.moves] == ["V3", "2", "1"]
    classic = "(;GM[Blokus];1[a20,a19,b20,b19];2[t20];3[t1,s1];4[a1,a2,a3,a4,a5];1[c18])"
    g = read_game(classic)
    assert [g.colour_name(m.colour) for m in g.moves] == ["blue", "yellow", "red", "green", "blue"]
    assert g.colour_name(g.to_play) == "yellow"
    two = read_game("(;GM[Blokus Two-Player];1[a20];2[t20])")
    assert two.variant.name == "classic-2"
    three = read_game("(;GM[Blokus Three-Player];1[a20])")
    assert three.variant.name == "classic-3"
    teams = read_game(write_game(Game("teams")))
    assert teams.variant.name == "teams"
    assert "XV[teams]" in write_game(teams) and "XV" not in write_game(Game("classic"))


@pytest.mark.parametrize("text,message", [
    ("", "no game tree"),
    ("(;GM[Blokus];1[a20]", r"missing '\)'"),
    ("(;GM[Blokus];1[a20)", "unterminated"),
    ("(;FF[4];1[a20])", "no GM property"),
    ("(;GM[Blokus Junior];1[a20])", "unsupported game type"),
    ("(;GM[Blokus Trigon];1[a20])", "not on the Trigon board"),
    ("(;GM[Blokus Duo]A3[a1])", "setup property A3 does not exist"),
    ("(;GM[Blokus];1[a20];2[a19])", r"move 2 \(2\[a19\]\): illegal move a19 for yellow: the first piece"),
    ("(;GM[Blokus];1[a20];2[t20];3[t1];4[a1];1[b19])", "move 5.*already placed"),
    ("(;GM[Blokus];1[a20,b20];2[t20];3[t1];4[a1];1[b19])", "move 5.*along an edge"),
    ("(;GM[Blokus];1[a20];1[b19])", r"move 2 \(1\[b19\]\): blue moves out of turn \(yellow is to play\)"),
    ("(;GM[Blokus];1[a20];2[t20];1[b19])", "out of turn"),
    ("(;GM[Blokus Duo];B[e10];W[])", "orange passes but has a legal move"),
    ("(;GM[Blokus];1[b8,\nc8])", r"malformed move"),
    ("(;GM[Blokus];1[a20,,b20])", "malformed move"),
    ("(;GM[Blokus];1[A20])", "malformed move"),
    ("(;GM[Blokus];1[a020])", "malformed move"),
    ("(;GM[Blokus];1[a20, b20])", "malformed move"),
    ("(;GM[Blokus];1[a" + "9" * 5000 + "])", "malformed move"),
    ("(;GM[Blokus];1x[a20])", "malformed property name '1x'"),
    ("(;GM[Blokus];b[a20])", "malformed property name 'b'"),
    ("(;GM[Blokus]" + ";1[]" * 2001 + ")", "more than 2000 nodes"),
    ("(;GM[Blokus];1[a20,b20];2[t20];3[t1];4[a1];1[d18])", "move 5.*does not touch blue at a corner"),
    ("(;GM[Blokus];1[a20];2[a20])", "occupied"),
    ("(;GM[Blokus Duo];B[e10];3[j5])", "colour property 3 does not exist"),
    ("(;GM[Blokus];1[a20,c20])", "do not form a Blokus piece"),
    ("(;GM[Blokus];1[a21])", "not on the 20x20 board"),
    ("(;GM[Blokus];1[a2x])", "malformed move"),
    ("(;GM[Blokus];1[a20]2[t20])", "more than one move"),
    ("(;GM[Blokus]XV[duo])", "does not fit"),
    ("(;GM[Blokus]XF[middle])", "unknown first-move rule"),
])
def test_errors_are_one_line(text, message):
    with pytest.raises(SolverError, match=message) as info:
        read_game(text)
    assert "\n" not in str(info.value)


def test_setup_properties():
    text = "(;FF[4]GM[Blokus Duo]AB[e8,e9,f9,d10,e10][g6,f7,g7,h7,g8]AW[i4,h5,i5,j5,i6][j7,j8,j9,k9,j10]PL[W];W[k11])"
    g = read_game(text)
    assert len(g.setup) == 4 and len(g.moves) == 1 and g.colour_name(g.moves[0].colour) == "orange"
    assert len(g.pieces_left(0)) == 19 and len(g.pieces_left(1)) == 18
    back = read_game(write_game(g))
    assert back.position.to_bytes() == g.position.to_bytes()
    assert "AB[d10,e10,e8,e9,f9]" not in write_game(g)  # cells are written row by row
    assert "AB[e8,e9,f9,d10,e10][g6,f7,g7,h7,g8]" in write_game(g) and "PL[W]" in write_game(g)
    # the setup pieces obey no corner rule, but the moves after them do
    with pytest.raises(SolverError, match="move 1"):
        read_game("(;GM[Blokus Duo]AB[a1];B[c3])")
    with pytest.raises(SolverError, match="occupied"):
        read_game("(;GM[Blokus Duo]AB[a1]AW[a1])")
    with pytest.raises(SolverError, match="outside the root"):
        read_game("(;GM[Blokus Duo];B[e10]AW[a1])")
    with pytest.raises(SolverError, match="AE"):
        read_game("(;GM[Blokus Duo]AE[a1])")


def test_colour_properties_per_variant():
    with pytest.raises(SolverError, match="colour property B does not exist in classic"):
        read_game("(;GM[Blokus];B[a20])")
    with pytest.raises(SolverError, match="colour property 1 does not exist in duo"):
        read_game("(;GM[Blokus Duo];1[e10])")


def test_read_file_encodings_and_nesting(tmp_path):
    from solver.blokus.sgf import read_file

    path = tmp_path / "latin1.blksgf"
    path.write_bytes("(;GM[Blokus Duo]C[Übung];B[e10])".encode("latin-1"))
    assert len(read_file(str(path)).moves) == 1
    with pytest.raises(SolverError, match="nested too deeply"):
        read_game("(;GM[Blokus Duo]" + "(;C[x]" * 5000 + ")" * 5001)
    with pytest.raises(SolverError, match="cannot read"):
        read_file(str(tmp_path))


def test_read_file_limits_and_byte_order_mark(tmp_path):
    from solver.blokus.sgf import MAX_FILE_BYTES, read_file

    bom = tmp_path / "bom.blksgf"
    bom.write_bytes(b"\xef\xbb\xbf(;GM[Blokus Duo];B[e10])")
    assert len(read_file(str(bom)).moves) == 1
    big = tmp_path / "big.blksgf"
    big.write_bytes(b"(;GM[Blokus]" + b";1[]" * (MAX_FILE_BYTES // 4) + b")")
    with pytest.raises(SolverError, match="larger than 4 MB"):
        read_file(str(big))
