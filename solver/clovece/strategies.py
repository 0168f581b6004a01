"""Strategy names, per-seat strategy lists and where 2, 3 or 4 players sit.

The strategies themselves are C code in ``ext/clovece.pyx``; they are picked by index.

* ``random``: a uniformly random legal move (napij-se: half of the multi-dice turns try one random
  pawn by the sum; announces the Bottle on 1 turn in 10).
* ``runner``: moves the front-most pawn that can move.
* ``hunter``: captures first (and announces the Bottle when an opponent pawn stands 1..6 fields
  ahead of it and none of its own), otherwise like runner.
* ``cautious``: avoids fields 1..6 in front of opponent pawns (and the Bottle) and the Black path.
* ``shortcut``: takes every shortcut it may take, otherwise like runner.
* ``best``: ours, a weighted score (progress, captures, home entry, danger, escaping, entering,
  the Bottle against advanced opponent pawns).
"""

from __future__ import annotations

from solver.errors import SolverError
from solver.montecarlo.seats import one_per_seat

#: strategy names in engine order (tests/test_clovece_tables.py checks them against the C enum)
STRATEGIES = ("random", "runner", "hunter", "cautious", "shortcut", "best")
#: the seat label of a person asked at each decision (``clovece play``; not a strategy of the engine)
HUMAN = "human"
VARIANTS = ("classic", "napij-se")
#: rule options, the rulebook's reading first: drinks per reason or per event (napij-se), after a 6
#: that leaves nothing to move one roll or three tries (classic), who starts (seat 0 or drawn)
DRINK_RULES = ("per-reason", "per-event")
AFTER_SIX = ("one-roll", "three-tries")
FIRST = ("seat0", "random")
#: board seats used by 2, 3 and 4 players (player 1 starts, then clockwise)
SEATS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}


def parse_strategy_list(text: str, players: int, human: bool = False) -> tuple[str, ...]:
    """One strategy per seat from ``'runner'`` (all seats) or ``'runner,random'`` (one per seat);
    with ``human``, a seat may also be :data:`HUMAN`.

    >>> parse_strategy_list("runner", 3)
    ('runner', 'runner', 'runner')
    >>> parse_strategy_list("best, human", 2, human=True)
    ('best', 'human')
    """
    names = (*STRATEGIES, HUMAN) if human else STRATEGIES

    def check(name: str) -> None:
        if name not in names:
            raise SolverError(f"unknown strategy {name!r} (known: {', '.join(names)})")

    return one_per_seat(text, players, check)


def strategy_ids(names: tuple[str, ...]) -> list[int]:
    """Engine indices of strategy names."""
    return [STRATEGIES.index(n) for n in names]
