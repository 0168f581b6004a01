"""Whole napij-se games from thousands of seeds never break the invariants; CLI and file errors."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from click.testing import CliRunner

from solver._ext.clovece import CompiledBoard, napij_simulate
from solver.cli.main import app
from solver.clovece.board import compile_board, default_board_path, load_board
from solver.clovece.deck import load_deck
from solver.clovece.strategies import SEATS, parse_strategy_list, strategy_ids
from solver.errors import SolverError

CB = CompiledBoard(load_board().arrays, load_deck().arrays())


@pytest.mark.parametrize("players,lineup", [
    (4, "random"), (4, "best,runner,hunter,cautious"), (3, "shortcut,random,best"), (2, "hunter,cautious"),
])
def test_random_play_keeps_every_invariant(players: int, lineup: str) -> None:
    """4 pawns per player always accounted for (occupancy = pawn positions), one winner per game,
    drinks = sum of their causes; checked by the engine after every turn of 1500 games."""
    names = parse_strategy_list(lineup, players)
    games = 1500
    r = napij_simulate(CB, players, list(SEATS[players]), strategy_ids(names), 7 + players, games, True)
    assert r["violations"] == 0
    assert r["abandoned"] == 0 and r["wins"].sum() == games
    assert np.allclose(r["drinks"], r["drink_causes"].sum(axis=1))
    assert (r["glass"] <= r["drink_causes"][:, 3]).all()
    assert r["cards"][11] == r["glass"].sum()              # finish-your-glass cards drawn
    assert (r["drink_causes"][:, 5] == games).all()         # everyone drinks at the start
    assert r["drink_causes"][:, 6].sum() == games * (players - 1)   # the losers toast the winner
    assert 0 < r["black_games"] <= games
    assert r["player_black_games"].max() <= r["black_games"] <= r["player_black_games"].sum()
    assert (r["player_black_wins"] <= np.minimum(r["wins"], r["player_black_games"])).all()


def test_same_seed_same_numbers() -> None:
    a = napij_simulate(CB, 4, [0, 1, 2, 3], [0] * 4, 99, 300)
    b = napij_simulate(CB, 4, [0, 1, 2, 3], [0] * 4, 99, 300)
    assert (a["wins"] == b["wins"]).all() and a["rolls"] == b["rolls"] and (a["drinks"] == b["drinks"]).all()


def _doc() -> dict:
    return json.loads(default_board_path().read_text(encoding="utf-8"))


def test_board_errors_name_the_field() -> None:
    doc = _doc()
    doc["fields"][3]["kind"] = "trampoline"
    with pytest.raises(SolverError, match="'L3'.*unknown field kind 'trampoline'"):
        compile_board(doc)
    doc = _doc()
    doc["fields"][7]["next"] = "NOWHERE"
    with pytest.raises(SolverError, match="'L7'.*dangling"):
        compile_board(doc)
    doc = _doc()
    for f in doc["fields"]:
        if f["id"] == "H1.1":
            f["next"] = "H1.3"         # the way into seat 1's home skips H1.2
    with pytest.raises(SolverError, match="'H1.1'.*seat 1"):
        compile_board(doc)


def test_unreachable_home_is_reported() -> None:
    """Split the loop into two circles (L0..L19 and L20..L39) without the Black path between them:
    seat 0 starts on L0 but turns home from L39."""
    doc = _doc()
    for f in doc["fields"]:
        if f["id"] in ("L5", "L25"):
            f["kind"] = "normal"
            del f["turn"]
        if f["id"] == "L19":
            f["next"] = "L0"
        if f["id"] == "L0":
            f["prev"] = "L19"
        if f["id"] == "L39":
            f["next"] = "L20"
        if f["id"] == "L20":
            f["prev"] = "L39"
    with pytest.raises(SolverError, match="'H0.4'.*seat 0: home unreachable from start 'L0'"):
        compile_board(doc)


def _run(args: list[str], tmp_path) -> tuple[int, str]:
    from solver.cli.main import main

    try:
        main(args)
    except SystemExit as exc:
        return int(exc.code or 0), ""
    return 0, ""


def test_cli_simulate_and_exit_codes(tmp_path, capsys) -> None:
    out = tmp_path / "r.csv"
    code, _ = _run(["clovece", "simulate", "--variant", "napij-se", "--players", "4", "--strategy",
                    "runner,random,random,random", "--games", "200", "--seed", "3", "-j", "1", "-q",
                    "-o", str(out)], tmp_path)
    assert code == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 5 and "mean_drinks" in lines[0] and "black_path_rate" in lines[0]
    code, _ = _run(["clovece", "simulate", "--variant", "classic", "--players", "2-3", "--games", "100",
                    "-j", "1", "-q", "-o", str(out)], tmp_path)
    assert code == 0 and len(out.read_text().splitlines()) == 6
    bad = tmp_path / "bad.json"
    doc = _doc()
    doc["fields"][0]["kind"] = "volcano"
    bad.write_text(json.dumps(doc))
    for args in (["--strategy", "genius"], ["--strategy", "runner,random"], ["--players", "5"],
                 ["--board", str(bad)], ["--board", str(tmp_path / "missing.json")],
                 ["--variant", "classic", "--deck", str(bad)], ["--deck", str(bad)],
                 ["--variant", "classic", "--drinks", "per-event"], ["--after-six", "three-tries"],
                 ["--first", "last"]):
        capsys.readouterr()
        code, _ = _run(["clovece", "simulate", "--games", "10", "-q", *args], tmp_path)
        err = capsys.readouterr().err
        assert code == 2, args
        assert err.startswith("solver: error:") and err.count("\n") == 1, err
    code, _ = _run(["clovece", "check"], tmp_path)
    assert code == 0


def test_check_command_output() -> None:
    result = CliRunner().invoke(app, ["clovece", "check"])
    assert result.exit_code == 0 and "87 fields" in result.output and "32 cards" in result.output
    assert "18 favourable" in result.output and "1 blank" in result.output


def test_rule_options_reach_the_engine_and_the_variant_column(tmp_path) -> None:
    """Per-event drinks give fewer drinks than per-reason; a drawn first player spreads the starts."""
    rows = {}
    for drinks in ("per-reason", "per-event"):
        out = tmp_path / f"{drinks}.csv"
        code, _ = _run(["clovece", "simulate", "--players", "4", "--games", "300", "--seed", "5", "-j", "1",
                        "-q", "--drinks", drinks, "--first", "random", "-o", str(out)], tmp_path)
        assert code == 0
        rows[drinks] = list(csv.DictReader(out.open()))
    reason, event = rows["per-reason"], rows["per-event"]
    assert reason[0]["variant"] == "napij-se+first=random"
    assert event[0]["variant"] == "napij-se+drinks=per-event+first=random"
    for r, e in zip(reason, event, strict=True):
        assert float(e["mean_drinks_pub"]) < float(r["mean_drinks_pub"])
        parts = [float(r[f"mean_drinks_{c}"]) for c in ("captured", "bottle", "pub", "card", "home", "start", "toast")]
        assert sum(parts) == pytest.approx(float(r["mean_drinks"]))
    assert all(0.1 < float(r["start_rate"]) < 0.4 for r in reason)
    assert sum(float(r["start_rate"]) for r in reason) == pytest.approx(1.0)


def test_cli_tournament_matrix(tmp_path) -> None:
    matrix = tmp_path / "m.csv"
    code, _ = _run(["clovece", "tournament", "--variant", "classic", "--strategies", "random,cautious",
                    "--games", "300", "-j", "1", "-q", "-o", str(tmp_path / "rows.csv"), "--matrix", str(matrix)],
                   tmp_path)
    assert code == 0
    import csv

    rows = {(r["strategy"], r["against"]): float(r["win_rate"]) for r in csv.DictReader(matrix.open())}
    assert rows[("random", "random")] == 0.25                 # four equal players, seats pooled
    assert rows[("cautious", "random")] > rows[("random", "cautious")]
    # S against X on each of 4 seats (2 ordered pairs), plus one run of four equal players per strategy
    assert len((tmp_path / "rows.csv").read_text().splitlines()) == 1 + (2 * 4 + 2) * 4


def test_deck_errors_name_the_entry() -> None:
    from solver.clovece.deck import compile_deck

    with pytest.raises(SolverError, match="card entry 2: unknown card 'beer'"):
        compile_deck({"cards": [{"card": "blank"}, {"card": "beer"}]})
    with pytest.raises(SolverError, match="card entry 1 \\(advance\\): n must be"):
        compile_deck({"cards": [{"card": "advance", "n": 0}]})
    with pytest.raises(SolverError, match="count must be a positive integer"):
        compile_deck({"cards": [{"card": "drink", "count": -1}]})
    with pytest.raises(SolverError, match="needs 1..64 cards"):
        compile_deck({"cards": [{"card": "drink", "count": 65}]})


def test_cli_uses_the_given_board_and_deck(tmp_path) -> None:
    """A house deck of 32 finish-your-glass cards and the default board copied to a file."""
    import csv

    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps({"cards": [{"card": "finish-glass", "count": 32}]}))
    board = tmp_path / "board.json"
    board.write_text(default_board_path().read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "r.csv"
    code, _ = _run(["clovece", "simulate", "--players", "2", "--games", "200", "-j", "2", "-q",
                    "--board", str(board), "--deck", str(deck), "-o", str(out)], tmp_path)
    assert code == 0
    for row in csv.DictReader(out.open()):
        assert float(row["mean_finish_glass"]) > 1.5
        assert float(row["mean_finish_glass"]) == float(row["mean_drinks_card"])


def test_same_table_for_any_worker_count(tmp_path) -> None:
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.csv"
        code, _ = _run(["clovece", "simulate", "--players", "3", "--strategy", "best,hunter,random", "--games",
                        "600", "--block-size", "100", "--seed", "11", "-j", workers, "-q", "-o", str(out)], tmp_path)
        assert code == 0
        outs.append(out.read_text())
    assert outs[0] == outs[1]
