"""The exact endgame search (``ext/blokus_endgame.pxi``) against a minimax written from the rules.

The reference plays on ``tests/blokus_reference.py``'s positions (its own move generator and
score): colours move in turn, a colour without a move passes, the game ends when every colour
has passed in a row, and the value is side 0's points minus side 1's.  No pruning, no table.
"""

from __future__ import annotations

import random

import pytest
from blokus_reference import RefPosition, score

from solver._ext import blokus as ext
from solver.blokus.game import Game
from solver.blokus.players import SEARCH_PARAMS, MctsPlayer, choose_move
from solver.blokus.variants import VARIANTS


def reference_value(ref: RefPosition, variant) -> int:
    """Side 0's final margin under best play of both sides, by plain minimax."""
    n = ref.n_colours

    def margin(pos: RefPosition) -> int:
        total = [0, 0]
        for k in range(n):
            if variant.counted[k]:
                total[variant.sides[variant.player_of[k]]] += score(pos, k)
        return total[0] - total[1]

    def value(pos: RefPosition, k: int, passes: int) -> int:
        if passes == n:
            return margin(pos)
        moves = pos.legal_moves(k)
        if not moves:
            return value(pos, (k + 1) % n, passes + 1)
        results = []
        for piece, cells in moves:
            child = pos.copy()
            child.play(k, piece, cells)
            results.append(value(child, (k + 1) % n, 0))
        return max(results) if variant.sides[variant.player_of[k]] == 0 else min(results)

    return value(ref, ref.to_play, 0)


def ref_for(game: Game) -> RefPosition:
    v = game.variant
    ref = RefPosition(v.width, v.height, v.n_colours, [v.first_cells(k) for k in range(v.n_colours)])
    for m in game.moves:
        ref.play(m.colour, m.piece, m.cells)
    ref.to_play = game.to_play
    return ref


def tables(variant) -> tuple[list, list, list]:
    return list(variant.player_of), list(variant.counted), list(variant.sides)


