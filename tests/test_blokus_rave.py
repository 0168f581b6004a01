"""The RAVE (all-moves-as-first) statistics of the root's children, checked simulation by
simulation against the rule written out here:

* a simulation counts for a root child if the child's move (its colour and placement) was played
  anywhere in it, in the tree or in the playout; the first time at ply p (0: the first placement);
* with ``rave_dist`` d it counts with weight 1 − d · p / L, L the simulation's placements in
  all (d = 0: every such simulation weighs 1; d = 1: Pentobi's distance weighting, a move played
  at once weighs 1 and one played last 1 / L);
* RAVE visits are the sum of the weights, the RAVE value the weighted mean of the simulation's
  value for the child's mover;
* with ``rave_parent_max`` P no simulation counts once the root has more than P visits (this one
  included), with ``rave_child_max`` C none counts for a child that already had more than C real
  visits before it.

The engine's record of its simulations (``Searcher.traced_search``) is replayed on the reference
position; the values come from the reference rule of ``test_blokus_values``.  The root gets
all its children at its first visit, so that each exists from the first simulation on.
"""

from __future__ import annotations

import pytest
from test_blokus_values import FIXED_PRIOR, _midgame, reference_values

from solver._ext import blokus as ext
from solver.blokus.game import Game
from solver.blokus.players import Strategy, _tables, parse_strategy

#: the root gets all its children at once (no widening), so every simulation can count for each
ALL_CHILDREN = "widen_base=1000"


def _searcher(game: Game, spec: Strategy) -> ext.Searcher:
    """A searcher with ``spec`` for both sides of ``game``."""
    return ext.Searcher(game.position, *_tables(game.variant), [spec.engine_tuple(game.variant)] * 2,
                        game.player_of_colour(game.to_play))


def reference_rave(sims: list, values: list[list[float]], mover: int, dist: float, parent_max: float,
                   child_max: float) -> dict[tuple[int, int], tuple[float, float]]:
    """(RAVE visits, RAVE value sum) of every move played in some simulation, by the rule above."""
    out: dict[tuple[int, int], list[float]] = {}
    real: dict[tuple[int, int], int] = {}
    for s, ((_, placements), v) in enumerate(zip(sims, values, strict=True)):
        first_move = placements[0]
        if not parent_max or s + 1 <= parent_max:
            seen: set[tuple[int, int]] = set()
            for p, move in enumerate(placements):
                if move in seen or move[0] != mover:
                    continue
                seen.add(move)
                if child_max and real.get(move, 0) > child_max:
                    continue
                weight = 1.0 - dist * p / len(placements)
                entry = out.setdefault(move, [0.0, 0.0])
                entry[0] += weight
                entry[1] += weight * v[mover]
        real[first_move] = real.get(first_move, 0) + 1
    return {move: (n, u) for move, (n, u) in out.items()}


@pytest.mark.parametrize("extra", ["", ":rave_dist=0", ":rave_dist=1", ":rave_dist=0.4",
                                   ":rave_dist=1:rave_parent_max=25", ":rave_child_max=3",
                                   ":rave_dist=1:rave_child_max=2:rave_parent_max=50"])
@pytest.mark.parametrize("seed", [1, 2])
def test_root_rave_statistics_follow_the_rule(extra, seed):
    game = _midgame(seed, 8 + 2 * seed)
    spec = parse_strategy(f"mcts:1:{FIXED_PRIOR}:{ALL_CHILDREN}{extra}")
    params = spec.search_values(game.variant)   # the variant's defaults, then the spec's
    result, sims = _searcher(game, spec).traced_search(game.position, seed, 80)
    assert len(sims) == 80
    values = reference_values(game, sims, params["score_weight"], params["score_scale"], False, 0.0)
    mover = game.to_play   # Duo: colour = side
    expected = reference_rave(sims, values, mover, params["rave_dist"], params["rave_parent_max"],
                              params["rave_child_max"])
    checked = 0
    for colour, code, _, _, rave_n, rave_mean in result["children"]:
        n, u = expected.get((colour, code), (0.0, 0.0))
        assert rave_n == pytest.approx(n, abs=1e-4)
        if n > 0:
            assert rave_mean == pytest.approx(u / n, abs=1e-4)
            checked += 1
    assert checked >= 3   # several children had RAVE statistics to compare


def test_distance_weighting_changes_the_statistics():
    """The weighted rule is not the plain one in disguise: the same search gives other RAVE
    visits with ``rave_dist`` 1 (so the test above would see an engine that ignored it)."""
    game = _midgame(7, 6)
    out = []
    for extra in (":rave_dist=0", ":rave_dist=1"):
        spec = parse_strategy(f"mcts:1:{FIXED_PRIOR}:{ALL_CHILDREN}{extra}")
        result, _ = _searcher(game, spec).traced_search(game.position, 3, 60)
        out.append(sum(child[4] for child in result["children"]))
    assert out[1] < out[0] - 1.0
