"""Fuzz suite: every input format outside Blokus, mutated from the shipped and generated example files.

Every input must end in exit status 0, the command's documented 1, or 2 with exactly one line
``solver: error: …`` on stderr — never a traceback (see tests/fuzzing.py).  The default run takes a
few thousand inputs in-process; ``SOLVER_FUZZ_LONG=1 pytest -m slow tests/test_fuzz.py`` runs ten
times as many.
Blokus SGF and Blokus option values are fuzzed with the Blokus engine's own tests.
"""

from __future__ import annotations

import importlib.util
import json
import os
import zlib
from pathlib import Path

import pytest
from fuzzing import ROOT, jsonl_mutants, mutants, run_checked
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SLOW_FACTOR = 10
#: The long run (SLOW_FACTOR times the inputs, several minutes) is opt-in: SOLVER_FUZZ_LONG=1.
long_run = pytest.mark.skipif(not os.environ.get("SOLVER_FUZZ_LONG"), reason="set SOLVER_FUZZ_LONG=1 for the long run")


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    """Example files the commands write themselves: game logs, a solution, a Blokus 3D record."""
    d = tmp_path_factory.mktemp("seeds")
    run_checked(["thegame", "play", "--players", "3", "--seed", "3", "--log", str(d / "thegame.jsonl")])
    run_checked(["clovece", "play", "--players", "4", "--seed", "3", "--log", str(d / "napij.jsonl")])
    run_checked(["clovece", "play", "--variant", "classic", "--players", "2", "--seed", "3",
                 "--log", str(d / "classic.jsonl")])
    run_checked(["squid", "play", "--players", "4", "--strategy", "equilibrium,random,careful,bold", "--seed", "3",
                 "--log", str(d / "squid.jsonl")])
    run_checked(["puzzle", "solve", "tetromino-8x10", "-o", str(d / "tetromino.json")])
    run_checked(["puzzle", "solve", "pentomino-6x10", "--all", "--limit", "2", "-o", str(d / "two.json")])
    run_checked(["thegame", "simulate", "--players", "1-2", "--games", "200", "-j", "1", "-q",
                 "-o", str(d / "thegame.csv"), "--histogram", str(d / "histogram.csv")])
    run_checked(["blokus3d", "selfplay", "--strategy", "greedy", "--games", "2", "--seed", "1", "-q", "-j", "1",
                 "-o", str(d / "b3d.csv"), "--record", str(d / "b3d.json")])
    return d


def _texts(paths) -> list[str]:
    return [Path(p).read_text(encoding="utf-8") for p in paths]


def _doc_blocks(doc: str, lang: str) -> list[str]:
    """The fenced ```lang blocks of a docs/ page (the documented examples of a format)."""
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    parts = text.split(f"```{lang}\n")[1:]
    return [p.split("```", 1)[0] for p in parts]


def _formats(g: Path, tmp: Path) -> dict:
    """format -> (seed texts, json?, suffix, argv(file), documented codes besides 0 and 2, count)."""
    puzzles = sorted((ROOT / "puzzles").glob("*.toml"))
    board = ROOT / "solver" / "clovece" / "napij-se.board.json"
    deck = ROOT / "solver" / "clovece" / "napij-se.deck.json"
    out = str(tmp / "out.csv")
    mc = ["--games", "2", "-j", "1", "-q", "-o", out]
    return {
        "puzzle-toml": (_texts(puzzles) + _doc_blocks("puzzles.md", "toml"), False, ".toml",
                        lambda f: ["puzzle", "verify", str(g / "tetromino.json"), f], (1,), 400),
        "puzzle-solve": (_texts([ROOT / "puzzles" / "tetromino-8x10.toml", ROOT / "puzzles" / "one-colour-9x10.toml"]),
                         False, ".toml", lambda f: ["puzzle", "solve", f, "--time-limit", "0.3", "-j", "1"], (1,), 40),
        "solution-json": (_texts([g / "tetromino.json", g / "two.json"]), True, ".json",
                          lambda f: ["puzzle", "verify", f], (1,), 400),
        "clovece-board": (_texts([board]), True, ".json", lambda f: ["clovece", "check", "--board", f], (), 400),
        "clovece-deck": (_texts([deck]), True, ".json", lambda f: ["clovece", "check", "--deck", f], (), 300),
        "clovece-deck-simulate": (_texts([deck]), True, ".json",
                                  lambda f: ["clovece", "simulate", "--deck", f, *mc], (), 100),
        "clovece-board-simulate": (_texts([board]), True, ".json",
                                   lambda f: ["clovece", "simulate", "--board", f, *mc], (), 100),
        "squid-params": (_texts([ROOT / "solver" / "squid" / "params.toml"]), False, ".toml",
                         lambda f: ["squid", "simulate", "--players", "4", "--params", f, *mc], (), 100),
        "blokus3d-template": (_texts(sorted((ROOT / "solver" / "blokus3d" / "templates").glob("*.toml")))
                              + _doc_blocks("blokus3d.md", "toml"), False, ".toml",
                              lambda f: ["blokus3d", "perft", "--template", f, "--depth", "1"], (), 250),
        "blokus3d-record": (_texts([g / "b3d.json"]), True, ".json", lambda f: ["blokus3d", "show", f], (), 200),
        "plot-table": (_texts([g / "thegame.csv", g / "histogram.csv"]), True, ".csv",
                       lambda f: ["plot", f, "-o", str(tmp / "chart.svg")], (), 30),
    }


