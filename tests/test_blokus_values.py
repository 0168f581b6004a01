"""What a finished simulation is worth to each side, checked simulation by simulation against
the rule written out here:

* win share w (1 won, 1/2 drawn between two sides, 0 lost), margin d = own score − the best
  other side's score;
* value = (1 − score_weight) · w + score_weight · (1/2 + 1/2 · tanh(z)), with z = d / score_scale,
  or with ``quality`` z = (d − mean) / spread over the margins of this search's simulations so
  far, this one included (population spread; z = 0 while it is 0);
* with ``length_weight`` L the value also falls by L · (w − 1/2) · tanh(y), y the game's length
  in placements measured the same way against this search's game lengths;
* with a dynamic komi K for the searching side, that side's win share is decided on d + K and
  the other side's on d − K (the margin term still on d).

The engine's record of its simulations (``Searcher.traced_search``) is replayed on the reference
position of ``blokus_reference``; scores come from there.  With priors fixed at 1/2 (``prior_rel``
0, ``prior_lo`` = ``prior_hi`` = 0.5, ``prior_n`` 2) a root child's mean value is (1 + the values
of the simulations that began with its move, for its mover's side) / (2 + their number).
"""

from __future__ import annotations

import math
import random

import pytest
from blokus_reference import score
from test_blokus_lgr import reference_position

from solver._ext import blokus as ext
from solver.blokus.game import Game
from solver.blokus.players import _tables, parse_strategy

FIXED_PRIOR = "prior_rel=0:prior_lo=0.5:prior_hi=0.5:prior_n=2"


def z_against(history: list[float]) -> float:
    """The last entry of ``history`` against all of it: (x − mean) / population spread."""
    mean = sum(history) / len(history)
    spread = math.sqrt(sum((x - mean) ** 2 for x in history) / len(history))
    return (history[-1] - mean) / spread if spread > 1e-12 else 0.0


def reference_values(game: Game, sims: list, score_weight: float, score_scale: float, quality: bool,
                     length_weight: float, komi: float = 0.0, komi_side: int = 0) -> list[list[float]]:
    """Each simulation's value for sides 0 and 1 of a two-colour game, by the rule above."""
    start, out = reference_position(game), []
    margins: list[list[float]] = [[], []]
    lengths: list[float] = []
    for _, placements in sims:
        pos = start.copy()
        for colour, code in placements:
            m = game.move_from_code(colour, code)
            pos.play(colour, m.piece, m.cells)
        scores = [score(pos, c) for c in range(2)]
        lengths.append(len(game.moves) + len(placements))
        values = []
        for side in range(2):
            d = scores[side] - scores[1 - side]
            lead = d + (komi if side == komi_side else -komi)
            w = 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
            margins[side].append(d)
            z = z_against(margins[side]) if quality else d / score_scale
            value = (1 - score_weight) * w + score_weight * (0.5 + 0.5 * math.tanh(z))
            if length_weight:
                value -= length_weight * (w - 0.5) * math.tanh(z_against(lengths))
            values.append(value)
        out.append(values)
    return out


@pytest.mark.parametrize("extra", ["", ":quality=1", ":quality=1:length_weight=0.12",
                                   ":score_weight=0.5:score_scale=4:length_weight=0.3"])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_simulation_is_valued_by_the_rule(extra, seed):
    game, rnd = Game("duo"), random.Random(seed)
    for _ in range(10 + 2 * seed):
        game.play(rnd.choice(game.legal_moves()))
    spec = parse_strategy(f"mcts:1:{FIXED_PRIOR}{extra}")
    params = dict(spec.params)
    searcher = ext.Searcher(game.position, *_tables(game.variant), [spec.engine_tuple(game.variant)] * 2,
                            game.player_of_colour(game.to_play))
    result, sims = searcher.traced_search(game.position, seed, 60)
    assert len(sims) == 60 and all(tree_n >= 1 for tree_n, _ in sims)
    values = reference_values(game, sims, params.get("score_weight", 0.3), params.get("score_scale", 10.0),
                              bool(params.get("quality")), params.get("length_weight", 0.0))
    mover = game.to_play   # Duo: colour = side
    for colour, code, visits, value, _, _ in result["children"]:
        mine = [v[mover] for (_, placements), v in zip(sims, values, strict=True) if placements[0] == (colour, code)]
        assert visits == len(mine)
        assert value == pytest.approx((1.0 + sum(mine)) / (2 + len(mine)), abs=1e-5)   # mean, prior's 2 visits in
    if "quality" in extra or "length" in extra:
        # the spread-relative terms do change the values (the test would not see a rule that
        # ignored them)
        plain = reference_values(game, sims, params.get("score_weight", 0.3), params.get("score_scale", 10.0),
                                 False, 0.0)
        assert max(abs(a[0] - b[0]) for a, b in zip(values, plain, strict=True)) > 0.01


