"""Classic Člověče one roll at a time: the decision API.

A GUI, a match runner or a curious player asks here what the batch loop does inside C: which pawns
may move with a die, what a named strategy moves, and what happens when a pawn moves.  Every
answer comes from the engine's own functions (``ClassicTable`` in ``ext/clovece.pyx``), the same
ones ``clovece simulate`` runs, so a position played here plays out exactly as in the Monte Carlo
runner.

The die is the chance event: the caller rolls it (a person, or :meth:`ClassicGame.roll` from a
seeded generator) and passes it in.  Positions are codes per pawn: -1 waiting (off the board), 0..39
steps from the player's own start field, 40..43 the home fields.

>>> game = ClassicGame(players=2)
>>> game.to_play, game.legal_moves(5)
(0, [])
>>> game.play(5).pawn is None          # nothing can move: one of three tries used up
True
>>> game.legal_moves(6)
[0, 1, 2, 3]
>>> choose_move(game, 6, "runner")
0
>>> move = game.play(6, 0)
>>> move.to, game.field(0, 0), game.to_play   # a 6 rolls again
(0, 'L0', 0)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solver._ext import clovece as engine
from solver.clovece.play import classic_field
from solver.clovece.strategies import SEATS, STRATEGIES
from solver.errors import SolverError

WAITING = -1
HOME = 40   # first home code; 43 the last


@dataclass(frozen=True)
class ClassicMove:
    """One roll as played: who rolled what, which pawn moved (None: no pawn could) from where to
    where (position codes), and whom it sent back (player, pawn)."""

    player: int
    die: int
    pawn: int | None
    start: int | None = None
    to: int | None = None
    captured: tuple[int, int] | None = None


class ClassicGame:
    """A classic game (2–4 players on the seats of :data:`SEATS`) driven one roll at a time.

    ``three_after_six``: the house rule "three tries again when a 6 leaves nothing to move";
    ``first``: the player who rolls first.  Seats' strategies do not matter here: every decision is
    the caller's (see :func:`choose_move`).
    """

    def __init__(self, players: int = 4, three_after_six: bool = False, first: int = 0) -> None:
        if players not in SEATS:
            raise SolverError(f"classic Člověče has 2, 3 or 4 players, not {players}")
        if not 0 <= first < players:
            raise SolverError(f"the first player is 0..{players - 1}")
        self.players = players
        self.seats = SEATS[players]
        self.three_after_six = three_after_six
        self._table = engine.ClassicTable(players, list(self.seats), [0] * players, three_after_six, first)
        self.history: list[ClassicMove] = []

    @classmethod
    def from_position(cls, pawns: list[list[int]], to_play: int, tries: int = 0,
                      three_after_six: bool = False) -> ClassicGame:
        """A hand-built position (one row of four codes per player) with ``to_play`` to roll;
        ``tries`` 0 means a turn just begun (three tries if nothing can move, else one)."""
        game = cls(len(pawns), three_after_six)
        if not 0 <= to_play < len(pawns):
            raise SolverError(f"player {to_play} to play: the players are 0..{len(pawns) - 1}")
        try:
            game._table.set_position(pawns, to_play, tries)
        except ValueError as e:
            raise SolverError(f"bad position: {e}") from None
        return game

    def copy(self) -> ClassicGame:
        other = object.__new__(ClassicGame)
        other.__dict__.update(self.__dict__)
        other._table = self._table.copy()
        other.history = list(self.history)
        return other

    @property
    def to_play(self) -> int:
        """The player who rolls next."""
        return self._table.to_play

    @property
    def tries(self) -> int:
        """Rolls left in this turn unless a 6 comes (3 while nothing can move, else 1)."""
        return self._table.tries

    @property
    def winner(self) -> int | None:
        w = self._table.winner
        return None if w < 0 else w

    @property
    def is_over(self) -> bool:
        return self._table.winner >= 0

    def pawns(self) -> list[list[int]]:
        """Position codes, one row of four per player."""
        return self._table.positions()

    def field(self, player: int, pawn: int) -> str:
        """Where a pawn stands, named as in the game log: ``pub`` (waiting), ``L0``..``L39``
        (board loop), ``H<seat>.1``..``H<seat>.4`` (home)."""
        return classic_field(self.seats[player], self._table.positions()[player][pawn])

    def legal_moves(self, die: int) -> list[int]:
        """Pawns the player to play may move with ``die`` (empty: the roll passes)."""
        self._check_die(die)
        if self.is_over:
            return []
        return [k for k in range(4) if self._table.dest(k, die) != -2]

    def play(self, die: int, pawn: int | None = None) -> ClassicMove:
        """The player to play rolled ``die`` and moves ``pawn`` (None only when no pawn can move);
        then the turn goes on (a 6, or tries left) or passes to the next player."""
        self._check_die(die)
        if self.is_over:
            raise SolverError("the game is over")
        p = self.to_play
        k = -1 if pawn is None else pawn
        if pawn is not None and not 0 <= pawn < 4:
            raise SolverError(f"pawn {pawn}: pawns are 0..3")
        start, to = (self._table.positions()[p][k], self._table.dest(k, die)) if k >= 0 else (None, None)
        hit = self._table.occupant(k, die) if k >= 0 else -1
        try:
            self._table.roll_done(die, k)
        except ValueError as e:
            raise SolverError(f"illegal move: {e}") from None
        move = ClassicMove(p, die, pawn, start, to, divmod(hit, 4) if hit >= 0 else None)
        self.history.append(move)
        return move

    def roll(self, rng: random.Random) -> int:
        """A die for the player to play, from the caller's generator."""
        return rng.randint(1, 6)

    @staticmethod
    def _check_die(die: int) -> None:
        if not 1 <= die <= 6:
            raise SolverError(f"a die shows 1..6, not {die}")


