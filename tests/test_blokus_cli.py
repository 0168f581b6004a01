"""`solver blokus ...` commands and the self-play experiment."""

from __future__ import annotations

import csv
import io
import pickle

import pytest

from solver.blokus.players import parse_strategy
from solver.blokus.selfplay import SelfPlay, strategies_for
from solver.blokus.sgf import read_games, write_game
from solver.blokus.variants import variant_by_name
from solver.cli.main import main
from solver.errors import SolverError
from solver.montecarlo.runner import run_experiments


def run(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    out, err = capsys.readouterr()
    return info.value.code, out, err


@pytest.fixture
def record(tmp_path):
    path = tmp_path / "g.blksgf"
    path.write_text("(;FF[4]GM[Blokus];1[a20,b20,b19];2[t20];3[t1,s1])\n")
    return str(path)


def test_moves(record, capsys):
    code, out, _ = run(["blokus", "moves", record], capsys)
    assert code == 0
    lines = out.split()
    assert len(lines) == 58 and all(any(c == "a1" for c in line.split(",")) for line in lines)
    code, out, _ = run(["blokus", "moves", record, "--count"], capsys)
    assert (code, out.strip()) == (0, "58")
    code, out, _ = run(["blokus", "moves", record, "--color", "blue", "--count"], capsys)
    assert code == 0 and int(out) > 0
    code, out, _ = run(["blokus", "moves", record, "--color", "blue"], capsys)
    assert "c18" in out.replace(",", " ").split()


def test_perft(capsys):
    code, out, _ = run(["blokus", "perft", "--variant", "classic", "--depth", "3"], capsys)
    assert code == 0 and out.split() == ["depth,sequences", "1,58", "2,3364", "3,195112"]
    code, out, _ = run(["blokus", "perft", "--variant", "duo", "--depth", "1", "--first-move", "any-corner"],
                       capsys)
    assert code == 0 and out.split()[1].startswith("1,")


def test_show(record, tmp_path, capsys):
    svg = tmp_path / "b.svg"
    code, out, _ = run(["blokus", "show", record, "--svg", str(svg)], capsys)
    assert code == 0 and "green to play" in out and "points" in out
    assert svg.read_text().startswith("<svg")


@pytest.mark.parametrize("content,argv_tail,message", [
    ("(;GM[Blokus];1[a20]", [], "malformed SGF"),
    ("(;GM[Blokus];1[a20];2[b19])", [], "move 2"),
    ("(;GM[Blokus];1[a20])", ["--color", "pink"], "unknown colour"),
])
def test_bad_records_exit_2(tmp_path, capsys, content, argv_tail, message):
    path = tmp_path / "bad.blksgf"
    path.write_text(content)
    for command in ("moves", "show"):
        if argv_tail and command == "show":
            continue
        code, out, err = run(["blokus", command, str(path), *argv_tail], capsys)
        assert code == 2 and message in err and err.count("\n") == 1 and err.startswith("solver: error:")


@pytest.mark.parametrize("argv,message", [
    (["blokus", "perft", "--variant", "hexagon"], "unknown variant"),
    (["blokus", "selfplay", "--variant", "nope", "-q"], "unknown variant"),
    (["blokus", "selfplay", "--strategy", "random,smart", "-q"], "unknown strategy"),
    (["blokus", "selfplay", "--strategy", "random,random", "-q"], "2 strategies for 4 players"),
    (["blokus", "moves", "/nonexistent/x.blksgf"], "cannot read"),
])
def test_bad_input_exit_2(capsys, argv, message):
    code, _, err = run(argv, capsys)
    assert code == 2 and message in err and err.count("\n") == 1


def test_selfplay_csv_and_sgf(tmp_path, capsys):
    out1, out2, sgf = tmp_path / "a.csv", tmp_path / "b.csv", tmp_path / "g.blksgf"
    base = ["blokus", "selfplay", "--variant", "duo", "--strategy", "greedy,random", "--games", "60",
            "--block-size", "20", "--seed", "5", "-q"]
    assert run([*base, "-j", "1", "-o", str(out1), "--sgf", str(sgf), "--sgf-games", "4"], capsys)[0] == 0
    assert run([*base, "-j", "2", "-o", str(out2)], capsys)[0] == 0
    assert out1.read_text() == out2.read_text()
    rows = list(csv.DictReader(io.StringIO(out1.read_text())))
    assert [r["seat"] for r in rows] == ["0", "1"]
    for col in ("wins", "outright_wins", "shared_wins", "mean_score", "sd_score", "share_all_placed",
                "mean_game_length", "mean_legal_moves_per_ply", "ci_low", "ci_high"):
        assert col in rows[0]
    assert abs(sum(float(r["wins"]) for r in rows) - 60) < 1e-9
    games = read_games(sgf.read_text())
    assert len(games) == 4 and all(g.is_over for g in games)
    # the recorded games are the ones the runner played: replaying gives the same scores
    again = read_games("".join(write_game(g) for g in games))
    assert [g.scores for g in again] == [g.scores for g in games]


def test_experiment_picklable_and_deterministic():
    exp = SelfPlay("classic-3", "start-cell", ("greedy", "random", "random"))
    clone = pickle.loads(pickle.dumps(exp))
    a, b = exp.simulate(99, 10), clone.simulate(99, 10)
    assert all((a[k] == b[k]).all() if hasattr(a[k], "all") else a[k] == b[k] for k in a)
    res1 = run_experiments([exp], 30, seed=3, workers=1, block_size=7)
    res2 = run_experiments([exp], 30, seed=3, workers=1, block_size=7)
    assert res1.rows() == res2.rows()


def test_recorded_games_match_tally():
    exp = SelfPlay("classic", "start-cell", ("random",))
    tally = exp.simulate(17, 5)
    games = exp.record(17, 5)
    lengths = [len(g.moves) for g in games]
    assert sum(lengths) == tally["length"]
    seat_scores = [sum(g.scores[p] for g in games) for p in range(4)]
    assert seat_scores == list(tally["score"])


def test_strategies():
    s = parse_strategy("mc")
    assert (s.kind, s.candidates, s.playouts) == (2, 8, 16)
    with pytest.raises(SolverError):
        parse_strategy("mc:0:3")
    with pytest.raises(SolverError):
        parse_strategy("greedy:3")
    assert strategies_for(variant_by_name("teams"), "greedy") == ("greedy",) * 4
    assert strategies_for(variant_by_name("classic-2"), "greedy,random") == ("greedy", "random")


def test_greedy_beats_random_and_mc_beats_greedy_in_duo():
    """Sanity of the strategies (not a speed test): large margins, modest game counts."""
    greedy = SelfPlay("duo", strategies=("greedy", "random")).rows(
        SelfPlay("duo", strategies=("greedy", "random")).simulate(1, 100), 100)
    assert greedy[0]["win_rate"] > 0.8
    exp = SelfPlay("duo", strategies=("mc:6:8", "greedy"))
    rows = exp.rows(exp.simulate(2, 30), 30)
    assert rows[0]["win_rate"] > 0.6


@pytest.mark.parametrize("variant,sides", [("teams", "blue+red"), ("classic-3", "blue"), ("classic-2", "blue+red")])
def test_show_sides(tmp_path, capsys, variant, sides):
    from solver.blokus.game import Game

    path = tmp_path / "g.blksgf"
    g = Game(variant)
    g.play(g.legal_moves()[0])
    path.write_text(write_game(g))
    code, out, _ = run(["blokus", "show", str(path), "--no-ansi"], capsys)
    assert code == 0 and f"sides: {sides} " in out and "yellow to play" in out


def test_trigon_commands(tmp_path, capsys):
    """Every `solver blokus` command takes Trigon: perft, selfplay (with --sgf and the corners-only
    rule, -j 1 and -j 2 alike), then moves and show on the record written."""
    code, out, _ = run(["blokus", "perft", "--variant", "trigon-3", "--depth", "1", "--touch", "corners-only"], capsys)
    assert code == 0 and out.split() == ["depth,sequences", "1,2478"]
    out1, out2, sgf, svg = tmp_path / "a.csv", tmp_path / "b.csv", tmp_path / "t.blksgf", tmp_path / "t.svg"
    base = ["blokus", "selfplay", "--variant", "trigon-2", "--touch", "corners-only", "--strategy", "greedy,random",
            "--games", "12", "--block-size", "4", "--seed", "3", "-q"]
    assert run([*base, "-j", "1", "-o", str(out1), "--sgf", str(sgf), "--sgf-games", "2"], capsys)[0] == 0
    assert run([*base, "-j", "2", "-o", str(out2)], capsys)[0] == 0
    assert out1.read_text() == out2.read_text()
    rows = list(csv.DictReader(io.StringIO(out1.read_text())))
    assert [r["touch"] for r in rows] == ["corners-only"] * 2 and rows[0]["colours"] == "blue+red"
    assert "GM[Blokus Trigon Two-Player]XT[corners-only]" in sgf.read_text()
    games = read_games(sgf.read_text())
    assert len(games) == 2 and games[0].variant.touch == "corners-only"
    (tmp_path / "one.blksgf").write_text(write_game(games[0]))
    code, out, _ = run(["blokus", "moves", str(tmp_path / "one.blksgf")], capsys)
    assert (code, out.strip()) == (0, "game over: no colour can move")
    code, out, _ = run(["blokus", "show", str(tmp_path / "one.blksgf"), "--svg", str(svg), "--no-ansi"], capsys)
    assert code == 0 and "game over" in out and "△" in out and svg.read_text().count("<circle") == 6


@pytest.mark.parametrize("argv,message", [
    (["blokus", "perft", "--variant", "trigon", "--first-move", "any-corner"], "for square boards"),
    (["blokus", "perft", "--variant", "trigon", "--touch", "edges"], "Invalid value for '--touch'"),
])
def test_trigon_bad_options(capsys, argv, message):
    code, _, err = run(argv, capsys)
    assert code == 2 and message in err and err.count("\n") == 1
