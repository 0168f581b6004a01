"""Squid Game engine speed: whole games per second on one core (pytest bench/bench_squid.py --benchmark-only).

The target is >= 10,000 full games per second per core.  Each benchmark plays one block of
GAMES games in C; games/s = GAMES / mean time.
"""

from __future__ import annotations

import pytest

from solver._ext.squid import simulate_block
from solver.squid.params import engine_dict, load_params

GAMES = 5000
ENGINE = engine_dict(load_params())
POLICIES = {"random": 0, "careful": 1, "bold": 2, "equilibrium": 3}


@pytest.mark.parametrize("players", [3, 6])
@pytest.mark.parametrize("policy", list(POLICIES))
def test_whole_games(benchmark, players, policy):
    pols = [POLICIES[policy]] * players
    seeds = iter(range(10**9))
    tally = benchmark(lambda: simulate_block(ENGINE, pols, next(seeds), GAMES))
    assert int(tally["wins"].sum()) == GAMES
    if benchmark.stats:  # None with --benchmark-disable
        benchmark.extra_info["games_per_second"] = GAMES / benchmark.stats.stats.mean


def test_mixed_table_of_five(benchmark):
    pols = [3, 0, 1, 2, 3]
    tally = benchmark(lambda: simulate_block(ENGINE, pols, 7, GAMES))
    assert int(tally["wins"].sum()) == GAMES
    if benchmark.stats:  # None with --benchmark-disable
        benchmark.extra_info["games_per_second"] = GAMES / benchmark.stats.stats.mean


def test_decision_api_game(benchmark):
    """One 4-player game through the decision API (solver.squid.decisions), every decision asked of
    ``careful``: the cost of a game driven from Python (a GUI, a person, a match runner), where each
    decision replays the game's script in C."""
    from solver.squid.decisions import SquidGame, play_seats

    seeds = iter(range(10**9))
    game = benchmark(lambda: play_seats(SquidGame(4, next(seeds), strategies=("careful",) * 4)))
    assert game.is_over
    if benchmark.stats:  # None with --benchmark-disable
        benchmark.extra_info["decisions_per_second"] = len(game.history) / benchmark.stats.stats.mean
