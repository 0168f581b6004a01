"""`solver blokus lines`: our score per opening line, read back from match records."""

from __future__ import annotations

import csv
import sys
from collections import Counter

import pytest

from solver.blokus.game import Game
from solver.blokus.lines import line_table, suite_games
from solver.blokus.match import MatchGame, check_openings, parse_record_comment, record_comment
from solver.blokus.sgf import read_file_games, read_games, write_games
from solver.cli.main import main

OWN_ENGINE = f"{sys.executable} -m solver blokus gtp --variant duo --strategy greedy"


def run(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    out, err = capsys.readouterr()
    return info.value.code, out, err


def duo(*moves: str) -> Game:
    g = Game("duo")
    for m in moves:
        g.play(m)
    return g


def test_record_comment_reads_back_whatever_the_opponent_and_note_say():
    g = MatchGame(0, 0, "win", 70, 61, note="")
    for opponent in ("pentobi-gtp --level 7", "engine: a [b] c; (seat 9) vs x: loss 1-2"):
        assert parse_record_comment(record_comment("mcts:explore=0.3", opponent, g)) == (0, "win", 70, 61)
    broken = MatchGame(5, 1, "not played", note="the opponent's move w j5 is illegal here: occupied")
    assert parse_record_comment(record_comment("greedy", "x", broken)) == (1, "not played", 0, 0)
    for text in ("", "self-play duo seed 1 game 0", "mcts (seat 1) vs x: won 3-2", "mcts (seat x) vs y: win 1-0"):
        assert parse_record_comment(text) is None


def test_line_table_groups_by_seat_and_first_moves():
    a = duo("e10,e9,f9", "j5", "d8")
    b = duo("e10,e9,f9", "j5", "g8")
    c = duo("e10", "j5,j6")
    records = [(a, 0, "win", 4), (b, 0, "loss", -2), (b, 0, "draw", 0), (c, 0, "win", 9),
               (a, 1, "loss", -7), (c, 1, "not played", 0), (duo("e10"), 1, "win", 3)]
    two = [(r.seat, r.moves, r.wins, r.draws, r.losses, r.margin_sum) for r in line_table(records, 2)]
    assert two == [(0, ("e9,f9,e10", "j5"), 1, 1, 1, 2), (0, ("e10", "j5,j6"), 1, 0, 0, 9),
                   (1, ("e9,f9,e10", "j5"), 0, 0, 1, -7)]
    three = line_table(records, 3)
    assert [(r.seat, r.moves[2], r.games, r.score) for r in three] == [
        (0, "g8", 2, 0.25), (0, "d8", 1, 1.0), (1, "d8", 1, 0.0)]
    row = line_table(records, 2)[0].row()
    assert row["line"] == "e9,f9,e10;j5" and row["games"] == 3 and row["score"] == 0.5
    assert row["ci_low"] < 0.5 < row["ci_high"] and row["mean_margin"] == pytest.approx(2 / 3)


def test_suite_games_list_each_line_once():
    records = [(duo("e10", "j5"), 0, "win", 1), (duo("e10", "j5"), 1, "loss", -1), (duo("e10", "j5,j6"), 1, "win", 2)]
    games = suite_games(line_table(records, 2), "duo")
    assert [[g.move_text(m) for m in g.moves] for g in games] == [["e10", "j5"], ["e10", "j5,j6"]]


def test_lines_of_a_match_agree_with_its_csv(tmp_path, capsys):
    """A match from a two-opening suite, read back: per seat and opening line, the games, wins,
    draws and losses are those of the match's own CSV rows; the written suite replays as openings."""
    openings = tmp_path / "open.blksgf"
    openings.write_text("(;GM[Blokus Duo];B[e10,e9,f9];W[j5,j6])\n(;GM[Blokus Duo];B[e10,f10];W[j5])\n")
    out, sgf = tmp_path / "m.csv", tmp_path / "m.blksgf"
    code, _, err = run(["blokus", "match", "--strategy", "mcts:40", "--opponent", OWN_ENGINE, "--games", "8",
                        "--openings", str(openings), "-o", str(out), "--sgf", str(sgf)], capsys)
    assert code == 0, err
    expected = Counter()
    for r in csv.DictReader(out.open()):
        expected[(int(r["seat"]), int(r["opening"]), r["result"])] += 1
    lines_csv, suite = tmp_path / "lines.csv", tmp_path / "suite.blksgf"
    code, _, err = run(["blokus", "lines", str(sgf), "--plies", "2", "-o", str(lines_csv),
                        "--suite", str(suite)], capsys)
    assert code == 0, err
    rows = list(csv.DictReader(lines_csv.open()))
    opening_of = {"e9,f9,e10;j5,j6": 1, "e10,f10;j5": 2}
    found = Counter()
    for r in rows:
        assert int(r["games"]) == 2
        for column, result in (("wins", "win"), ("draws", "draw"), ("losses", "loss")):
            if int(r[column]):
                found[(int(r["seat"]), opening_of[r["line"]], result)] += int(r[column])
    assert found == expected
    games = check_openings(Game("duo").variant, read_file_games(str(suite)))
    assert sorted(";".join(g.move_text(m) for m in g.moves) for g in games) == sorted(opening_of)

    code, out_text, _ = run(["blokus", "lines", str(sgf), "--plies", "2", "--seat", "second", "--min-games", "2"], capsys)
    assert code == 0 and {r["seat"] for r in csv.DictReader(out_text.splitlines())} == {"1"}


def test_lines_bad_input(tmp_path, capsys):
    plain = tmp_path / "plain.blksgf"
    plain.write_text("(;GM[Blokus Duo];B[e10];W[j5])\n")
    code, _, err = run(["blokus", "lines", str(plain)], capsys)
    assert code == 2 and "game 1: not a match record" in err and "Traceback" not in err
    mixed = tmp_path / "mixed.blksgf"
    comment = record_comment("greedy", "x", MatchGame(0, 0, "win", 5, 1))
    mixed.write_text(write_games([(duo("e10", "j5"), "a", comment), (Game("classic-2"), "b", comment)]))
    code, _, err = run(["blokus", "lines", str(mixed)], capsys)
    assert code == 2 and "a classic-2 game among duo games" in err
    code, _, err = run(["blokus", "lines", str(tmp_path / "missing.blksgf")], capsys)
    assert code == 2 and "missing.blksgf" in err
    one = tmp_path / "one.blksgf"
    one.write_text(write_games([(duo("e10", "j5"), "a", comment)]))
    code, _, err = run(["blokus", "lines", str(one), "--min-games", "2", "--suite", str(tmp_path / "s.blksgf")], capsys)
    assert code == 2 and "no line is left" in err and not (tmp_path / "s.blksgf").exists()
    code, _, err = run(["blokus", "lines"], capsys)
    assert code == 2 and "RECORDS" in err
    assert read_games(one.read_text())[0].moves  # the record itself is a valid game
