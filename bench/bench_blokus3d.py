"""Blokus 3D engine benchmarks: uniform-random 4-player games (every legal move generated at
every ply, as anchor masks, and one drawn uniformly) on each shipped template, and legal moves
listed per second.

Run with ``pytest bench/bench_blokus3d.py --benchmark-only``.  Target (issue 13): at least
20,000 games/s on one core on the default template; no other program plays Blokus 3D to compare.
"""

from __future__ import annotations

import random

import pytest
from conftest import record_rates

from solver._ext import blokus3d as ext
from solver.blokus3d.game import Game3D
from solver.blokus3d.selfplay import SelfPlay3D
from solver.blokus3d.templates import TEMPLATES


@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_random_playouts(benchmark, template):
    start = Game3D(template, 4).position
    n = 5000
    games, placed, listed = benchmark.pedantic(ext.random_playouts, args=(start, 12345, n), rounds=3,
                                               iterations=1, warmup_rounds=1)
    record_rates(benchmark, games_per_s=games, moves_listed_per_s=listed)
    benchmark.extra_info.update(placements_per_game=placed / games, listed_per_game=listed / games)


def test_legal_moves_listed(benchmark):
    """Listing the legal moves of a mid-game pyramid position (after 3 random placements per colour)."""
    game = Game3D("pyramid", 4)
    rnd = random.Random(1)
    while len(game.moves) < 12 and not game.is_over:
        game.play(rnd.choice(game.legal_moves()))
    codes = benchmark(game.position.legal_codes, game.to_play)
    benchmark.extra_info["moves"] = len(codes)
    record_rates(benchmark, moves_listed_per_s=len(codes))


@pytest.mark.parametrize("strategy", ["greedy", "mc:4:4"])
def test_selfplay(benchmark, strategy):
    exp = SelfPlay3D("pyramid", 4, (strategy, "random", "random", "random"))
    n = 500 if strategy == "greedy" else 20
    benchmark.pedantic(exp.simulate, args=(7, n), rounds=2, iterations=1)
    record_rates(benchmark, games_per_s=n)
