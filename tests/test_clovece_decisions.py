"""The classic decision API (solver.clovece.classic) against the rulebook reference and the batch loop.

* Random games driven one roll at a time through ``ClassicGame`` replay in the pure-Python reference
  (turn order, three tries, a 6 rolls again, legality, where pawns go, captures, the winner), and the
  legal pawns and positions agree with the reference after every roll.
* ``choose_move`` picks what the reference's strategy definitions pick in random positions, and what
  the engine's own games pick (``classic_trace``): the API and the Monte Carlo runner share one path.
"""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from solver._ext import clovece as engine
from solver.cli.main import app
from solver.clovece.classic import ClassicGame, choose_move, field_code, position_from_fields
from solver.clovece.strategies import SEATS, STRATEGIES
from solver.errors import SolverError

try:
    from tests.clovece_reference import ClassicReference, replay
    from tests.test_clovece_classic import positions
except ImportError:  # plain `pytest` puts tests/ itself on sys.path
    from clovece_reference import ClassicReference, replay
    from test_clovece_classic import positions


def _events(game: ClassicGame) -> list[tuple[int, ...]]:
    """The game's rolls in the engine-trace shape the reference replays."""
    out = []
    for m in game.history:
        if m.pawn is None:
            out.append((m.player, m.die, -1, -2, -2, -1))
        else:
            victim = m.captured[0] * 4 + m.captured[1] if m.captured else -1
            out.append((m.player, m.die, m.pawn, m.start, m.to, victim))
    return out


@settings(max_examples=60, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1), three=st.booleans(),
       first=st.integers(0, 3))
def test_random_games_through_the_api_follow_the_rules(players, seed, three, first) -> None:
    first %= players
    rng = random.Random(seed)
    game = ClassicGame(players, three_after_six=three, first=first)
    ref = ClassicReference(list(SEATS[players]))
    while not game.is_over and len(game.history) < 20000:
        die = game.roll(rng)
        legal = game.legal_moves(die)
        assert set(legal) == set(ref.legal(game.to_play, die))
        pawn = rng.choice(legal) if legal else None
        if pawn is not None:
            ref.move(game.to_play, pawn, die)
        game.play(die, pawn)
        assert game.pawns() == [[ref.code(p, k) for k in range(4)] for p in range(players)]
    assert game.is_over, "a random game should end well within 20,000 rolls"
    winner, _ = replay(players, list(SEATS[players]), ["random"] * players, _events(game), three, first)
    assert winner == game.winner
    assert ref.won(game.winner)
    assert game.legal_moves(6) == []


@settings(max_examples=300, deadline=None)
@given(positions())
def test_choices_in_random_positions_match_the_reference(case) -> None:
    players, seats, codes, player, die, strat = case
    game = ClassicGame.from_position(codes, player)
    ref = ClassicReference.from_codes(seats, codes)
    assert set(game.legal_moves(die)) == set(ref.legal(player, die))
    chosen = choose_move(game, die, strat)
    assert (-1 if chosen is None else chosen) == ref.choose(strat, player, die)
    assert game.tries == (3 if ref.nothing_can_move(player) else 1)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_api_replays_the_batch_loops_choices(players: int, seed: int) -> None:
    """Every strategy except random decides alike in the engine's own game and through the API."""
    names = [s for s in STRATEGIES if s != "random"][:players]
    winner, events = engine.classic_trace(players, list(SEATS[players]), [STRATEGIES.index(n) for n in names],
                                          seed)
    game = ClassicGame(players)
    for p, die, k, frm, to, victim in events:
        assert game.to_play == p
        assert choose_move(game, die, names[p]) == (None if k < 0 else k)
        move = game.play(die, None if k < 0 else k)
        assert (move.start, move.to) == ((None, None) if k < 0 else (frm, to))
        assert move.captured == (None if victim < 0 else divmod(victim, 4))
    assert game.winner == winner


def test_random_strategy_is_seeded() -> None:
    game = ClassicGame(4)
    for pawn in (0, 0, 1):                  # 6s: pawn 0 enters and moves on, pawn 1 enters
        game.play(6, pawn)
    assert game.legal_moves(3) == [0, 1]
    picks = {choose_move(game, 3, "random", seed) for seed in range(40)}
    assert picks == {0, 1}
    assert all(choose_move(game, 3, "random", 7) == choose_move(game, 3, "random", 7) for _ in range(5))


