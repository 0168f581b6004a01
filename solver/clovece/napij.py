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
4. ``target``: a move that draws a capture or swap card with two or more pawns to choose from
   waits for the drawing player's choice (:class:`NapijTarget`, through the same ``legal_moves``
   and ``play``), one card after the other; only then is the move made, with all its consequences.

Everything that follows from a move (captures, cards, the Bottle, drinks) is the engine's, through
the same C functions as ``clovece simulate`` (``NapijState`` in ``ext/clovece.pyx``), and
:func:`choose_move` asks a strategy for its decision through the same C functions as the batch
loop (a card target as the seat strategy would pick it there).  The deck is shuffled from the
seed, as in one game of ``simulate`` with that seed.  A game still without a
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
from dataclasses import dataclass, replace
from typing import Any

from solver._ext import clovece as engine
from solver.clovece.board import load_board
from solver.clovece.deck import CARD_KINDS
from solver.clovece.experiment import compiled
from solver.clovece.play import GameLog, add_napij_events, log_header, napij_result
from solver.clovece.strategies import DRINK_RULES, FIRST, HUMAN, SEATS, STRATEGIES, parse_strategy_list
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


@dataclass
class _Pending:
    """A move waiting for its card targets: the targets chosen so far, who draws the next card,
    the pawns that card may take, and the game's state when it is drawn."""

    move: NapijMove
    chosen: list[NapijTarget]
    who: int
    options: list[NapijTarget]
    at: dict[str, Any]


@dataclass(frozen=True)
class NapijTarget:
    """A capture or swap card's target: pawn ``pawn`` of player ``player``, on field ``field``."""

    kind: str
    player: int
    pawn: int
    field: str | None = None

    def text(self) -> str:
        """``capture pawn 2 of player 1 on L17``"""
        return f"{self.kind} pawn {self.pawn} of player {self.player} on {self.field}"


