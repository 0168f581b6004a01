"""`solver blokus3d ...` commands, bad input, and the box puzzles against the reference."""

from __future__ import annotations

import csv
import io
import json

import blokus3d_reference as ref
import pytest

from solver.blokus3d.cube import box_puzzle, building_order
from solver.blokus3d.pieces import piece_by_name, piece_of_cubes
from solver.cli.main import main
from solver.errors import SolverError


def run(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    out, err = capsys.readouterr()
    return info.value.code, out, err


def bad(argv, capsys, message):
    code, out, err = run(argv, capsys)
    assert code == 2 and err.count("\n") == 1 and err.startswith("solver: error: ") and "Traceback" not in err
    assert message in err, err


@pytest.fixture
def record(tmp_path):
    path = tmp_path / "g.json"
    code = main_ok(["blokus3d", "selfplay", "-t", "steps", "-p", "3", "-n", "4", "--block-size", "4",
                    "-j", "1", "-q", "--strategy", "greedy", "-o", str(tmp_path / "t.csv"),
                    "--record", str(path), "--record-games", "1"])
    assert code == 0
    return str(path)


def main_ok(argv):
    try:
        main(argv)
    except SystemExit as exc:
        return exc.code
    return 0


def test_templates_and_perft(capsys):
    code, out, _ = run(["blokus3d", "templates"], capsys)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [r["name"] for r in rows] == ["corner", "pyramid", "steps", "tower"]
    assert {r["name"]: r["height_4p"] for r in rows}["tower"] == "8"
    code, out, _ = run(["blokus3d", "perft", "-t", "tower", "-p", "2", "-d", "2"], capsys)
    assert (code, out.split()) == (0, ["depth,sequences", "1,223", "2,22795"])


def test_moves_show_and_selfplay(record, tmp_path, capsys):
    code, out, _ = run(["blokus3d", "moves", "-t", "tower", "-p", "2", "--count"], capsys)
    assert (code, out.strip()) == (0, "223")
    code, out, _ = run(["blokus3d", "moves", "-t", "tower", "-p", "2"], capsys)
    lines = out.splitlines()
    assert len(lines) == 223 and all(piece_of_cubes([tuple(int(v) for v in (ord(c[0]) - 97, int(c[1]) - 1,
                                                                              int(c[3]) - 1))
                                                    for c in ln.split()[1].split(",")])
                                     == piece_by_name(ln.split()[0]) for ln in lines)
    data = json.loads(open(record).read())
    assert data["format"] == "blokus3d-record" and data["template"]["name"] == "steps"
    code, out, _ = run(["blokus3d", "moves", record, "--count"], capsys)
    assert (code, out.strip()) == (0, "0")            # the recorded game is over
    svg = tmp_path / "b.svg"
    code, out, _ = run(["blokus3d", "show", record, "--svg", str(svg)], capsys)
    assert code == 0 and "game over" in out and "yellow" in out
    assert svg.read_text().startswith("<svg") and svg.read_text().count("<polygon") > 20
    code, out, _ = run(["blokus3d", "show", record, "--ansi"], capsys)
    assert code == 0 and "\x1b[" in out
    code, out, _ = run(["blokus3d", "show", record, "--no-ansi"], capsys)
    assert code == 0 and "\x1b[" not in out
    table = list(csv.DictReader(open(tmp_path / "t.csv")))
    assert [r["seat"] for r in table] == ["0", "1", "2"] and table[0]["variant"] == "steps"
    assert list(table[0])[:10] == ["game", "variant", "players", "seat", "strategy", "games", "wins",
                                   "win_rate", "ci_low", "ci_high"]
    assert list(table[0])[-3:] == ["complete", "seed", "solver_version"]
    assert sum(float(r["wins"]) for r in table) == pytest.approx(4)


def test_selfplay_is_reproducible_across_workers(tmp_path, capsys):
    outs = []
    for j in ("1", "2"):
        path = tmp_path / f"s{j}.csv"
        assert main_ok(["blokus3d", "selfplay", "-t", "tower", "-p", "2", "-n", "60", "--block-size", "20",
                        "-j", j, "-q", "--strategy", "greedy,random", "-o", str(path)]) == 0
        outs.append(path.read_text())
    assert outs[0] == outs[1]


@pytest.mark.parametrize("body,message", [
    ('name = "x"\nfootprint = """\n#########\n"""\nheights = { 2 = 3 }\n', "outside the 8x8 board"),
    ('name = "x"\nfootprint = """\n###\n"""\nheights = { 2 = 0 }\n', "must be 1..8"),
    ('name = "x"\nfootprint = """\n#o#\n"""\nheights = { 2 = 3 }\n', "only '#' and '.'"),
    ('name = "x"\nfootprint = """\n...\n"""\nheights = { 2 = 3 }\n', "no square to build on"),
    ('name = "x"\nfootprint = """\n###\n"""\nheights = { 5 = 3 }\n', "2, 3 or 4"),
    ('name = "x"\nfootprint = "###"\nheights = { 3 = 3 }\n', "no height for 2 players"),
    ("name = [", "not valid TOML"),
])
def test_bad_template_files(tmp_path, capsys, body, message):
    path = tmp_path / "t.toml"
    path.write_text(body)
    bad(["blokus3d", "perft", "--template", str(path), "-p", "2", "-d", "1"], capsys, message)


def test_bad_input(tmp_path, capsys):
    bad(["blokus3d", "perft", "--template", "nope"], capsys, "unknown template")
    bad(["blokus3d", "selfplay", "--strategy", "smart", "-n", "1"], capsys, "unknown strategy")
    bad(["blokus3d", "moves", str(tmp_path / "missing.json")], capsys, "cannot read")
    path = tmp_path / "g.json"
    path.write_text('{"format": "blokus3d-record", "version": 1, "players": 2, '
                    '"template": {"name": "x", "footprint": ["###"], "heights": {"2": 2}}, '
                    '"moves": [{"colour": "blue", "piece": "X9", "cubes": ["a1:1", "b1:1"]}]}')
    bad(["blokus3d", "show", str(path)], capsys, "unknown piece 'X9'")
    path.write_text('{"format": "blokus3d-record", "version": 1, "players": 2, '
                    '"template": {"name": "x", "footprint": ["###"], "heights": {"2": 2}}, '
                    '"moves": [{"colour": "blue", "cubes": ["a1:2", "b1:2"]}]}')
    bad(["blokus3d", "show", str(path)], capsys, "empty space under it")
    path.write_text('{"format": "blokus3d-record", "version": 1, "players": 2, "moves": [], '
                    '"template": {"name": "x", "footprint": ["###"], "heights": {"2": 2}}')
    bad(["blokus3d", "moves", str(path)], capsys, "not valid JSON")
    bad(["blokus3d", "puzzle", "--box", "3x3"], capsys, "bad box")
    bad(["blokus3d", "puzzle", "--box", "8x8x1"], capsys, "at most 63 cells")


def _canonical_classes(tilings, box) -> int:
    """Orbits of tilings under the symmetries of the footprint (z kept), computed directly."""
    w, d, _ = box
    maps = [lambda x, y: (x, y), lambda x, y: (w - 1 - x, d - 1 - y), lambda x, y: (w - 1 - x, y),
            lambda x, y: (x, d - 1 - y)]
    if w == d:
        maps += [lambda x, y: (d - 1 - y, x), lambda x, y: (y, w - 1 - x), lambda x, y: (y, x),
                 lambda x, y: (d - 1 - y, w - 1 - x)]
    seen = set()
    orbits = 0
    for t in tilings:
        shapes = frozenset(frozenset(c) for _, c in t)
        if shapes in seen:
            continue
        orbits += 1
        for f in maps:
            seen.add(frozenset(frozenset((*f(x, y), z) for x, y, z in s) for s in shapes))
    return orbits


@pytest.mark.parametrize("box,colours", [((3, 3, 2), "one"), ((4, 2, 2), "one"), ((5, 1, 3), "one"),
                                         ((5, 1, 3), "all"), ((2, 2, 3), "all")])
def test_box_counts_match_the_reference(box, colours):
    r = box_puzzle(box, colours)
    ways = ref.box_ways(box, 1 if colours == "one" else 4)
    assert r.complete and r.tilings == len(ways)
    assert r.buildable == sum(b for _, b in ways)
    assert r.classes == _canonical_classes([t for t, _ in ways], box)
    assert r.buildable_classes == _canonical_classes([t for t, b in ways if b], box)
    if r.buildable:
        order = building_order(r.example)
        assert ref.buildable(frozenset((ref.piece_of(c), frozenset(c)) for _, c in order))


def test_cube_puzzle_command(tmp_path, capsys):
    svg = tmp_path / "cube.svg"
    code, out, _ = run(["blokus3d", "puzzle", "--box", "3x3x2", "--svg", str(svg)], capsys)
    assert code == 0 and "exact covers: 5,696 (712 up to the 8 symmetries" in out
    assert out.count("level ") == 2 and svg.read_text().startswith("<svg")
    code, out, _ = run(["blokus3d", "puzzle", "--colours", "all", "--max-nodes", "1000"], capsys)
    assert code == 0 and "lower bounds" in out
    with pytest.raises(SolverError):
        box_puzzle((3, 3, 3), "some")


def test_two_colours_each(tmp_path, capsys):
    path = tmp_path / "g.json"
    code, out, _ = run(["blokus3d", "selfplay", "-p", "2x2", "--strategy", "greedy,random", "-n", "10", "-j", "1",
                        "-q", "--record", str(path), "--record-games", "1"], capsys)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [r["variant"] for r in rows] == ["pyramid-2x2"] * 2 and rows[1]["colours"] == "yellow+green"
    assert json.loads(path.read_text())["colours_each"] == 2
    code, out, _ = run(["blokus3d", "show", str(path)], capsys)
    assert code == 0 and "players: blue+red" in out and "2x2 players" in out
    code, out, _ = run(["blokus3d", "perft", "-p", "2x2", "-d", "1"], capsys)
    code4, out4, _ = run(["blokus3d", "perft", "-p", "4", "-d", "1"], capsys)
    assert code == code4 == 0 and out == out4
