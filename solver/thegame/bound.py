"""How many deals can be won at all?  The perfect-information solver on random deals, per player count.

``BoundExperiment`` runs through the shared Monte Carlo runner like the win-rate experiment: block
``b`` of a run seeded with ``S`` holds the same deals as block ``b`` of ``thegame simulate --seed S``
with the same block size (the same shuffles of the same generator), so the planner's column here
is the ``simulate`` figure on these deals.  Each deal is solved with a node and/or time limit;
it counts as proven winnable, proven unwinnable or unknown (limit reached before the search
could decide whether 0 cards can be left).  With only a node limit the table is reproducible
(same seed and limits ⇒ the same CSV for any -j); a time limit makes it depend on the machine
whenever a deal hits it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.montecarlo.experiment import Experiment, Tally
from solver.montecarlo.stats import mean_columns, proportion_columns, wilson_interval
from solver.thegame.variants import get_variant, hand_size


@dataclass
class BoundExperiment(Experiment):
    """Solve every deal of ``players`` players in ``variant`` with the given per-deal limits."""

    players: int
    variant: str = "standard"
    node_limit: int = 0
    time_limit: float = 10.0
    game: str = "thegame"

    def __post_init__(self) -> None:
        hand_size(self.players)
        get_variant(self.variant)

    @property
    def label(self) -> str:
        """The strategy column: the solver and its limits."""
        return f"solver:nodes={self.node_limit},time={self.time_limit:g}"

    def simulate(self, seed: int, n_games: int) -> Tally:
        from solver._ext.thegame_solve import block_decks
        from solver.thegame.solve import solve

        var = get_variant(self.variant)
        tally = {"winnable": 0, "unwinnable": 0, "unknown": 0, "min_left": 0, "min_left_sq": 0,
                 "exact": 0, "best_left": 0, "planner_wins": 0, "planner_left": 0, "nodes": 0}
        for deck in block_decks(seed, n_games):
            sol = solve(deck, self.players, var, node_limit=self.node_limit, time_limit=self.time_limit)
            decided = sol.status in ("win", "proven")
            tally["winnable"] += sol.status == "win"
            tally["unwinnable"] += sol.winnable is False
            tally["unknown"] += sol.winnable is None
            if decided:
                tally["exact"] += 1
                tally["min_left"] += sol.min_left
                tally["min_left_sq"] += sol.min_left * sol.min_left
            tally["best_left"] += sol.best_left
            tally["planner_wins"] += sol.planner_left == 0
            tally["planner_left"] += sol.planner_left
            tally["nodes"] += sol.nodes
        return tally

    def rows(self, tally: Tally, games: int) -> list[dict[str, Any]]:
        win = tally.get("winnable", 0)
        row: dict[str, Any] = {
            "game": self.game, "variant": self.variant, "players": self.players, "seat": "team",
            "strategy": self.label, "games": games, "wins": win,
        }
        lo, hi = wilson_interval(win, games)
        row.update({"win_rate": win / games if games else float("nan"), "ci_low": lo, "ci_high": hi})
        for name in ("unwinnable", "unknown"):
            row[name] = tally.get(name, 0)
            row.update(proportion_columns(f"{name}_", tally.get(name, 0), games))
        exact = tally.get("exact", 0)
        row["min_known"] = exact
        row.update(mean_columns("min_cards_left", tally.get("min_left", 0), tally.get("min_left_sq", 0), exact))
        row["mean_best_cards_left"] = tally.get("best_left", 0) / games if games else float("nan")
        pw = tally.get("planner_wins", 0)
        row["planner_wins"] = pw
        row.update(proportion_columns("planner_win_", pw, games))
        row["planner_share_of_winnable"] = pw / win if win else float("nan")
        row["mean_planner_cards_left"] = tally.get("planner_left", 0) / games if games else float("nan")
        row["mean_nodes"] = tally.get("nodes", 0) / games if games else float("nan")
        row["node_limit"] = self.node_limit
        row["time_limit"] = self.time_limit
        return [row]
