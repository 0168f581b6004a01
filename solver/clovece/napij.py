"""Člověče, napij se! one decision or die at a time: the decision API.

A turn has up to two decisions and the dice between them, as the rulebook has it:

1. ``announce``: with the Bottle on the board and a pawn of the player's in play, the player may
   say that the roll moves the Bottle (:meth:`NapijGame.announce`); then one die moves it and the
   turn is over.
2. ``roll``: the caller rolls (:meth:`NapijGame.roll`): a 6 rolls again, the first other number
   completes the dice; with nothing in play there are three tries.
3. ``move``: the dice are used, one pawn by the sum (while no die is used yet and there are
   several) or die by die in the order rolled (:meth:`NapijGame.legal_moves`,
   :meth:`NapijGame.play`); a die that can be used must be, and the turn ends when the next die
   cannot.

Everything that follows from a move (captures, cards, the Bottle, drinks) is the engine's, through
the same C functions as ``clovece simulate`` (``NapijState`` in ``ext/clovece.pyx``), and
:func:`choose_move` asks a strategy for its decision through the same C functions as the batch
loop.  A card's target (capture, swap) is picked by the drawing player's seat strategy.  The deck
is shuffled from the seed, as in one game of ``simulate`` with that seed.  A game still without a
winner after 20,000 turns is abandoned (phase ``over``, no winner), as ``simulate`` abandons it.

>>> game = NapijGame(players=2, seed=3)
>>> game.phase, game.to_play
('roll', 0)
>>> game.roll(6); game.roll(2)
>>> game.phase, game.dice
('move', [6, 2])
>>> [m.text() for m in game.legal_moves() if m.pawn == 0]
['pawn 0 pub -> L0 (a 6 to come in)', 'pawn 0 pub -> L2 (a 6 to come in, 2, all dice)']
>>> choose_move(game, "best").text()
'pawn 0 pub -> L2 (a 6 to come in, 2, all dice)'
>>> game.play(choose_move(game, "best"))
>>> game.phase, game.to_play, game.pawns()[0], game.bottle
('roll', 1, ['L2', 'pub', 'pub', 'pub'], 'L39')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from solver._ext import clovece as engine
from solver.clovece.board import load_board
from solver.clovece.deck import CARD_KINDS
from solver.clovece.experiment import compiled
from solver.clovece.play import GameLog, add_napij_events, log_header, napij_result
from solver.clovece.strategies import DRINK_RULES, FIRST, SEATS, STRATEGIES, parse_strategy_list
from solver.errors import SolverError

#: the engine's turn phases by number (see NapijState.phase)
PHASES = ("announce", "bottle", "roll", "move", "done", "over")


@dataclass(frozen=True)
class NapijMove:
    """One move: the pawn, its steps (after the 6 that brings it in or frees it, if ``enter``),
    whether it turns off at a crossroads, whether it uses all dice as one sum, and the fields it
    starts from and ends on (``pub`` when waiting)."""

    pawn: int
    steps: int
    turn_off: bool = False
    enter: bool = False
    by_sum: bool = False
    start: str | None = None
    to: str | None = None

    def text(self) -> str:
        """``pawn 0 pub -> L2 (a 6 to come in, then 2, all dice)``"""
        how = [f"{self.steps}"]
        if self.enter:
            how = [f"a 6 to {'come in' if self.start == 'pub' else 'get free'}"] + (how if self.steps else [])
        if self.by_sum:
            how.append("all dice")
        if self.turn_off:
            how.append("turning off")
        return f"pawn {self.pawn} {self.start} -> {self.to} ({', '.join(how)})"

    def key(self) -> tuple[int, int, int, bool, bool]:
        return self.pawn, self.steps, int(self.turn_off), self.enter, self.by_sum


class NapijGame:
    """A napij-se game (2–4 players on the seats of :data:`SEATS`) driven a decision at a time.

    ``strategies`` (one name, or one per seat) pick the targets of the capture and swap cards a
    player draws; every other decision is the caller's.  ``drinks`` and ``first`` are the rule
    options of ``clovece simulate``; ``board_text`` / ``deck_text`` other board and deck files.
    """

    def __init__(self, players: int = 4, seed: int = 1, strategies: str = "best", drinks: str = "per-reason",
                 first: str = "seat0", board_text: str | None = None, deck_text: str | None = None) -> None:
        if players not in SEATS:
            raise SolverError(f"napij-se has 2, 3 or 4 players, not {players}")
        if not 0 <= seed < 2**64:
            raise SolverError(f"the seed is 0..2**64-1, not {seed}")
        if drinks not in DRINK_RULES or first not in FIRST:
            raise SolverError(f"drinks is one of {', '.join(DRINK_RULES)}; first one of {', '.join(FIRST)}")
        self.players = players
        self.seed = seed
        self.strategies = parse_strategy_list(strategies, players)
        self.rules = {"drinks": drinks, "first": first}
        self._ids = load_board(text=board_text).ids
        self._state = engine.NapijState(compiled(board_text, deck_text), players, list(SEATS[players]),
                                        [STRATEGIES.index(s) for s in self.strategies], seed,
                                        drink_once=drinks == "per-event", first_random=first == "random")
        deck, _ = self._state.deck()
        self._head = log_header("napij-se", players, self.strategies, seed, self.rules,
                             json.loads(board_text) if board_text else None,
                             [[CARD_KINDS[k], n] for k, n in deck])
        self._lines: list[dict[str, Any]] = [{"turn": 0, "player": None, "events": []}]
        self._drain()

    def copy(self) -> NapijGame:
        other = object.__new__(NapijGame)
        other.__dict__.update(self.__dict__)
        other._state = self._state.copy()
        other._lines = json.loads(json.dumps(self._lines))
        return other

    # --- where the game stands ---------------------------------------------------------------------

    @property
    def phase(self) -> str:
        """``announce``, ``bottle`` (a die for the Bottle), ``roll``, ``move`` or ``over`` (won, or
        abandoned after 20,000 turns)."""
        return PHASES[self._state.phase]

    @property
    def to_play(self) -> int:
        return self._state.to_play

    @property
    def dice(self) -> list[int]:
        """This turn's dice so far, in the order rolled."""
        return self._state.dice if self.phase in ("roll", "move") else []

    @property
    def winner(self) -> int | None:
        w = self._state.state()["winner"]
        return None if w < 0 else w

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def pawns(self) -> list[list[str]]:
        """Every pawn's field id (``pub`` when waiting), one row per player."""
        return [[self._field(pw["pos"]) for pw in row] for row in self._state.state()["pawns"]]

    def state(self) -> dict[str, Any]:
        """Positions and counters: pawns (field index, held, immune, direction, inward, may turn
        off), the Bottle, drinks by cause, home counts, the winner."""
        return self._state.state()

    @property
    def bottle(self) -> str | None:
        b = self._state.state()["bottle"]
        return None if b < 0 else self._ids[b]

    def _field(self, f: int) -> str:
        return "pub" if f < 0 else self._ids[f]

    # --- decisions and dice ------------------------------------------------------------------------

    def announce(self, bottle: bool) -> None:
        """At the start of a turn (phase ``announce``): the roll moves the Bottle, or not."""
        self._call(self._state.announce, bottle)

    def roll(self, die: int) -> None:
        """One die for the player to play (phases ``bottle`` and ``roll``)."""
        if not 1 <= die <= 6:
            raise SolverError(f"a die shows 1..6, not {die}")
        if self.phase == "announce":
            raise SolverError("first announce whether the roll moves the Bottle (announce(True/False))")
        self._call(self._state.roll, die)

    def legal_moves(self) -> list[NapijMove]:
        """The moves allowed now (phase ``move``; otherwise none)."""
        mine = self.pawns()[self.to_play]
        return [NapijMove(k, steps, bool(c), bool(pre6), bool(by_sum), mine[k], self._field(to))
                for k, steps, c, pre6, by_sum, to in self._state.moves()]

    def play(self, move: NapijMove) -> None:
        """Make one of :meth:`legal_moves` (matched on pawn, steps, turning off, entering, sum)."""
        self._call(self._state.move, move.pawn, move.steps, int(move.turn_off), move.enter, move.by_sum)

    def _call(self, fn, *args) -> None:
        try:
            fn(*args)
        except ValueError as e:
            raise SolverError(str(e)) from None
        finally:
            self._drain()

    def _drain(self) -> None:
        add_napij_events(self._lines, self._state.events(), self._ids)

    # --- the record --------------------------------------------------------------------------------

    def log(self) -> GameLog:
        """The game so far as the JSON Lines log of ``clovece play`` (with its result line once the
        game is over), which ``clovece replay`` checks."""
        lines = [self._head, *json.loads(json.dumps(self._lines))]
        if self.is_over:
            st = self._state.state()
            lines.append(napij_result(st["winner"], st["turn"], st["causes"]))
        return GameLog(lines)


def choose_move(game: NapijGame, strategy: str = "best", seed: int = 0) -> bool | NapijMove | None:
    """``strategy``'s decision for the player to play: in phase ``announce`` whether the roll moves
    the Bottle, in phase ``move`` its next move; None in the other phases.  Only the random strategy,
    and a random player's card target inside a look-ahead, use the seed.  A deterministic strategy
    plans the whole turn; asking again after each move gives the rest of its plan."""
    if strategy not in STRATEGIES:
        raise SolverError(f"unknown strategy {strategy!r} (known: {', '.join(STRATEGIES)})")
    got = game._state.choose(STRATEGIES.index(strategy), seed & (2**64 - 1))
    if got is None or isinstance(got, bool):
        return got
    for move in game.legal_moves():
        if move.key() == (got[0], got[1], got[2], bool(got[3]), bool(got[4])):
            return move
    raise AssertionError(f"the strategy chose {got}, which is not among the legal moves")
