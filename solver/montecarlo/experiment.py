"""What a game provides to the runner: one configuration that simulates blocks of games."""

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

#: Counts and sums from a block of games.  Values are ints, floats or numpy arrays; tallies of
#: blocks merge by adding values key by key (see :func:`merge_tallies`).
Tally = dict[str, Any]


class Experiment(ABC):
    """One configuration of one game (variant, players, strategies, parameters).

    Subclasses must be picklable (plain dataclasses are) because blocks run in other processes
    or on a Dask cluster.  ``simulate`` must depend only on ``seed`` and ``n_games``.
    """

    #: short game name used in the ``game`` column
    game: str = ""

    @abstractmethod
    def simulate(self, seed: int, n_games: int) -> Tally:
        """Play ``n_games`` games from the 64-bit block seed ``seed`` and return their tally."""

    @abstractmethod
    def rows(self, tally: Tally, games: int) -> list[dict[str, Any]]:
        """Result rows for the merged tally of ``games`` games.

        Each row starts with the runner's common columns (game, variant, players, seat, strategy,
        games, wins, win_rate, ci_low, ci_high), then the game's own columns; the runner appends
        ``complete``, ``seed`` and ``solver_version``.
        """

    def histograms(self, tally: Tally) -> dict[str, np.ndarray]:
        """Optional named histograms (value -> count) for ``--histogram`` outputs."""
        return {}


def merge_tallies(a: Tally | None, b: Tally) -> Tally:
    """Add tally ``b`` into a copy of ``a`` key by key (arrays elementwise).

    >>> merge_tallies({"wins": 2, "h": np.array([1, 0])}, {"wins": 3, "h": np.array([0, 4])})
    {'wins': 5, 'h': array([1, 4])}
    """
    if a is None:
        return {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in b.items()}
    out = dict(a)
    for key, value in b.items():
        if key not in out:
            out[key] = value.copy() if isinstance(value, np.ndarray) else value
        elif isinstance(value, np.ndarray):
            left = out[key]
            if left.shape != value.shape:  # histograms may grow: pad the shorter one
                size = max(left.shape[0], value.shape[0])
                left = np.pad(left, (0, size - left.shape[0]))
                value = np.pad(value, (0, size - value.shape[0]))
            out[key] = left + value
        else:
            out[key] = out[key] + value
    return out
