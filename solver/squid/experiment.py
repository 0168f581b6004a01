"""Monte Carlo experiment: whole Squid Game games with one policy per seat.

The C engine (``solver._ext.squid.simulate_block``) plays a block of games and returns counts
and sums; :class:`SquidExperiment` turns merged tallies into the per-seat result rows and the
per-sub-game table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver.errors import SolverError
from solver.montecarlo.experiment import Experiment, Tally
from solver.montecarlo.seats import one_per_seat
from solver.montecarlo.stats import mean_columns, proportion_columns
from solver.squid.params import SUBGAMES

POLICIES = ("random", "careful", "bold", "equilibrium")
HOW = ("head", "last_survivor", "round_cap")
#: the seat label of a seat whose decisions come from outside the engine (solver.squid.decisions)
HUMAN = "human"


def parse_strategies(text: str, players: int, human: bool = False) -> tuple[str, ...]:
    """'random' (all seats) or one name per seat, comma-separated (``human`` too if allowed).

    >>> parse_strategies("equilibrium,random,careful", 3)
    ('equilibrium', 'random', 'careful')
    >>> parse_strategies("bold", 4)
    ('bold', 'bold', 'bold', 'bold')
    """
    names = (*POLICIES, HUMAN) if human else POLICIES

    def check(name: str) -> None:
        if name not in names:
            raise SolverError(f"unknown strategy {name!r}: choose from {', '.join(names)}")

    return one_per_seat(text, players, check)


@dataclass
class SquidExperiment(Experiment):
    """One configuration: player count, per-seat policies, engine parameters."""

    players: int
    strategies: tuple[str, ...]
    engine: dict[str, Any] = field(repr=False)
    variant: str = "default"
    game = "squid"

    def __post_init__(self) -> None:
        if not 3 <= self.players <= 6:
            raise SolverError(f"players must be between 3 and 6, got {self.players}")
        if len(self.strategies) != self.players:
            raise SolverError("one strategy per seat is needed")

    @property
    def policy_ids(self) -> list[int]:
        return [POLICIES.index(s) for s in self.strategies]

    def simulate(self, seed: int, n_games: int) -> Tally:
        from solver._ext.squid import simulate_block

        return simulate_block(self.engine, self.policy_ids, seed, n_games)

    def _ident(self, games: int) -> dict[str, Any]:
        return {"game": self.game, "variant": self.variant, "players": self.players}

    def rows(self, tally: Tally, games: int) -> list[dict[str, Any]]:
        """One row per seat: win rate with Wilson interval, tokens surviving each sub-game,
        and the game-level columns (rounds, how the game was decided) repeated on each row."""
        rows = []
        common: dict[str, Any] = {}
        if games and tally:
            tr = tally["total_rounds"]
            common.update(mean_columns("rounds", float(tr[0]), float(tr[1]), games))
            for k, name in enumerate(HOW):
                common[f"share_{name}"] = float(tally["how"][k]) / games
        for seat in range(self.players):
            wins = int(tally["wins"][seat]) if tally else 0
            row: dict[str, Any] = {**self._ident(games), "seat": seat, "strategy": self.strategies[seat],
                                   "games": games, "wins": wins}
            row.update(proportion_columns("win_", wins, games))
            row["win_rate"] = row.pop("win_rate")
            row["ci_low"] = row.pop("win_ci_low")
            row["ci_high"] = row.pop("win_ci_high")
            if games and tally:
                row["mean_tokens_final"] = float(tally["enter"][5][seat]) / games
                for k, name in enumerate(SUBGAMES):
                    row[f"mean_surv_{name}"] = float(tally["surv"][k][seat]) / games
            row.update(common)
            rows.append(row)
        return rows

    def subgame_rows(self, tally: Tally, games: int) -> list[dict[str, Any]]:
        """The per-sub-game table: per seat and for all seats together, the mean tokens entering
        and surviving, the survival rate and the mean rounds the sub-game lasted."""
        rows: list[dict[str, Any]] = []
        if not tally or not games:
            return rows
        for k, name in enumerate(SUBGAMES):
            rounds = mean_columns("rounds", float(tally["rounds"][k]), float(tally["rounds_sq"][k]), games)
            for seat in [*range(self.players), "all"]:
                if seat == "all":
                    enter = float(tally["enter"][k].sum())
                    surv = float(tally["surv"][k].sum())
                    strategy = ",".join(self.strategies)
                    surv_cols = {"mean_surviving": surv / games}
                else:
                    enter = float(tally["enter"][k][seat])
                    surv = float(tally["surv"][k][seat])
                    strategy = self.strategies[seat]
                    surv_cols = mean_columns("surviving", surv, float(tally["surv_sq"][k][seat]), games)
                rows.append({
                    **self._ident(games), "subgame": name, "order": k + 1, "seat": seat,
                    "strategy": strategy, "games": games, "mean_entering": enter / games,
                    **surv_cols, "mean_eliminated": (enter - surv) / games,
                    "survival_rate": surv / enter if enter else float("nan"), **rounds,
                })
        return rows