def field_code(seat: int, name: str) -> int:
    """Position code of a field named as in the game log, for a pawn of the player on ``seat``.

    >>> field_code(1, "L12"), field_code(1, "pub"), field_code(1, "H1.2")
    (2, -1, 41)
    """
    text = name.strip()
    if text == "pub":
        return WAITING
    if text.startswith("L") and text[1:].isdigit() and int(text[1:]) < 40:
        return (int(text[1:]) - 10 * seat) % 40
    if text == f"H{seat}" or not text.startswith(f"H{seat}."):
        raise SolverError(f"field {name!r}: fields are pub, L0..L39 or H{seat}.1..H{seat}.4 (the player's "
                          f"own home)")
    n = text[len(f"H{seat}."):]
    if not (n.isdigit() and 1 <= int(n) <= 4):
        raise SolverError(f"field {name!r}: home fields are H{seat}.1..H{seat}.4")
    return HOME + int(n) - 1


def position_from_fields(rows: list[str]) -> list[list[int]]:
    """Codes from one text per player, ``"L3, pub, pub, H0.1"`` (the seats of that many players)."""
    if len(rows) not in SEATS:
        raise SolverError(f"give the pawns of 2, 3 or 4 players, not {len(rows)}")
    codes = []
    for p, row in enumerate(rows):
        names = row.replace(",", " ").split()
        if len(names) != 4:
            raise SolverError(f"player {p}: four pawns, not {len(names)} ({row!r})")
        codes.append([field_code(SEATS[len(rows)][p], n) for n in names])
    return codes


def describe_move(game: ClassicGame, die: int, pawn: int) -> str:
    """``pawn 2 L7 -> L11, captures P1 pawn 0`` for a legal move of the player to play."""
    p = game.to_play
    trial = game.copy()
    move = trial.play(die, pawn)
    text = f"pawn {pawn} {classic_field(game.seats[p], move.start)} -> {classic_field(game.seats[p], move.to)}"
    if move.captured:
        text += f", captures P{move.captured[0]} pawn {move.captured[1]}"
    return text


def choose_move(game: ClassicGame, die: int, strategy: str = "best", seed: int = 0) -> int | None:
    """The pawn ``strategy`` moves for the player to play with ``die`` (None: no pawn can move),
    through the same C function as ``clovece simulate``.  Only ``random`` uses the seed."""
    if strategy not in STRATEGIES:
        raise SolverError(f"unknown strategy {strategy!r} (known: {', '.join(STRATEGIES)})")
    game._check_die(die)
    if game.is_over:
        raise SolverError("the game is over")
    k = game._table.choose(die, STRATEGIES.index(strategy), seed & (2**64 - 1))
    return None if k < 0 else k
