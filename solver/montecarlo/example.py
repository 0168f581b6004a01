"""A minimal Experiment used to test the runner and to show a new game what it must provide.

It "plays" biased coin games in numpy from the block seed: game g is won when its uniform draw
is below ``p``; the number of flips until the first head is a second statistic.  Real games do
the same in a Cython block loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.montecarlo.experiment import Experiment, Tally
from solver.montecarlo.stats import mean_columns, wilson_interval


@dataclass(frozen=True)
class CoinExperiment(Experiment):
    """Biased coin: a win with probability ``p``; ``slow`` burns time per block (for interrupt tests)."""

    p: float = 0.5
    slow: float = 0.0
    game = "coin"

    def simulate(self, seed: int, n_games: int) -> Tally:
        if self.slow:
            import time

            time.sleep(self.slow)
        rng = np.random.default_rng(seed)
        wins = int((rng.random(n_games) < self.p).sum())
        flips = rng.geometric(0.5, n_games)
        return {
            "wins": wins,
            "flips": int(flips.sum()),
            "flips_sq": int((flips.astype(np.int64) ** 2).sum()),
            "hist_flips": np.bincount(np.minimum(flips, 20), minlength=21).astype(np.int64),
        }

    def rows(self, tally: Tally, games: int) -> list[dict[str, Any]]:
        wins = tally.get("wins", 0)
        lo, hi = wilson_interval(wins, games)
        row: dict[str, Any] = {
            "game": self.game, "variant": "biased", "players": 1, "seat": 0, "strategy": f"p={self.p}",
            "games": games, "wins": wins, "win_rate": wins / games if games else float("nan"),
            "ci_low": lo, "ci_high": hi,
        }
        row.update(mean_columns("flips", tally.get("flips", 0), tally.get("flips_sq", 0), games))
        return [row]

    def histograms(self, tally: Tally) -> dict[str, np.ndarray]:
        return {"flips": tally["hist_flips"]} if "hist_flips" in tally else {}