def late_position(name: str, seed: int, max_legal: int) -> Game:
    """A random game played until all colours together have at most ``max_legal`` moves."""
    rng = random.Random(seed)
    game = Game(name)
    while game.to_play is not None:
        if sum(len(game.legal_codes(k)) for k in range(game.variant.n_colours)) <= max_legal:
            break
        game.play(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize("name", ["duo", "classic-2"])
def test_exact_values_match_the_reference(name):
    v = VARIANTS[name]
    solver = ext.EndgameSolver(*tables(v))
    checked = 0
    for seed in range(16):
        game = late_position(name, seed, 7)
        if game.to_play is None:
            continue
        got = solver.solve(game.position)
        assert got is not None
        assert got["value"] == reference_value(ref_for(game), v), (name, seed)
        if got["code"] >= 0:   # the move it names reaches that value
            assert got["colour"] == game.to_play
            game.play(game.move_from_code(got["colour"], got["code"]))
            assert solver.solve(game.position)["value"] == got["value"]
        checked += 1
    assert checked >= 10


def test_table_changes_nothing_and_windows_bound_the_value():
    v = VARIANTS["duo"]
    kept = ext.EndgameSolver(*tables(v))   # one table across all positions, as in a game
    checked = 0
    for seed in range(40):
        game = late_position("duo", 100 + seed, 45)
        if game.to_play is None:
            continue
        plain = ext.EndgameSolver(*tables(v), table=False).solve(game.position, max_nodes=300_000)
        if plain is None:
            continue
        # narrow windows first: they leave bounds in the table that the exact search then meets
        narrow = kept.solve(game.position, alpha=-1, beta=1)
        for alpha, beta in ((-6, -2), (2, 7), (-3, 0)):
            kept.solve(game.position, alpha=alpha, beta=beta)
        exact = kept.solve(game.position)
        assert exact["value"] == plain["value"]
        # fail-soft within (-1, 1): the sign is exact, a value outside the window bounds the truth
        assert (narrow["value"] > 0) - (narrow["value"] < 0) == (exact["value"] > 0) - (exact["value"] < 0)
        if narrow["value"] >= 1:
            assert exact["value"] >= narrow["value"]
        elif narrow["value"] <= -1:
            assert exact["value"] <= narrow["value"]
        checked += 1
    assert checked >= 20


def test_budget_and_bad_input():
    v = VARIANTS["duo"]
    solver = ext.EndgameSolver(*tables(v))
    assert solver.solve(Game("duo").position, max_nodes=50) is None       # far too large: gives up
    assert solver.solve(Game("duo").position, max_seconds=0.001) is None
    with pytest.raises(ValueError):
        solver.solve(Game("duo").position, alpha=3, beta=3)
    with pytest.raises(ValueError):   # three sides: not a two-sided game
        ext.EndgameSolver(*tables(VARIANTS["classic-3"]))
    game = late_position("duo", 7, 0)   # the end of the game: no move, the score itself
    assert game.to_play is None
    assert solver.solve(game.position) == {"value": game.position.score(0) - game.position.score(1),
                                           "code": -1, "colour": -1, "nodes": 1}


def test_player_plays_a_proven_win_and_is_reproducible():
    assert SEARCH_PARAMS["endgame"] == 0   # off by default: measured no stronger (docs/blokus-strength.md, session 30)
    v = VARIANTS["duo"]
    solver = ext.EndgameSolver(*tables(v))
    for seed in range(200):
        game = late_position("duo", 300 + seed, 40)
        if game.to_play is None:
            continue
        got = solver.solve(game.position, alpha=-1, beta=1)
        mover_wins = got["value"] > 0 if v.sides[v.player_of[game.to_play]] == 0 else got["value"] < 0
        if mover_wins and len(game.legal_codes()) > 1:
            break
    else:
        pytest.fail("no won position found")
    player = MctsPlayer(v, "mcts:endgame=1", seed=1, book=False)
    move, cands, stats = player.genmove(game, playouts=300)
    assert stats["solved"] == "win" and stats["playouts"] == 0 and cands[0].move == move
    k = game.to_play
    game.play(move)
    after = solver.solve(game.position, alpha=-1, beta=1)["value"]
    assert (after > 0) if v.sides[v.player_of[k]] == 0 else (after < 0)   # still won
    game.undo()
    first = choose_move(game, "mcts:endgame=1", seed=3, playouts=300)
    assert choose_move(game, "mcts:endgame=1", seed=3, playouts=300) == first
    # the search alone (no endgame) runs its simulations
    assert MctsPlayer(v, "mcts", seed=1, book=False).genmove(game, playouts=300)[2]["playouts"] > 0


def _cli(argv, capsys):
    from solver.cli.main import main

    with pytest.raises(SystemExit) as info:
        main(argv)
    out, err = capsys.readouterr()
    return info.value.code, out, err


def test_endgame_command(tmp_path, capsys):
    from solver.blokus.endgame import solve_endgame
    from solver.blokus.sgf import write_game

    game = late_position("duo", 11, 30)
    path = tmp_path / "late.blksgf"
    path.write_text(write_game(game))
    want = solve_endgame(game)
    code, out, err = _cli(["blokus", "endgame", str(path)], capsys)
    assert code == 0, err
    assert f"margin {want.margin:+d}" in out and game.move_text(want.move) in out
    # too large for the limit, and a three-sided game: one-line errors
    start = tmp_path / "start.blksgf"
    start.write_text("(;GM[Blokus Duo])\n")
    code, out, err = _cli(["blokus", "endgame", str(start), "--max-nodes", "100"], capsys)
    assert code != 0 and "too large" in err and "Traceback" not in err
    three = tmp_path / "three.blksgf"
    three.write_text("(;GM[Blokus Three-Player])\n")
    code, out, err = _cli(["blokus", "endgame", str(three)], capsys)
    assert code != 0 and "two sides" in err and len(err.strip().splitlines()) == 1
