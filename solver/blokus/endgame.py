"""Exact endgame values of two-sided Blokus games: who wins with best play, and by how much.

Near the end of a game few placements are left and the game can be searched to its end
(``EndgameSolver`` in ``ext/blokus_endgame.pxi``: alpha-beta on the final margin with a
transposition table).  ``solve_endgame`` asks it for the colour to play; ``mcts:endgame=S``
lets the tree search do the same before each move (see docs/blokus-strength.md, session 30: it
measured no stronger, so it is off by default).

>>> from solver.blokus.game import Game
>>> solve_endgame(Game("duo"), max_nodes=1000) is None   # the opening is far too large
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from solver._ext import blokus as _ext
from solver.blokus.game import Game, Move
from solver.errors import SolverError

#: a long solve runs in slices of this many seconds, so that Ctrl-C is heard between them; the
#: table keeps every finished part, so a slice goes on where the last one stopped
SLICE_SECONDS = 0.25


@dataclass(frozen=True)
class EndgameResult:
    """The value of a position with best play by both sides."""

    colour: int | None    # the colour to play (None: the game is over)
    move: Move | None     # a move of that colour reaching the value (None: game over)
    margin: int           # final points of the mover's side minus the other's (side 0's if over)
    nodes: int            # positions the search visited

    @property
    def result(self) -> str:
        """'win', 'draw' or 'loss' for the side to move (side 0 once the game is over)."""
        return "win" if self.margin > 0 else "draw" if self.margin == 0 else "loss"


def solve_endgame(game: Game, max_nodes: int = 0, seconds: float = 0.0) -> EndgameResult | None:
    """Search the position of ``game`` to its end (at most ``max_nodes`` positions and
    ``seconds``, if given); None if it gave up.  Two sides only (SolverError otherwise).
    Runs in slices of ``SLICE_SECONDS`` (Ctrl-C ends it between two)."""
    v = game.variant
    if v.n_sides != 2:
        raise SolverError(f"the exact endgame search is for two sides; {v.name} has {v.n_sides}")
    solver = _ext.EndgameSolver(list(v.player_of), list(v.counted), list(v.sides))
    started = time.monotonic()
    nodes = 0
    while True:
        spent = time.monotonic() - started
        budget = SLICE_SECONDS if seconds <= 0 else max(1e-3, min(SLICE_SECONDS, seconds - spent))
        found = solver.solve(game.position, max_nodes=max_nodes - nodes if max_nodes else 0,
                             max_seconds=budget)
        nodes += solver.nodes
        if found is not None:
            break
        if (max_nodes and nodes >= max_nodes) or (seconds and time.monotonic() - started >= seconds):
            return None
    if found["code"] < 0:
        return EndgameResult(None, None, found["value"], nodes)
    k = found["colour"]
    side = v.sides[game.player_of_colour(k)]
    margin = found["value"] if side == 0 else -found["value"]
    return EndgameResult(k, game.move_from_code(k, found["code"]), margin, nodes)