def _log_formats(g: Path) -> dict:
    return {
        "thegame-log": (_texts([g / "thegame.jsonl"]), lambda f: ["thegame", "replay", f], (), 400),
        "thegame-solve-log": (_texts([g / "thegame.jsonl"]),
                              lambda f: ["thegame", "solve", "--from-log", f, "--node-limit", "2000"], (1,), 100),
        "clovece-log": (_texts([g / "classic.jsonl", g / "napij.jsonl"]), lambda f: ["clovece", "replay", f], (), 200),
        "squid-log": (_texts([g / "squid.jsonl"]), lambda f: ["squid", "replay", f], (), 300),
    }


FILE_FORMATS = ["puzzle-toml", "puzzle-solve", "solution-json", "clovece-board", "clovece-deck",
                "clovece-deck-simulate", "clovece-board-simulate", "squid-params", "blokus3d-template",
                "blokus3d-record", "plot-table"]
LOG_FORMATS = ["thegame-log", "thegame-solve-log", "clovece-log", "squid-log"]


def _fuzz_file_format(name: str, generated: Path, tmp_path: Path, factor: int) -> None:
    seeds, is_json, suffix, argv, codes, count = _formats(generated, tmp_path)[name]
    path = tmp_path / f"input{suffix}"
    for data in mutants(seeds, count * factor, seed=zlib.crc32(name.encode()) + factor, json_docs=is_json):
        path.write_bytes(data)
        run_checked(argv(str(path)), (0, *codes), label=name)


def _fuzz_log_format(name: str, generated: Path, tmp_path: Path, factor: int) -> None:
    seeds, argv, codes, count = _log_formats(generated)[name]
    path = tmp_path / "input.jsonl"
    for data in jsonl_mutants(seeds, count * factor, seed=zlib.crc32(name.encode()) + factor):
        path.write_bytes(data)
        run_checked(argv(str(path)), (0, *codes), label=name)


@pytest.mark.parametrize("name", FILE_FORMATS)
def test_mutated_files_give_a_result_or_one_line_error(name, generated, tmp_path):
    _fuzz_file_format(name, generated, tmp_path, 1)


@pytest.mark.parametrize("name", LOG_FORMATS)
def test_mutated_logs_give_a_result_or_one_line_error(name, generated, tmp_path):
    _fuzz_log_format(name, generated, tmp_path, 1)


@pytest.mark.slow
@long_run
@pytest.mark.parametrize("name", FILE_FORMATS)
def test_mutated_files_long_run(name, generated, tmp_path):
    _fuzz_file_format(name, generated, tmp_path, SLOW_FACTOR)


@pytest.mark.slow
@long_run
@pytest.mark.parametrize("name", LOG_FORMATS)
def test_mutated_logs_long_run(name, generated, tmp_path):
    _fuzz_log_format(name, generated, tmp_path, SLOW_FACTOR)


# --------------------------------------------------------------------------------------------------
# Option values (hypothesis): any text in any option is a result or a one-line error

NUMBERISH = st.one_of(
    st.text(max_size=30),
    st.from_regex(r"\A-?[0-9]{1,40}(-[0-9]{1,40})?(,-?[0-9]{1,40})*\Z"),
    st.sampled_from(["9" * 5000, "1-99999999999", "0", "-1", "2-1", "1,,2", "inf", "nan", "1e999", "1.5",
                     "99999999999999999999999999999", "\n", "\u2028", "a\nb"]),
)
OPTION_SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                           suppress_health_check=[HealthCheck.function_scoped_fixture])


