"""Per-seat helpers of competitive games: strategy lists as ``--strategy`` takes them, win shares and columns."""

from collections.abc import Callable
from typing import Any

import numpy as np

from solver.errors import SolverError
from solver.montecarlo.stats import wilson_interval


def one_per_seat(text: str, players: int, check: Callable[[str], object]) -> tuple[str, ...]:
    """``"name"`` for every seat, or ``"a,b,c"`` with one name per seat (lower-cased, stripped).

    ``check(name)`` raises :class:`SolverError` for a name the game does not know.

    >>> one_per_seat("Random", 3, str)
    ('random', 'random', 'random')
    >>> one_per_seat("greedy, random", 2, str)
    ('greedy', 'random')
    >>> one_per_seat("a,b,c", 2, str)
    Traceback (most recent call last):
    ...
    solver.errors.SolverError: --strategy lists 3 strategies for 2 players (give one for all seats or one per seat)
    """
    names = tuple(n.strip().lower() for n in text.split(",") if n.strip())
    if not names:
        raise SolverError("no strategy given")
    for name in names:
        check(name)
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise SolverError(f"--strategy lists {len(names)} strategies for {players} players "
                          "(give one for all seats or one per seat)")
    return names


def win_shares(scores: np.ndarray) -> dict[str, np.ndarray]:
    """Per column of a games x sides score array: ``wins`` (a win shared by k sides counts 1/k),
    ``outright`` and ``shared`` win counts.

    >>> w = win_shares(np.array([[3, 1], [2, 2]]))
    >>> w["wins"].tolist(), w["outright"].tolist(), w["shared"].tolist()
    ([1.5, 0.5], [1, 0], [1, 1])
    """
    best = scores.max(axis=1, keepdims=True)
    winner = scores == best
    n_win = winner.sum(axis=1)[:, None]
    return {"wins": (winner / n_win).sum(axis=0),
            "outright": (winner & (n_win == 1)).sum(axis=0).astype(np.int64),
            "shared": (winner & (n_win > 1)).sum(axis=0).astype(np.int64)}


def win_columns(wins: float, outright: float, shared: float, games: int) -> dict[str, Any]:
    """The per-seat columns ``wins, win_rate, ci_low, ci_high`` (95 % Wilson) and the outright /
    shared win counts and rates, in the order every competitive game's table uses."""
    def rate(x: float) -> float:
        return x / games if games else float("nan")

    lo, hi = wilson_interval(wins, games)
    return {"wins": wins, "win_rate": rate(wins), "ci_low": lo, "ci_high": hi,
            "outright_wins": int(outright), "outright_win_rate": rate(outright),
            "shared_wins": int(shared), "shared_win_rate": rate(shared)}
