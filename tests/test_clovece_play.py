"""`clovece play` logs and the independent `clovece replay` checker: engine games replay cleanly,
every kind of tampering is caught on its line, and the commands' outputs and exit codes."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from solver._ext import clovece as engine
from solver.cli.main import app
from solver.clovece.experiment import compiled
from solver.clovece.play import play_classic, play_napij
from solver.clovece.replay import check_lines
from solver.clovece.strategies import SEATS, strategy_ids
from solver.errors import SolverError

LINEUPS = [("random",) * 4, ("best", "random", "runner", "hunter"), ("cautious", "shortcut", "best", "hunter")]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("lineup", LINEUPS)
def test_engine_napij_games_replay_cleanly(players: int, lineup: tuple[str, ...]) -> None:
    for seed in range(6):
        log = play_napij(players, lineup[:players], seed, drinks=("per-reason", "per-event")[seed % 2],
                         first=("seat0", "random")[seed // 3])
        summary = check_lines(log.jsonl().splitlines())
        assert summary.winner == log.lines[-1]["winner"] and summary.turns == log.lines[-1]["turns"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_engine_classic_games_replay_cleanly(players: int) -> None:
    for seed in range(15):
        log = play_classic(players, ("runner", "random", "hunter", "best")[:players], seed,
                           after_six=("one-roll", "three-tries")[seed % 2], first=("seat0", "random")[seed % 3 > 0])
        assert check_lines(log.jsonl().splitlines()).winner == log.lines[-1]["winner"]


def test_logged_game_is_one_game_of_simulate() -> None:
    """The log does not change the game: the same seed gives the same winner and length."""
    ids = strategy_ids(("best", "random", "runner", "hunter"))
    for seed in range(5):
        game = engine.napij_game(compiled(None, None), 4, list(SEATS[4]), ids, seed)
        tally = engine.napij_simulate(compiled(None, None), 4, list(SEATS[4]), ids, seed, 1)
        assert game["violations"] == 0
        assert list(tally["wins"]).index(1) == game["winner"] and tally["turns"] == game["turns"]


def test_logs_show_every_kind_of_event() -> None:
    """Over a few games the logs contain every event the format describes, so the checker sees them."""
    kinds = set()
    cards = set()
    for seed in range(30):
        for line in play_napij(4, ("random", "hunter", "best", "random"), seed).lines[1:-1]:
            for e in line["events"]:
                kinds.add(next(iter(e)))
                if "card" in e:
                    cards.add(e["card"].split()[0])
    assert kinds >= {"roll", "call", "move", "place", "pub", "bottle", "card", "swap", "police", "immune",
                     "drink", "win"}
    assert cards >= {"advance", "back", "catch-up", "fall-in", "capture", "swap", "offer-capture", "from-pub",
                     "immunity", "return-to-pub", "police", "drink", "finish-glass", "blank"}


def _tamper(lines: list[dict], rng: random.Random) -> tuple[list[dict], int] | None:
    """Change one event of one turn line: a roll that a move uses at once (classic; other rolls may
    take any value), a move's pawn, a field, a drink, the reason of a return to the pub."""
    turns = [i for i, line in enumerate(lines) if line.get("events") and line.get("player") is not None]
    i = rng.choice(turns)
    events = lines[i]["events"]
    j = rng.randrange(len(events))
    e = dict(events[j])
    key = next(iter(e))
    if key == "roll":
        if j + 1 == len(events) or "steps" in events[j + 1] or "move" not in events[j + 1]:
            return None
        e["roll"] = e["roll"] % 6 + 1
    elif key == "move":
        e["move"] = (e["move"] + 1) % 4
    elif key == "place":
        e["to"] = "L13" if e["to"] != "L13" else "L14"
    elif key == "drink":
        e["n"] += 1
    elif key == "pub":
        e["reason"] = "pub" if e["reason"] != "pub" else "captured"
    else:
        return None
    events[j] = e
    return lines, i + 1


