"""Speed of the Člověče engines: four-player games of random players, one core.

Run with ``pytest bench/bench_clovece.py --benchmark-only``; games/s = games per round / mean time.
Targets (issue 6): classic >= 40,000 games/s, napij-se >= 10,000 games/s per core.  The last two
measure the decision API: one game driven from Python a decision at a time, every decision asked
of ``best`` (what a GUI or a match runner pays per decision).
"""

from __future__ import annotations

import random

from conftest import record_rates

from solver._ext import clovece as engine
from solver.clovece.classic import ClassicGame
from solver.clovece.classic import choose_move as classic_choose
from solver.clovece.experiment import compiled
from solver.clovece.napij import NapijGame
from solver.clovece.napij import choose_move as napij_choose

GAMES = 4000


def test_classic_random_four_players(benchmark) -> None:
    r = benchmark(engine.classic_simulate, 4, [0, 1, 2, 3], [0, 0, 0, 0], 1, GAMES)
    assert r["wins"].sum() == GAMES
    record_rates(benchmark, games_per_second=GAMES)


def test_napij_random_four_players(benchmark) -> None:
    board = compiled(None, None)
    r = benchmark(engine.napij_simulate, board, 4, [0, 1, 2, 3], [0, 0, 0, 0], 1, GAMES // 4)
    assert r["wins"].sum() == GAMES // 4
    record_rates(benchmark, games_per_second=GAMES // 4)


def test_napij_best_vs_random(benchmark) -> None:
    board = compiled(None, None)
    r = benchmark(engine.napij_simulate, board, 4, [0, 1, 2, 3], [5, 0, 0, 0], 1, GAMES // 4)
    record_rates(benchmark, games_per_second=GAMES // 4)
    assert r["wins"].sum() == GAMES // 4


def _classic_through_the_api(seed: int) -> int:
    """One four-player classic game roll by roll from Python, every decision asked of ``best``."""
    rng = random.Random(seed)
    game = ClassicGame(4)
    rolls = 0
    while not game.is_over:
        die = rng.randint(1, 6)
        game.play(die, classic_choose(game, die, "best"))
        rolls += 1
    return rolls


def _napij_through_the_api(seed: int) -> int:
    """One four-player napij-se game a decision and a die at a time, every decision asked of ``best``."""
    rng = random.Random(seed)
    game = NapijGame(4, seed)
    steps = 0
    while not game.is_over:
        if game.phase == "announce":
            game.announce(napij_choose(game, "best"))
        elif game.phase in ("bottle", "roll"):
            game.roll(rng.randint(1, 6))
        else:
            game.play(napij_choose(game, "best"))
        steps += 1
    return steps


def test_classic_decision_api_game(benchmark) -> None:
    """The decision API's cost: rolls per second when Python drives the game (a GUI, a match runner)."""
    rolls = benchmark.pedantic(_classic_through_the_api, args=(1,), rounds=5, iterations=1)
    record_rates(benchmark, rolls_per_second=rolls, games_per_second=1)


def test_napij_decision_api_game(benchmark) -> None:
    steps = benchmark.pedantic(_napij_through_the_api, args=(1,), rounds=3, iterations=1)
    record_rates(benchmark, steps_per_second=steps, games_per_second=1)