def test_turn_rules_by_example() -> None:
    game = ClassicGame(2)
    for _ in range(3):                      # nothing on the board: three tries
        assert game.to_play == 0
        game.play(2)
    assert game.to_play == 1 and game.tries == 3
    game.play(6, 2)                         # enters, rolls again, now one try
    assert (game.to_play, game.tries, game.field(1, 2)) == (1, 1, "L20")
    game.play(4, 2)
    assert game.to_play == 0 and game.field(1, 2) == "L24"


def test_copy_is_independent() -> None:
    game = ClassicGame(2)
    game.play(6, 0)
    other = game.copy()
    other.play(3, 0)
    assert game.pawns()[0][0] == 0 and other.pawns()[0][0] == 3
    assert len(game.history) == 1 and len(other.history) == 2


@pytest.mark.parametrize("action,message", [
    (lambda g: g.play(7), "a die shows 1..6"),
    (lambda g: g.play(6), "must move"),
    (lambda g: g.play(3, 0), "may not move"),
    (lambda g: g.play(6, 4), "pawns are 0..3"),
    (lambda g: choose_move(g, 6, "clever"), "unknown strategy"),
    (lambda g: ClassicGame(5), "2, 3 or 4 players"),
    (lambda g: ClassicGame(2, first=2), "first player"),
    (lambda g: ClassicGame.from_position([[0, 0, -1, -1], [-1] * 4], 0), "two pawns on one field"),
    (lambda g: ClassicGame.from_position([[-1] * 4, [-1] * 4], 2), "the players are 0..1"),
])
def test_bad_calls_are_clear_errors(action, message) -> None:
    with pytest.raises(SolverError, match=message):
        action(ClassicGame(2))


def test_finished_game_refuses_moves() -> None:
    game = ClassicGame.from_position([[41, 42, 43, 38], [-1] * 4], 0)
    move = game.play(2, 3)
    assert move.to == 40 and game.winner == 0 and game.is_over
    with pytest.raises(SolverError, match="over"):
        game.play(1)
    with pytest.raises(SolverError, match="over"):
        choose_move(game, 1)


def test_field_names_round_trip() -> None:
    for players, seats in SEATS.items():
        for p, seat in enumerate(seats):
            game = ClassicGame.from_position([[-1] * 4] * players, p)
            for code in range(-1, 44):
                rows = [[-1] * 4 for _ in range(players)]
                rows[p][0] = code
                game = ClassicGame.from_position(rows, p)
                assert field_code(seat, game.field(p, 0)) == code
    assert position_from_fields(["L0 pub pub pub", "L0, pub, pub, H2.4"]) == [[0, -1, -1, -1], [20, -1, -1, 43]]


def test_move_command_shows_every_strategys_choice() -> None:
    result = CliRunner().invoke(app, ["clovece", "move", "--pawns", "L3, L17, pub, H0.1",
                                      "--pawns", "L20, L9, pub, pub", "--die", "6"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == ("P0 (seat 0) rolled 6: pawn 0 L3 -> L9, captures P1 pawn 1; pawn 1 L17 -> L23; "
                        "pawn 2 pub -> L0")
    chosen = dict(line.split(None, 1) for line in lines[1:])
    assert set(chosen) == set(STRATEGIES)
    assert chosen["runner"] == "pawn 1 L17 -> L23" and chosen["hunter"].startswith("pawn 0")


@pytest.mark.parametrize("args,message", [
    (["--pawns", "L3 pub pub", "--pawns", "pub pub pub pub", "--die", "6"], "four pawns"),
    (["--pawns", "L3 pub pub pub", "--die", "6"], "2, 3 or 4 players"),
    (["--pawns", "L3 L3 pub pub", "--pawns", "pub pub pub pub", "--die", "6"], "two pawns on one field"),
    (["--pawns", "L3 pub pub H2.1", "--pawns", "pub pub pub pub", "--die", "6"], "own home"),
    (["--pawns", "L3 pub pub pub", "--pawns", "pub pub pub pub", "--die", "6", "--to-play", "3"], "0..1"),
    (["--pawns", "L3 pub pub pub", "--pawns", "pub pub pub pub", "--die", "6", "-s", "x"], "unknown strategy"),
    (["--pawns", "H0.1 H0.2 H0.3 H0.4", "--pawns", "pub pub pub pub", "--die", "6"], "already won"),
])
def test_move_command_bad_input_is_one_line(args, message, solver_main, capsys) -> None:
    assert solver_main(["clovece", "move", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("solver: error:") and message in err[0], err
