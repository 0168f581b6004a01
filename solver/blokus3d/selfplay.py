"""Blokus 3D self-play through the shared Monte Carlo runner, and the one-move decision API.

Strategies (all in C, one per colour/seat):

* ``random``: uniform over every legal placement;
* ``greedy``: one ply: the most own top squares gained plus opponents' top squares covered
  (own top squares covered count against), then the larger piece, then at random;
* ``mc`` / ``mc:C:P``: flat Monte Carlo: the C greedy-best moves (default 8) each get P uniform
  random playouts (default 16); the best mean of (score margin over the best other colour
  + 10 x win share) is played.

>>> exp = SelfPlay3D("tower", 2, ("greedy", "random"))
>>> rows = exp.rows(exp.simulate(12345, 20), 20)
>>> [r["seat"] for r in rows], rows[0]["games"], round(sum(r["wins"] for r in rows), 6)
([0, 1], 20, 20.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from solver._ext import blokus3d as _ext
from solver.blokus.players import parse_strategy as blokus_strategy
from solver.blokus3d.game import COLOURS, Game3D, Move3D
from solver.blokus3d.pieces import PIECES
from solver.blokus3d.templates import Template, template_by_name
from solver.errors import SolverError
from solver.montecarlo.experiment import Experiment, Tally
from solver.montecarlo.seats import one_per_seat, win_columns, win_shares
from solver.montecarlo.stats import mean_columns

#: engine kind of each strategy, from the engine's own name table
STRATEGY_KINDS = {name: kind for kind, name in enumerate(_ext.STRATEGY_NAMES)}


def parse_strategy(text: str) -> tuple[int, int, int]:
    """``random``, ``greedy``, ``mc`` or ``mc:C:P`` (read as for Blokus) -> (engine kind, candidates,
    playouts).

    >>> parse_strategy("mc:4:32")
    (2, 4, 32)
    """
    spec = blokus_strategy(text)
    if spec.name not in STRATEGY_KINDS:
        raise SolverError(f"strategy {spec.name} is not available for Blokus 3D "
                          "(known: random, greedy, mc, mc:CANDIDATES:PLAYOUTS)")
    return STRATEGY_KINDS[spec.name], spec.candidates, spec.playouts


def strategies_for(players: int, text: str) -> tuple[str, ...]:
    """One strategy per seat from a comma list (one name applies to every seat)."""
    return one_per_seat(text, players, parse_strategy)


def _config(strategies) -> tuple[list[int], list[int], list[int]]:
    parsed = [parse_strategy(s) for s in strategies]
    return [p[0] for p in parsed], [p[1] for p in parsed], [p[2] for p in parsed]


def choose_move(game: Game3D, strategy: str = "greedy", seed: int = 0, budget: int | None = None) -> Move3D | None:
    """The move ``strategy`` plays for the colour to play in ``game`` (None if the game is over).

    The same C code as self-play decides.  ``budget`` (for ``mc``) is the number of random
    playouts per candidate move, overriding the strategy's own; ``seed`` makes the choice
    reproducible.

    >>> g = Game3D("tower", 2)
    >>> choose_move(g, "greedy", seed=1).piece
    'O4'
    """
    k = game.to_play
    if k is None:
        return None
    kind, cand, sims = parse_strategy(strategy)
    if budget is not None:
        if budget < 1:
            raise SolverError("the budget must be at least one playout per candidate")
        sims = budget
    n = game.n_colours
    code = _ext.choose_code(game.position, [kind] * n, [cand] * n, [sims] * n, seed & (2**64 - 1), game.players)
    return game.move_from_code(k, code)


@dataclass
class SelfPlay3D(Experiment):
    """Self-play on one template with one strategy per seat (seat 0 moves first); ``colours_each=2``
    is the Rumis two-player game with two colours each (seat p moves colours p and p + 2)."""

    template: str | Template = "pyramid"
    players: int = 4
    strategies: tuple[str, ...] = ("random",)
    colours_each: int = 1
    game = "blokus3d"

    def new_game(self) -> Game3D:
        return Game3D(self._template(), self.players, self.colours_each)

    def _template(self) -> Template:
        return self.template if isinstance(self.template, Template) else template_by_name(self.template)

    def _strategies(self) -> tuple[str, ...]:
        return strategies_for(self.players, ",".join(self.strategies))

    def play_block(self, seed: int, n_games: int, n_record: int = 0) -> dict[str, np.ndarray]:
        """Per-game arrays of a block of games (see ``solver._ext.blokus3d.simulate_block``)."""
        strategies = self._strategies()
        per_colour = [strategies[k % self.players] for k in range(self.players * self.colours_each)]
        return _ext.simulate_block(self.new_game().position, *_config(per_colour), seed, n_games, n_record,
                                   self.players)

    def simulate(self, seed: int, n_games: int) -> Tally:
        res = self.play_block(seed, n_games)
        n = len(res["length"])
        by_player = (n, self.colours_each, self.players)       # colour k = e * players + p
        colour_scores = res["scores"].astype(np.int64).reshape(by_player)
        scores = colour_scores.max(axis=1)                     # two colours each: the better counts
        colour_placed = res["placed"].astype(np.int64).reshape(by_player)
        placed = colour_placed.sum(axis=1)
        length = res["length"].astype(np.int64)
        return {
            **win_shares(scores),
            "score": scores.sum(axis=0),
            "score_sq": (scores * scores).sum(axis=0),
            "placed": placed.sum(axis=0),
            "placed_sq": (placed * placed).sum(axis=0),
            "placed_all": (colour_placed == len(PIECES)).sum(axis=(0, 1)).astype(np.int64),
            "length": int(length.sum()),
            "length_sq": int((length * length).sum()),
            "listed": int(res["listed"].sum()),
            "decisions": int(res["decisions"].sum()),
        }

    def rows(self, tally: Tally, games: int) -> list[dict[str, Any]]:
        t = self._template()
        strategies = self._strategies()
        out = []

        def rate(x: float) -> float:
            return x / games if games else float("nan")

        for p in range(self.players):
            def seat(key: str, p: int = p) -> float:
                return float(tally[key][p]) if key in tally else 0.0

            row: dict[str, Any] = {
                "game": self.game, "variant": t.name + ("-2x2" if self.colours_each == 2 else ""),
                "players": self.players, "seat": p, "strategy": strategies[p], "games": games,
                **win_columns(seat("wins"), seat("outright"), seat("shared"), games),
                "colours": "+".join(COLOURS[p::self.players][: self.colours_each]),
                "height": t.height(self.players * self.colours_each),
            }
            row.update(mean_columns("score", seat("score"), seat("score_sq"), games))
            row.update(mean_columns("pieces_placed", seat("placed"), seat("placed_sq"), games))
            row["share_all_placed"] = rate(seat("placed_all") / self.colours_each)
            row.update(mean_columns("game_length", float(tally.get("length", 0)),
                                    float(tally.get("length_sq", 0)), games))
            decisions = tally.get("decisions", 0)
            row["mean_legal_moves_per_ply"] = tally.get("listed", 0) / decisions if decisions else float("nan")
            out.append(row)
        return out

    def record(self, seed: int, n_games: int) -> list[Game3D]:
        """The first ``n_games`` games of the block seeded ``seed``, replayed as :class:`Game3D`
        objects (the games the runner played: a block's games share one random stream in order)."""
        res = self.play_block(seed, n_games, n_record=n_games)
        games = []
        for row in res["record"]:
            g = self.new_game()
            for word in row:
                if word < 0:
                    break
                g.play(g.move_from_code(int(word) >> 16, int(word) & 0xFFFF))
            games.append(g)
        return games