@pytest.mark.parametrize("variant", ["classic", "napij-se"])
def test_tampered_logs_are_caught_on_their_line(variant: str) -> None:
    rng = random.Random(7)
    caught = 0
    for seed in range(60):
        log = (play_classic(4, ("random",) * 4, seed) if variant == "classic"
               else play_napij(4, ("random", "best", "hunter", "runner"), seed))
        for _ in range(100):
            t = _tamper([dict(x, events=list(x["events"])) if "events" in x else x for x in log.lines], rng)
            if t is not None:
                break
        assert t is not None
        lines, no = t
        with pytest.raises(SolverError, match=r"^line (\d+):") as info:
            check_lines([json.dumps(x, ensure_ascii=False) for x in lines])
        assert str(info.value).startswith(f"line {no}:"), (str(info.value), no)
        caught += 1
    assert caught == 60


def test_wrong_turn_order_result_and_header() -> None:
    log = play_napij(3, ("random",) * 3, 2)
    text = log.jsonl().splitlines()

    def broken(i: int, change) -> str:
        lines = [json.loads(x) for x in text]
        change(lines[i])
        with pytest.raises(SolverError) as info:
            check_lines([json.dumps(x, ensure_ascii=False) for x in lines])
        return str(info.value)

    assert "line 3: player 0 starts" in broken(2, lambda x: x.update(player=1))
    assert "line 1: unknown variant" in broken(0, lambda x: x.update(variant="ludo"))
    assert "rules must give" in broken(0, lambda x: x["rules"].update(drinks="never"))
    assert "drinks by reason" in broken(-1, lambda x: x["drinks"][0].__setitem__(0, 99))
    assert "the result must say so" in broken(-1, lambda x: x.update(winner=(x["winner"] + 1) % 3))
    with pytest.raises(SolverError, match="without a result line"):
        check_lines(text[:-1])
    with pytest.raises(SolverError, match="the log is empty"):
        check_lines([])


def test_cli_play_and_replay(tmp_path, capsys, solver_main) -> None:
    log = tmp_path / "g.jsonl"
    assert solver_main(["clovece", "play", "--players", "2", "--strategy", "best,random", "--seed", "3",
                  "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Člověče napij-se: 2 players")
    assert "turn 1 P0:" in out and " wins after " in out.splitlines()[-1]
    assert solver_main(["clovece", "replay", str(log)]) == 0
    assert "valid (napij-se, 2 players" in capsys.readouterr().out
    lines = log.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[2])
    first["player"] = 1
    lines[2] = json.dumps(first)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert solver_main(["clovece", "replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("solver: error: line 3:") and err.count("\n") == 1
    r = CliRunner().invoke(app, ["clovece", "play", "--variant", "classic", "--seed", "1", "--log", "-"])
    assert r.exit_code == 0 and json.loads(r.output.splitlines()[0])["variant"] == "classic"
    for args in (["--strategy", "genius"], ["--players", "5"], ["--variant", "classic", "--drinks", "per-event"],
                 ["--after-six", "three-tries"]):
        assert solver_main(["clovece", "play", *args]) == 2, args
    assert solver_main(["clovece", "replay", str(tmp_path / "missing.jsonl")]) == 2


def test_custom_board_and_an_interaction_deck_replay_cleanly() -> None:
    """A deck of only the cards that move other pawns (and a board given as a file's text) travels
    in the log's header, and the checker follows every swap, offered capture and catch-up."""
    from solver.clovece.board import default_board_path

    deck = {"cards": [{"card": c, "count": 2} for c in ("offer-capture", "swap", "capture", "catch-up",
                                                         "fall-in", "police")]}
    board = default_board_path().read_text(encoding="utf-8")
    for seed in range(4):
        log = play_napij(4, ("random", "best", "hunter", "random"), seed, board_text=board,
                         deck_text=json.dumps(deck))
        assert log.lines[0]["board"] is not None and len(log.lines[0]["deck"]) == 12
        check_lines(log.jsonl().splitlines())
