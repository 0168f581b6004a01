"""What a finished simulation is worth to each side, checked simulation by simulation against
the rule written out here:

* win share w (1 won, 1/2 drawn between two sides, 0 lost), margin d = own score − the best
  other side's score;
* value = (1 − score_weight) · w + score_weight · (1/2 + 1/2 · tanh(z)), with z = d / score_scale,
  or with ``quality`` z = (d − mean) / spread over the margins of this search's simulations so
  far, this one included (population spread; z = 0 while it is 0);
* with ``length_weight`` L the value also falls by L · (w − 1/2) · tanh(y), y the game's length
  in placements measured the same way against this search's game lengths.

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
                     length_weight: float) -> list[list[float]]:
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
            w = 1.0 if d > 0 else 0.5 if d == 0 else 0.0
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
