"""The opening rules of ``mcts``: steer the first moves towards the middle of the board
(``centre_moves``, ``centre_radius``, ``centre_slack``) and join a side's colours (``connect_moves``).
The geometry's distances to the centre and which moves touch a partner colour are computed here
independently (from the drawing coordinates' formula and the board's edge neighbours); the
search may choose only the moves the rules leave."""

from __future__ import annotations

import math
import random

import pytest

from solver.blokus.game import Game
from solver.blokus.players import (
    SEARCH_LIMITS,
    SEARCH_PARAMS,
    TIME_LIMITS,
    TIME_PARAMS,
    VARIANT_DEFAULTS,
    MctsPlayer,
    choose_move,
    parse_strategy,
)
from solver.blokus.variants import VARIANTS

SQUARE = sorted(name for name, v in VARIANTS.items() if v.geometry.lattice.__class__.__name__ == "SquareLattice")
TRIANGLE = sorted(set(VARIANTS) - set(SQUARE))


def reach(game: Game, cells) -> float:
    """How close to the centre a placement gets: its closest cell's distance."""
    table = game.variant.geometry.centre_distances
    return min(table[y][x] for x, y in cells)


@pytest.mark.parametrize("variant", SQUARE)
def test_square_board_distances_are_the_plain_formula(variant):
    geo = VARIANTS[variant].geometry
    table = geo.centre_distances
    cx, cy = (geo.width - 1) / 2, (geo.height - 1) / 2
    for y in range(geo.height):
        for x in range(geo.width):
            assert table[y][x] == pytest.approx(math.hypot(x - cx, y - cy))


@pytest.mark.parametrize("variant", TRIANGLE)
def test_trigon_centre_is_the_six_triangles_around_the_middle_point(variant):
    geo = VARIANTS[variant].geometry
    table = geo.centre_distances
    best = min(table[y][x] for x, y in geo.cells)
    closest = [(x, y) for x, y in geo.cells if table[y][x] == pytest.approx(best)]
    assert len(closest) == 6
    shared = set.intersection(*(set(geo.corner_points(c)) for c in closest))
    assert len(shared) == 1                    # one point, the hexagon's middle
    # every distance occurs a multiple of 6 times (the board's rotations keep the centre)
    counts: dict[float, int] = {}
    for x, y in geo.cells:
        key = round(table[y][x], 6)
        counts[key] = counts.get(key, 0) + 1
    assert all(n % 6 == 0 for n in counts.values())