@OPTION_SETTINGS
@given(option=st.sampled_from(["--players", "--games", "--seed", "--block-size", "-j", "--strategy", "--variant"]),
       value=NUMBERISH)
def test_thegame_simulate_option_values(option, value, tmp_path):
    base = {"--players": "2", "--games": "3", "--seed": "1", "--block-size": "10", "-j": "1",
            "--strategy": "greedy", "--variant": "standard"}
    base[option] = value
    if option == "--games" and value.isdigit() and (len(value) > 4 or int(value) > 2000):
        base["--games"] = "3"  # a valid huge count would only take time
    argv = ["thegame", "simulate", "-q", "-o", str(tmp_path / "o.csv")]
    for k, v in base.items():
        argv += [k, v]
    run_checked(argv)


@OPTION_SETTINGS
@given(value=st.one_of(NUMBERISH, st.from_regex(r"\A[a-z_.]{1,30}=[^\n]{0,30}\Z")))
def test_squid_sweep_values(value, tmp_path):
    run_checked(["squid", "simulate", "--players", "3", "--games", "2", "-j", "1", "-q", "--sweep", value,
                 "-o", str(tmp_path / "o.csv")])


@OPTION_SETTINGS
@given(option=st.sampled_from(["--players", "--strategy", "--variant"]), value=NUMBERISH)
def test_clovece_and_squid_option_values(option, value, tmp_path):
    if option == "--variant":
        argv = ["clovece", "simulate", "--variant", value]
    else:
        argv = ["clovece" if option == "--players" else "squid", "simulate", option, value]
        if argv[0] == "squid":
            argv += ["--players", "3"]
    run_checked(argv + ["--games", "2", "-j", "1", "-q", "-o", str(tmp_path / "o.csv")])


@OPTION_SETTINGS
@given(value=NUMBERISH)
def test_puzzle_option_values(value, tmp_path):
    run_checked(["puzzle", "solve", "pentomino-6x10", "--time-limit", value, "-j", "1"], (0, 1))
    run_checked(["puzzle", "solve", value, "--time-limit", "0.2", "-j", "1"], (0, 1))


def test_every_shipped_and_documented_example_is_accepted(generated, tmp_path):
    """The unmutated seeds themselves: exit 0 (or the documented 1), never an error."""
    for name, (seeds, _, suffix, argv, codes, _) in _formats(generated, tmp_path).items():
        if name == "plot-table" and importlib.util.find_spec("matplotlib") is None:
            continue  # the plot extra is optional: without it, `solver plot` is a one-line error
        for text in seeds:
            path = tmp_path / f"seed{suffix}"
            path.write_text(text, encoding="utf-8")
            out = run_checked(argv(str(path)), (0, *codes), label=name)
            assert out.code != 2, (name, out.err)


def test_fuzz_inputs_are_reproducible(generated):
    seeds = _texts([generated / "tetromino.json"])
    assert mutants(seeds, 20, seed=5, json_docs=True) == mutants(seeds, 20, seed=5, json_docs=True)
    assert json.loads(seeds[0])["placements"]


@OPTION_SETTINGS
@given(option=st.sampled_from(["--hand", "--piles", "--played", "--draw-left", "--players", "--keep-signals"]),
       value=NUMBERISH)
def test_thegame_advise_option_values(option, value):
    base = {"--hand": "7,23,58,61,88,90", "--piles": "12,30,95,71", "--players": "3"}
    base[option] = value
    argv = ["thegame", "advise"]
    for k, v in base.items():
        argv += [k, v]
    run_checked(argv)


@OPTION_SETTINGS
@given(option=st.sampled_from(["--players", "--template", "--depth"]), value=NUMBERISH)
def test_blokus3d_perft_option_values(option, value):
    base = {"--players": "2", "--template": "tower", "--depth": "1"}
    base[option] = value
    if option == "--depth" and value.isdigit() and (len(value) > 1 or int(value) > 2):
        base["--depth"] = "2"  # deep valid searches only take time
    argv = ["blokus3d", "perft"]
    for k, v in base.items():
        argv += [k, v]
    run_checked(argv)


@OPTION_SETTINGS
@given(value=NUMBERISH)
def test_blokus3d_box_values(value):
    run_checked(["blokus3d", "puzzle", "--box", value, "--max-nodes", "2000"])
