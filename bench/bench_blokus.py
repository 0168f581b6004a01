"""Blokus engine benchmarks: uniform-random playouts (the full legal move list is generated at every
ply and one move drawn uniformly from it) and legal moves listed per second, Classic, Duo and
Trigon (four colours on the edge-9 hexagon, three on the edge-8 one).

Run with ``pytest bench/bench_blokus.py --benchmark-only``.  Anchor (Pentobi's C++ generator,
same kind of playouts, one thread): 4,006 Classic and 11,461 Duo games/s, 41.6 M moves listed/s;
Trigon side by side with Pentobi: see docs/blokus.md.
"""

from __future__ import annotations

import pytest
from conftest import record_rates

from solver._ext import blokus as ext
from solver.blokus.game import Game
from solver.blokus.selfplay import SelfPlay

GAMES = {"classic": 2000, "duo": 5000, "trigon": 1000, "trigon-3": 1000}


@pytest.mark.parametrize("variant", list(GAMES))
def test_random_playouts(benchmark, variant):
    start = Game(variant).position
    n = GAMES[variant]
    games, placed, listed = benchmark.pedantic(ext.random_playouts, args=(start, 12345, n), rounds=3,
                                               iterations=1, warmup_rounds=1)
    record_rates(benchmark, games_per_s=games, moves_listed_per_s=listed)
    benchmark.extra_info.update(placements_per_game=placed / games, listed_per_game=listed / games)


@pytest.mark.parametrize("variant", list(GAMES))
def test_legal_moves_listed(benchmark, variant):
    """Listing the legal moves of a mid-game position (after 8 random placements per colour)."""
    game = Game(variant)
    import random

    rnd = random.Random(1)
    while len(game.moves) < 8 * game.variant.n_colours and not game.is_over:
        game.play(rnd.choice(game.legal_moves()))
    k = game.to_play
    codes = benchmark(game.position.legal_codes, k)
    benchmark.extra_info["moves"] = len(codes)
    record_rates(benchmark, moves_listed_per_s=len(codes))


@pytest.mark.parametrize("strategy", ["greedy", "mc:4:4", "mcts:100"])
def test_selfplay_duo(benchmark, strategy):
    exp = SelfPlay("duo", strategies=(strategy, "random"))
    n = 200 if strategy == "greedy" else 10
    benchmark.pedantic(exp.simulate, args=(7, n), rounds=2, iterations=1)
    record_rates(benchmark, games_per_s=n)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("variant", ["classic-2", "duo"])
def test_mcts_simulations(benchmark, variant, threads):
    """mcts simulations per second from the start position (tree, priors, RAVE and biased playouts;
    without the opening book, which would answer Duo's start position with no search), by one
    thread or by two in the one tree (``--threads 2``: the budget is theirs together)."""
    from solver.blokus.players import MctsPlayer

    game = Game(variant)
    playouts = (2000 if variant == "duo" else 500) * threads

    def search():
        player = MctsPlayer(game.variant, f"mcts:{playouts}", seed=1, threads=threads, book=False)
        return player.genmove(game)[2]   # search, not the book

    stats = benchmark.pedantic(search, rounds=5, iterations=1)
    record_rates(benchmark, simulations_per_s=stats["playouts"], moves_listed_per_s=stats["listed"])


@pytest.mark.parametrize("placements", [10, 16])
def test_mcts_middle_game_simulations(benchmark, placements):
    """mcts simulations per second in the Duo middle game (one thread, 20,000 simulations: about
    the number a level-7 search of a second runs there, with hundreds of children at the root),
    from the position a short ``mcts:300`` self-play reaches after ``placements`` placements.
    Pentobi's level 7 runs 86,600 (after 10) and 340,600 (after 16) a second in the same
    positions on the session-36 machine (docs/blokus-strength.md, *where the simulations go*)."""
    from solver.blokus.players import MctsPlayer, choose_move

    game = Game("duo")
    while len(game.moves) < placements:
        game.play(choose_move(game, "mcts:300", seed=len(game.moves)))

    def search():
        player = MctsPlayer(game.variant, "mcts:20000", seed=1, threads=1, book=False)
        return player.genmove(game)[2]

    stats = benchmark.pedantic(search, rounds=3, iterations=1)
    record_rates(benchmark, simulations_per_s=stats["playouts"], moves_listed_per_s=stats["listed"])
