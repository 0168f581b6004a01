"""Games at the table (solver.clovece.table) and human seats in ``clovece play``.

* Napij-se and classic games with strategy and human seats (the human answered by a callback) are
  valid for the independent log checker (``solver.clovece.replay``); the same seed and answers give
  the same game; the callback is asked at every kind of decision, and only where there is a choice.
* Classic games with deterministic seats are replayed in the pure-Python reference written from the
  rulebook (``tests/clovece_reference.py``), which checks every roll's legality and each
  deterministic strategy's pawn.
* The CLI's human seat, and its one-line errors.
"""

from __future__ import annotations

import io
import random

import pytest

from solver.clovece.classic import ClassicGame
from solver.clovece.napij import NapijGame, NapijMove, NapijTarget
from solver.clovece.replay import check_lines
from solver.clovece.strategies import SEATS
from solver.clovece.table import play_classic_seats, play_napij_seats
from solver.errors import SolverError

try:
    from tests.clovece_reference import replay as reference_replay
except ImportError:  # plain `pytest` puts tests/ itself on sys.path
    from clovece_reference import replay as reference_replay


@pytest.mark.parametrize("seed", range(1, 9))
def test_napij_games_with_a_human_seat_are_valid_and_reproducible(seed: int) -> None:
    asked: dict[str, int] = {}

    def human(game: NapijGame):
        rng = random.Random(len(game.log().jsonl()))       # answers that depend on the position only
        asked[game.phase] = asked.get(game.phase, 0) + 1
        assert game.strategies[game.to_play] == "human"
        if game.phase == "announce":
            return rng.random() < 0.3
        options = game.legal_moves()
        assert options and all(isinstance(o, NapijMove if game.phase == "move" else NapijTarget) for o in options)
        return rng.choice(options)

    seats = ("human", "best", "random", "human")
    game = play_napij_seats(4, seats, seed, ask=human)
    assert game.is_over
    summary = check_lines(game.log().jsonl().splitlines())
    assert summary.winner == game.winner
    assert set(asked) >= {"announce", "move"}
    again = play_napij_seats(4, seats, seed, ask=human)
    assert again.log().jsonl() == game.log().jsonl()
    assert play_napij_seats(4, seats, seed + 100, ask=human).log().jsonl() != game.log().jsonl()


def test_napij_human_seats_are_asked_card_targets() -> None:
    kinds = set()

    def human(game: NapijGame):
        if game.phase == "target":
            kinds.add(game.legal_moves()[0].kind)
        return False if game.phase == "announce" else game.legal_moves()[-1]

    for seed in range(1, 40):
        play_napij_seats(4, ("human",) * 4, seed, ask=human)
        if kinds == {"capture", "swap"}:
            break
    assert kinds == {"capture", "swap"}


def _trace(game_log) -> tuple[list[tuple[int, ...]], int | None]:
    """The classic log's rolls as the reference's trace (player, die, pawn, from, to, captured)."""
    from solver.clovece.classic import field_code

    seats = game_log.lines[0]["seats"]
    events: list[tuple[int, ...]] = []
    for line in game_log.lines[1:]:
        if "events" not in line:
            continue
        p = line["player"]
        for e in line["events"]:
            if "roll" in e:
                events.append((p, e["roll"], -1, -2, -2, -1))
            elif "move" in e:
                events[-1] = (p, events[-1][1], e["move"], -2, -2, -1)
            elif "place" in e:
                q, k = e["place"]
                events[-1] = (p, events[-1][1], k, field_code(seats[q], e["from"]), field_code(seats[q], e["to"]), -1)
            elif "pub" in e:
                q, j = e["pub"]
                events[-1] = (*events[-1][:5], q * 4 + j)
    return events, game_log.lines[-1].get("winner")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("after_six", ["one-roll", "three-tries"])
def test_classic_games_at_the_table_follow_the_rulebook(players: int, after_six: str) -> None:
    lineup = ("runner", "hunter", "cautious", "shortcut")[:players]
    for seed in range(1, 6):
        log = play_classic_seats(players, lineup, seed, after_six, first="random")
        check_lines(log.jsonl().splitlines())
        events, winner = _trace(log)
        first = events[0][0]
        assert reference_replay(players, list(SEATS[players]), list(lineup), events,
                                three_after_six=after_six == "three-tries", first=first)[0] == winner
        assert play_classic_seats(players, lineup, seed, after_six, first="random").jsonl() == log.jsonl()


def test_classic_human_is_asked_only_where_there_is_a_choice() -> None:
    asked = []

    def human(game: ClassicGame, die: int, pawns: list[int]) -> int:
        assert len(pawns) >= 2 and pawns == game.legal_moves(die)
        asked.append(die)
        return pawns[-1]

    log = play_classic_seats(2, ("human", "best"), 4, ask=human)
    assert asked and check_lines(log.jsonl().splitlines()).winner == log.lines[-1]["winner"]
    assert log.lines[0]["strategies"] == ["human", "best"]


def test_a_human_seat_needs_someone_to_ask() -> None:
    with pytest.raises(SolverError, match="human seat"):
        play_napij_seats(2, ("human", "best"), 1)
    with pytest.raises(SolverError, match="human seat"):
        play_classic_seats(2, ("best", "human"), 1)
    with pytest.raises(SolverError, match="unknown strategy"):
        play_classic_seats(2, ("best", "humans"), 1)


@pytest.mark.parametrize("variant", ["napij-se", "classic"])
def test_cli_human_seat(variant, tmp_path, capsys, solver_main, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("2\n" * 3000))
    log = tmp_path / "game.jsonl"
    assert solver_main(["clovece", "play", "-v", variant, "-p", "3", "-s", "human,best,random", "--seed", "6",
                        "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "P0 " in out and "choice" in out and " wins after " in out
    if variant == "napij-se":
        assert "2) announce: the roll moves the Bottle" in out
    assert solver_main(["clovece", "replay", str(log)]) == 0
    assert "valid" in capsys.readouterr().out
    assert solver_main(["clovece", "play", "-v", variant, "-s", "human", "--log", "-"]) == 2
    assert "human seat" in capsys.readouterr().err
    assert solver_main(["clovece", "simulate", "-v", variant, "-s", "human", "--games", "10"]) == 2
    assert "unknown strategy 'human'" in capsys.readouterr().err
