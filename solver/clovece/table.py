"""One game of either variant at the table: every seat a strategy of the engine or a person.

The game runs through the decision APIs (:mod:`solver.clovece.classic`,
:mod:`solver.clovece.napij`), so a person plays by exactly the rules the Monte Carlo runner
plays by.  The dice come from a generator seeded with ``seed``; a strategy's seat decides
through ``choose_move``, its random numbers from :func:`~solver.montecarlo.seeding.decision_seed`
(the seed and the decision's number); a :data:`~solver.clovece.strategies.HUMAN` seat is asked
through a callback -- the terminal in ``clovece play``, a GUI elsewhere.  With the same seed and
the same human answers a game is the same.  (Without a human seat ``clovece play`` lets the engine
play the game instead, as the first game of ``simulate`` with that seed.)

>>> game = play_napij_seats(2, ("best", "hunter"), seed=5)
>>> game.is_over, game.winner is not None
(True, True)
>>> log = play_classic_seats(2, ("runner", "random"), seed=5)
>>> log.lines[-1]["result"]
'win'
"""

from __future__ import annotations

import random
from collections.abc import Callable

from solver.clovece.classic import ClassicGame
from solver.clovece.classic import choose_move as classic_choose
from solver.clovece.napij import NapijGame, NapijMove, NapijTarget
from solver.clovece.napij import choose_move as napij_choose
from solver.clovece.play import GameLog, classic_log
from solver.clovece.strategies import AFTER_SIX, FIRST, HUMAN, parse_strategy_list
from solver.errors import SolverError
from solver.montecarlo.seeding import decision_seed

#: asked at a human seat's napij-se decision (phase ``announce``, ``move`` or ``target``)
NapijAsk = Callable[[NapijGame], "bool | NapijMove | NapijTarget"]
#: asked at a human seat's classic roll with two or more pawns to move: (game, die, pawns) -> pawn
ClassicAsk = Callable[[ClassicGame, int, list[int]], int]


def _no_human(*_args) -> None:
    raise SolverError("a human seat needs someone to ask")


def play_napij_seats(players: int, seats: tuple[str, ...], seed: int, drinks: str = "per-reason",
                     first: str = "seat0", board_text: str | None = None, deck_text: str | None = None,
                     ask: NapijAsk | None = None) -> NapijGame:
    """A napij-se game to its end (won, or abandoned after 20,000 turns as ``simulate`` does):
    ``seats`` a strategy or ``human`` per player, ``ask(game)`` a human seat's decision."""
    seats = parse_strategy_list(",".join(seats), players, human=True)
    game = NapijGame(players, seed, ",".join(seats), drinks, first, board_text, deck_text)
    dice = random.Random(seed)
    step = 0
    while not game.is_over:
        if game.phase in ("bottle", "roll"):
            game.roll(dice.randint(1, 6))
            continue
        step += 1
        seat = seats[game.to_play]
        choice = (ask or _no_human)(game) if seat == HUMAN else napij_choose(game, seat, decision_seed(seed, step))
        if game.phase == "announce":
            game.announce(bool(choice))
        else:
            game.play(choice)
    return game


def play_classic_seats(players: int, seats: tuple[str, ...], seed: int, after_six: str = "one-roll",
                       first: str = "seat0", ask: ClassicAsk | None = None) -> GameLog:
    """A classic game to its end, as its log: ``seats`` a strategy or ``human`` per player,
    ``ask(game, die, pawns)`` a human seat's pawn when two or more may move (one that may is moved,
    a roll with none passes).  With ``first`` = ``random`` the first player is drawn from the seed."""
    seats = parse_strategy_list(",".join(seats), players, human=True)
    if after_six not in AFTER_SIX or first not in FIRST:
        raise SolverError(f"after_six is one of {', '.join(AFTER_SIX)}; first one of {', '.join(FIRST)}")
    dice = random.Random(seed)
    game = ClassicGame(players, after_six == "three-tries", dice.randrange(players) if first == "random" else 0)
    while not game.is_over and len(game.history) < 200_000:
        die = game.roll(dice)
        pawns = game.legal_moves(die)
        seat = seats[game.to_play]
        if len(pawns) < 2:
            pawn = pawns[0] if pawns else None
        elif seat == HUMAN:
            pawn = (ask or _no_human)(game, die, pawns)
        else:
            pawn = classic_choose(game, die, seat, decision_seed(seed, len(game.history)))
        game.play(die, pawn)
    return classic_game_log(game, seats, seed, after_six, first, ended=True)


def classic_game_log(game: ClassicGame, seats: tuple[str, ...], seed: int, after_six: str = "one-roll",
                     first: str = "seat0", ended: bool = False) -> GameLog:
    """The log of a classic game played through the decision API so far: with its result line
    once it is won, or abandoned if it ``ended`` without a winner."""
    rolls = [(m.player, m.die, -1 if m.pawn is None else m.pawn, m.start, m.to,
              -1 if m.captured is None else m.captured[0] * 4 + m.captured[1]) for m in game.history]
    return classic_log(game.players, seats, seed, {"after_six": after_six, "first": first}, rolls,
                       -1 if game.winner is None else game.winner, ended)
