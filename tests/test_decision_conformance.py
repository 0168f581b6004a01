"""One conformance test for every game's decision API (as OpenSpiel runs one random-simulation test
over all its games): random play through the API from the start to the end, for each game that has
players.

Each game gets a small adapter (how to start it, resolve a chance event, list and apply the legal
actions, ask a strategy, and build one action that must be refused); the checks are shared:

* a decision point always lists at least one action, and the game ends within a bound;
* every strategy's choice is one of the listed actions, and the same seed gives the same choice;
* an illegal action is refused with a SolverError and leaves the game as it was;
* once the game is over there is nothing to do: no actions, no choice, and applying is refused;
* the game ends within a bound (napij-se, like ``simulate``, abandons a game after 20,000 turns).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from solver.blokus import players as blokus_players
from solver.blokus.game import Game
from solver.blokus3d import selfplay as blokus3d_selfplay
from solver.blokus3d.game import Game3D
from solver.clovece.classic import ClassicGame
from solver.clovece.classic import choose_move as classic_choose
from solver.clovece.napij import NapijGame, NapijMove, NapijTarget
from solver.clovece.napij import choose_move as napij_choose
from solver.errors import SolverError
from solver.squid.decisions import SquidGame
from solver.squid.decisions import choose_move as squid_choose


@dataclass
class Adapter:
    """How the shared test drives one game through its decision API."""

    new: Callable[[int], Any]                          # seed -> a game at its start
    chance: Callable[[Any, random.Random], bool]       # resolve one chance event if one is due
    actions: Callable[[Any], list]                     # the legal actions at a decision point
    apply: Callable[[Any, Any], None]
    over: Callable[[Any], bool]
    choose: Callable[[Any, str, int], Any]             # (game, strategy, seed) -> action or None
    strategies: tuple[str, ...]
    illegal: Callable[[Any], Any]                      # an action the rules refuse now
    fingerprint: Callable[[Any], Any]                  # what must not change when an action is refused
    max_steps: int


class _Blokus:
    """Blokus and Blokus 3D: no chance; an illegal action is a placement made earlier, played again."""

    @staticmethod
    def adapter(new, choose, strategies, fingerprint) -> Adapter:
        def illegal(g):
            return g.moves[-1] if g.moves else None
        return Adapter(new, lambda g, rng: False, lambda g: g.legal_moves(), lambda g, m: g.play(m),
                       lambda g: g.is_over, choose, strategies, illegal, fingerprint, 400)


class _Classic:
    """Classic Člověče: the die is the chance event; an action is a pawn (None: no pawn can move)."""

    def __init__(self) -> None:
        self.die: dict[int, int] = {}

    def chance(self, g, rng) -> bool:
        if id(g) in self.die:
            return False
        self.die[id(g)] = rng.randint(1, 6)
        return True

    def actions(self, g) -> list:
        if g.is_over:
            return []
        return g.legal_moves(self.die[id(g)]) or [None]

    def apply(self, g, pawn) -> None:
        if g.is_over:
            raise SolverError("the game is over")
        g.play(self.die[id(g)], pawn)
        del self.die[id(g)]

    def choose(self, g, strategy, seed):
        if g.is_over:
            return None
        return classic_choose(g, self.die[id(g)], strategy, seed)

    def illegal(self, g):
        if g.is_over:
            return 0
        legal = g.legal_moves(self.die[id(g)])
        return next((k for k in range(4) if k not in legal), None) if legal else 0

    def adapter(self) -> Adapter:
        return Adapter(lambda seed: ClassicGame(4, first=seed % 4), self.chance, self.actions, self.apply,
                       lambda g: g.is_over, self.choose, ("random", "runner", "hunter", "cautious", "shortcut", "best"),
                       self.illegal, lambda g: (g.pawns(), g.to_play, g.tries, len(g.history)), 40000)


def _napij_chance(g, rng) -> bool:
    if g.phase in ("bottle", "roll"):
        g.roll(rng.randint(1, 6))
        return True
    return False


def _napij_actions(g) -> list:
    return [True, False] if g.phase == "announce" else g.legal_moves()


def _napij_apply(g, a) -> None:
    if isinstance(a, bool):
        g.announce(a)
    else:
        g.play(a)


def _napij_illegal(g):
    if g.phase == "move":
        return NapijMove(0, 99)
    if g.phase == "target":                         # a card never takes the drawer's own pawn
        return NapijTarget(g.legal_moves()[0].kind, g.to_play, 0, g.pawns()[g.to_play][0])
    return None


ADAPTERS = {
    "blokus-duo": _Blokus.adapter(lambda seed: Game("duo"),
                                  lambda g, s, seed: blokus_players.choose_move(g, s, seed),
                                  ("random", "greedy", "mc:4:2", "mcts:30"), lambda g: tuple(g.moves)),
    "blokus-classic": _Blokus.adapter(lambda seed: Game("classic"),
                                      lambda g, s, seed: blokus_players.choose_move(g, s, seed),
                                      ("random", "greedy"), lambda g: tuple(g.moves)),
    "blokus-trigon": _Blokus.adapter(lambda seed: Game("trigon-2"),
                                     lambda g, s, seed: blokus_players.choose_move(g, s, seed),
                                     ("random", "greedy"), lambda g: tuple(g.moves)),
    "blokus3d": _Blokus.adapter(lambda seed: Game3D("pyramid", 4),
                                lambda g, s, seed: blokus3d_selfplay.choose_move(g, s, seed),
                                ("random", "greedy", "mc"), lambda g: tuple(g.moves)),
    "clovece-classic": _Classic().adapter(),
    "clovece-napij-se": Adapter(lambda seed: NapijGame(4, seed, "best,random,hunter,cautious"), _napij_chance,
                                _napij_actions, _napij_apply, lambda g: g.is_over,
                                lambda g, s, seed: napij_choose(g, s, seed),
                                ("random", "runner", "hunter", "cautious", "shortcut", "best"),
                                _napij_illegal,
                                lambda g: (g.phase, g.to_play, g.dice, g.state()), 200000),
    "squid": Adapter(lambda seed: SquidGame(3 + seed % 4, seed), lambda g, rng: False, lambda g: g.legal_moves(),
                     lambda g, a: g.play(a), lambda g: g.is_over, lambda g, s, seed: squid_choose(g, s, seed),
                     ("random", "careful", "bold", "equilibrium"), lambda g: 999,
                     lambda g: (g.history, g.decision, g.log().jsonl()), 5000),
}


@pytest.mark.parametrize("name", list(ADAPTERS))
@pytest.mark.parametrize("seed", [1, 2])
def test_random_play_through_the_decision_api(name: str, seed: int) -> None:
    a = ADAPTERS[name]
    rng = random.Random(seed)
    game = a.new(seed)
    decisions = 0
    for _ in range(a.max_steps):
        if a.over(game):
            break
        if a.chance(game, rng):
            continue
        actions = a.actions(game)
        assert actions, f"{name}: a decision point without actions"
        if decisions % 7 == 0:                      # every strategy, now and then (the search ones cost)
            for s in a.strategies:
                chosen = a.choose(game, s, seed)
                assert chosen in actions, f"{name}: {s} chose {chosen!r}, not a legal action"
                assert a.choose(game, s, seed) == chosen, f"{name}: {s} is not reproducible for one seed"
            bad = a.illegal(game)
            if bad is not None:
                before = a.fingerprint(game)
                with pytest.raises(SolverError):
                    a.apply(game, bad)
                assert a.fingerprint(game) == before, f"{name}: a refused action changed the game"
        a.apply(game, rng.choice(actions))
        decisions += 1
    assert a.over(game), f"{name}: not over after {a.max_steps} steps"
    assert a.actions(game) == [] and all(a.choose(game, s, seed) is None for s in a.strategies)
    last = a.illegal(game)
    with pytest.raises(SolverError):
        a.apply(game, last if last is not None else True)