def test_quality_values_of_the_two_sides_add_up_to_one():
    """In a two-sided game the margins of the sides mirror each other, so do their values."""
    game, rnd = Game("duo"), random.Random(5)
    for _ in range(14):
        game.play(rnd.choice(game.legal_moves()))
    spec = parse_strategy(f"mcts:1:{FIXED_PRIOR}:quality=1:length_weight=0.2")
    searcher = ext.Searcher(game.position, *_tables(game.variant), [spec.engine_tuple(game.variant)] * 2,
                            game.player_of_colour(game.to_play))
    _, sims = searcher.traced_search(game.position, 5, 40)
    for v0, v1 in reference_values(game, sims, 0.3, 10.0, True, 0.2):
        assert v0 + v1 == pytest.approx(1.0)


def _komi_searcher(game: Game, extra: str) -> ext.Searcher:
    spec = parse_strategy(f"mcts:1:{FIXED_PRIOR}:komi=1{extra}")
    return ext.Searcher(game.position, *_tables(game.variant), [spec.engine_tuple(game.variant)] * 2,
                        game.player_of_colour(game.to_play))


def _midgame(seed: int, plies: int) -> Game:
    game, rnd = Game("duo"), random.Random(seed)
    for _ in range(plies):
        game.play(rnd.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize("seed", [3, 4])
def test_dynamic_komi_decides_wins_by_the_komi(seed):
    """A search that raised its side's komi (its win share is below komi_lo = 1 unless it won
    every simulation) keeps it for the next search of the game; every simulation of that one
    (too short to adjust it again) is valued with the komi in the win share, by the rule above."""
    game = _midgame(seed, 12)
    searcher = _komi_searcher(game, ":komi_lo=1:komi_max=6")
    first = searcher.search(game.position, seed, 4000, 0.0)
    komi = first["komi"]
    assert 0 < komi <= 6
    searcher.clear()
    result, sims = searcher.traced_search(game.position, seed, 60)
    assert result["komi"] == komi
    mover = game.to_play
    values = reference_values(game, sims, 0.3, 10.0, False, 0.0, komi, mover)
    for colour, code, visits, value, _, _ in result["children"]:
        mine = [v[mover] for (_, placements), v in zip(sims, values, strict=True) if placements[0] == (colour, code)]
        assert visits == len(mine)
        assert value == pytest.approx((1.0 + sum(mine)) / (2 + len(mine)), abs=1e-5)
    plain = reference_values(game, sims, 0.3, 10.0, False, 0.0)
    assert values != plain   # the komi changed some simulation's result


def test_dynamic_komi_limits_and_new_games():
    """The komi climbs by ``komi`` points per adjustment up to ``komi_max``, falls no lower than
    ``komi_min`` (0 by default), starts at 0 in a new game (its first round, or fewer placements
    than the last search's), and is off where the game has more than two sides."""
    game = _midgame(7, 10)
    rising = _komi_searcher(game, ":komi=5:komi_max=7:komi_lo=1")
    assert rising.search(game.position, 1, 5000, 0.0)["komi"] == 7
    rising.clear()
    later = _midgame(8, 6)   # fewer placements than the last search's: a new game, back to 0
    assert rising.search(later.position, 1, 200, 0.0)["komi"] == 0
    rising.clear()
    assert rising.search(game.position, 1, 5000, 0.0)["komi"] == 7
    rising.clear()
    start = Game("duo")
    assert rising.search(start.position, 1, 200, 0.0)["komi"] == 0   # the first round: back to 0
    never = _komi_searcher(game, ":komi_lo=0")
    assert never.search(game.position, 1, 5000, 0.0)["komi"] == 0
    falling = _komi_searcher(game, ":komi=2:komi_lo=0:komi_min=-3")   # share > 0.1 nearly always
    assert falling.search(game.position, 1, 5000, 0.0)["komi"] == -3
    classic = Game("classic")
    spec = parse_strategy("mcts:1:komi=1:komi_lo=1")
    four = ext.Searcher(classic.position, *_tables(classic.variant), [spec.engine_tuple(classic.variant)] * 4, 0)
    assert four.search(classic.position, 1, 2000, 0.0)["komi"] == 0