class NapijGame:
    """A napij-se game (2–4 players on the seats of :data:`SEATS`) driven a decision at a time.

    Every decision is the caller's.  ``strategies`` (one name, or one per seat; ``human`` too) are
    the seats' names in the log, and how a strategy's look-ahead (:func:`choose_move`) expects each
    seat to pick a card's target when it draws one out of turn (a ``human`` seat as ``best``).
    ``drinks`` and ``first`` are the rule options of ``clovece simulate``; ``board_text`` /
    ``deck_text`` other board and deck files.
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
        self.strategies = parse_strategy_list(strategies, players, human=True)
        self.rules = {"drinks": drinks, "first": first}
        self._ids = load_board(text=board_text).ids
        self._state = engine.NapijState(compiled(board_text, deck_text), players, list(SEATS[players]),
                                        [STRATEGIES.index(s if s != HUMAN else "best") for s in self.strategies], seed,
                                        drink_once=drinks == "per-event", first_random=first == "random")
        deck, _ = self._state.deck()
        self._head = log_header("napij-se", players, self.strategies, seed, self.rules,
                             json.loads(board_text) if board_text else None,
                             [[CARD_KINDS[k], n] for k, n in deck])
        self._lines: list[dict[str, Any]] = [{"turn": 0, "player": None, "events": []}]
        #: a move waiting for its card targets (phase ``target``)
        self._pending: _Pending | None = None
        self._drain()

    def copy(self) -> NapijGame:
        other = object.__new__(NapijGame)
        other.__dict__.update(self.__dict__)
        other._state = self._state.copy()
        if self._pending is not None:
            other._pending = replace(self._pending, chosen=list(self._pending.chosen))
        other._lines = json.loads(json.dumps(self._lines))
        return other

    # --- where the game stands ---------------------------------------------------------------------

    @property
    def phase(self) -> str:
        """``announce``, ``bottle`` (a die for the Bottle), ``roll``, ``move``, ``target`` (a card's
        target for a move) or ``over`` (won, or abandoned after 20,000 turns)."""
        return "target" if self._pending is not None else PHASES[self._state.phase]

    @property
    def to_play(self) -> int:
        """Who decides now: the player whose turn it is, or in phase ``target`` the one who drew the
        card (another player when an offered capture made him draw out of turn)."""
        if self._pending is not None:
            return self._pending.who
        return self._state.to_play

    @property
    def dice(self) -> list[int]:
        """This turn's dice so far, in the order rolled."""
        return self._state.dice if self.phase in ("roll", "move") else []

    @property
    def winner(self) -> int | None:
        w = self.state()["winner"]
        return None if w < 0 else w

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def pawns(self) -> list[list[str]]:
        """Every pawn's field id (``pub`` when waiting), one row per player."""
        return [[self._field(pw["pos"]) for pw in row] for row in self.state()["pawns"]]

    def state(self) -> dict[str, Any]:
        """Positions and counters: pawns (field index, held, immune, direction, inward, may turn
        off), the Bottle, drinks by cause, home counts, the winner.  In phase ``target``, as the
        game stands when the card is drawn (the move under way has been made up to there)."""
        if self._pending is not None:
            return json.loads(json.dumps(self._pending.at))
        return self._state.state()

    @property
    def bottle(self) -> str | None:
        b = self.state()["bottle"]
        return None if b < 0 else self._ids[b]

    def _field(self, f: int) -> str:
        return "pub" if f < 0 else self._ids[f]

    # --- decisions and dice ------------------------------------------------------------------------

    def announce(self, bottle: bool) -> None:
        """At the start of a turn (phase ``announce``): the roll moves the Bottle, or not."""
        self._not_pending()
        self._call(self._state.announce, bottle)

    def _not_pending(self) -> None:
        if self._pending is not None:
            raise SolverError("a card's target is due first (legal_moves() lists the pawns it may take)")

    def roll(self, die: int) -> None:
        """One die for the player to play (phases ``bottle`` and ``roll``)."""
        if not 1 <= die <= 6:
            raise SolverError(f"a die shows 1..6, not {die}")
        self._not_pending()
        if self.phase == "announce":
            raise SolverError("first announce whether the roll moves the Bottle (announce(True/False))")
        self._call(self._state.roll, die)

    def legal_moves(self) -> list[NapijMove] | list[NapijTarget]:
        """The moves allowed now (phase ``move``), or the pawns a card may take (phase ``target``);
        otherwise none."""
        if self._pending is not None:
            return list(self._pending.options)
        mine = self.pawns()[self.to_play]
        return [NapijMove(k, steps, bool(c), bool(pre6), bool(by_sum), mine[k], self._field(to))
                for k, steps, c, pre6, by_sum, to in self._state.moves()]

    def play(self, move: NapijMove | NapijTarget) -> None:
        """Make one of :meth:`legal_moves`: a move (matched on pawn, steps, turning off, entering,
        sum), or in phase ``target`` the card's target.  A move whose card needs a target is made
        once its targets are chosen; until then the game shows it as phase ``target``."""
        if self._pending is not None:
            if not isinstance(move, NapijTarget) or move not in self._pending.options:
                raise SolverError(f"not a target the card may take: {move!r}")
            self._make(self._pending.move, [*self._pending.chosen, move])
            return
        if not isinstance(move, NapijMove):
            raise SolverError(f"not a move: {move!r}")
        self._make(move, [])

    def _make(self, move: NapijMove, chosen: list[NapijTarget]) -> None:
        """Make ``move`` with the card targets ``chosen``, or wait for the next one it needs."""
        try:
            asked = self._state.move(*move.key(), targets=[t.player * 4 + t.pawn for t in chosen])
        except ValueError as e:
            raise SolverError(str(e)) from None
        finally:
            self._drain()
        if asked is None:
            self._pending = None
            return
        who, kind, options, at = asked
        fields = [[self._field(pw["pos"]) for pw in row] for row in at["pawns"]]
        self._pending = _Pending(move, chosen, who, [NapijTarget(CARD_KINDS[kind], o // 4, o % 4, fields[o // 4][o % 4])
                                                     for o in options], at)

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


def choose_move(game: NapijGame, strategy: str = "best", seed: int = 0) -> bool | NapijMove | NapijTarget | None:
    """``strategy``'s decision for the player to play: in phase ``announce`` whether the roll moves
    the Bottle, in phase ``move`` its next move, in phase ``target`` the pawn the card takes (as
    the batch loop's seat would pick it: the most advanced one a capture may take, the one a swap
    gains most by; a random seat draws one); None in the other phases.  Only the random strategy,
    and a random player's card target inside a look-ahead, use the seed.  A deterministic strategy
    plans the whole turn; asking again after each move gives the rest of its plan."""
    if strategy not in STRATEGIES:
        raise SolverError(f"unknown strategy {strategy!r} (known: {', '.join(STRATEGIES)})")
    if game._pending is not None:
        pending = game._pending
        o = game._state.choose_target(*pending.move.key(), [t.player * 4 + t.pawn for t in pending.chosen],
                                      STRATEGIES.index(strategy), seed & (2**64 - 1))
        return next(t for t in pending.options if (t.player, t.pawn) == (o // 4, o % 4))
    got = game._state.choose(STRATEGIES.index(strategy), seed & (2**64 - 1))
    if got is None or isinstance(got, bool):
        return got
    for move in game.legal_moves():
        if move.key() == (got[0], got[1], got[2], bool(got[3]), bool(got[4])):
            return move
    raise AssertionError(f"the strategy chose {got}, which is not among the legal moves")
