"""Monte Carlo experiment for both variants: one configuration, blocks of games in C."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from solver.clovece.board import load_board
from solver.clovece.deck import load_deck
from solver.clovece.strategies import AFTER_SIX, DRINK_RULES, FIRST, SEATS, strategy_ids
from solver.montecarlo.experiment import Experiment, Tally
from solver.montecarlo.stats import mean_columns, proportion_columns, wilson_interval

#: drink reasons as counted by the engine, in its order (one column each in the table;
#: tests/test_clovece_tables.py checks them against the C enum)
DRINK_CAUSES = ("captured", "bottle", "pub", "card", "home", "start", "toast")


@functools.lru_cache(maxsize=8)
def compiled(board_text: str | None, deck_text: str | None) -> Any:
    """The compiled board and deck from their JSON texts (None: the shipped files), cached per process
    so that every block of a run reuses it."""
    from solver._ext.clovece import CompiledBoard

    return CompiledBoard(load_board(text=board_text).arrays, load_deck(text=deck_text).arrays())


@dataclass(frozen=True)
class CloveceExperiment(Experiment):
    """``players`` players (seats from :data:`SEATS`) with one strategy each, on one variant.

    ``board`` and ``deck`` are the JSON texts of other board / deck files (None: the shipped ones);
    texts rather than paths, so that the experiment runs on workers that do not see the files.
    ``drinks`` (napij-se), ``after_six`` (classic) and ``first`` are the rule options of
    :data:`DRINK_RULES`, :data:`AFTER_SIX` and :data:`FIRST`.
    """

    variant: str
    players: int
    strategies: tuple[str, ...]
    board: str | None = None
    deck: str | None = None
    label: str = ""  # the variant column; names custom board / deck files (default: the variant)
    drinks: str = DRINK_RULES[0]
    after_six: str = AFTER_SIX[0]
    first: str = FIRST[0]
    game = "clovece"

    def simulate(self, seed: int, n_games: int) -> Tally:
        from solver._ext import clovece as engine

        seats = list(SEATS[self.players])
        ids = strategy_ids(self.strategies)
        first_random = self.first == "random"
        if self.variant == "classic":
            return engine.classic_simulate(self.players, seats, ids, seed, n_games,
                                           three_after_six=self.after_six == "three-tries",
                                           first_random=first_random)
        return engine.napij_simulate(compiled(self.board, self.deck), self.players, seats, ids, seed, n_games,
                                     drink_once=self.drinks == "per-event", first_random=first_random)

    def rows(self, tally: Tally, games: int) -> list[dict[str, Any]]:
        rows = []
        finished = games - tally.get("abandoned", 0)
        for p in range(self.players):
            wins = int(tally["wins"][p]) if tally else 0
            lo, hi = wilson_interval(wins, games)
            row: dict[str, Any] = {
                "game": self.game, "variant": self.label or self.variant, "players": self.players,
                "seat": SEATS[self.players][p], "strategy": self.strategies[p], "games": games,
                "wins": wins, "win_rate": wins / games if games else float("nan"), "ci_low": lo, "ci_high": hi,
                "order": p + 1, "lineup": ",".join(self.strategies),
            }
            if not tally:
                rows.append(row)
                continue
            row.update(mean_columns("turns", tally["turns"], tally["turns_sq"], games))
            row.update(mean_columns("rolls", tally["rolls"], tally["rolls_sq"], games))
            row.update(mean_columns("captures", tally["captures"], tally["captures_sq"], games))
            started, start_wins = int(tally["starts"][p]), int(tally["start_wins"][p])
            row["start_rate"] = started / games if games else float("nan")
            row["win_rate_when_starting"] = start_wins / started if started else float("nan")
            row["win_rate_when_not_starting"] = ((wins - start_wins) / (games - started)
                                                 if games > started else float("nan"))
            if self.variant == "classic":
                row["captures_made_per_game"] = tally["captures_made"][p] / games
                row["pawns_lost_per_game"] = tally["pawns_lost"][p] / games
            else:
                row.update(mean_columns("drinks", tally["drinks"][p], tally["drinks_sq"][p], games))
                row["mean_finish_glass"] = tally["glass"][p] / games
                for c, cause in enumerate(DRINK_CAUSES):
                    row[f"mean_drinks_{cause}"] = tally["drink_causes"][p][c] / games
                row.update(proportion_columns("black_path_", tally["black_games"], games))
                used, used_wins = int(tally["player_black_games"][p]), int(tally["player_black_wins"][p])
                row["seat_black_path_rate"] = used / games if games else float("nan")
                row["win_rate_with_black_path"] = used_wins / used if used else float("nan")
                row["win_rate_without_black_path"] = ((wins - used_wins) / (games - used)
                                                      if games > used else float("nan"))
            row["abandoned"] = games - finished
            rows.append(row)
        return rows


def tournament_matrix(result: Any, names: tuple[str, ...]) -> list[dict[str, Any]]:
    """Rows S x X: win rate of S against three X, pooled over the four seats S sat on, with interval.

    The tournament runs lineups with S on seat 0, 1, 2, 3 in that order; S == X is one run of four
    equal players whose seats are pooled, so the diagonal is exactly 0.25 (one winner per game).
    """
    acc: dict[tuple[str, str], list[int]] = {}
    for exp, tally, games in zip(result.experiments, result.tallies, result.games, strict=True):
        lineup = exp.strategies
        odd = [i for i, x in enumerate(lineup) if lineup.count(x) == 1]
        seats = odd[:1] if odd else range(4)
        for seat in seats:
            w = acc.setdefault((lineup[seat], lineup[(seat + 1) % 4]), [0, 0])
            w[0] += int(tally["wins"][seat]) if tally else 0
            w[1] += games
    rows = []
    for s in names:
        for x in names:
            wins, n = acc.get((s, x), [0, 0])
            lo, hi = wilson_interval(wins, n)
            rows.append({"strategy": s, "against": x, "games": n, "wins": wins,
                         "win_rate": wins / n if n else float("nan"), "ci_low": lo, "ci_high": hi})
    return rows
