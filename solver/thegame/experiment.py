"""Monte Carlo experiment for The Game: one (players, strategy, variant) configuration."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.montecarlo.experiment import Experiment, Tally
from solver.montecarlo.stats import mean_columns, wilson_interval
from solver.thegame.strategies import parse_strategy
from solver.thegame.variants import get_variant, hand_size

#: the rulebook's "excellent" result: fewer than this many cards left
EXCELLENT = 10


@dataclass
class TheGameExperiment(Experiment):
    """All players follow ``strategy`` (a spec string such as ``reach:reach=1``) in ``variant``."""

    players: int
    strategy: str
    variant: str = "standard"
    game: str = "thegame"

    def __post_init__(self) -> None:
        hand_size(self.players)          # validates the player count
        parse_strategy(self.strategy)    # validates the spec
        get_variant(self.variant)

    def simulate(self, seed: int, n_games: int) -> Tally:
        from solver._ext import thegame as engine

        spec = parse_strategy(self.strategy)
        var = get_variant(self.variant)
        lo, hi = var.fire_words
        wins, hist, turns = engine.simulate_block(
            self.players, var.min_play, var.min_play_empty, lo, hi, spec.kind,
            spec.vector(self.players), seed, n_games)
        return {"wins": wins, "cards_left": hist, "turns": turns}

    def rows(self, tally: Tally, games: int) -> list[dict[str, Any]]:
        wins = tally.get("wins", 0)
        hist = np.asarray(tally.get("cards_left", np.zeros(99, dtype=np.int64)))
        values = np.arange(hist.shape[0])
        total = float((hist * values).sum())
        total_sq = float((hist * values * values).sum())
        lo, hi = wilson_interval(wins, games)
        row: dict[str, Any] = {
            "game": self.game, "variant": self.variant, "players": self.players, "seat": "team",
            "strategy": parse_strategy(self.strategy).label, "games": games, "wins": wins,
            "win_rate": wins / games if games else float("nan"), "ci_low": lo, "ci_high": hi,
        }
        row.update(mean_columns("cards_left", total, total_sq, games))
        excellent = int(hist[:EXCELLENT].sum())
        row["share_excellent"] = excellent / games if games else float("nan")
        row["mean_turns"] = tally.get("turns", 0) / games if games else float("nan")
        return [row]

    def histograms(self, tally: Tally) -> dict[str, np.ndarray]:
        return {"cards_left": np.asarray(tally.get("cards_left", np.zeros(99, dtype=np.int64)))}
