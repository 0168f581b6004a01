"""The napij-se decision API (solver.clovece.napij) against the batch loop and the independent checker.

* The engine's own games (``clovece play``), driven again through ``NapijGame`` with the logged
  dice, get the same decision from ``choose_move`` at every Bottle call and every move, and give
  the same log, event for event: the API and the Monte Carlo runner share one code path.
* Random games driven through the API (random dice, random legal decisions, every rule option,
  random card pickers) are valid logs for the rule checker written apart from the engine
  (``solver.clovece.replay``), and at every move the die-by-die moves equal the legal moves of the
  pure-Python reference in ``tests/clovece_reference.py``.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from solver.clovece.board import load_board
from solver.clovece.napij import NapijGame, NapijMove, choose_move
from solver.clovece.play import play_napij
from solver.clovece.replay import check_lines
from solver.clovece.strategies import SEATS
from solver.errors import SolverError

try:
    from tests.clovece_reference import NapijMoves, NapijPawn
except ImportError:  # plain `pytest` puts tests/ itself on sys.path
    from clovece_reference import NapijMoves, NapijPawn

BOARD = load_board()


def _board_doc() -> dict:
    from solver.clovece.board import default_board_path

    return json.loads(default_board_path().read_text(encoding="utf-8"))


REF = NapijMoves(_board_doc())
LINEUPS = [("best", "runner", "hunter", "cautious"), ("cautious", "shortcut", "best", "hunter"),
           ("hunter", "best", "shortcut", "runner")]


def _replay_through_api(players: int, lineup: tuple[str, ...], seed: int, drinks: str, first: str) -> None:
    batch = play_napij(players, lineup, seed, drinks, first)
    game = NapijGame(players, seed, ",".join(lineup), drinks, first)
    for line in batch.lines[2:-1]:
        assert game.to_play == line["player"], f"turn {line['turn']}"
        if game.phase == "announce":
            called = any("call" in e for e in line["events"])
            assert choose_move(game, lineup[game.to_play]) == called, f"turn {line['turn']}: the Bottle call"
            game.announce(called)
        for at, e in enumerate(line["events"]):
            if "roll" in e:
                game.roll(e["roll"])
            elif "move" in e:
                chosen = choose_move(game, lineup[game.to_play])
                assert chosen is not None and chosen.key() == (e["move"], e["steps"], e["turn"], e["enter"],
                                                               e["sum"]), f"turn {line['turn']}: {e}"
                game.play(chosen)
                targets = _logged_targets(line["events"], at)
                while game.phase == "target":       # the card targets the seats picked, in order
                    options = {(t.kind, t.player, t.pawn): t for t in game.legal_moves()}
                    while targets[0] not in options:    # a card with one candidate asks nothing
                        targets.pop(0)
                    logged = options[targets.pop(0)]
                    if lineup[game.to_play] != "random":        # a random seat drew from the game's numbers
                        assert choose_move(game, lineup[game.to_play]) == logged, f"turn {line['turn']}"
                    game.play(logged)
    assert game.is_over
    assert game.log().jsonl() == batch.jsonl()


def _logged_targets(events: list[dict], start: int) -> list[tuple[str, int, int]]:
    """The capture and swap cards' targets (kind, player, pawn) logged after event ``start``, up to
    the next move."""
    out = []
    for i in range(start + 1, len(events)):
        e = events[i]
        if "move" in e:
            break
        if e.get("card") == "capture":
            victim = next((x for x in events[i + 1:] if x.get("reason") == "captured"), None)
            if victim is not None:
                out.append(("capture", *victim["pub"]))
        elif "swap" in e:
            out.append(("swap", *e["with"]))
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("lineup", LINEUPS)
def test_engine_games_decide_alike_through_the_api(players: int, lineup: tuple[str, ...]) -> None:
    for seed in range(1, 5):
        _replay_through_api(players, lineup[:players], seed, "per-reason", "seat0")


@pytest.mark.parametrize("drinks,first", [("per-event", "seat0"), ("per-reason", "random")])
def test_engine_games_decide_alike_under_every_rule_option(drinks: str, first: str) -> None:
    for seed in range(1, 4):
        _replay_through_api(4, LINEUPS[0], seed, drinks, first)


def _reference_pawns(game: NapijGame) -> list[list[NapijPawn]]:
    return [[NapijPawn(field=None if pw["pos"] < 0 else BOARD.ids[pw["pos"]], held=pw["held"], immune=pw["immune"],
                       bdir=pw["bdir"], inward=pw["inward"], ready=pw["ready"]) for pw in row]
            for row in game.state()["pawns"]]


@settings(max_examples=25, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(1, 2**31), drinks=st.sampled_from(["per-reason", "per-event"]),
       first=st.sampled_from(["seat0", "random"]),
       pickers=st.lists(st.sampled_from(["random", "best", "hunter"]), min_size=4, max_size=4))
def test_random_games_through_the_api_are_valid(players, seed, drinks, first, pickers) -> None:
    rng = random.Random(seed)
    game = NapijGame(players, seed, ",".join(pickers[:players]), drinks, first)
    seats = list(SEATS[players])
    steps = 0
    targets_seen = [0]
    while not game.is_over and steps < 200000:
        steps += 1
        if game.phase == "announce":
            game.announce(rng.random() < 0.2)
        elif game.phase in ("bottle", "roll"):
            game.roll(rng.randint(1, 6))
        else:
            moves = game.legal_moves()
            assert moves, "a move phase always has a move"
            if game.phase == "target":      # the card's choices, against the reference (two or more)
                kinds = {t.kind for t in moves}
                assert len(kinds) == 1 and len(moves) >= 2
                assert {(t.player, t.pawn) for t in moves} == REF.card_targets(_reference_pawns(game), game.to_play,
                                                                               kinds.pop())
                assert all(t.field == game.pawns()[t.player][t.pawn] for t in moves)
                targets_seen[0] += 1
            elif steps < 5000:                # the slow reference on the first few hundred turns
                die = game.dice[game._state.next_die]
                single = {(m.pawn, int(m.turn_off), int(m.enter), m.to) for m in moves if not m.by_sum}
                assert single == REF.legal(seats, _reference_pawns(game), game.to_play, die)
            game.play(rng.choice(moves))
    assert game.is_over, "a random game should end"
    summary = check_lines(game.log().jsonl().splitlines())
    assert summary.winner == game.winner
    note(f"card targets chosen: {targets_seen[0]}")


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(1, 2**31), strategy=st.sampled_from(["random", "runner", "hunter", "cautious", "shortcut",
                                                               "best"]))
def test_a_strategys_decisions_are_always_legal(seed, strategy) -> None:
    """Every seat asks ``strategy``; the game stays valid for the checker."""
    rng = random.Random(seed)
    game = NapijGame(4, seed, strategy)
    for _ in range(200000):             # a game ends, or is abandoned after 20,000 turns
        if game.is_over:
            break
        if game.phase == "announce":
            called = choose_move(game, strategy, seed)
            assert isinstance(called, bool)
            game.announce(called)
        elif game.phase in ("bottle", "roll"):
            assert choose_move(game, strategy) is None
            game.roll(rng.randint(1, 6))
        else:
            move = choose_move(game, strategy, rng.randrange(1000))
            assert move in game.legal_moves()
            game.play(move)
    assert game.is_over
    check_lines(game.log().jsonl().splitlines())


def test_a_game_without_a_winner_is_abandoned_after_20000_turns_as_in_simulate() -> None:
    """Four random players, seed 9: every pawn ends up held or in the pub for good."""
    rng = random.Random(9)
    game = NapijGame(4, 9, "random")
    while not game.is_over:
        if game.phase == "announce":
            game.announce(choose_move(game, "random", 9))
        elif game.phase in ("bottle", "roll"):
            game.roll(rng.randint(1, 6))
        else:
            game.play(choose_move(game, "random", rng.randrange(1000)))
    assert game.winner is None and game.state()["turn"] == 20000
    assert game.legal_moves() == [] and choose_move(game, "best") is None
    with pytest.raises(SolverError, match="over"):
        game.roll(1)
    log = game.log()
    assert log.lines[-1]["result"] == "abandoned"
    assert check_lines(log.jsonl().splitlines()).winner is None


def test_copy_is_independent() -> None:
    game = NapijGame(2, seed=5)
    game.roll(6)
    game.roll(3)
    other = game.copy()
    other.play(next(m for m in other.legal_moves() if m.by_sum))    # all dice: the turn is over
    assert (game.phase, game.to_play, other.phase, other.to_play) == ("move", 0, "roll", 1)
    assert game.pawns()[0] == ["pub"] * 4 and other.pawns()[0] == ["L3", "pub", "pub", "pub"]
    assert game.log().lines[-1]["events"] == [{"roll": 6}, {"roll": 3}]
    assert other.log().lines[-2]["events"][:3] == [{"roll": 6}, {"roll": 3},
                                                   {"move": 0, "steps": 3, "turn": 0, "enter": True, "sum": True}]


@pytest.mark.parametrize("action,message", [
    (lambda g: g.roll(7), "1..6"),
    (lambda g: g.announce(True), "start of a turn"),
    (lambda g: g.play(NapijMove(0, 3)), "no move is due"),
    (lambda g: choose_move(g, "clever"), "unknown strategy"),
    (lambda g: NapijGame(5), "2, 3 or 4 players"),
    (lambda g: NapijGame(2, strategies="best,runner,hunter"), "strategies"),
    (lambda g: NapijGame(2, drinks="sometimes"), "drinks"),
    (lambda g: NapijGame(2, seed=-1), "seed"),
])
def test_bad_calls_are_clear_errors(action, message) -> None:
    with pytest.raises(SolverError, match=message):
        action(NapijGame(2, seed=1))


def test_illegal_move_and_finished_game() -> None:
    game = NapijGame(2, seed=1)
    game.roll(6)
    game.roll(4)
    with pytest.raises(SolverError, match="not a legal move"):
        game.play(NapijMove(0, 5))
    rng = random.Random(1)
    while not game.is_over:
        if game.phase == "announce":
            game.announce(False)
        elif game.phase in ("bottle", "roll"):
            game.roll(rng.randint(1, 6))
        else:
            game.play(choose_move(game, "runner"))
    assert game.winner is not None and game.phase == "over" and game.legal_moves() == []
    assert choose_move(game, "best") is None
    with pytest.raises(SolverError, match="over"):
        game.roll(3)


def test_card_targets_are_the_callers_decisions() -> None:
    """Random games reach every kind of target decision: capture and swap, a second card of the same
    move, and a card drawn out of turn (an offered capture, a swapped pawn landing on a card field).
    While a target is due the game shows the move made up to the card, and nothing else is allowed."""
    seen = set()
    for seed in range(1, 200):
        rng = random.Random(seed)
        game = NapijGame(4, seed, "random")
        while not game.is_over:
            if game.phase == "announce":
                game.announce(rng.random() < 0.2)
            elif game.phase in ("bottle", "roll"):
                game.roll(rng.randint(1, 6))
            elif game.phase == "move":
                game.play(rng.choice(game.legal_moves()))
            else:
                targets = game.legal_moves()
                seen.add(targets[0].kind)
                if game._pending.chosen:
                    seen.add("second card")
                if game.to_play != game._state.to_play:
                    seen.add("out of turn")
                assert choose_move(game, "best") in targets and choose_move(game, "random", seed) in targets
                before = (game.state(), game.log().jsonl())
                with pytest.raises(SolverError, match="card"):
                    game.roll(3)
                other = game.copy()
                other.play(targets[-1])
                assert (game.phase, game.state(), game.log().jsonl()) == ("target", *before)
                game.play(rng.choice(targets))
        check_lines(game.log().jsonl().splitlines())
        if len(seen) == 4:
            break
    assert seen == {"capture", "swap", "second card", "out of turn"}
