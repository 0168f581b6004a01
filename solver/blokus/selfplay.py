"""Monte Carlo self-play: one :class:`SelfPlay` experiment per configuration, run by the shared runner.

Strategies (all in C, chosen per player/seat):

* ``random``: uniform over the full list of legal moves;
* ``greedy``: the largest piece; ties broken by the most new corner-attach cells for itself, then
  by the most attach cells taken from the opponents' colours (the fewest left to them), then at
  random;
* ``mc`` / ``mc:C:P``: flat Monte Carlo: the C greedy-best moves (default 8) are each tried with P
  uniform-random playouts (default 16); the move with the best mean of (score margin over the
  best other side + 10 x win share) is played;
* ``mcts`` / ``mcts:PLAYOUTS[:key=value...]``: Monte Carlo tree search (solver.blokus.players).

Every decision goes through the same C function as the move-choice API (solver.blokus.players).

>>> exp = SelfPlay("duo", strategies=("greedy", "random"))
>>> rows = exp.rows(exp.simulate(12345, 20), 20)
>>> [r["seat"] for r in rows], rows[0]["games"]
([0, 1], 20)
>>> round(sum(r["wins"] for r in rows), 6)
20.0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from solver._ext import blokus as _ext
from solver.blokus.game import Game
from solver.blokus.players import engine_players, parse_strategy
from solver.blokus.variants import ROTATING, Variant, variant_by_name
from solver.montecarlo.experiment import Experiment, Tally
from solver.montecarlo.seats import one_per_seat
from solver.montecarlo.stats import mean_columns, wilson_interval


def strategies_for(variant: Variant, text: str) -> tuple[str, ...]:
    """One strategy per player from a comma list (a single name applies to every player)."""
    return one_per_seat(text, variant.n_players, parse_strategy)


@dataclass
class SelfPlay(Experiment):
    """Self-play of one variant with one strategy per player (seat 0 moves first)."""

    variant: str = "classic"
    first_move: str = "start-cell"
    strategies: tuple[str, ...] = ("random",)
    #: also tally which cells each colour covers at the end (for ``--heatmap``)
    coverage: bool = False
    touch: str = "standard"
    game = "blokus"

    def _variant(self) -> Variant:
        return variant_by_name(self.variant, self.first_move, self.touch)

    def _strategies(self) -> tuple[str, ...]:
        v = self._variant()
        return strategies_for(v, ",".join(self.strategies))

    def play_block(self, seed: int, n_games: int, n_record: int = 0) -> dict[str, np.ndarray]:
        """Per-game arrays of a block of games (see ``solver._ext.blokus.simulate_block``)."""
        v = self._variant()
        players = engine_players(v, [parse_strategy(s) for s in self._strategies()])
        start = Game(v).position
        return _ext.simulate_block(start, list(v.player_of), list(v.counted), list(v.sides), players,
                                   seed, n_games, n_record, self.coverage)

    def _coverage(self, cells: np.ndarray, winner: np.ndarray) -> Tally:
        """Cells covered per colour, over all games and over the games the colour's side won.

        ``cells`` is the engine's games x colours x rows bitboards, ``winner`` games x sides.
        """
        v = self._variant()
        bits = np.unpackbits(cells.astype("<u8").view(np.uint8).reshape(*cells.shape, 8), axis=-1,
                             bitorder="little")[..., : v.width]   # games x colours x y x x, 0/1
        won = np.zeros((cells.shape[0], v.n_colours), dtype=np.int64)
        for k in range(v.n_colours):
            if v.player_of[k] != ROTATING:
                won[:, k] = winner[:, v.sides[v.player_of[k]]]
        return {"covered": bits.sum(axis=0, dtype=np.int64), "won_covered": np.einsum("gk,gkyx->kyx", won, bits),
                "won_games": won.sum(axis=0)}

    def simulate(self, seed: int, n_games: int) -> Tally:
        v = self._variant()
        res = self.play_block(seed, n_games)
        scores = res["scores"].astype(np.int64)
        side = np.zeros((n_games, v.n_sides), dtype=np.int64)
        for k in range(v.n_colours):
            p = v.player_of[k]
            if p != ROTATING and v.counted[k]:
                side[:, v.sides[p]] += scores[:, k]
        best = side.max(axis=1, keepdims=True)
        winner = side == best
        n_win = winner.sum(axis=1)
        seat_side = np.array(v.sides)
        seat_win = winner[:, seat_side]                      # games x players
        seat_score = side[:, seat_side]
        share = seat_win / n_win[:, None]
        own = np.zeros((v.n_colours, v.n_players), dtype=np.int64)
        for k in range(v.n_colours):
            if v.player_of[k] != ROTATING:
                own[k, v.player_of[k]] = 1
        placed_all = res["all_placed"].astype(np.int64) @ own  # games x players
        length = res["length"].astype(np.int64)
        extra = self._coverage(res["cells"], winner) if self.coverage else {}
        return {
            **extra,
            "wins": share.sum(axis=0),
            "outright": (seat_win & (n_win[:, None] == 1)).sum(axis=0).astype(np.int64),
            "shared": (seat_win & (n_win[:, None] > 1)).sum(axis=0).astype(np.int64),
            "score": seat_score.sum(axis=0),
            "score_sq": (seat_score * seat_score).sum(axis=0),
            "placed_all": placed_all.sum(axis=0),
            "length": int(length.sum()),
            "length_sq": int((length * length).sum()),
            "listed": int(res["listed"].sum()),
            "decisions": int(res["decisions"].sum()),
        }

    def rows(self, tally: Tally, games: int) -> list[dict[str, Any]]:
        v = self._variant()
        strategies = self._strategies()
        own_colours = [sum(1 for q in v.player_of if q == p) for p in range(v.n_players)]
        names = v.player_names()
        out = []

        def seat_value(key: str, p: int) -> float:
            return float(tally[key][p]) if key in tally else 0.0

        for p in range(v.n_players):
            def seat(key: str, p: int = p) -> float:
                return seat_value(key, p)

            wins = seat("wins")
            row: dict[str, Any] = {
                "game": self.game, "variant": v.name, "players": v.n_players, "seat": p,
                "strategy": strategies[p], "games": games, "wins": wins,
            }
            lo, hi = wilson_interval(wins, games)
            row.update(win_rate=wins / games if games else float("nan"), ci_low=lo, ci_high=hi)
            row["outright_wins"] = int(seat("outright"))
            row["outright_win_rate"] = row["outright_wins"] / games if games else float("nan")
            row["shared_wins"] = int(seat("shared"))
            row["shared_win_rate"] = row["shared_wins"] / games if games else float("nan")
            row["first_move"] = v.first_move
            row["touch"] = v.touch
            row["colours"] = names[p]
            row["side"] = v.sides[p] + 1
            row.update(mean_columns("score", seat("score"), seat("score_sq"), games))
            row["share_all_placed"] = (seat("placed_all") / (games * own_colours[p])
                                       if games and own_colours[p] else float("nan"))
            row.update(mean_columns("game_length", float(tally.get("length", 0)),
                                    float(tally.get("length_sq", 0)), games))
            decisions = tally.get("decisions", 0)
            row["mean_legal_moves_per_ply"] = tally.get("listed", 0) / decisions if decisions else float("nan")
            out.append(row)
        return out

    def record(self, seed: int, n_games: int) -> list[Game]:
        """The first ``n_games`` games of the block seeded ``seed``, replayed as :class:`Game` objects
        (the same games the runner played: games of a block use one random stream in order)."""
        v = self._variant()
        res = self.play_block(seed, n_games, n_record=n_games)
        games = []
        for row in res["record"]:
            g = Game(v)
            for word in row:
                if word < 0:
                    break
                colour, code = divmod(int(word), 1 << _ext.RECORD_COLOUR_SHIFT)
                g.play(g.move_from_code(colour, code))
            games.append(g)
        return games
