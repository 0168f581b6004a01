"""The bad inputs of issue 17, one by one: each is a one-line error (exit 2) or a correct answer.

The fuzz suite (test_fuzz.py) finds new ones at random; these pin the known cases down by name.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fuzzing import ROOT, run_checked

from solver.inputs import MAX_DEPTH, decode, one_line, parse_json, parse_toml, split_lines

BOARD = ROOT / "solver" / "clovece" / "napij-se.board.json"
DECK = ROOT / "solver" / "clovece" / "napij-se.deck.json"
PARAMS = ROOT / "solver" / "squid" / "params.toml"
HUGE = "9" * 5000


def error(argv, needle: str = "") -> str:
    out = run_checked(argv)
    assert out.code == 2, (argv, out.out, out.err)
    assert needle in out.err, out.err
    return out.err


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("logs")
    run_checked(["thegame", "play", "--players", "2", "--seed", "3", "--log", str(d / "thegame.jsonl")])
    run_checked(["clovece", "play", "--players", "2", "--seed", "3", "--log", str(d / "clovece.jsonl")])
    run_checked(["puzzle", "solve", "tetromino-8x10", "-o", str(d / "sol.json")])
    return d


def _edit_json(src: Path, dst: Path, edit) -> Path:
    doc = json.loads(src.read_text(encoding="utf-8"))
    edit(doc)
    dst.write_text(json.dumps(doc), encoding="utf-8")
    return dst


def _edit_first_line(src: Path, dst: Path, edit) -> Path:
    lines = src.read_text(encoding="utf-8").split("\n")
    head = json.loads(lines[0])
    edit(head)
    lines[0] = json.dumps(head, ensure_ascii=False)
    dst.write_text("\n".join(lines), encoding="utf-8")
    return dst


# ---- shared readers ------------------------------------------------------------------------------

def test_readers_refuse_huge_integers_deep_nesting_and_non_finite_numbers():
    for bad, needle in ((f"[{HUGE}]", "4300 digits"), ("[" * 5000 + "]" * 5000, "nested deeper"),
                        ("[" * (MAX_DEPTH + 2) + "]" * (MAX_DEPTH + 2), "nested deeper"),
                        ("[Infinity]", "Infinity"), ("[NaN]", "NaN"), ("[1e999]", "out of range")):
        with pytest.raises(ValueError, match=needle):
            parse_json(bad, "f")
    for bad, needle in ((f"a = {HUGE}", "4300 digits"), ("a = " + "[" * 5000 + "]" * 5000, "nested deeper"),
                        ("a = inf", "out of range"), ("a = nan", "out of range")):
        with pytest.raises(ValueError, match=needle):
            parse_toml(bad, "f")
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, "f") is not None


def test_bom_accepted_other_bytes_named():
    assert decode("\ufeff{}".encode(), "f") == "{}"
    with pytest.raises(ValueError, match="not UTF-8 text .byte 0xe9 on line 2"):
        decode(b"a\n# caf\xe9\n", "f")


def test_jsonl_lines_split_on_newline_only():
    assert split_lines('{"a": "x\u2028y\u0085z"}\n{}\n') == ['{"a": "x\u2028y\u0085z"}', "{}"]


def test_messages_stay_on_one_line():
    assert one_line("unknown puzzle 'a\nb\u2028c'") == "unknown puzzle 'a\\nb\\u2028c'"
    err = error(["puzzle", "solve", "no\nsuch\rpuzzle"], "unknown puzzle")
    assert err.count("\n") == 1 and "no\\nsuch\\rpuzzle" in err


# ---- every format: huge integers, nesting, encodings ---------------------------------------------

def test_huge_integers_everywhere(tmp_path, logs):
    params = tmp_path / "p.toml"
    params.write_text(f"[glass_bridge]\ncracked = {HUGE}\n")
    error(["squid", "simulate", "--players", "3", "--params", str(params), "-q"], "4300 digits")
    error(["squid", "simulate", "--players", "3", "--sweep", f"glass_bridge.cracked={HUGE}", "-q"], "4300 digits")
    puzzle = tmp_path / "p.toml"
    puzzle.write_text(f"width = {HUGE}\nheight = 5\npieces = [5]\n")
    error(["puzzle", "solve", str(puzzle)], "4300 digits")
    sol = tmp_path / "s.json"
    sol.write_text((logs / "sol.json").read_text().replace("[0, 0]", f"[{HUGE}, 0]", 1))
    error(["puzzle", "verify", str(sol)], "4300 digits")
    log = tmp_path / "g.jsonl"
    log.write_text((logs / "thegame.jsonl").read_text().replace('"players": 2', f'"players": {HUGE}', 1))
    error(["thegame", "replay", str(log)], "4300 digits")
    board = tmp_path / "b.json"
    board.write_text(BOARD.read_text(encoding="utf-8").replace("{", '{"x": ' + HUGE + ", ", 1), encoding="utf-8")
    error(["clovece", "check", "--board", str(board)], "4300 digits")


def test_deep_nesting_and_non_utf8(tmp_path):
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 5000 + "]" * 5000)
    error(["squid", "simulate", "--players", "3", "--params", str(deep), "-q"], "nested deeper")
    error(["puzzle", "solve", str(deep)], "nested deeper")
    deck = tmp_path / "deck.json"
    deck.write_text("[" * 100000)
    error(["clovece", "check", "--deck", str(deck)], "not valid JSON")
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b"# caf\xe9\n[glass_bridge]\ncracked = 2\n")
    error(["squid", "simulate", "--players", "3", "--params", str(latin), "-q"], "not UTF-8")


def test_byte_order_mark_accepted_everywhere(tmp_path, logs):
    def bom(src: Path, name: str) -> str:
        dst = tmp_path / name
        dst.write_bytes(b"\xef\xbb\xbf" + src.read_bytes())
        return str(dst)

    out = str(tmp_path / "o.csv")
    run_checked(["squid", "simulate", "--players", "3", "--games", "2", "-j", "1", "-q", "-o", out,
                 "--params", bom(PARAMS, "p.toml")])
    run_checked(["clovece", "check", "--board", bom(BOARD, "b.json"), "--deck", bom(DECK, "d.json")])
    run_checked(["clovece", "simulate", "--games", "2", "-j", "1", "-q", "-o", out,
                 "--board", str(tmp_path / "b.json"), "--deck", str(tmp_path / "d.json")])
    run_checked(["puzzle", "verify", bom(logs / "sol.json", "s.json"), bom(ROOT / "puzzles" / "tetromino-8x10.toml",
                                                                          "t.toml")])
    run_checked(["thegame", "replay", bom(logs / "thegame.jsonl", "g.jsonl")])
    run_checked(["thegame", "solve", "--from-log", str(tmp_path / "g.jsonl"), "--node-limit", "1000"], (0, 1))
    run_checked(["clovece", "replay", bom(logs / "clovece.jsonl", "c.jsonl")])
    tpl = ROOT / "solver" / "blokus3d" / "templates" / "pyramid.toml"
    run_checked(["blokus3d", "perft", "--template", bom(tpl, "pyr.toml"), "--depth", "1"])


def test_raw_u2028_inside_jsonl_strings_accepted(tmp_path, logs):
    tg = _edit_first_line(logs / "thegame.jsonl", tmp_path / "g.jsonl", lambda h: h.update(note="a\u2028b"))
    assert "\u2028" in tg.read_text(encoding="utf-8")
    run_checked(["thegame", "replay", str(tg)])
    cl = _edit_first_line(logs / "clovece.jsonl", tmp_path / "c.jsonl", lambda h: h.update(note="a\u2028b"))
    run_checked(["clovece", "replay", str(cl)])


def test_arrays_where_strings_belong(tmp_path, logs):
    log = _edit_first_line(logs / "thegame.jsonl", tmp_path / "g.jsonl", lambda h: h.update(variant=["standard"]))
    error(["thegame", "replay", str(log)], "unknown variant")

    def dangling(doc):
        doc["fields"][0]["next"] = ["L1"]

    error(["clovece", "check", "--board", str(_edit_json(BOARD, tmp_path / "b.json", dangling))], "not a field")


# ---- Člověče deck -------------------------------------------------------------------------------

@pytest.mark.parametrize("count", [2**63, 10**9, 65])
def test_deck_counts_checked_before_building(tmp_path, count):
    deck = _edit_json(DECK, tmp_path / "d.json", lambda d: d["cards"][0].update(count=count))
    error(["clovece", "check", "--deck", str(deck)], "needs 1..64 cards")


def test_number_on_a_card_without_one_is_refused_by_check_and_simulate(tmp_path):
    def swap_n(doc):
        next(c for c in doc["cards"] if c["card"] == "swap")["n"] = "three"

    deck = str(_edit_json(DECK, tmp_path / "d.json", swap_n))
    error(["clovece", "check", "--deck", deck], "takes no number")
    error(["clovece", "simulate", "--deck", deck, "--games", "2", "-j", "1", "-q"], "takes no number")


def test_clovece_templates_are_the_shipped_files_and_check(tmp_path):
    for kind, src in (("board", BOARD), ("deck", DECK)):
        out = tmp_path / f"{kind}.json"
        run_checked(["clovece", "template", kind, "-o", str(out)])
        assert out.read_bytes() == src.read_bytes()
        assert run_checked(["clovece", "template", kind]).out == src.read_text(encoding="utf-8")
    run_checked(["clovece", "check", "--board", str(tmp_path / "board.json"), "--deck", str(tmp_path / "deck.json")])


# ---- Monte Carlo options ------------------------------------------------------------------------

def test_huge_counts_and_ranges(tmp_path):
    error(["thegame", "simulate", "--players", "2", "--games", "9" * 29, "-j", "2", "-q"], "--games")
    error(["thegame", "simulate", "--players", "1-99999999999", "--games", "3", "-q"], "between 1 and 5")
    error(["clovece", "simulate", "--players", "2-99999999999999", "--games", "3", "-q"], "between 2 and 4")


def test_unwritable_output_detected_before_the_run():
    error(["thegame", "simulate", "--players", "2", "--games", "100000", "-j", "1", "-q", "-o", "/proc/1/x.csv"],
          "cannot write /proc/1/x.csv")


# ---- puzzles ------------------------------------------------------------------------------------

def _puzzle(tmp_path: Path, text: str) -> str:
    path = tmp_path / "p.toml"
    path.write_text(text)
    return str(path)


def test_game_rules_model_with_a_blocked_cell():
    from solver.puzzles.cpsat import solve_cpsat
    from solver.puzzles.spec import parse_puzzle
    from solver.puzzles.verify import legal_order, verify

    p = parse_puzzle({"width": 4, "height": 4, "blocked": [[3, 3]], "pieces": ["I3", "1"],
                      "constraints": ["game-rules"]})
    r = solve_cpsat(p, 10, 1, 0)
    assert r.solved and verify(p, legal_order(p, r.placements)) == []
    p = parse_puzzle({"width": 5, "height": 5, "blocked": [[2, 2]], "pieces": [4], "constraints": ["game-rules"]})
    assert solve_cpsat(p, 10, 1, 0).status in ("solved", "proven impossible")


def test_one_colour_no_edge_tiling_is_proven_impossible(tmp_path):
    text = (ROOT / "puzzles" / "pentomino-6x10.toml").read_text() + 'constraints = ["no-same-colour-edge"]\n'
    out = run_checked(["puzzle", "solve", _puzzle(tmp_path, text), "--time-limit", "5"], (1,))
    assert out.code == 1 and "proven impossible" in out.out


def test_full_tiling_detected_without_full_key(tmp_path):
    from solver.puzzles.spec import load_puzzle

    text = "\n".join(line for line in (ROOT / "puzzles" / "pentomino-15x16.toml").read_text().splitlines()
                     if not line.startswith("full"))
    assert load_puzzle(_puzzle(tmp_path, text)).full
    out = run_checked(["puzzle", "solve", str(tmp_path / "p.toml"), "--time-limit", "30"])
    assert "exact cover" in out.out


def test_colors_and_colours_together(tmp_path):
    error(["puzzle", "solve", _puzzle(tmp_path, 'width = 5\nheight = 1\ncolors = ["red"]\ncolours = ["blue"]\n'
                                                'pieces = ["I5"]\n')], "either colors or colours")


@pytest.mark.parametrize("cell", [[0.5, 0], [True, 0], ["0", 0], [0], [0, 0, 0]])
def test_verify_is_strict_about_cells(tmp_path, logs, cell):
    def edit(doc):
        doc["placements"][0]["cells"][0] = cell

    error(["puzzle", "verify", str(_edit_json(logs / "sol.json", tmp_path / "s.json", edit))], "whole numbers")
    empty = _edit_json(logs / "sol.json", tmp_path / "e.json", lambda d: d["placements"][0].update(cells=[]))
    error(["puzzle", "verify", str(empty)], "placement 1")


def test_models_beyond_the_size_caps_answer_unknown_with_the_reason():
    from solver.puzzles.solve import solve
    from solver.puzzles.spec import parse_puzzle

    r = solve(parse_puzzle({"width": 64, "height": 64, "pieces": ["all"]}), 30, 1, 0)
    assert r.status == "unknown within the limit" and "CP-SAT skipped" in r.method
    colours = [f"c{i}" for i in range(46)]
    r = solve(parse_puzzle({"width": 64, "height": 64, "colors": colours, "pieces": ["all"], "full": True,
                            "blocked": [[0, 0], [1, 0]], "constraints": ["no-same-colour-edge"]}), 30, 1, 0)
    assert r.status == "unknown within the limit" and "exact cover skipped" in r.method


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_time_limits_must_be_finite(value):
    error(["puzzle", "solve", "pentomino-6x10", "--time-limit", value], "finite")
    error(["thegame", "solve", "--seed", "3", "--time-limit", value], "finite")


def test_puzzle_outputs_checked_before_solving():
    error(["puzzle", "solve", "pentomino-6x10", "-o", "/proc/1/x.json"], "cannot write /proc/1/x.json")
    error(["puzzle", "solve", "pentomino-6x10", "--svg", "/nonexistent-dir/x.svg"], "does not exist")
