"""`solver squid` command line: output tables, sweeps, parameter files and exit codes."""

from __future__ import annotations

import csv

import pytest

from solver.cli.main import main
from solver.errors import SolverError
from solver.squid.params import load_params, parse_sweep, with_value


def run(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(["squid", *argv])
    out, err = capsys.readouterr()
    return info.value.code, out, err


def rows_of(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def test_simulate_writes_seat_rows_and_per_subgame_table(tmp_path, capsys):
    out, per = tmp_path / "out.csv", tmp_path / "per.csv"
    code, _, err = run(["simulate", "--players", "4", "--strategy", "equilibrium,random,careful,bold",
                        "--games", "400", "--seed", "3", "-j", "1", "-q", "-o", str(out),
                        "--per-game", str(per)], capsys)
    assert code == 0, err
    rows = rows_of(out)
    assert [r["strategy"] for r in rows] == ["equilibrium", "random", "careful", "bold"]
    assert sum(int(r["wins"]) for r in rows) == 400
    r = rows[0]
    assert float(r["ci_low"]) <= float(r["win_rate"]) <= float(r["ci_high"])
    shares = float(r["share_head"]) + float(r["share_last_survivor"]) + float(r["share_round_cap"])
    assert shares == pytest.approx(1.0)
    table = rows_of(per)
    assert {t["subgame"] for t in table} == {"red_light", "dalgona", "tug_of_war", "marbles",
                                             "glass_bridge", "squid"}
    first = [t for t in table if t["subgame"] == "red_light" and t["seat"] == "all"][0]
    assert float(first["mean_entering"]) == 28.0


def test_same_seed_same_numbers_for_any_worker_count(tmp_path, capsys):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    base = ["simulate", "--players", "3", "--games", "600", "--block-size", "100", "--seed", "9", "-q"]
    assert run([*base, "-j", "1", "-o", str(a)], capsys)[0] == 0
    assert run([*base, "-j", "2", "-o", str(b)], capsys)[0] == 0
    assert [r["wins"] for r in rows_of(a)] == [r["wins"] for r in rows_of(b)]


def test_sweep_gives_one_set_of_rows_per_value(tmp_path, capsys):
    out = tmp_path / "sweep.csv"
    code, _, err = run(["simulate", "--players", "3", "--games", "200", "-j", "1", "-q",
                        "--sweep", "glass_bridge.cracked=0,8", "-o", str(out)], capsys)
    assert code == 0, err
    rows = rows_of(out)
    assert [r["variant"] for r in rows] == ["glass_bridge.cracked=0"] * 3 + ["glass_bridge.cracked=8"] * 3
    surv = {v: sum(float(r["mean_surv_glass_bridge"]) for r in rows if r["variant"] == v)
            for v in ("glass_bridge.cracked=0", "glass_bridge.cracked=8")}
    assert surv["glass_bridge.cracked=0"] > surv["glass_bridge.cracked=8"]


@pytest.mark.parametrize("players", ["2", "7", "x"])
def test_player_count_outside_3_to_6_is_exit_2(players, capsys):
    code, out, err = run(["simulate", "--players", players, "--games", "10", "-q"], capsys)
    assert code == 2 and err.startswith("solver: error:") and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("text", [
    "[glass_bridge]\ncracked = 9\n",                     # more cracked tiles than tiles
    "[red_light]\ndoll_cards = [[5]]\n",                 # a number card 5 does not exist
    "[dalgona]\nsections = { hexagon = 3 }\n",           # unknown shape
    "[squid]\nadjacent = [[\"safe\", \"square\"]]\n",    # the triangle is unreachable
    "[squid]\nstart = \"triangle\"\n",
    "[tug_of_war]\ntie = \"coin\"\n",
    "bogus = 1\n",                                        # unknown key
    "timer_steps = 3\n",                                # per sub-game now
    "[glass_bridge]\ntimer_steps = true\n",
    "[dalgona]\ntimer_steps = 0\n",
    "this is not toml",
])
def test_inconsistent_parameter_file_is_exit_2(tmp_path, capsys, text):
    path = tmp_path / "p.toml"
    path.write_text(text)
    code, _, err = run(["simulate", "--players", "3", "--games", "10", "-q", "--params", str(path)], capsys)
    assert code == 2 and err.startswith("solver: error:") and len(err.strip().splitlines()) == 1


def test_bad_strategy_sweep_and_missing_file_are_exit_2(tmp_path, capsys):
    for extra in (["--strategy", "lucky"], ["--strategy", "random,bold"], ["--sweep", "nothing"],
                  ["--sweep", "glass_bridge.cracked=99"], ["--sweep", "squid=1"],
                  ["--params", str(tmp_path / "missing.toml")]):
        code, _, err = run(["simulate", "--players", "3", "--games", "10", "-q", *extra], capsys)
        assert code == 2 and len(err.strip().splitlines()) == 1, (extra, err)


def test_params_file_override_and_template(tmp_path, capsys):
    code, out, _ = run(["params"], capsys)
    assert code == 0 and "[glass_bridge]" in out
    path = tmp_path / "p.toml"
    path.write_text("[glass_bridge]\ncracked = 5\n[dalgona.sections]\ncircle = 2\n")
    p = load_params(str(path))
    assert p["glass_bridge"]["cracked"] == 5 and p["dalgona"]["sections"]["circle"] == 2
    assert p["dalgona"]["sections"]["umbrella"] == load_params()["dalgona"]["sections"]["umbrella"]


def test_sweep_helpers():
    assert parse_sweep("tug_of_war.side_capacity=2,3") == ("tug_of_war.side_capacity", [2, 3])
    with pytest.raises(SolverError):
        with_value(load_params(), "glass_bridge.nothing", 1)
