"""Per-seat strategy lists, as every competitive game's ``--strategy`` option takes them."""

from collections.abc import Callable

from solver.errors import SolverError


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
