"""Charts (`solver plot`, `--plot`, `--heatmap`): every chart kind drawn from a small real table,
bad tables, interrupted runs and a missing matplotlib."""

from __future__ import annotations

import csv
import os
import re
import sys

import numpy as np
import pytest

from solver.blokus.selfplay import SelfPlay
from solver.blokus.variants import variant_by_name
from solver.cli.main import main
from solver.montecarlo import runner
from solver.montecarlo.seeding import block_seed
from solver.plot.table import read_table, table_from_rows

pytest.importorskip("matplotlib")


def run(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return info.value.code, out, err


def svg_text(path) -> str:
    """The words of an SVG's <text> elements (matplotlib keeps text as text: svg.fonttype none)."""
    data = path.read_text(encoding="utf-8")
    assert data.startswith("<?xml") and "<svg" in data[:500] and data.rstrip().endswith("</svg>")
    return " ".join(re.findall(r"<text[^>]*>([^<]*)</text>", data)).replace("&#45;", "-")


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """Small real tables of every kind the analyses write (a few hundred games each)."""
    d = tmp_path_factory.mktemp("tables")
    commands = [
        ["thegame", "simulate", "--players", "1-3", "--strategy", "greedy,reach", "--games", "300",
         "-o", d / "thegame.csv", "--histogram", d / "cards.csv"],
        ["thegame", "simulate", "--players", "1-3", "--strategy", "planner", "--games", "40",
         "-o", d / "planner.csv"],
        ["blokus", "selfplay", "--variant", "duo", "--strategy", "greedy,random", "--games", "30",
         "-o", d / "blokus.csv"],
        ["clovece", "simulate", "--variant", "classic", "--players", "2,4", "--strategy", "runner",
         "--games", "200", "-o", d / "clovece.csv"],
        ["clovece", "tournament", "--variant", "classic", "--strategies", "random,runner", "--games", "40",
         "-o", d / "tournament.csv", "--matrix", d / "matrix.csv"],
        ["squid", "simulate", "--players", "3", "--strategy", "careful,random,random", "--games", "200",
         "--sweep", "glass_bridge.cracked=1,3,5", "-o", d / "sweep.csv", "--per-game", d / "subgames.csv"],
    ]
    for argv in commands:
        with pytest.raises(SystemExit) as info:
            main([str(a) for a in argv] + ["-q", "--seed", "3"])
        assert info.value.code == 0
    return d


@pytest.mark.parametrize("name,kind_words", [
    ("thegame.csv", ["The Game: win rate by number of players", "300 games per configuration", "players", "greedy", "reach"]),
    ("cards.csv", ["distribution of cards left", "cards left at the end (cards)", "share of games", "mean"]),
    ("blokus.csv", ["Blokus: win rate per seat", "30 games", "fair share", "purple", "orange", "seat 0"]),
    ("clovece.csv", ["Člověče: win rate per seat", "200 games", "fair share", "classic, 2 players",
                     "classic, 4 players"]),
    ("matrix.csv", ["Tournament, win rate of S against X", "against three players of strategy X",
                    "one player of strategy S", "25.0"]),
    ("sweep.csv", ["Squid Game: win rate against glass_bridge.cracked", "glass_bridge.cracked (swept parameter)",
                   "careful"]),
    ("subgames.csv", ["Squid Game: token survival per sub-game", "tokens surviving / tokens entering", "glass bridge"]),
])
def test_every_chart_kind_from_a_real_table(tables, tmp_path, capsys, name, kind_words):
    out = tmp_path / "chart.svg"
    code, _, err = run(["plot", tables / name, "-o", out], capsys)
    assert code == 0, err
    text = svg_text(out)
    for word in kind_words:
        assert word in text, (word, text[:2000])
    assert "seed 3" in text and "solver plot" in text  # the footer: command line and seed


@pytest.mark.parametrize("upright", [40, 10])
def test_tournament_line_ups_upright_and_sideways(tables, tmp_path, capsys, monkeypatch, upright):
    from solver.plot import winrate

    monkeypatch.setattr(winrate, "MAX_UPRIGHT", upright)  # 40 bars: upright; over 10: sideways
    out = tmp_path / "t.svg"
    assert run(["plot", tables / "tournament.csv", "-o", out], capsys)[0] == 0
    text = svg_text(out)
    assert "Člověče: win rate per seat" in text and "fair share" in text
    assert "classic, 4 players: random, runner, runner, runner" in text  # each line-up is named
    assert ("· seat 0 random" in text) == (upright == 10)


def test_png_and_pdf_have_their_headers(tables, tmp_path, capsys):
    for suffix, magic in ((".png", b"\x89PNG\r\n\x1a\n"), (".pdf", b"%PDF-")):
        out = tmp_path / f"chart{suffix}"
        assert run(["plot", tables / "thegame.csv", "-o", out], capsys)[0] == 0
        assert out.read_bytes().startswith(magic) and out.stat().st_size > 1000


def test_default_output_and_title(tables, tmp_path, capsys):
    src = tmp_path / "copy.csv"
    src.write_bytes((tables / "clovece.csv").read_bytes())
    code, _, err = run(["plot", src, "--title", "My own title"], capsys)
    assert code == 0 and "copy.svg" in err
    text = svg_text(tmp_path / "copy.svg")
    assert "My own title" in text and "win rate per seat" not in text


def test_two_tables_overlay(tables, tmp_path, capsys):
    out = tmp_path / "two.svg"
    code, _, err = run(["plot", tables / "thegame.csv", tables / "planner.csv", "-o", out], capsys)
    assert code == 0, err
    text = svg_text(out)
    assert "greedy" in text and "planner" in text


def test_json_table_reads_like_csv(tables, tmp_path):
    rows = list(csv.DictReader((tables / "clovece.csv").open(encoding="utf-8")))
    from solver.montecarlo.output import write_rows

    write_rows(rows, tmp_path / "c.json", "json")
    assert read_table(tmp_path / "c.json").rows == read_table(tables / "clovece.csv").rows


def test_rows_in_memory_read_as_from_csv():
    rows = [{"seat": 0, "win_rate": 0.25, "ci_low": float("nan"), "complete": True, "variant": "x=3"}]
    t = table_from_rows(rows, "t")
    assert t.rows == [{"seat": 0, "win_rate": 0.25, "ci_low": None, "complete": True, "variant": "x=3"}]


@pytest.mark.parametrize("content,needle", [
    ("a,b\n1,2\n", "cannot chart bad.csv: expected a tournament matrix"),
    ("", "no rows"),
    ("seat,win_rate\n", "no rows"),
    ("[{\"a\": 1}", "malformed JSON"),
    ("[1, 2]", "list of objects"),
    ("seat,win_rate\n1,2,3\n", "malformed CSV"),
    ("seat,win_rate,ci_low,ci_high\n0,high,0.1,0.2\n", "with numbers in the numeric columns"),
    ("game,histogram,value,count\nx,cards_left,,3\n", "expected"),
])
def test_bad_tables_are_one_line_errors(tmp_path, capsys, content, needle):
    bad = tmp_path / "bad.csv"
    bad.write_text(content)
    code, _, err = run(["plot", bad, "-o", tmp_path / "x.svg"], capsys)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("solver: error:") and needle in err, err
    assert not (tmp_path / "x.svg").exists()


def test_bad_command_lines(tables, tmp_path, capsys):
    cases = [
        (["plot", tmp_path / "missing.csv"], "no such file"),
        (["plot", tables / "thegame.csv", "-o", tmp_path / "x.jpg"], ".svg, .png or .pdf"),
        (["plot", tables / "thegame.csv", tables / "matrix.csv", "-o", tmp_path / "x.svg"],
         "different kinds"),
        (["thegame", "simulate", "--games", "10", "-q", "--plot", tmp_path / "x.txt"], ".svg, .png or .pdf"),
    ]
    for argv, needle in cases:
        code, _, err = run(argv, capsys)
        assert code == 2 and err.count("\n") == 1 and needle in err, err


def test_missing_matplotlib_is_an_install_hint(tables, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    code, _, err = run(["plot", tables / "thegame.csv", "-o", tmp_path / "x.svg"], capsys)
    assert code == 2 and err.count("\n") == 1 and "pip install 'tabletop-solver[plot]'" in err
    out = tmp_path / "r.csv"
    code, _, err = run(["thegame", "simulate", "--players", "1", "--games", "10", "-q", "-o", out,
                        "--plot", tmp_path / "r.svg"], capsys)
    assert code == 2 and "pip install" in err
    assert not out.exists()  # refused before the run, not after it


def test_core_imports_without_matplotlib():
    """A fresh interpreter without matplotlib loads the whole command line and the plot package
    (only drawing needs it), and the other commands run."""
    import subprocess

    code = ("import sys; sys.modules['matplotlib'] = None; import solver.cli.main, solver.plot.recognise, "
            "solver.plot.heatmap; sys.argv = ['solver', 'thegame', 'simulate', '--players', '1', '--games', "
            "'10', '-q']; solver.cli.main.main()")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith("game,variant,players"), proc.stderr


@pytest.mark.parametrize("argv,words", [
    (["thegame", "simulate", "--players", "1-2", "--strategy", "greedy", "--games", "100"],
     ["The Game: win rate by number of players", "100 games", "solver thegame simulate"]),
    (["clovece", "tournament", "--variant", "classic", "--strategies", "random,runner", "--games", "20"],
     ["Tournament, win rate of S against X", "solver clovece tournament"]),
    (["squid", "simulate", "--players", "4", "--games", "50"],
     ["Squid Game: win rate per seat", "50 games", "solver squid simulate"]),
])
def test_plot_option_draws_the_table_just_produced(tmp_path, capsys, argv, words):
    out = tmp_path / "p.svg"
    code, _, err = run(argv + ["-q", "--seed", "5", "-o", tmp_path / "r.csv", "--plot", out], capsys)
    assert code == 0, err
    text = svg_text(out)
    for word in words + ["seed 5"]:
        assert word in text, (word, text[:1500])


def test_interrupted_run_plots_the_partial_table(tmp_path, capsys, monkeypatch):
    real = runner.run_block
    calls = []

    def stop_after_two(*args):
        calls.append(1)
        if len(calls) > 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(runner, "run_block", stop_after_two)

    def exit_(code):
        raise SystemExit(code)

    monkeypatch.setattr(os, "_exit", exit_)
    out, csv_out = tmp_path / "p.svg", tmp_path / "r.csv"
    code, _, _ = run(["blokus", "selfplay", "--variant", "duo", "--games", "1000", "--block-size", "10",
                      "-j", "1", "-q", "-o", csv_out, "--plot", out, "--heatmap", tmp_path / "h.svg"], capsys)
    assert code == 130
    assert "partial: the run was interrupted" in svg_text(out) and "20 games" in svg_text(out)
    assert "partial" in svg_text(tmp_path / "h.svg")
    assert "false" in csv_out.read_text()


def test_heatmap_picture(tmp_path, capsys):
    out = tmp_path / "h.svg"
    code, _, err = run(["blokus", "selfplay", "--variant", "classic-3", "--strategy", "greedy,random,random",
                        "--games", "12", "-q", "-o", tmp_path / "r.csv", "--heatmap", out], capsys)
    assert code == 0, err
    text = svg_text(out)
    for word in ("Blokus classic-3: share of games ending with each cell covered, 12 games",
                 "blue: all 12 games", "games it won", "green: all 12 games", "column", "row", "a", "20"):
        assert word in text, word
    assert "green: the" not in text   # classic-3's green belongs to no player: no winners' panel
    assert out.stat().st_size < 400_000  # cells are rasterised: a small file


@pytest.mark.parametrize("variant", ["duo", "classic-3", "teams"])
def test_engine_cells_are_the_cells_of_the_recorded_moves(variant):
    """The engine's end-of-game cells per colour, checked against the same games replayed move by
    move in Python (the recorded moves' cells, as the SGF writer and the board pictures see them)."""
    v = variant_by_name(variant)
    exp = SelfPlay(v.name, "start-cell", ("random",) * v.n_players, coverage=True)
    seed = block_seed(11, 0)
    cells = exp.play_block(seed, 6)["cells"]
    for g, game in enumerate(exp.record(seed, 6)):
        expected = np.zeros((v.n_colours, v.height, v.width), dtype=np.uint8)
        for colour, placed in game.placements():
            for x, y in placed:
                expected[v.colours.index(colour), y, x] = 1
        got = [[[(int(cells[g, k, y]) >> x) & 1 for x in range(v.width)] for y in range(v.height)]
               for k in range(v.n_colours)]
        assert np.array_equal(np.array(got, dtype=np.uint8), expected)


def test_coverage_tally_counts_won_games():
    v = variant_by_name("duo")
    exp = SelfPlay(v.name, "start-cell", ("greedy", "random"), coverage=True)
    tally = exp.simulate(block_seed(2, 0), 40)
    covered, won, won_games = tally["covered"], tally["won_covered"], tally["won_games"]
    assert covered.shape == (2, 14, 14) and won.shape == (2, 14, 14)
    assert np.all(won <= covered) and np.all(covered <= 40)
    # shared wins count as won for both sides, so the won games add up to at least the games
    assert won_games.sum() >= 40 and won_games[0] >= round(tally["wins"][0])
    assert "covered" not in SelfPlay(v.name, "start-cell", ("random", "random")).simulate(block_seed(2, 0), 5)


@pytest.mark.parametrize("name", ["thegame.csv", "cards.csv", "blokus.csv", "matrix.csv", "sweep.csv",
                                  "subgames.csv", "tournament.csv"])
def test_damaged_tables_chart_or_fail_in_one_line(tables, tmp_path, name):
    """Hand-edited tables (cells emptied or replaced by text, negative or huge numbers) are drawn or
    refused with a SolverError, never a traceback."""
    import copy
    import random

    from solver.errors import SolverError
    from solver.plot.recognise import draw_tables
    from solver.plot.table import Table

    rng = random.Random(name)
    base = read_table(tables / name)
    for _ in range(5):
        damaged = Table(base.name, list(base.columns), copy.deepcopy(base.rows))
        for _ in range(rng.randint(1, 8)):
            rng.choice(damaged.rows)[rng.choice(damaged.columns)] = rng.choice(
                [None, "x", 0, -1, 2.5, True, 10**9, "a=3"])
        try:
            draw_tables([damaged], tmp_path / "d.svg")
        except SolverError:
            pass