def opening(variant: str, seed: int, placements: int) -> Game:
    game = Game(variant)
    rnd = random.Random(seed)
    for _ in range(placements):
        if game.is_over:
            break
        game.play(rnd.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("radius, slack", [(0.0, 0.0), (0.0, 1.0), (3.0, 0.3)])
def test_search_plays_only_moves_near_the_closest_reach(variant, radius, slack):
    for seed in range(3):
        game = opening(variant, seed, seed * 2)
        best = min(reach(game, m.cells) for m in game.legal_moves())
        limit = max(best, radius) + slack + 1e-6
        spec = f"mcts:60:centre_moves=100:centre_radius={radius}:centre_slack={slack}"
        move = choose_move(game, spec, seed=seed)
        assert reach(game, move.cells) <= limit
        player = MctsPlayer(game.variant, spec, seed=seed, book=False)
        _, candidates, _ = player.genmove(game, playouts=60)
        assert candidates and all(reach(game, c.move.cells) <= limit for c in candidates)


def test_rule_ends_after_its_placements():
    """With as many placements on the board as ``centre_moves`` the rule is over: the search looks
    at moves farther out again; one placement fewer, it still may not."""
    game = opening("duo", 1, 2)
    best = min(reach(game, m.cells) for m in game.legal_moves())

    def farthest_candidate(n: int) -> float:
        spec = f"mcts:200:learned=0:centre_moves={n}:centre_radius=0:centre_slack=0"   # the rule, not the evaluation
        _, candidates, _ = MctsPlayer(game.variant, spec, seed=1, book=False).genmove(game)
        return max(reach(game, c.move.cells) for c in candidates)

    assert farthest_candidate(2) > best
    assert farthest_candidate(3) <= best + 1e-6


def partner_cells(game: Game, k: int) -> set:
    """Cells of the scored colours that play for the same side as colour k (none if k itself
    scores for nobody)."""
    v = game.variant
    if not v.counted[k] or v.player_of[k] < 0:
        return set()
    side = v.sides[v.player_of[k]]
    partners = {j for j in range(v.n_colours)
                if j != k and v.counted[j] and v.player_of[j] >= 0 and v.sides[v.player_of[j]] == side}
    return {cell for m in game.setup + game.moves if m.colour in partners for cell in m.cells}


def touches(game: Game, cells, partner: set) -> bool:
    geo = game.variant.geometry
    return any(n in partner for cell in cells for n in geo.edge_neighbours(cell))


@pytest.mark.parametrize("variant", ["classic-2", "teams"])
def test_search_joins_the_sides_colours_when_it_can(variant):
    checked = 0
    for seed in range(40):
        game = opening(variant, seed, 20 + 2 * seed)
        if game.is_over:
            continue
        k = game.to_play
        partner = partner_cells(game, k)
        legal = game.legal_moves()
        joining = [m for m in legal if touches(game, m.cells, partner)]
        if not joining or len(joining) == len(legal):
            continue
        spec = "mcts:40:connect_moves=100"
        move = choose_move(game, spec, seed=seed)
        assert touches(game, move.cells, partner)
        player = MctsPlayer(game.variant, spec, seed=seed, book=False)
        _, candidates, _ = player.genmove(game, playouts=40)
        assert all(touches(game, c.move.cells, partner) for c in candidates)
        checked += 1
    assert checked >= 3


def test_connect_rule_leaves_every_move_when_none_joins():
    """Where no move touches a partner colour the rule changes nothing: the same seeds choose
    the same moves with and without it."""
    game = opening("classic-2", 3, 4)
    k = game.to_play
    assert not any(touches(game, m.cells, partner_cells(game, k)) for m in game.legal_moves())
    with_rule = [choose_move(game, "mcts:30:connect_moves=100", seed=s).code for s in range(4)]
    assert with_rule == [choose_move(game, "mcts:30", seed=s).code for s in range(4)]


def test_variant_defaults_come_between_the_engine_table_and_the_spec():
    names = list(SEARCH_PARAMS)
    for variant, defaults in VARIANT_DEFAULTS.items():
        assert set(defaults) <= set(SEARCH_PARAMS) | set(TIME_PARAMS)
        values = parse_strategy("mcts").engine_tuple(VARIANTS[variant])[4]
        spread = parse_strategy("mcts").time_params(VARIANTS[variant])
        for key, value in defaults.items():
            if key in SEARCH_PARAMS:
                assert values[names.index(key)] == value
                lo, hi = SEARCH_LIMITS[key]
            else:
                assert spread[key] == value
                lo, hi = TIME_LIMITS[key]
            assert lo <= value <= hi
        table = {**SEARCH_PARAMS, **TIME_PARAMS}
        off = parse_strategy("mcts:" + ":".join(f"{k}={table[k]}" for k in defaults))
        assert off.engine_tuple(VARIANTS[variant])[4] == [SEARCH_PARAMS[k] for k in names]
        assert off.time_params(VARIANTS[variant]) == TIME_PARAMS
    # a variant without its own defaults plays the engine's table
    assert "classic" not in VARIANT_DEFAULTS
    assert parse_strategy("mcts").engine_tuple(VARIANTS["classic"])[4] == [SEARCH_PARAMS[k] for k in names]


def test_engine_refuses_the_centre_rule_without_the_board_distances():
    from solver._ext import blokus as ext
    from solver.blokus.players import _tables
    game = Game("classic-2")
    v = game.variant
    full = parse_strategy("mcts:5").engine_tuple(v)
    assert ext.choose(game.position, 0, *_tables(v), [full] * 2, 1) >= 0
    with pytest.raises(ValueError, match="centre"):
        ext.choose(game.position, 0, *_tables(v), [full[:6]] * 2, 1)
    plain = parse_strategy("mcts:5:centre_moves=0").engine_tuple(v)[:6]   # no rule: no table needed
    assert ext.choose(game.position, 0, *_tables(v), [plain] * 2, 1) >= 0
