"""Which root child the tree search descends to next, checked against the rule written out here.

A child with n visits (its prior's ``prior_n`` virtual ones included), value sum w, RAVE visits m
and RAVE value sum u, under a parent with N visits, scores

    (1 − b) · w / n + b · u / m + explore · sqrt(ln(N + 1) / n) + puct · P · sqrt(N) · ln(N + 1) / n

with b = m / (m + n + m · n / rave_k) (0 without RAVE visits) and P the child's share of the
softmax of the evaluations of all the node's moves (Pentobi's exploration term, after AlphaGo's).
Only the first widen_base + widen · sqrt(N) children (best prior first) are looked at.
"""

from __future__ import annotations

import math

import pytest

from solver._ext import blokus as ext
from solver.blokus.game import Game
from solver.blokus.players import _tables, choose_move, parse_strategy


def reference_scores(result: dict, params: dict[str, float], with_puct: bool = True) -> list[float]:
    """The rule's score of each root child of a search ``result`` (``Searcher.search``)."""
    big_n = result["root_visits"]
    scores = []
    for (_, _, real, mean, m, rave_mean), prior in zip(result["children"], result["priors"], strict=True):
        n = real + params["prior_n"]
        w, u = mean * n, (rave_mean * m if m > 0 else 0.0)
        b = m / (m + n + m * n / params["rave_k"]) if m > 0 else 0.0
        score = (1 - b) * w / n + (b * u / m if m > 0 else 0.0)
        score += params["explore"] * math.sqrt(math.log(big_n + 1) / n)
        if with_puct:
            score += params["puct"] * prior * math.sqrt(big_n) * math.log(big_n + 1) / n
        scores.append(score)
    looked_at = max(1, min(int(params["widen_base"] + params["widen"] * math.sqrt(big_n)), len(scores)))
    return scores[:looked_at]


@pytest.mark.parametrize("variant,placements", [("duo", 8), ("classic-2", 12)])
def test_the_next_child_is_the_rules_best(variant, placements):
    game = Game(variant)
    while len(game.moves) < placements:
        game.play(choose_move(game, "mcts:100", seed=len(game.moves)))
    v, k = game.variant, game.to_play
    puct_mattered = False
    for extra in ("puct=0.5", "puct=2:explore=0", "explore=0.3", "puct=0.2:rave_k=300"):
        spec = parse_strategy(f"mcts:1:{extra}")
        params = spec.search_values(v)   # the engine's values: the variant's defaults (Duo's puct) too
        searcher = ext.Searcher(game.position, *_tables(v), [spec.engine_tuple(v)] * v.n_players,
                                game.player_of_colour(k))
        assert searcher.select_root() is None
        for budget in (30, 300, 3000):
            result = searcher.search(game.position, budget, budget, 0.0)
            scores = reference_scores(result, params)
            picked = searcher.select_root()
            codes = [(colour, code) for colour, code, *_ in result["children"]]
            assert picked in codes[:len(scores)]
            assert scores[codes.index(picked)] >= max(scores) - 1e-5, (extra, budget)
            without = reference_scores(result, params, with_puct=False)
            if params["puct"] > 0 and max(range(len(without)), key=without.__getitem__) != codes.index(picked):
                puct_mattered = True
    assert puct_mattered   # the exploration term changed the pick somewhere, so the test sees it
